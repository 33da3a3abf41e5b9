"""How often Yukon is winnable: the solver over samples of random deals, with 95 % intervals.

``python -m games.solver --sample N`` and ``bench/solver_bench.py`` print these reports.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
from dataclasses import dataclass

from games.engine.codes import MAX_NUMBER, GameCode, Rule
from games.engine.game import Game

from .search import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS, SolveResult, Verdict, solve

__all__ = ["SampleReport", "sample", "wilson"]


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a share.

    >>> tuple(round(x, 3) for x in wilson(90, 100))
    (0.826, 0.945)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _share(k: int, n: int, low: float, high: float) -> str:
    return f"{100 * k / max(n, 1):5.1f} %  (95 % CI {100 * low:5.1f} – {100 * high:5.1f} %)"


@dataclass(frozen=True, slots=True)
class SampleReport:
    """What a sample of random deals gave: counts, times (seconds), solution lengths."""

    rule: Rule
    results: tuple[tuple[GameCode, SolveResult], ...]

    def count(self, verdict: Verdict) -> int:
        return sum(1 for _, result in self.results if result.verdict is verdict)

    def lines(self) -> list[str]:
        n = len(self.results)
        out = [f"{self.rule.value}: {n} random deals"]
        for verdict in Verdict:
            k = self.count(verdict)
            low, high = wilson(k, n)
            out.append(f"  {verdict.value:<13} {k:5d}  {_share(k, n, low, high)}")
        decided = n - self.count(Verdict.UNKNOWN)
        low, high = wilson(decided, n)
        out.append(f"  {'decided':<13} {decided:5d}  {_share(decided, n, low, high)}")
        times = sorted(result.seconds for _, result in self.results)
        if times:
            p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]
            median = statistics.median(times)
            out.append(f"  time per deal: median {median:.3f} s, p95 {p95:.3f} s, max {times[-1]:.3f} s")
        lengths = [len(result.moves) for _, result in self.results if result.moves is not None]
        if lengths:
            middle = statistics.median(lengths)
            out.append(f"  solution length: median {middle:.0f} moves (min {min(lengths)}, max {max(lengths)})")
        return out


def sample(
    rule: Rule,
    count: int,
    *,
    seed: int = 1,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    progress: bool = False,
) -> SampleReport:
    """Solve ``count`` random deals (deal numbers drawn from ``seed``: repeatable)."""
    rng = random.Random(seed)
    results = []
    for i in range(count):
        code = GameCode(rule, rng.randrange(MAX_NUMBER + 1))
        result = solve(Game.new(code), max_seconds=max_seconds, max_nodes=max_nodes)
        results.append((code, result))
        if progress:
            verdict = result.verdict.value
            print(f"  {i + 1:5d} {code} {verdict:<13} {result.seconds:6.2f} s {result.nodes:9d} nodes", file=sys.stderr)
    return SampleReport(rule, tuple(results))
