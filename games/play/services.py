"""Writes: starting games, moves and undos, and handing a guest's games to an account.

A move or undo reads the game, lets the engine check and make the change, and writes the game's
row and its move log entry at once, only if no other request changed the game in between (see
:mod:`games.play.store`, the one place that writes a move: a version check, one statement on
PostgreSQL); otherwise it reads again. It returns what happened and renders nothing (a retry's
``Idempotency-Key`` is the API's: :mod:`games.play.idempotency`). A batch of moves played offline
(:func:`game_batch`) takes the same path: its moves and undos one after the other on the one
engine, written in one go, as far as the rules accept them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from common import metrics
from common.errors import ApplicationError, ErrorCode
from games import jobs
from games.competition import attempt, clock, links
from games.competition.daily import daily_arrangement, daily_deal_today
from games.competition.links import Origin
from games.engine import BadMove, GameCode, IllegalMove, Move, MoveResult, Rule
from games.engine import Game as EngineGame
from games.models import DailyDeal, DealVerdictChoices, Game, IdempotencyRecord, MoveLog, ReviewChoices, StatusChoices
from games.play import selectors, store, winnable
from games.players import Player
from games.signals import results_changed_send


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """An accepted move, undo or finish: the game as written, its engine, the time it was made,
    what the answer shows beside them (the deal's solution length,
    :func:`games.play.selectors.daily_solution_length`), and the moves it played (a finish's many)."""

    game: Game
    at: datetime
    engine: EngineGame
    solution_length: int | None
    played: tuple[Move, ...] = ()
    #: How many moves and undos were made (a refused batch's first entry: none).
    changes: int = 0


#: One entry of a batch played offline: a move, an undo (None), or what the engine could not read
#: as a move (refused where it comes, as a rule refuses a move: reason ``bad_move``).
BatchEntry = Move | None | BadMove

#: The most entries a batch holds (docs/api.md, "Played offline").
BATCH_MAX = 1000
#: The longest time a game dealt offline may claim to have been played before it reached the server.
OFFLINE_ELAPSED_MAX = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class BatchRefusal:
    """Where a batch stopped: the entry refused (0-based), and why: a reason of the rules
    (``games.engine.REASONS``, ``relaxed`` as :class:`IllegalMove`'s), or ``bad_move`` with the
    engine's words (``text``)."""

    index: int
    reason: str
    relaxed: bool = False
    text: str = ""


@dataclass(frozen=True, slots=True)
class BatchOutcome:
    """A batch replayed: the game as written (``outcome``), how many entries it kept, and the
    entry refused if one was (the entries after it were not looked at)."""

    outcome: MoveOutcome
    applied: int
    refused: BatchRefusal | None


def game_start(
    *,
    player: Player,
    rule: Rule | None = None,
    code: GameCode | None = None,
    daily: bool = False,
    replace_untouched: bool = False,
    now: datetime | None = None,
    origin: Origin | None = None,
    winnable_only: bool = False,
) -> Game:
    """A new game: of ``code``, of today's daily deal, or a random deal of ``rule`` (classic); with
    ``winnable_only`` a deal of ``rule`` from the pool the solver certified winnable
    (:func:`games.play.winnable.winnable_deal_take`: ``winnable_not_ready`` while it is empty).

    Today's deal is for accounts (a guest's free look at it would be a scouting tool): a guest
    gets ``daily_needs_account`` (403). An account's first game of a daily deal is its ranked
    attempt; later ones are practice, but only once the ranked attempt is over (won, or closed at
    midnight): a practice copy beside a running attempt would show its face-down cards, so that
    gets ``daily_attempt_open`` (409). Two first attempts at the same moment: the partial unique
    constraint lets one be ranked, and the other is refused as beside a running attempt.

    With ``replace_untouched`` (the web page asks for it) dealt games nobody touched do not pile
    up: the player's unfinished games without a move are deleted as the new one is dealt (never a
    daily game, never one with a move; docs/statistics.md: such a game counts nothing). Without it,
    nothing is deleted: an API client may deal several games before it plays them.
    """
    if player.user is None and not player.session_key:
        raise ValueError("a guest game needs a session key")
    now = now or timezone.now()
    day = None
    if daily:
        if player.user is None:
            raise ApplicationError(ErrorCode.DAILY_NEEDS_ACCOUNT)
        deal = daily_deal_today(now=now)
        # The account's own arrangement of the day's face-down cards (docs/daily.md).
        day, code = deal.date, daily_arrangement(deal=deal, user_id=player.user.pk).code
    elif winnable_only:
        code = winnable.winnable_deal_take(rule or Rule.CLASSIC, player=player)
    elif code is None:
        code = GameCode.random(rule or Rule.CLASSIC)
    engine = EngineGame.new(code)
    fields = {
        "owner": player.user,
        "guest_session_key": "" if player.user is not None else player.session_key,
        "code": str(code),
        "rule": code.rule.value,
        "daily": day,
        "state": engine.to_state(),
        "created_at": now,
        # A deal of the pool is known to be winnable; any other is decided by the worker (below).
        "deal_verdict": DealVerdictChoices.YES if winnable_only else DealVerdictChoices.DECIDING,
        "winnable_deal": winnable_only,
    }
    with transaction.atomic():
        if replace_untouched:
            games_untouched_delete(player=player)
        if day is not None and player.user is not None and not _has_played_daily(user=player.user, day=day):
            try:
                with transaction.atomic():
                    game = Game.objects.create(**fields, ranked=True)
            except IntegrityError:  # another first attempt of this account was ranked a moment ago
                raise ApplicationError(ErrorCode.DAILY_ATTEMPT_OPEN) from None
            DailyDeal.objects.filter(date=day).update(players=F("players") + 1)
            links.start_record(game=game, origin=origin)
            return game
        if day is not None and player.user is not None and _has_open_ranked_attempt(user=player.user, day=day):
            raise ApplicationError(ErrorCode.DAILY_ATTEMPT_OPEN)
        game = Game.objects.create(**fields)
        links.start_record(game=game, origin=origin)
        winnable.deal_decide_soon(game)
        return game


def games_untouched_delete(*, player: Player) -> int:
    """Delete the player's dealt games that have no move yet, except daily games; returns how many."""
    untouched = Game.objects.filter(player.owns(), moves=0, status=StatusChoices.PLAYING, daily__isnull=True)
    _, deleted = untouched.delete()
    return deleted.get(Game._meta.label, 0)


def game_play(*, game_id: UUID, player: Player, move: Move, seq: int | None = None) -> MoveOutcome:
    """Play ``move``; ``stale`` (409) if ``seq`` is not the move counter, the rule's reason (422) if refused."""
    return _game_change(game_id=game_id, player=player, seq=seq, change=lambda game, engine: [engine.play(move)])


def game_undo(*, game_id: UUID, player: Player, seq: int | None = None) -> MoveOutcome:
    """Take back the last move (it counts as a move); ``nothing_to_undo`` or ``game_over`` (422)."""
    return _game_change(game_id=game_id, player=player, seq=seq, change=lambda game, engine: [_undo(game, engine)])


def game_finish(*, game_id: UUID, player: Player, seq: int | None = None) -> MoveOutcome:
    """The player's finish (docs/rules.md): once every card is face up, every card left goes onto
    its foundation, each an ordinary move (counted, scored, logged), all of them in one write, and
    the game is won. ``cards_face_down``, ``finish_blocked`` or ``game_over`` (422) if there is no
    finish; ``stale`` (409) as for a move. The moves' log entries are the finish's from
    ``Game.finish_from`` on, which the pace checks of a ranked attempt leave out (docs/fair-play.md)."""
    return _game_change(game_id=game_id, player=player, seq=seq, change=_finish, finish=True)


def game_batch(
    *, game_id: UUID, player: Player, seq: int, entries: Sequence[BatchEntry], elapsed_ms: int
) -> BatchOutcome:
    """Replay the moves and undos a player made offline (docs/api.md, "Played offline"), in order,
    each as :func:`game_play` or :func:`game_undo` makes it (the same engine, log, score, undo and
    win), all written at once; ``stale`` (409) if ``seq`` is not the move counter.

    At the first entry the rules refuse, the batch stops: the entries before it are kept (nothing
    the player did legally is lost) and the refusal is returned. Refused as a whole, nothing
    changed: a daily game (``daily_online_only``: today's deal never leaves the server), a won game
    (``game_over``). A paused game is resumed (the device's clock ran). A game that kept an entry
    is ``played_offline``, and its clock is the device's ``elapsed_ms``, bounded (:func:`_offline_clock`).
    """
    stop: list[BatchRefusal] = []

    def replay(game: Game, engine: EngineGame) -> list[MoveResult]:
        if game.daily is not None:
            raise ApplicationError(ErrorCode.DAILY_ONLINE_ONLY)
        if game.status == StatusChoices.WON:
            raise ApplicationError(ErrorCode.GAME_OVER)
        stop.clear()  # (run again when another request changed the game meanwhile)
        results: list[MoveResult] = []
        for index, entry in enumerate(entries):
            try:
                if isinstance(entry, BadMove):
                    stop.append(BatchRefusal(index=index, reason=ErrorCode.BAD_MOVE.value, text=str(entry)))
                    break
                results.append(_undo(game, engine) if entry is None else engine.play(entry))
            except IllegalMove as exc:
                stop.append(BatchRefusal(index=index, reason=exc.reason, relaxed=exc.relaxed))
                break
        return results

    outcome = _game_change(game_id=game_id, player=player, seq=seq, change=replay, offline_ms=elapsed_ms)
    return BatchOutcome(outcome=outcome, applied=outcome.changes, refused=stop[0] if stop else None)


def game_offline(
    *, player: Player, code: GameCode, entries: Sequence[BatchEntry], elapsed_ms: int, now: datetime | None = None
) -> BatchOutcome:
    """A practice game dealt on the device while it was offline, with its moves (docs/api.md,
    "Played offline"): the game of ``code`` is made for ``player``, dealt ``elapsed_ms`` ago (at
    most :data:`OFFLINE_ELAPSED_MAX`), and the batch replayed on it as :func:`game_batch` does, in
    one transaction: a refusal keeps the game up to its last legal move. A code of a daily deal
    whose day has not ended (or of a spare, a day's deal to come) is ``daily_online_only``: its
    cards are the server's secret, never a device's."""
    now = now or timezone.now()
    if _daily_code_secret(code=code, now=now):
        raise ApplicationError(ErrorCode.DAILY_ONLINE_ONLY)
    elapsed = min(max(0, elapsed_ms), int(OFFLINE_ELAPSED_MAX.total_seconds() * 1000))
    with transaction.atomic():
        game = game_start(player=player, code=code, now=now - timedelta(milliseconds=elapsed))
        return game_batch(game_id=game.id, player=player, seq=0, entries=entries, elapsed_ms=elapsed)


def _daily_code_secret(*, code: GameCode, now: datetime) -> bool:
    """Whether ``code`` is a daily deal's whose day is today or to come (a spare's too). The deals'
    table holds a row a day: a short scan. (A day's arrangements, each account's own deal, are
    never known to a device: nobody gets them before their day is over, so they are not looked for.)"""
    secret = Q(date__gte=clock.today(now)) | Q(date__isnull=True)
    return DailyDeal.objects.filter(secret, code=str(code)).exists()


def game_pause(*, game_id: UUID, player: Player, now: datetime | None = None) -> Game:
    """Stop a practice game's clock (docs/scoring.md, "Time"): from now on moves, undos and help
    are refused (``game_paused``) until :func:`game_resume`. Idempotent: a paused game stays as it
    is. A ranked attempt that still counts is never paused (``no_pause_when_ranked``), a won game
    neither (``game_over``)."""

    def pause(game: Game, now: datetime) -> dict[str, Any] | None:
        if game.paused_at is not None:
            return None
        if game.status != StatusChoices.PLAYING:
            raise ApplicationError(ErrorCode.GAME_OVER)
        if not attempt.clock_may_stop(game, now):
            raise ApplicationError(ErrorCode.NO_PAUSE_WHEN_RANKED)
        return {"paused_at": now}

    return _clock_change(game_id=game_id, player=player, now=now, change=pause)


def game_resume(*, game_id: UUID, player: Player, now: datetime | None = None) -> Game:
    """Start a paused game's clock again: the pause is added to ``paused_ms``, the time that is not
    played. Idempotent: a game that is not paused stays as it is."""

    def resume(game: Game, now: datetime) -> dict[str, Any] | None:
        if game.paused_at is None:
            return None
        pause_ms = max(0, int((now - game.paused_at).total_seconds() * 1000))
        return {"paused_at": None, "paused_ms": game.paused_ms + pause_ms}

    return _clock_change(game_id=game_id, player=player, now=now, change=resume)


def _clock_change(
    *,
    game_id: UUID,
    player: Player,
    now: datetime | None,
    change: Callable[[Game, datetime], dict[str, Any] | None],
) -> Game:
    """Read the game, ask ``change`` for the fields to set (None: nothing to change) and write them
    with the version up by one, only if no move or other change came in between (else read again):
    a move read before a pause is then refused as it is written, and played after a resume."""
    for _ in range(CHANGE_ATTEMPTS):
        game = selectors.game_get(game_id=game_id, player=player)
        at = now or timezone.now()
        fields = change(game, at)
        if fields is None:
            return game
        if Game.objects.filter(pk=game.pk, version=game.version).update(**fields, version=F("version") + 1):
            for name, value in fields.items():
                setattr(game, name, value)
            game.version += 1
            return game
    raise ApplicationError(ErrorCode.STALE, moves=game.moves, seq=game.moves)


def games_claim_guest(*, session_key: str | None, user: Any) -> int:
    """Give the guest games of ``session_key`` to ``user`` (on register or login); returns how many
    of them were played (at least one move: what counts in statistics).

    The guest's won games count for the account's personal bests (never for a leaderboard). A
    dealt guest game nobody touched is dropped when the account has a game in progress (with
    moves): it would be the newest and hide that game on the play page.
    """
    if not session_key:
        return 0
    guest_games = Game.objects.filter(owner__isnull=True, guest_session_key=session_key)
    in_progress = Game.objects.filter(owner=user, status=StatusChoices.PLAYING, moves__gt=0, daily__isnull=True)
    if in_progress.exists():
        guest_games.filter(moves=0, status=StatusChoices.PLAYING, daily__isnull=True).delete()
    won = [str(pk) for pk in guest_games.filter(status=StatusChoices.WON).values_list("pk", flat=True)]
    played = guest_games.filter(moves__gt=0).count()
    guest_games.update(owner=user, guest_session_key="")
    if won:
        results_changed_send(game_ids=won)
    return played


def idempotency_records_prune(*, before: datetime) -> int:
    """Delete the stored first answers older than ``before``; returns how many."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=before).delete()
    return deleted


# -- internals -----------------------------------------------------------------------------------


#: A change of a game by the engine: the results of the moves it made, in order (one for a move
#: or an undo, a finish's many).
Change = Callable[[Game, EngineGame], Sequence[MoveResult]]


def _game_change(
    *,
    game_id: UUID,
    player: Player,
    seq: int | None,
    change: Change,
    finish: bool = False,
    offline_ms: int | None = None,
) -> MoveOutcome:
    """Read the game, let the engine change it, and write it back only if no other request changed
    it meanwhile (:mod:`games.play.store`); if one did, read again (a client that sent ``seq`` then
    gets 409 ``stale``). ``offline_ms``: the change is a batch played offline, with the device's
    clock (:func:`game_batch`); a batch that changed nothing writes nothing."""
    for _ in range(CHANGE_ATTEMPTS):
        game = store.game_read(game_id=game_id, player=player)
        if game is None:
            raise ApplicationError(ErrorCode.NOT_FOUND)
        seen, read_version = game.moves, game.version
        now = timezone.now()
        engine, logs, fields, results = _game_apply(
            game=game, seq=seq, change=change, now=now, finish=finish, offline_ms=offline_ms
        )
        if not logs:  # a batch refused at its first entry: the game as it was
            length = selectors.daily_solution_length(game=game, now=now)
            return MoveOutcome(game=game, at=now, engine=engine, solution_length=length)
        if store.game_change_save(game=game, read_version=read_version, fields=fields, logs=logs):
            for log in logs:
                metrics.move_played(rule=game.rule, undo=log.move == "undo", won=engine.is_won and log is logs[-1])
            if engine.is_won:
                _game_won_effects(game)
            length = selectors.daily_solution_length(game=game, now=now)
            played = tuple(result.move for result in results if result.move is not None)
            return MoveOutcome(
                game=game, at=now, engine=engine, solution_length=length, played=played, changes=len(results)
            )
    # Other requests kept changing the game each time (not seen outside of a stress test).
    raise ApplicationError(ErrorCode.STALE, moves=seen, seq=seen if seq is None else seq)


CHANGE_ATTEMPTS = 8


def _game_apply(
    *,
    game: Game,
    seq: int | None,
    change: Change,
    now: datetime,
    finish: bool = False,
    offline_ms: int | None = None,
) -> tuple[EngineGame, list[MoveLog], list[str], Sequence[MoveResult]]:
    """Change ``game`` (in memory) by the engine; returns the engine, the new log entries, the
    fields this change set (only those are written) and what each move did (nothing, when the
    change made no move). A ``finish`` marks where its moves begin (``Game.finish_from``); a batch
    played offline (``offline_ms``: the device's clock) resumes a paused game and sets its clock."""
    if seq is not None and seq != game.moves:
        raise ApplicationError(ErrorCode.STALE, moves=game.moves, seq=seq)
    if game.paused_at is not None and offline_ms is None:  # (read with the game: no query of its own)
        raise ApplicationError(ErrorCode.GAME_PAUSED)
    engine = EngineGame.from_state(game.state)
    before = engine.moves
    try:
        results = change(game, engine)
    except IllegalMove as exc:
        raise ApplicationError.refusal(exc.reason, relaxed=exc.relaxed) from None
    if not results:
        return engine, [], [], results
    fields = ["state", "score", "moves", "version"]
    # The day closed before this move (the midnight task may not have come yet): from now on the
    # game is practice, whatever this move does.
    fields += attempt.attempt_close(game, now=now)
    logs = [
        MoveLog(
            game_id=game.pk,  # (the id alone: setting ``game`` asks the database routers, per entry)
            seq=before + n,
            move="undo" if result.move is None else str(result.move),
            points=result.points,
            flipped=result.flipped or "",
            step=result.step,
            below=result.below,
            created_at=now,
        )
        for n, result in enumerate(results, start=1)
    ]
    game.state = engine.to_state()
    game.score = engine.score
    game.moves = engine.moves
    game.version += 1
    if finish:
        # The finish's moves are the player's one act, not a pace (docs/fair-play.md): no window
        # of the attempt's pace closes on them, and the review leaves them out.
        game.finish_from = before
        fields.append("finish_from")
    else:
        fields += attempt.attempt_pace(game, now=now)
    if offline_ms is not None:
        fields += _offline_clock(game, now=now, elapsed_ms=offline_ms)
    if engine.is_won:
        game.status = StatusChoices.WON
        game.finished_at = now
        game.time_ms = game.elapsed_ms(now)
        fields += ["status", "finished_at", "time_ms"]
        fields += attempt.attempt_win(game, now=now)  # pending: reviewed by the task before it counts
    return engine, logs, fields, results


def _offline_clock(game: Game, *, now: datetime, elapsed_ms: int) -> list[str]:
    """Mark ``game`` played offline and set its clock to the device's ``elapsed_ms``, bounded: never
    less than the server's clock of it now (a device cannot take time back), never more than the
    time since it was dealt (nor claim more than that). What is not played of that time is its
    ``paused_ms``; a paused game runs again. Returns the fields set."""
    since_deal = max(0, int((now - game.created_at).total_seconds() * 1000))
    elapsed = min(max(elapsed_ms, game.elapsed_ms(now)), since_deal)
    game.paused_at, game.paused_ms, game.played_offline = None, since_deal - elapsed, True
    return ["paused_at", "paused_ms", "played_offline"]


def _undo(game: Game, engine: EngineGame) -> MoveResult:
    """Take back the last move: its step read from the log first (the state keeps no history)."""
    needed = engine.undo_step_needed
    if needed:
        step = store.undo_step_read(game_id=game.pk, seq=needed)
        if step is None or not step[0]:
            raise ValueError(f"game {game.pk}: the log has no step for move {needed}")
        engine.undo_step_load(*step)
    return engine.undo()


def _finish(game: Game, engine: EngineGame) -> list[MoveResult]:
    return engine.finish()


def _has_played_daily(*, user: Any, day: date) -> bool:
    """Whether the account has any game of ``day``'s deal (its own, or one it kept as a guest).

    A daily game is always started on its day: the ``created_at`` bound keeps this a short
    range scan of the account's newest games.
    """
    return Game.objects.filter(owner=user, created_at__gte=clock.day_start(day), daily=day).exists()


def _has_open_ranked_attempt(*, user: Any, day: date) -> bool:
    """Whether the account's ranked attempt at ``day``'s deal is still being played (not won, not closed)."""
    return Game.objects.filter(
        owner=user, daily=day, ranked=True, status=StatusChoices.PLAYING, closed_at__isnull=True
    ).exists()


def _game_won_effects(game: Game) -> None:
    """After the commit, each step once: the game's log packed (:mod:`games.movelog`) and, for a
    ranked attempt, its review (:func:`games.competition.attempt.attempt_review`), games' own
    tasks; the review's verdict tells stats (its bests and its board). A practice win of an
    account tells stats at once (:data:`games.signals.results_changed`: its bests); a guest's
    win tells nobody (nothing counts for a guest)."""
    game_id = str(game.id)
    jobs.log_pack(game_id)
    if game.review == ReviewChoices.PENDING:
        jobs.ranked_win_review(game_id)
    elif game.owner_id is not None:
        results_changed_send(game_ids=[game_id])
