"""Equally hard (issue 46, item 2; docs/daily.md, "Equally hard"): how much a day's arrangement of
its face-down cards decides a player's result, with the par band and without it.

Run with ``python bench/arrangements_bench.py [--days D] [--arrangements A] [--seed S]``
(default 20 days of 256 arrangements). Each day is drawn by the product's own ``daily_draw``
(the settings' ``DAILY_CERTIFY_NODES`` and ``DAILY_PAR_BAND``), made reproducible: its opening
and its key come from a seeded ``random.Random`` instead of ``secrets``, and every certifying
solve is recorded as it happens (its verdict, its line's length: the par, and its nodes: the
solver's effort). Per day it prints the par and the effort of the kept arrangements (min, median,
max) and of every certified one (no band).

Then a simulated player that never sees a face-down card plays ``--sample`` arrangements of each
day ``--runs`` times each, twice over: arrangements drawn from those kept (the band) and from all
certified ones (no band). The player is the public hint's Monte-Carlo (``rate``) followed from the
first move, with a smaller budget than the hint's (``--samples`` 8 samples of ``--nodes`` 1,000
nodes instead of 24 of 3,000: the full hint took about 0.12 s of CPU a move, some 12 s a won game,
too slow for hundreds of games) and other samples in each run (``salt``), so two runs of one
arrangement differ the way two players with the same knowledge do (every arrangement of a day
looks the same until a card turns up: a run's first moves depend on the opening and its samples
only). Its time is its moves at a human pace: each move ``--pace`` seconds (2.5) times a
log-normal factor (sigma 0.5). A run that gives up (the hint finds no progress, a position comes
back, 400 moves) is lost.

What the arrangement explains, within a day: a one-way analysis of variance per day (groups: the
arrangements, members: the runs), of the win (0/1) and of the time of a won run, pooled over the
days (sums of squares and degrees of freedom added): the share of the variance between
arrangements (eta squared; with R runs of S arrangements even pure noise gives about
(S-1)/(S*R-1), printed beside it) and the intraclass correlation ICC(1), the share of the
variance due to the arrangement, corrected for that bias (0: none; can be negative by chance),
with a 90 % bootstrap interval (the days drawn again). With 2-3 runs an arrangement one run of 20
days says little: two seeds' runs can disagree (docs/daily.md).

Last, a check of what an account is served: ``daily_arrangement`` deals an arrangement from the
deal's base code (``arrangement_order(code.order, key, draw)``); ``--served`` such arrangements a
day are certified again, and the bench prints how many the solver wins within the budget and how
many with the par the draw was kept with (all of them, if what is served is what was certified).
Asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from games.competition import daily  # noqa: E402
from games.competition.arrangements import arrangement_order  # noqa: E402
from games.engine import Game, GameCode  # noqa: E402
from games.solver import Verdict  # noqa: E402
from games.solver.hint import _kind, position_key, rate  # noqa: E402

MOVE_LIMIT = 400
PACE_SIGMA = 0.5


@dataclass
class Certified:
    """One certifying solve of an arrangement, as ``daily_certify`` ran it."""

    order: list[int]
    won: bool
    par: int | None
    nodes: int


@dataclass
class Day:
    number: int
    opening: list[int]
    key: bytes
    base: GameCode
    kept: dict[int, int]  # draw -> par
    certified: list[Certified] = field(default_factory=list)  # by draw, the kept opening's

    @property
    def won(self) -> list[int]:
        return [draw for draw, c in enumerate(self.certified) if c.won]


class Recorder:
    """``daily_draw`` made reproducible and watched: a seeded opening and key, and each
    certifying solve recorded (``games.competition.daily.solve`` wrapped: the product's call, its result)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.openings: list[tuple[list[int], list[Certified]]] = []
        self._solve = daily.solve

    def random_order(self) -> list[int]:
        deck = list(range(52))
        self.rng.shuffle(deck)
        self.openings.append((deck, []))
        return deck

    def token_bytes(self, n: int) -> bytes:
        return self.rng.randbytes(n)

    def solve(self, game, **budget):  # type: ignore[no-untyped-def]
        result = self._solve(game, **budget)
        won = result.verdict is Verdict.WINNABLE and result.moves is not None
        self.openings[-1][1].append(
            Certified(list(game.code.order), won, len(result.moves) if won else None, result.nodes)
        )
        return result


def draw_day(number: int, arrangements: int, seed: int) -> Day:
    recorder = Recorder(random.Random(f"arrangements-bench:{seed}:{number}"))
    saved = daily.random_order, daily.secrets, daily.solve
    daily.random_order, daily.secrets, daily.solve = recorder.random_order, recorder, recorder.solve  # type: ignore[assignment]
    try:
        drawn = daily.daily_draw(arrangements=arrangements)
    finally:
        daily.random_order, daily.secrets, daily.solve = saved
    opening, certified = recorder.openings[-1]
    return Day(number, opening, drawn.key, drawn.code, dict(zip(drawn.draws, drawn.pars, strict=True)), certified)


def play(code: GameCode, salt: str, samples: int, nodes: int) -> tuple[bool, int]:
    """The hint's Monte-Carlo followed from the first move with ``salt``'s samples: won, moves."""
    game = Game.new(code)
    seen = [position_key(game)]
    had = set(seen)
    moves = 0
    while not game.is_won and moves < MOVE_LIMIT:
        rating = rate(game, seen, salt=salt, samples=samples, max_nodes=nodes)
        best = rating.best
        if best is None or (rating.won(best) == 0 and _kind(game, best) == 0):
            break
        game.play(best)
        key = position_key(game)
        if key in had:
            break
        seen.append(key)
        had.add(key)
        moves += 1
    return game.is_won, moves


def seconds(moves: int, pace: float, rng: random.Random) -> float:
    return sum(pace * rng.lognormvariate(0.0, PACE_SIGMA) for _ in range(moves))


@dataclass
class Anova:
    """Sums of squares and degrees of freedom of one-way analyses, added over days."""

    ssb: float = 0.0
    ssw: float = 0.0
    dfb: int = 0
    dfw: int = 0
    n: int = 0
    n_sq: float = 0.0  # for the average group size n0 (unbalanced groups)
    groups: int = 0
    etas: list[float] = field(default_factory=list)
    days: list[list[list[float]]] = field(default_factory=list)

    def add(self, groups: list[list[float]]) -> None:
        groups = [g for g in groups if g]
        self.days.append(groups)
        if len(groups) < 2:
            return
        values = [x for g in groups for x in g]
        mean = statistics.fmean(values)
        ssb = sum(len(g) * (statistics.fmean(g) - mean) ** 2 for g in groups)
        ssw = sum((x - statistics.fmean(g)) ** 2 for g in groups for x in g)
        self.ssb, self.ssw = self.ssb + ssb, self.ssw + ssw
        self.dfb, self.dfw = self.dfb + len(groups) - 1, self.dfw + len(values) - len(groups)
        self.n += len(values)
        self.n_sq += len(values) - sum(len(g) ** 2 for g in groups) / len(values)
        self.groups += len(groups)
        if ssb + ssw > 0:
            self.etas.append(ssb / (ssb + ssw))

    @property
    def eta(self) -> float:
        return self.ssb / (self.ssb + self.ssw) if self.ssb + self.ssw > 0 else math.nan

    @property
    def icc(self) -> float:
        if not self.dfb or not self.dfw:
            return math.nan
        msb, msw = self.ssb / self.dfb, self.ssw / self.dfw
        n0 = self.n_sq / self.dfb
        return (msb - msw) / (msb + (n0 - 1) * msw) if msb + (n0 - 1) * msw > 0 else math.nan

    @property
    def null_eta(self) -> float:
        """eta squared with no effect at all: its expectation, dfb / (dfb + dfw)."""
        return self.dfb / (self.dfb + self.dfw) if self.dfb + self.dfw else math.nan

    def interval(self, rng: random.Random, rounds: int = 1000) -> tuple[float, float]:
        """A 90 % bootstrap interval of the ICC, the days drawn again with replacement."""
        iccs = []
        for _ in range(rounds):
            again = Anova()
            for groups in rng.choices(self.days, k=len(self.days)):
                again.add(groups)
            if not math.isnan(again.icc):
                iccs.append(again.icc)
        iccs.sort()
        return (iccs[len(iccs) // 20], iccs[-len(iccs) // 20 - 1]) if iccs else (math.nan, math.nan)

    def line(self, what: str) -> str:
        per_day = f"{statistics.fmean(self.etas):.2f}" if self.etas else "-"
        low, high = self.interval(random.Random(0))
        return (
            f"{what}: between arrangements {100 * self.eta:.0f} % of the variance (pure noise would give "
            f"{100 * self.null_eta:.0f} %; mean of the days {per_day}), ICC {self.icc:+.2f} (90 % of the "
            f"days' bootstrap {low:+.2f} to {high:+.2f}; {self.groups} arrangements, {self.n} runs)"
        )


def spread(values: list[int]) -> str:
    return f"{min(values)}/{statistics.median(values):g}/{max(values)}" if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=int, default=20)
    parser.add_argument("--arrangements", type=int, default=256, help="kept a day (DAILY_ARRANGEMENTS is 16,384)")
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--sample", type=int, default=4, help="arrangements played a day, per set")
    parser.add_argument("--runs", type=int, default=2, help="runs of each arrangement played")
    parser.add_argument("--samples", type=int, default=8, help="the player's samples a move")
    parser.add_argument("--nodes", type=int, default=1000, help="the player's nodes a sample and move")
    parser.add_argument("--pace", type=float, default=2.5, help="seconds a move (median)")
    parser.add_argument("--served", type=int, default=32, help="served arrangements certified again a day")
    args, _ = parser.parse_known_args()
    band = settings.DAILY_PAR_BAND
    print(
        f"arrangements: {args.days} days of {args.arrangements} arrangements, certified within "
        f"{settings.DAILY_CERTIFY_NODES} nodes, band +-{band} around the median par; seed {args.seed}; player: "
        f"{args.sample} arrangements a set x {args.runs} runs, {args.samples} samples x {args.nodes} nodes, "
        f"{args.pace} s a move",
        flush=True,
    )
    begin = time.perf_counter()
    rng = random.Random(args.seed)
    anova = {(s, w): Anova() for s in ("band", "none") for w in ("won", "time")}
    par_moves: list[tuple[int, int]] = []
    won_runs = {"band": 0, "none": 0}
    all_runs = {"band": 0, "none": 0}
    served_won = served_in = served_all = 0
    day_spreads = {"band": [], "none": [], "nodes": []}
    for number in range(1, args.days + 1):
        t0 = time.process_time()
        day = draw_day(number, args.arrangements, args.seed)
        cpu = time.process_time() - t0
        kept_pars = list(day.kept.values())
        won = day.won
        all_pars = [day.certified[d].par for d in won]
        kept_nodes = [day.certified[d].nodes for d in day.kept]
        all_nodes = [day.certified[d].nodes for d in won]
        day_spreads["band"].append(max(kept_pars) - min(kept_pars))
        day_spreads["none"].append(max(all_pars) - min(all_pars))
        day_spreads["nodes"].append(statistics.pstdev(kept_nodes) / statistics.fmean(kept_nodes))
        print(
            f"day {number}: tried {len(day.certified)}, won {len(won)}, kept {len(day.kept)} ({cpu:.1f} s CPU); "
            f"par kept {spread(kept_pars)}, all won {spread(all_pars)}; nodes kept {spread(kept_nodes)}, "
            f"all won {spread(all_nodes)}",
            flush=True,
        )
        # What an account is served (games.competition.daily.daily_arrangement's formula), certified again.
        for index in rng.sample(range(len(day.kept)), min(args.served, len(day.kept))):
            draw = list(day.kept)[index]
            par = daily.daily_certify(GameCode.from_order(arrangement_order(day.base.order, day.key, draw)))
            served_all += 1
            served_won += par is not None
            served_in += par == day.kept[draw]
        sets = {"band": rng.sample(list(day.kept), args.sample), "none": rng.sample(won, args.sample)}
        for name, draws in sets.items():
            won_groups: list[list[float]] = []
            time_groups: list[list[float]] = []
            for draw in draws:
                code = GameCode.from_order(day.certified[draw].order)
                results = [play(code, f"run{number}.{draw}.{r}", args.samples, args.nodes) for r in range(args.runs)]
                won_groups.append([float(w) for w, _ in results])
                won_runs[name] += sum(w for w, _ in results)
                all_runs[name] += len(results)
                time_groups.append([seconds(m, args.pace, rng) for w, m in results if w])
                par_moves.extend((day.certified[draw].par, m) for w, m in results if w)
                print(
                    f"day {number} {name}: draw {draw} par {day.certified[draw].par}: "
                    + ", ".join(f"{'won' if w else 'lost'} {m}" for w, m in results),
                    flush=True,
                )
            anova[name, "won"].add(won_groups)
            anova[name, "time"].add(time_groups)
    print(f"arrangements: took {time.perf_counter() - begin:.0f} s")
    for key, values in (("band", day_spreads["band"]), ("none", day_spreads["none"])):
        what = "kept (band)" if key == "band" else "all certified (no band)"
        print(f"spread of the par within a day, {what}: max-min {spread(values)} (min/median/max over the days)")
    nodes = day_spreads["nodes"]
    print(f"solver effort within a day (kept): coefficient of variation {min(nodes):.2f}-{max(nodes):.2f}")
    for name, label in (("band", "band"), ("none", "no band")):
        print(f"{label}: won {won_runs[name]} of {all_runs[name]} runs")
        print(anova[name, "won"].line(f"{label}: win"))
        print(anova[name, "time"].line(f"{label}: time of a won run"))
    if len(par_moves) > 2:
        pars, moves = zip(*par_moves, strict=True)
        print(
            f"par vs the player's moves (won runs): correlation {statistics.correlation(pars, moves):+.2f}, "
            f"moves {spread(list(moves))}"
        )
    print(
        f"served (daily_arrangement): {served_won} of {served_all} won by the solver within "
        f"{settings.DAILY_CERTIFY_NODES} nodes, {served_in} with the par it was kept with"
    )


if __name__ == "__main__":
    main()
