"""The hint followed from the first move to the last (issue 27): on seeded winnable classic and
relaxed deals, how many it wins alone, whether it ever goes round in a loop, and what it costs.

Run with ``make bench`` or ``python bench/hint_bench.py [--deals N] [--rule C|R] [--seed S]``
(per rule, default 100). A deal counts when the full-information solver wins it (1,000,000
nodes). Prints won %, loops (a hint back to a position the game had: must be 0), stuck (the hint
says "no progress"), hit the move limit, the hint's CPU time (median, p95, max), and for the deals
lost: from the last position the full-information solver still wins (the moment the hint first
went wrong), whether the hint's last position is still won by it ("lost by search": the hint
never made a fatal move) or not ("lost to the hidden cards": a move made without seeing them).
Floor: 0 loops, >= 60 % of the classic deals won, p95 <= 300 ms. Asserts nothing.

Comparing two versions of the hint (issue 36), on the same deals, paired:

``--save FILE.json`` writes each deal played (its code, its rule, whether the hint won it, its
hints and their CPU time), the CPU figures printed (median, p95, max per rule), the arguments
(seed, deals, rule, samples, nodes) and the code it ran (the checkout's commit), after every deal.
``--code DIR`` plays the hint of another checkout (``games`` is imported from DIR), e.g. a
``git worktree`` of an older commit, whose own bench may not have ``--save`` yet::

    git worktree add /tmp/hint-a <old commit>
    python bench/hint_bench.py --rule C --seed 27 --deals 400 --code /tmp/hint-a --save a.json
    python bench/hint_bench.py --rule C --seed 27 --deals 400 --save b.json
    python bench/hint_bench.py --paired a.json b.json

``--paired A.json B.json`` plays nothing: it refuses (exit 2) two files that are not over the
same deals (same seed, deals and rule, the same codes in the same order, every deal played), and
otherwise prints per rule each version's wins and won % of the winnable deals, the deals won by A
and lost by B and those won by B and lost by A (counts and codes), and McNemar's exact two-sided
p-value (:func:`mcnemar_p`: a binomial test on those two counts; a step counts at p < 0.05). Tune
on one seed and report on another, one no variant was tried on: a variant picked because it won
more deals of one set won some of them by chance.

``--fatal FILE.json`` looks at the decisions that lost the deals of a saved run lost to the hidden
cards: it replays the hint (with the run's samples and nodes; the same code gives the same moves)
to the position before the fatal move, rates it again, and asks the full-information solver which
fresh moves still win. A line per deal (cards face down, the move chosen and the samples it won,
the best move that still wins and its samples), then how the fatal moves were chosen: on a tie with
a move that still wins (the rule of thumb chose), by one sample, by two, by more, or with no move
left that provably wins; how many won every sample (where a finer tie-break among sure moves could
act); and the cards face down at those decisions (an exact endgame over every arrangement reaches
only decisions with 6 or fewer).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path


def _code_root(argv: list[str]) -> Path:
    """The checkout whose ``games`` the bench plays: ``--code DIR``, or the bench's own."""
    for index, arg in enumerate(argv):
        if arg == "--code" and index + 1 < len(argv):
            return Path(argv[index + 1]).resolve()
        if arg.startswith("--code="):
            return Path(arg.split("=", 1)[1]).resolve()
    return Path(__file__).resolve().parent.parent


CODE_ROOT = _code_root(sys.argv)
sys.path.insert(0, str(CODE_ROOT))

from games.engine import Game, GameCode, Rule  # noqa: E402
from games.engine.codes import MAX_NUMBER  # noqa: E402
from games.solver import Verdict, solve  # noqa: E402
from games.solver.hint import HINT_NODES, HINT_SAMPLES, advise, position_key, rate  # noqa: E402

SAVE_FORMAT = "hint_bench/1"
MOVE_LIMIT = 500
DEAL_NODES = 1_000_000  # winnable deals: the full-information solver's budget
CHECK_NODES = 300_000  # where the hint went wrong


