"""What the games app tells the rest of the site: one Django signal, sent after the commit.

``stats`` listens (the personal bests and the daily boards, connected in its ``AppConfig.ready``);
``games`` imports none of the apps that listen, so dependencies point one way, and sends no
event to itself: its own reactions are its own tasks (a ranked win's review,
:mod:`games.play.services` sends it on the win's commit). The signal carries ids only, as the tasks
a receiver sends do. It goes out with ``on_commit(robust=True)``: the write is committed whatever
a receiver (or the broker behind it) does; the stats beat tasks repair what a lost event missed.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.dispatch import Signal

from games.models import Game

#: What won games of an account count for changed (``game_ids``: list of str); stats records
#: each game's personal bests and its place on its day's board. Sent when a game is won that
#: waits for no review (practice), when a guest's won games pass to an account, and for ranked
#: wins by each change of what counts (:mod:`games.competition.attempt`): the review's verdict
#: (verified, held or invalid), a hold at the day's close, staff's approval or rejection. A
#: ranked win sends nothing before its review: its bests and its board come with the verdict.
results_changed = Signal()


def results_changed_send(*, game_ids: list[str]) -> None:
    """Send :data:`results_changed` once the current transaction commits."""
    transaction.on_commit(partial(results_changed.send, sender=Game, game_ids=game_ids), robust=True)
