"""The games app: every game's row, its move log, and what is done with them. One Django app (the
models share the game row), in parts by what each owns, each part importing only the parts below
it (tests/site/test_layers.py):

* ``engine/`` — the rules, pure (the standard library only); ``solver/`` beside it.
* the floor, in this folder: ``models.py`` (the rows), ``movelog.py`` (a game's log, read through
  one door), ``signals.py`` (the one event other apps listen to), ``players.py`` (who plays, and
  who is asking: ``player_of``), ``lifecycle.py`` (what is kept, and for how long), ``jobs.py``
  (the tasks, sent by name).
* ``competition/`` — the day and its deal (``daily.py``), the ranked attempt, fair play.
* ``play/`` — a game being played: its API, services, store, answers, export, winnable deals.
* ``help/`` — the hint, "still winnable?", the post-mortem, the replay: over the games played.
* the wiring, in this folder: ``tasks.py`` (Celery's, thin, calling the parts), ``admin.py``,
  ``urls.py``, ``observability.py`` (what an operator is told), ``apps.py``.
"""
