"""The post-mortem task's time per game (``games.game_postmortem``, in-process): median and p95
over 100 random finished practice games, and what it found.

The games (seeded, so the same each run): 50 won, each a solver's winning line of a random deal
with a few detours (a random move taken back at once); 50 left unfinished after 20–80 random
moves (now and then one taken back), idle long enough to count as finished. Each game is stored
with its move log on a scratch SQLite database and the task is run on it; its time includes the
reads and the write. The solver's budget is ``POSTMORTEM_NODES`` per position (no clock).

    python bench/postmortem_bench.py [--games 100]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from datetime import timedelta

from scratch_db import django_on_scratch_sqlite


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="finished games (half won, half left)")
    args, _ = parser.parse_known_args()
    django_on_scratch_sqlite("postmortem")
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import timezone

    from games import (
        services,  # noqa: F401 - first, as the worker does (games.tasks imports it)
        tasks,
    )
    from games.engine import Game as EngineGame
    from games.engine import GameCode, Rule
    from games.engine.codes import MAX_NUMBER
    from games.models import Game, GamePostMortem, MoveLog
    from games.solver import Verdict, solve
    from games.solver.compiled import warm_up

    call_command("migrate", verbosity=0)
    warm_up()
    rng = random.Random(2026)
    logs: list[tuple[GameCode, list[str]]] = []
    started = time.perf_counter()
    while len(logs) < args.games // 2:  # won games
        code = GameCode(Rule.CLASSIC, rng.randrange(MAX_NUMBER + 1))
        result = solve(EngineGame.new(code), max_seconds=2.0)
        if result.verdict is not Verdict.WINNABLE or not result.moves:
            continue
        engine, log = EngineGame.new(code), []
        for move in result.moves:
            if rng.random() < 0.05:  # a detour: a random move, taken back at once
                detour = rng.choice(engine.legal_moves())
                log.append(str(engine.play(detour).move))
                engine.undo()
                log.append("undo")
            log.append(str(engine.play(move).move))
        assert engine.is_won
        logs.append((code, log))
    while len(logs) < args.games:  # left unfinished
        code = GameCode(Rule.CLASSIC, rng.randrange(MAX_NUMBER + 1))
        engine, log = EngineGame.new(code), []
        for _ in range(rng.randrange(20, 81)):
            moves = engine.legal_moves()
            if not moves or engine.is_won:
                break
            if engine.history and rng.random() < 0.08:
                engine.undo()
                log.append("undo")
            else:
                log.append(str(engine.play(rng.choice(moves)).move))
        if log and not engine.is_won:
            logs.append((code, log))
    print(f"made {len(logs)} games in {time.perf_counter() - started:.1f} s", flush=True)

    idle = timezone.now() - timedelta(hours=1)
    ids = []
    for code, log in logs:
        engine = EngineGame.replay(code, log)
        game = Game.objects.create(
            guest_session_key="bench",
            code=str(code),
            rule="classic",
            state=engine.to_state(),
            moves=engine.moves,
            score=engine.score,
            status="won" if engine.is_won else "playing",
            created_at=idle - timedelta(minutes=30),
            finished_at=idle if engine.is_won else None,
            time_ms=1_800_000 if engine.is_won else None,
        )
        MoveLog.objects.bulk_create(
            [MoveLog(game=game, seq=i, move=m, points=0, created_at=idle) for i, m in enumerate(log, start=1)]
        )
        ids.append(str(game.id))

    times = []
    for game_id in ids:
        begin = time.perf_counter()
        tasks.game_postmortem(game_id)
        times.append((time.perf_counter() - begin) * 1000)
    rows = list(GamePostMortem.objects.all())
    assert len(rows) == len(ids)
    found = Counter(row.verdict for row in rows)
    quantiles = statistics.quantiles(times, n=20, method="inclusive")
    won = [t for t, (code, log) in zip(times, logs, strict=True) if EngineGame.replay(code, log).is_won]
    left = times[len(won) :]
    print(
        f"budget: {settings.POSTMORTEM_NODES:,} nodes per position, at most {settings.POSTMORTEM_MAX_SOLVES} "
        f"positions per game; log lengths {min(len(g[1]) for g in logs)}–{max(len(g[1]) for g in logs)}"
    )
    print(
        f"found: {dict(found)}; positions solved per game: median {statistics.median(r.solved for r in rows):.0f}, "
        f"max {max(r.solved for r in rows)}; undecided positions: {sum(r.unknown for r in rows)}"
    )
    print(f"  won games   : median {statistics.median(won):7.0f} ms")
    print(f"  left games  : median {statistics.median(left):7.0f} ms")
    print(
        f"post-mortem task per game over {len(times)} finished games: median {statistics.median(times):.0f} ms, "
        f"p95 {quantiles[18]:.0f} ms, max {max(times):.0f} ms"
    )
    mean = statistics.fmean(times)
    print(
        f"Celery CPU per 1,000 finished games: {mean:.0f} s if every one is analysed (mean {mean:.0f} ms); "
        f"{mean / 10:.1f} s if one in ten is opened as a replay (docs/capacity.md)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