@dataclass
class Tally:
    won: int = 0
    loops: int = 0
    stuck: int = 0
    limit: int = 0
    by_search: int = 0
    by_hidden: int = 0
    undecided: int = 0
    times: list[float] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)


def winnable_deals(rule: Rule, count: int, seed: int) -> list[GameCode]:
    rng = random.Random(seed)
    out: list[GameCode] = []
    while len(out) < count:
        code = GameCode(rule, rng.randrange(MAX_NUMBER + 1))
        if solve(Game.new(code), max_nodes=DEAL_NODES, max_seconds=None).verdict is Verdict.WINNABLE:
            out.append(code)
    return out


def _wins(game: Game) -> bool | None:
    verdict = solve(game, max_nodes=CHECK_NODES, max_seconds=None).verdict
    return None if verdict is Verdict.UNKNOWN else verdict is Verdict.WINNABLE


def follow(code: GameCode, tally: Tally, samples: int = HINT_SAMPLES, nodes: int = HINT_NODES) -> str:
    """Play the hint's moves from the deal until the game is won, the hint gives up, a position
    comes back or the move limit is hit; what became of it (a word, for the progress lines)."""
    game = Game.new(code)
    end = ""
    seen = [position_key(game)]
    had = set(seen)
    path = [game.copy()]
    while not game.is_won:
        if len(path) > MOVE_LIMIT:
            tally.limit += 1
            end = "move limit"
            break
        begin = time.process_time()
        advice = advise(game, seen, samples=samples, max_nodes=nodes)
        tally.times.append(time.process_time() - begin)
        if advice.move is None:
            tally.stuck += 1
            end = "stuck"
            break
        game.play(advice.move)
        key = position_key(game)
        if key in had:
            tally.loops += 1
            end = "LOOP"
            break
        seen.append(key)
        had.add(key)
        path.append(game.copy())
    moves = f"{len(path) - 1} moves"
    if game.is_won:
        tally.won += 1
        return f"won ({moves})"
    tally.lost.append(str(code))
    last = _wins(path[-1])
    if last:
        tally.by_search += 1
        return f"{end} ({moves}), lost by search"
    if last is None:
        tally.undecided += 1
        return f"{end} ({moves}), undecided"
    # Winnability only falls along a path: find the last position still won (binary search).
    low, high = 0, len(path) - 1  # path[low] wins (the deal does), path[high] does not
    while high - low > 1:
        mid = (low + high) // 2
        answer = _wins(path[mid])
        if answer is None:
            tally.undecided += 1
            return f"{end} ({moves}), undecided"
        low, high = (mid, high) if answer else (low, mid)
    tally.by_hidden += 1
    return f"{end} ({moves}), lost to the hidden cards at move {low + 1}"


@dataclass(frozen=True)
class Decision:
    """The decision before the fatal move of a deal lost to the hidden cards (``--fatal``)."""

    code: str
    move: int  # the fatal move's number, from 1
    down: int  # cards face down before it
    chosen: str
    chosen_won: int  # samples won after it
    samples: int
    kept: tuple[tuple[str, int], ...]  # the fresh moves the solver still wins after, and their samples won
    replayed: bool  # the replay chose a move the solver loses after (as the saved run did)

    @property
    def margin(self) -> int | None:
        """Samples the fatal move won more than the best move that still wins (None: no such move)."""
        return self.chosen_won - max(won for _, won in self.kept) if self.kept else None


def fatal_decision(code: GameCode, move: int, samples: int = HINT_SAMPLES, nodes: int = HINT_NODES) -> Decision:
    """Replay the hint's first ``move - 1`` moves of ``code`` and look at its next decision."""
    game = Game.new(code)
    seen = [position_key(game)]
    for _ in range(move - 1):
        advice = advise(game, seen, samples=samples, max_nodes=nodes)
        if advice.move is None:
            break
        game.play(advice.move)
        seen.append(position_key(game))
    rating = rate(game, seen, samples=samples, max_nodes=nodes)
    verdicts = {}
    for fresh in rating.fresh:
        after = game.copy()
        after.play(fresh)
        verdicts[fresh] = _wins(after)
    kept = tuple((str(m), rating.won(m)) for m in rating.fresh if verdicts[m])
    best = rating.best
    return Decision(
        code=str(code),
        move=move,
        down=sum(game.down),
        chosen=str(best),
        chosen_won=rating.won(best) if best is not None else 0,
        samples=samples,
        kept=tuple(sorted(kept, key=lambda item: -item[1])),
        replayed=best is not None and verdicts[best] is False,
    )


