"""pytest plugin (``-p swap``): the application's one-line change, made for a
test suite that is not ours to edit: ``sqlite3`` *is* ``hermes_dbapi``."""

import sys

import hermes_dbapi

sys.modules["sqlite3"] = hermes_dbapi
