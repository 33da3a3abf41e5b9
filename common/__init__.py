"""Pieces every app shares: errors, the JSON parser, rate limits, sessions, base view. It imports
no app (tests/site/test_layers.py)."""
