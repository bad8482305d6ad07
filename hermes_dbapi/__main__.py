"""``python -m hermes_dbapi``: the same as the ``hermes-dbapi`` command."""

import sys

from .cli import main

sys.exit(main())
