"""The clairvoyance test of ranked wins and the pace of every attempt (issue 39; docs/fair-play.md).

The lines in ``clairvoyance_lines.json`` were made with ``bench/fairplay_bench.py``'s players:
``scouted`` (two scouts saw the face-down cards, a third account played a solver line on them),
``knower`` (a player who sees every card plays the hint's move unless the real deal loses after
it: on YU1-C-TOHIPAD it steps around three traps the hint falls into; k = 3, z = 4.3), and
``hint``, the public hint followed from the first move on another deal (honest).

The scouted line shows the test's limit (docs/fair-play.md): it passes no trap of the hint's and
is not held.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.utils import timezone

from games.competition import attempt, clairvoyance, clock, suspects
from games.engine import Game as EngineGame
from games.engine import Move
from games.models import ClairvoyanceReport, DailySuspect, Game, MoveLog
from tests import factories
from tests.stats.helpers import deal

LINES = json.loads((Path(__file__).parent / "clairvoyance_lines.json").read_text())


def test_stepping_around_a_trap_the_attempt_had_not_shown_is_an_informed_decision():
    knower = clairvoyance.check(LINES["knower"]["code"], LINES["knower"]["log"])
    honest = clairvoyance.check(LINES["hint"]["code"], LINES["hint"]["log"])

    informed = [d for d in knower.decisions if d.informed]
    assert len(informed) == knower.k == 3 and knower.z > clairvoyance.Z_HOLD and knower.clairvoyant
    assert all(d.played != d.best and d.p < 0.5 for d in informed)  # each unlikely for an honest player
    assert knower.reason() == f"3 of {knower.looked_at} decisions, z = {knower.z:.1f}"
    assert honest.k == 0 and honest.z == 0 and not honest.clairvoyant  # the hint's own line: nothing to find


def test_a_scouted_solver_line_is_not_held_the_tests_limit():
    scouted = clairvoyance.check(LINES["scouted"]["code"], LINES["scouted"]["log"])
    assert not scouted.clairvoyant and scouted.k <= 1  # measured, not wished: docs/fair-play.md


def test_cards_seen_and_turned_down_again_count_as_known():
    code = LINES["hint"]["code"]
    log = LINES["hint"]["log"]
    engine = EngineGame.from_code(code)
    first_flip = next(i for i, move in enumerate(log) if engine.play(Move.parse(move)).flipped)
    # The same line with a peek at the first flip: played, undone, played again.
    peeked = [*log[: first_flip + 1], "undo", *log[first_flip:]]
    _, line = clairvoyance.winning_line(code, peeked)
    _, plain = clairvoyance.winning_line(code, log)
    assert [step.move for step in line] == [step.move for step in plain]  # the undone move is no decision
    shown = set(line[first_flip].known) - set(plain[first_flip].known)
    assert len(shown) == 1  # what the peek showed is known when the move is played again


def _ranked_win(day, log, *, code, gap_ms=900):
    owner = factories.user()
    engine = EngineGame.from_code(code)
    start = timezone.now() - timedelta(milliseconds=gap_ms * (len(log) + 5))
    game = factories.game(owner=owner, code=code, daily=day, ranked=True, created_at=start)
    entries = []
    for seq, move in enumerate(log, start=1):
        result = engine.undo() if move == "undo" else engine.play(Move.parse(move))
        entries.append(
            MoveLog(
                game=game,
                seq=seq,
                move=move,
                points=result.points,
                flipped=result.flipped or "",
                created_at=start + timedelta(milliseconds=gap_ms * seq),
            )
        )
    MoveLog.objects.bulk_create(entries)
    finished = start + timedelta(milliseconds=gap_ms * len(log))
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_state(),
        moves=engine.moves,
        score=engine.score,
        status="won",
        finished_at=finished,
        time_ms=int((finished - start).total_seconds() * 1000),
        review="pending",
    )
    return game


@pytest.mark.django_db
def test_the_review_holds_a_clairvoyant_top_win_and_passes_an_honest_one(settings):
    settings.FAIRPLAY_CLAIRVOYANCE_TOP = 100
    day = timezone.now().date()
    deal(day, code=LINES["knower"]["code"])
    scouted = _ranked_win(day, LINES["knower"]["log"], code=LINES["knower"]["code"])
    honest = _ranked_win(day, LINES["hint"]["log"], code=LINES["hint"]["code"])

    assert attempt.attempt_review(game_id=scouted.pk) == "held"
    assert attempt.attempt_review(game_id=honest.pk) == "verified"

    reason = Game.objects.get(pk=scouted.pk).review_reason
    assert reason.startswith("clairvoyant: ") and " decisions, z = " in reason
    report = ClairvoyanceReport.objects.get(game=scouted)
    assert report.clairvoyant and report.informed == 3 and sum(d["informed"] for d in report.decisions) == 3
    assert not ClairvoyanceReport.objects.get(game=honest).clairvoyant


@pytest.mark.django_db
def test_a_win_outside_the_top_is_not_tested_and_staff_can_ask(settings):
    settings.FAIRPLAY_CLAIRVOYANCE_TOP = 1
    day = timezone.now().date()
    deal(day, code=LINES["knower"]["code"])
    faster = _ranked_win(day, LINES["hint"]["log"], code=LINES["hint"]["code"], gap_ms=700)
    assert attempt.attempt_review(game_id=faster.pk) == "verified"
    scouted = _ranked_win(day, LINES["knower"]["log"], code=LINES["knower"]["code"], gap_ms=2000)

    assert attempt.attempt_review(game_id=scouted.pk) == "verified"  # second: not in the top 1
    assert not ClairvoyanceReport.objects.filter(game=scouted).exists()

    report = attempt.attempt_clairvoyance(game_id=scouted.pk)  # staff ask
    assert report is not None and report.clairvoyant
    assert Game.objects.get(pk=scouted.pk).review == "held"


@pytest.mark.django_db
def test_an_attempt_at_a_machines_pace_makes_its_account_suspect_unlinked():
    day = timezone.now().date()
    deal(day, code="YU1-C-AAAAAAB")
    user = factories.user()
    client = factories.token_client(user)
    state = client.post("/api/v1/games", {"daily": True}).json()
    moves = 0
    with time_machine.travel(timezone.now() + timedelta(seconds=1), tick=False):  # a bot: no time between
        while moves < 50:  # a move and its undo
            legal = state["legal_moves"][0]
            state = client.post(f"/api/v1/games/{state['id']}/moves", legal).json()
            state = client.post(f"/api/v1/games/{state['id']}/undo").json()
            moves = state["moves"]

    game = Game.objects.get(pk=state["id"])
    assert game.machine_pace_at is not None
    assert suspects.suspects_paced(day=day) == {user.pk}  # no link to any account needed
    assert DailySuspect.objects.filter(day=day, user=user, game=game).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("gap_ms", [2000, 150])  # a human's moves; a held-down Ctrl+Z, answer by answer
def test_a_human_paced_attempt_is_no_suspect(gap_ms):
    day = timezone.now().date()
    game = factories.game(owner=factories.user(), daily=day, ranked=True)
    now = game.created_at
    for moves in range(1, 101):
        now += timedelta(milliseconds=gap_ms)
        game.moves = moves
        fields = attempt.attempt_pace(game, now=now)
        assert fields == (["pace_window_at"] if moves % 50 == 0 else [])  # written every 50th move only
    assert game.machine_pace_at is None and game.pace_window_at == now


@pytest.mark.django_db
def test_a_window_of_50_entries_in_under_5_seconds_is_a_machines_pace():
    day = timezone.now().date()
    game = factories.game(owner=factories.user(), daily=day, ranked=True)
    now = game.created_at
    for moves in range(1, 51):
        now += timedelta(milliseconds=90)
        game.moves = moves
        fields = attempt.attempt_pace(game, now=now)
    assert fields == ["pace_window_at", "machine_pace_at"] and game.machine_pace_at == now


@pytest.mark.django_db
def test_a_held_win_tells_its_player_the_kind_of_check_and_when_staff_look(settings):
    day = timezone.now().date()
    deal(day, code="YU1-C-AAAAAAB")
    owner = factories.user()
    game = factories.game(
        owner=owner,
        daily=day,
        ranked=True,
        status="won",
        time_ms=40_000,
        review="held",
        review_reason="time: won in 40000 ms in all; clairvoyant: 4 of 50 decisions, z = 5.0",
        hold_reasons=["time", "clairvoyant"],
    )
    state = factories.token_client(owner).get(f"/api/v1/games/{game.pk}").json()
    assert state["held_for"] == ["pace", "play"]
    assert state["review_by"] == (
        (clock.day_end(day) + timedelta(hours=settings.FAIRPLAY_REVIEW_HOURS)).isoformat().replace("+00:00", "Z")
    )
    assert "40000" not in str(state) and "z =" not in str(state)  # the kind, never the figures
    attempt_answer = factories.token_client(owner).get(f"/api/v1/daily/{day.isoformat()}").json()["attempt"]
    assert attempt_answer["held_for"] == ["pace", "play"]
