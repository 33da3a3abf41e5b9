"""Fault tests restart PostgreSQL and Redis: they run only through `make test-faults` (and CI),
each against private PostgreSQL and Redis servers of its own, never the machine's shared ones."""

import os

if not os.environ.get("YUKON_FAULT_TESTS"):
    collect_ignore_glob = ["test_*.py"]
