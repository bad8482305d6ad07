"""SQLite's catalog on a server: the shadow schema, its server copy, PRAGMAs."""
