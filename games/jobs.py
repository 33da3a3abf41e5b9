"""The games' tasks as the services send them: one function a task, by the task's name
(:func:`common.background.task_send`), so that no service imports ``games.tasks`` (the tasks
import the services: tests/site/test_layers.py finds any circle).

Each function says when its task goes, as it went before it had this module: once the
transaction that asks commits (at once outside one: a task must find what the request wrote), or
at once where only a read asks (nothing written to wait for). The solver's tasks run ``apart``:
with the embedded defaults (eager tasks, no worker) on a thread of their own, never inside the
request.
"""

from __future__ import annotations

from common.background import task_send


def log_pack(game_id: str) -> None:
    """A game was won: its move log packed (:func:`games.movelog.log_pack`), after the win's commit."""
    task_send("games.log_pack", game_id)


def ranked_win_review(game_id: str) -> None:
    """A ranked attempt was won: its review (:func:`games.competition.attempt.attempt_review`),
    after the win's commit."""
    task_send("games.ranked_win_review", game_id)


def clairvoyance_check(game_id: str) -> None:
    """Staff asked for the clairvoyance test of a ranked win (the admin's action: a read)."""
    task_send("games.clairvoyance_check", game_id, apart=True, after_commit=False)


def game_postmortem(game_id: str) -> None:
    """A finished game's post-mortem, asked for by its replay (a read)."""
    task_send("games.game_postmortem", game_id, apart=True, after_commit=False)


def winnable_decide(game_id: str, moves: int, scope: str, *, after_commit: bool) -> None:
    """The solver decides whether a game can be won (a dealt game: after its commit; "still
    winnable?" that could not settle a position in the request: at once)."""
    task_send("games.winnable_decide", game_id, moves, scope, apart=True, after_commit=after_commit)


def winnable_deals_fill() -> None:
    """The pool of winnable deals topped up (a deal was taken from it)."""
    task_send("games.winnable_deals_fill", apart=True, after_commit=False)


def daily_deals_prepare() -> None:
    """The daily deals prepared (a request found none for today, or the task wants another run),
    after the commit of whatever asked."""
    task_send("games.daily_deals_prepare", apart=True)