def fatal_summary(decisions: list[Decision]) -> list[str]:
    """How the fatal moves were chosen, and the cards face down at them (lines to print)."""
    looked = [d for d in decisions if d.replayed]
    lines = [f"fatal: {len(decisions)} decisions replayed, {len(looked)} chose the fatal move again"]
    if not looked:
        return lines
    margins = [d.margin for d in looked]
    lines.append(
        f"fatal: a move that still wins won as many samples (a tie: the rule of thumb chose) "
        f"{margins.count(0)}, one fewer {margins.count(1)}, two fewer {margins.count(2)}, three or more fewer "
        f"{sum(1 for m in margins if m is not None and m >= 3)}; no fresh move provably still wins "
        f"{margins.count(None)}"
    )
    every = sum(1 for d in looked if d.chosen_won == d.samples)
    lines.append(f"fatal: the fatal move won every sample {every} (a tie among such moves is what step 5 breaks)")
    downs = sorted(d.down for d in looked)
    lines.append(
        f"fatal: cards face down at the decision: min {downs[0]}, median {statistics.median(downs):g}, max "
        f"{downs[-1]}; with 6 or fewer {sum(1 for x in downs if x <= 6)}"
    )
    return lines


def fatal(path: str) -> list[str]:
    """``--fatal``: every deal of the saved run at ``path`` lost to the hidden cards, looked at."""
    record = _load(path)
    args = record["args"]
    samples, nodes = args.get("samples", HINT_SAMPLES), args.get("nodes", HINT_NODES)
    decisions = []
    for deal in record["deals"]:
        found = re.search(r"lost to the hidden cards at move (\d+)", deal.get("end", ""))
        if not found:
            continue
        decision = fatal_decision(GameCode.parse(deal["code"]), int(found.group(1)), samples, nodes)
        decisions.append(decision)
        best = f"{decision.kept[0][0]} won {decision.kept[0][1]}" if decision.kept else "none"
        print(
            f"fatal: {decision.code} move {decision.move}, {decision.down} face down: chose {decision.chosen} "
            f"(won {decision.chosen_won} of {decision.samples}"
            + ("" if decision.replayed else ", NOT the fatal move: other code?")
            + f"), the best move that still wins: {best}",
            flush=True,
        )
    return fatal_summary(decisions)


def mcnemar_p(b: int, c: int) -> float:
    """McNemar's exact two-sided p-value for ``b`` deals won by A only and ``c`` by B only: under
    "A and B are as good", each of these ``b + c`` discordant deals is won by either with
    probability 1/2 (a binomial test).

    >>> mcnemar_p(0, 6)
    0.03125
    >>> mcnemar_p(5, 5)
    1.0
    >>> mcnemar_p(0, 0)
    1.0
    >>> round(mcnemar_p(10, 28), 4)
    0.0051
    """
    if b < 0 or c < 0:
        raise ValueError("counts must not be negative")
    n = b + c
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return min(1.0, 2 * tail / 2**n)


def _commit(root: Path) -> str | None:
    """The commit of the checkout at ``root`` (with "+dirty" when it has changes), if git says."""
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
        status = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no", "--", "games"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return head.stdout.strip() + ("+dirty" if status.stdout.strip() else "")


def _cpu(times: list[float]) -> dict[str, float | int]:
    """The hint's CPU figures (ms) as printed: hints, median, p95, max."""
    times = sorted(times)
    if not times:
        return {"hints": 0}
    return {
        "hints": len(times),
        "median_ms": round(1000 * statistics.median(times), 1),
        "p95_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 1),
        "max_ms": round(1000 * times[-1], 1),
    }


