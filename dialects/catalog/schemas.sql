-- Schemas for the catalog differential tests (tests/catalog/test_catalog.py).
-- Each "-- schema: NAME" line starts a script run with executescript().

-- schema: single_column
CREATE TABLE t(a);
-- schema: typed_columns
CREATE TABLE t(a INTEGER, b TEXT, c REAL, d BLOB, e NUMERIC, f);
-- schema: rowid_alias
CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
-- schema: autoincrement
CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT NOT NULL);
-- schema: text_primary_key
CREATE TABLE t(id TEXT PRIMARY KEY, v INTEGER DEFAULT 0);
-- schema: composite_primary_key
CREATE TABLE t(a TEXT NOT NULL, b INTEGER NOT NULL, c REAL, PRIMARY KEY (a, b));
-- schema: six_column_key
CREATE TABLE usage(session_id TEXT NOT NULL, model TEXT NOT NULL DEFAULT '', billing_provider TEXT NOT NULL DEFAULT '', billing_base_url TEXT NOT NULL DEFAULT '', billing_mode TEXT NOT NULL DEFAULT '', task TEXT NOT NULL DEFAULT '', cost REAL NOT NULL DEFAULT 0, first_seen REAL, last_seen REAL, PRIMARY KEY (session_id, model, billing_provider, billing_base_url, billing_mode, task));
-- schema: defaults
CREATE TABLE t(a INTEGER DEFAULT 1, b TEXT DEFAULT 'x', c REAL DEFAULT 1.5, d TEXT DEFAULT NULL, e INTEGER DEFAULT -3, f TEXT DEFAULT CURRENT_TIMESTAMP);
-- schema: not_null
CREATE TABLE t(a INTEGER NOT NULL, b TEXT NOT NULL DEFAULT '', c);
-- schema: unique_column
CREATE TABLE t(a TEXT UNIQUE, b INTEGER);
-- schema: unique_table
CREATE TABLE t(a TEXT, b INTEGER, UNIQUE (a, b));
-- schema: check_unnamed
CREATE TABLE t(n INTEGER CHECK (n > 0), m INTEGER);
-- schema: check_named
CREATE TABLE t(n INTEGER, CONSTRAINT positive CHECK (n > 0));
-- schema: plain_index
CREATE TABLE t(a, b); CREATE INDEX t_a ON t(a);
-- schema: composite_index
CREATE TABLE t(a, b, c); CREATE INDEX t_ab ON t(a, b DESC);
-- schema: unique_index
CREATE TABLE t(a, b); CREATE UNIQUE INDEX t_b ON t(b);
-- schema: partial_index
CREATE TABLE t(a, b); CREATE INDEX t_p ON t(a) WHERE b IS NOT NULL;
-- schema: partial_unique_index
CREATE TABLE node(id TEXT PRIMARY KEY, label TEXT); CREATE UNIQUE INDEX idx_node_label ON node(label) WHERE label IS NOT NULL;
-- schema: expression_index
CREATE TABLE s(id TEXT PRIMARY KEY, last_activity_at REAL, started_at REAL NOT NULL); CREATE INDEX s_act ON s(COALESCE(last_activity_at, started_at) DESC, started_at DESC);
-- schema: desc_index
CREATE TABLE node(id TEXT PRIMARY KEY, t0 REAL NOT NULL); CREATE INDEX idx_node_t0 ON node(t0 DESC);
-- schema: foreign_key_inline
CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE c(id INTEGER PRIMARY KEY, p_id INTEGER REFERENCES p(id));
-- schema: foreign_key_table
CREATE TABLE p(id TEXT PRIMARY KEY); CREATE TABLE c(id INTEGER PRIMARY KEY, p_id TEXT, FOREIGN KEY (p_id) REFERENCES p(id));
-- schema: foreign_key_cascade
CREATE TABLE p(id TEXT PRIMARY KEY); CREATE TABLE c(k TEXT, p_id TEXT NOT NULL, PRIMARY KEY (k, p_id), FOREIGN KEY (p_id) REFERENCES p(id) ON DELETE CASCADE);
-- schema: self_reference
CREATE TABLE node(id TEXT PRIMARY KEY, parent_id TEXT, t0 REAL NOT NULL, FOREIGN KEY (parent_id) REFERENCES node(id));
-- schema: two_tables
CREATE TABLE a(x INTEGER PRIMARY KEY, y TEXT); CREATE TABLE b(x INTEGER PRIMARY KEY, z TEXT);
-- schema: view
CREATE TABLE t(a, b); CREATE VIEW v AS SELECT a FROM t WHERE b IS NOT NULL;
-- schema: trigger
CREATE TABLE t(a, b); CREATE TABLE log(x); CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN INSERT INTO log(x) VALUES (new.a); END;
-- schema: trigger_update_of
CREATE TABLE t(a, b, n INTEGER DEFAULT 0); CREATE TRIGGER t_au AFTER UPDATE OF a, b ON t WHEN new.a IS NOT old.a BEGIN UPDATE t SET n = n + 1 WHERE rowid = new.rowid; END;
-- schema: quoted_names
CREATE TABLE "odd table"("a b" TEXT, "key" INTEGER); CREATE INDEX "odd index" ON "odd table"("a b");
-- schema: mixed_case
CREATE TABLE MixedCase(Id INTEGER PRIMARY KEY, Name TEXT); CREATE INDEX MixedCase_Name ON MixedCase(Name);
-- schema: reserved_words
CREATE TABLE state_meta(key TEXT PRIMARY KEY, value TEXT);
-- schema: comments_in_ddl
CREATE TABLE async_delegations(
  delegation_id TEXT PRIMARY KEY, -- the id
  status TEXT NOT NULL, /* pending, done */
  created_at REAL
);
-- schema: alter_add_column
CREATE TABLE t(a TEXT); ALTER TABLE t ADD COLUMN "b" INTEGER DEFAULT 0; ALTER TABLE t ADD COLUMN c REAL;
-- schema: alter_rename
CREATE TABLE old_t(a); ALTER TABLE old_t RENAME TO new_t;
-- schema: drop_table
CREATE TABLE a(x); CREATE TABLE b(y); DROP TABLE a; CREATE INDEX b_y ON b(y);
-- schema: without_rowid
CREATE TABLE t(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
-- schema: many_indexes
CREATE TABLE m(id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT, ts REAL, active INTEGER DEFAULT 1);
CREATE INDEX m_s ON m(session_id, ts); CREATE INDEX m_si ON m(session_id, id); CREATE INDEX m_sa ON m(session_id, active, ts);
CREATE INDEX m_tool ON m(session_id) WHERE role = 'assistant';
-- schema: gateway_routing
CREATE TABLE gateway_routing(scope TEXT NOT NULL, session_key TEXT NOT NULL, target TEXT, updated_at REAL, PRIMARY KEY (scope, session_key));
-- schema: telegram_bindings
CREATE TABLE sessions(id TEXT PRIMARY KEY);
CREATE TABLE telegram_dm_topic_bindings(profile_name TEXT NOT NULL DEFAULT 'default', chat_id TEXT NOT NULL, topic_id TEXT NOT NULL, session_id TEXT NOT NULL, PRIMARY KEY (profile_name, chat_id, topic_id), FOREIGN KEY (session_id) REFERENCES sessions(id) ON DELETE CASCADE);
CREATE UNIQUE INDEX telegram_bindings_session ON telegram_dm_topic_bindings(session_id);
-- schema: blob_column
CREATE TABLE d(id INTEGER PRIMARY KEY, display_identity BLOB, display_order INTEGER); CREATE INDEX d_ident ON d(display_identity, display_order);
-- schema: early_sessiondb_v4
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, model_config TEXT, system_prompt TEXT,
    parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
    message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0, title TEXT,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
    content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,
    token_count INTEGER, finish_reason TEXT
);
CREATE INDEX IF NOT EXISTS idx_sessions_source ON sessions(source);
CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_at DESC);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp);
CREATE UNIQUE INDEX IF NOT EXISTS idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL;
-- schema: mid_sessiondb_v7
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, title TEXT, parent_session_id TEXT, FOREIGN KEY (parent_session_id) REFERENCES sessions(id));
ALTER TABLE sessions ADD COLUMN "cache_read_tokens" INTEGER DEFAULT 0;
ALTER TABLE sessions ADD COLUMN "billing_provider" TEXT;
ALTER TABLE sessions ADD COLUMN "estimated_cost_usd" REAL;
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
ALTER TABLE messages ADD COLUMN "reasoning" TEXT;
ALTER TABLE messages ADD COLUMN "reasoning_details" TEXT;
CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
-- schema: current_sessiondb_v30
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS system_prompts (hash TEXT PRIMARY KEY, content TEXT NOT NULL, created_at REAL);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, created_source TEXT, user_id TEXT, session_key TEXT, chat_id TEXT, chat_type TEXT,
    model TEXT, model_config TEXT, system_prompt TEXT, system_prompt_hash TEXT REFERENCES system_prompts(hash),
    parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
    input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0, title TEXT, title_source TEXT,
    last_activity_at REAL, rewind_count INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0, hidden INTEGER NOT NULL DEFAULT 0, last_read_at REAL, tool_names TEXT,
    auto_archived INTEGER DEFAULT 0,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
    content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, token_count INTEGER,
    finish_reason TEXT, active INTEGER DEFAULT 1, compacted INTEGER DEFAULT 0, display_kind TEXT,
    display_identity BLOB, display_order INTEGER, message_uid TEXT
);
CREATE TABLE IF NOT EXISTS session_model_usage (
    session_id TEXT NOT NULL, model TEXT NOT NULL DEFAULT '', billing_provider TEXT NOT NULL DEFAULT '',
    billing_base_url TEXT NOT NULL DEFAULT '', billing_mode TEXT NOT NULL DEFAULT '', task TEXT NOT NULL DEFAULT '',
    estimated_cost_usd REAL NOT NULL DEFAULT 0, first_seen REAL, last_seen REAL,
    PRIMARY KEY (session_id, model, billing_provider, billing_base_url, billing_mode, task),
    FOREIGN KEY (session_id) REFERENCES sessions(id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS gateway_heartbeats (backend_id TEXT PRIMARY KEY, seen_at REAL);
CREATE INDEX IF NOT EXISTS idx_sessions_source_id ON sessions(created_source, id);
CREATE INDEX IF NOT EXISTS idx_sessions_activity ON sessions(COALESCE(last_activity_at, started_at) DESC, started_at DESC);
CREATE INDEX IF NOT EXISTS idx_messages_display ON messages(session_id, display_order, active DESC, id DESC) WHERE active = 1 OR compacted = 1;
CREATE INDEX IF NOT EXISTS idx_messages_active_null ON messages(active) WHERE active IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL;
CREATE TRIGGER IF NOT EXISTS messages_display_order AFTER INSERT ON messages WHEN new.display_order IS NULL BEGIN
    UPDATE messages SET display_order = new.id WHERE id = new.id;
END;
-- schema: text_keys_everywhere
CREATE TABLE p(id TEXT PRIMARY KEY, code BLOB UNIQUE, name VARCHAR, alias, UNIQUE (name, alias));
CREATE TABLE c(pid TEXT REFERENCES p(id) ON DELETE CASCADE, k TEXT, n INTEGER, PRIMARY KEY (pid, k, n), FOREIGN KEY (k) REFERENCES p);
CREATE UNIQUE INDEX c_k ON c(k) WHERE n > 0;
CREATE UNIQUE INDEX c_lower ON c(lower(k));
CREATE INDEX c_wide ON c(pid, k, n, upper(k));
-- schema: text_keys_dropped
CREATE TABLE t(a TEXT, b TEXT, n INTEGER, PRIMARY KEY (a, b));
CREATE UNIQUE INDEX t_b ON t(b);
CREATE UNIQUE INDEX t_bn ON t(b, n) WHERE n IS NOT NULL;
CREATE INDEX t_expr ON t(a || b);
DROP INDEX t_b;
DROP INDEX t_bn;
ALTER TABLE t ADD COLUMN c TEXT DEFAULT 'x';
ALTER TABLE t RENAME TO t2;
CREATE UNIQUE INDEX IF NOT EXISTS t_b ON t2(b);
CREATE UNIQUE INDEX IF NOT EXISTS t_b ON t2(b);
