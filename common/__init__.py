"""Pieces every API app shares: errors, the JSON parser, authentication, sessions, base view."""
