"""Help for games played (docs/rules.md, "The hint"; README, "Help for practice games"), over the
games as ``play`` keeps them, never for today's daily deal while its day lasts:

* ``assist.py``, ``assist_api.py`` — the hint and "still winnable?" of a practice game.
* ``postmortem.py`` — the solver's post-mortem of a finished game (the worker's).
* ``replay.py``, ``replay_api.py`` — a finished game's replay, with its post-mortem and par.
"""
