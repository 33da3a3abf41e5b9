"""What the games app tells the rest of the site: Django signals, sent after the commit.

Other apps listen (``stats`` keeps the personal bests and the daily boards, connected in its
``AppConfig.ready``); ``games`` imports none of them, so dependencies point one way. ``games``
listens too where the reaction is its own (:mod:`games.receivers`: a won game's post-mortem). A signal
carries ids only, as the tasks a receiver sends do. It goes out with ``on_commit(robust=True)``:
the move is committed whatever a receiver (or the broker behind it) does; the stats beat tasks
repair what a lost event missed.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.dispatch import Signal

from .models import Game

#: An account has a new won game: one is won, or a guest's won game passed to the account.
#: Arguments: ``game_id`` (str) and ``ranked`` (a won ranked attempt waiting for its review, which
#: games runs: :mod:`games.competition.attempt`). A guest's win sends nothing (nothing counts for a guest).
game_won = Signal()

#: Whether ranked wins count changed (:mod:`games.competition.attempt`): reviewed (verified, held
#: or invalid), held at the day's close (linked to a suspect), approved or rejected by staff. The
#: day's boards recompute their results. ``game_ids``: list of str.
ranked_results_changed = Signal()


def game_won_send(*, game_id: str, ranked: bool) -> None:
    """Send :data:`game_won` once the current transaction commits."""
    transaction.on_commit(partial(game_won.send, sender=Game, game_id=game_id, ranked=ranked), robust=True)


def ranked_results_changed_send(*, game_ids: list[str]) -> None:
    """Send :data:`ranked_results_changed` once the current transaction commits."""
    transaction.on_commit(partial(ranked_results_changed.send, sender=Game, game_ids=game_ids), robust=True)
