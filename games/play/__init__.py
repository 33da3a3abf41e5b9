"""A game being played (docs/api.md, docs/rules.md, docs/scoring.md): dealt, moved, undone,
finished, paused, replayed from a batch played offline, listed and exported.

* ``api.py`` — the views: parse, call a service or selector, render (``player_of`` says who asks).
* ``services.py`` — the writes: a game started (from a code, today's deal, the winnable pool), a
  move, an undo, a finish, a batch, a pause; ``store.py`` is the move path's one reader and writer
  of the game's row and log (plain SQL, one statement a move on PostgreSQL).
* ``idempotency.py`` — the ``Idempotency-Key``: one path (``answer_once``) for every change a retry
  may repeat.
* ``selectors.py`` (the reads), ``presenters.py`` (what a player may see, never a query),
  ``serializers.py`` (input and the documented shapes).
* ``winnable.py`` — whether a deal can be won (the worker decides) and the pool "winnable deals
  only" deals from.
* ``export.py``, ``export_api.py`` — one's games as NDJSON or CSV.
"""