def _write(path: Path, record: dict) -> None:
    """Write ``record`` to ``path`` as JSON, whole or not at all (a run stopped midway leaves the
    deals played so far)."""
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(record, indent=1) + "\n")
    os.replace(part, path)


class SavedRunError(Exception):
    """A saved run that cannot be read, or two that cannot be compared (the message says why)."""


def _load(path: str) -> dict:
    try:
        record = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise SavedRunError(f"{path}: cannot read it: {error}") from None
    if not isinstance(record, dict) or record.get("format") != SAVE_FORMAT:
        raise SavedRunError(f"{path}: not a file of hint_bench.py --save (format {SAVE_FORMAT})")
    if not record.get("complete"):
        raise SavedRunError(f"{path}: the run did not finish (not every deal was played)")
    return record


def paired(path_a: str, path_b: str) -> list[str]:
    """The comparison of two saved runs (lines to print); :class:`SavedRunError` if they are not
    over the same deals."""
    a, b = _load(path_a), _load(path_b)
    for key in ("seed", "deals", "rule"):
        if a["args"].get(key) != b["args"].get(key):
            raise SavedRunError(
                f"not the same deals: {key} {a['args'].get(key)!r} in {path_a}, {b['args'].get(key)!r} in {path_b}"
            )
    deals_a = [(d["rule"], d["code"]) for d in a["deals"]]
    deals_b = [(d["rule"], d["code"]) for d in b["deals"]]
    if deals_a != deals_b:
        pairs = zip(deals_a, deals_b, strict=False)
        first = next((i for i, (x, y) in enumerate(pairs) if x != y), min(len(deals_a), len(deals_b)))
        raise SavedRunError(
            f"not the same deals: {len(deals_a)} in {path_a}, {len(deals_b)} in {path_b}, first difference at deal "
            f"{first + 1} (the winnable deals are chosen by the solver of each version: did it change?)"
        )
    lines = [f"paired: seed {a['args']['seed']}, {a['args']['deals']} winnable deals a rule, the same in both files"]
    for name, path, record in (("A", path_a, a), ("B", path_b, b)):
        args = record["args"]
        lines.append(
            f"paired: {name} = {path}: code {record.get('commit') or '?'}, samples {args.get('samples')}, "
            f"nodes {args.get('nodes')}"
        )
    for rule in dict.fromkeys(d["rule"] for d in a["deals"]):
        won_a = {d["code"]: d["won"] for d in a["deals"] if d["rule"] == rule}
        won_b = {d["code"]: d["won"] for d in b["deals"] if d["rule"] == rule}
        n = len(won_a)
        only_a = [code for code in won_a if won_a[code] and not won_b[code]]
        only_b = [code for code in won_a if won_b[code] and not won_a[code]]
        for name, won, record in (("A", won_a, a), ("B", won_b, b)):
            wins = sum(won.values())
            cpu = {key: f"{value} ms" for key, value in record.get("cpu", {}).get(rule, {}).items()}
            lines.append(
                f"paired: {rule}: {name} won {wins} of {n} winnable deals ({100 * wins / n:.1f} %); hint CPU median "
                f"{cpu.get('median_ms', '?')}, p95 {cpu.get('p95_ms', '?')}, max {cpu.get('max_ms', '?')}"
            )
        lines.append(f"paired: {rule}: won by A, lost by B: {len(only_a)} {' '.join(only_a)}".rstrip())
        lines.append(f"paired: {rule}: won by B, lost by A: {len(only_b)} {' '.join(only_b)}".rstrip())
        lines.append(
            f"paired: {rule}: B - A = {len(only_b) - len(only_a):+d} deals, McNemar exact two-sided "
            f"p = {mcnemar_p(len(only_a), len(only_b)):.4g}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100, help="winnable deals per rule")
    parser.add_argument("--rule", choices=["C", "R"], help="one rule only")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--samples", type=int, default=HINT_SAMPLES, help="the hint's samples (to tune it)")
    parser.add_argument("--nodes", type=int, default=HINT_NODES, help="the hint's nodes per sample")
    parser.add_argument("--save", metavar="FILE.json", help="write each deal's outcome, for --paired")
    parser.add_argument("--code", metavar="DIR", help="play the hint of the checkout at DIR (default: this one)")
    parser.add_argument(
        "--paired", nargs=2, metavar=("A.json", "B.json"), help="compare two runs saved with --save (plays nothing)"
    )
    parser.add_argument("--fatal", metavar="FILE.json", help="look at the fatal decisions of a saved run")
    args, _ = parser.parse_known_args()  # make bench may pass options meant for other benches
    if args.code and Path(args.code).resolve() != CODE_ROOT:  # e.g. abbreviated: --co DIR
        sys.exit(f"hint_bench.py: write --code {args.code} in full (games was imported from {CODE_ROOT})")
    games_dir = Path(sys.modules[Game.__module__].__file__ or "").resolve()
    if not games_dir.is_relative_to(CODE_ROOT):
        sys.exit(f"hint_bench.py: games was imported from {games_dir}, not from {CODE_ROOT}")
    if args.fatal:
        try:
            lines = fatal(args.fatal)
        except SavedRunError as error:
            print(f"hint_bench.py --fatal: {error}", file=sys.stderr)
            sys.exit(2)
        print("\n".join(lines))
        return
    if args.paired:
        try:
            lines = paired(*args.paired)
        except SavedRunError as error:
            print(f"hint_bench.py --paired: {error}", file=sys.stderr)
            sys.exit(2)
        print("\n".join(lines))
        return
    rules = [Rule.from_letter(args.rule)] if args.rule else [Rule.CLASSIC, Rule.RELAXED]
    record: dict = {
        "format": SAVE_FORMAT,
        "args": {
            "seed": args.seed,
            "deals": args.deals,
            "rule": args.rule,
            "samples": args.samples,
            "nodes": args.nodes,
        },
        "code": str(CODE_ROOT),
        "commit": _commit(CODE_ROOT),
        "complete": False,
        "deals": [],
        "cpu": {},
    }
    save = Path(args.save) if args.save else None
    for rule in rules:
        begin = time.perf_counter()
        deals = winnable_deals(rule, args.deals, args.seed)
        tally = Tally()
        for number, code in enumerate(deals, 1):
            won, hints = tally.won, len(tally.times)
            end = follow(code, tally, args.samples, args.nodes)
            print(f"hint: {rule.value}: {number}/{len(deals)} {code}: {end}; won {tally.won}/{number}", flush=True)
            if save:
                times = tally.times[hints:]
                record["deals"].append(
                    {
                        "code": str(code),
                        "rule": rule.value,
                        "won": tally.won > won,
                        "end": end,
                        "hints": len(times),
                        "cpu_s": round(sum(times), 4),
                        "cpu_max_ms": round(1000 * max(times, default=0.0), 1),
                    }
                )
                record["cpu"][rule.value] = _cpu(tally.times)
                _write(save, record)
        n = len(deals)
        times = sorted(tally.times)
        p95 = times[int(0.95 * (len(times) - 1))]
        print(
            f"hint: {rule.value}: {n} winnable deals, won {tally.won} ({100 * tally.won / n:.0f} %), "
            f"loops {tally.loops}, stuck {tally.stuck}, move limit {tally.limit}"
        )
        print(
            f"hint: {rule.value}: {len(times)} hints, CPU median {1000 * statistics.median(times):.0f} ms, "
            f"p95 {1000 * p95:.0f} ms, max {1000 * times[-1]:.0f} ms"
        )
        print(
            f"hint: {rule.value}: of {n - tally.won} lost, {tally.by_hidden} lost to the hidden cards "
            f"(the full-information solver wins where the hint first went wrong), {tally.by_search} "
            f"lost by search (it wins the hint's last position), {tally.undecided} undecided"
        )
        if tally.lost:
            print(f"hint: {rule.value}: lost {' '.join(tally.lost[:20])}")
        print(f"hint: {rule.value} took {time.perf_counter() - begin:.0f} s")
    if save:
        record["complete"] = True
        _write(save, record)
        print(f"hint: saved {len(record['deals'])} deals to {save}")


if __name__ == "__main__":
    main()
