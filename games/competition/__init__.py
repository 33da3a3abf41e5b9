"""The daily competition (docs/daily.md, docs/fair-play.md): the day, its deal and the ranked
attempt, and fair play.

* ``clock.py`` — which UTC date is today, when a day starts and ends: the one place that knows.
* ``daily.py`` — the day's deal: one opening, drawn and certified ahead (``arrangements.py``: each
  account's own arrangement of its face-down cards), given its day, its par.
* ``attempt.py`` — the life of a ranked attempt, one state machine: its states and transitions,
  the review of a win, the day's close.
* fair play — ``links.py`` (accounts linked by device and network), ``suspects.py`` (a pace no
  human keeps), ``probes.py`` (attempts left after a look, across days), ``clairvoyance.py``
  (a winning line that used cards its attempt had never shown).
"""
