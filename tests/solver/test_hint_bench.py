"""``bench/hint_bench.py --paired`` (issue 36): McNemar's exact p-value, and the comparison of two
saved runs, which refuses runs over other deals (no deal is played here)."""

from __future__ import annotations

import doctest
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "hint_bench.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hint_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("b", "c", "p"),
    [(0, 6, 0.03125), (6, 0, 0.03125), (5, 5, 1.0), (0, 0, 1.0), (0, 1, 1.0), (0, 5, 0.0625), (1, 7, 0.0703125)],
)
def test_mcnemar_p(bench: ModuleType, b: int, c: int, p: float) -> None:
    assert bench.mcnemar_p(b, c) == pytest.approx(p, rel=1e-12)


def test_mcnemar_p_of_many_deals_is_a_probability(bench: ModuleType) -> None:
    assert 0.0 <= bench.mcnemar_p(0, 2000) < 1e-300  # no overflow: exact integers, one division
    assert bench.mcnemar_p(400, 400) == 1.0
    assert bench.mcnemar_p(30, 50) == pytest.approx(0.03299, abs=1e-5)


def test_the_doctests_of_the_bench_pass(bench: ModuleType) -> None:
    assert doctest.testmod(bench).failed == 0


def run(codes: list[str], won: list[bool], *, seed: int = 27, samples: int = 24) -> dict:
    return {
        "format": "hint_bench/1",
        "args": {"seed": seed, "deals": len(codes), "rule": "C", "samples": samples, "nodes": 3000},
        "commit": "abc",
        "complete": True,
        "deals": [{"code": code, "rule": "classic", "won": w} for code, w in zip(codes, won, strict=True)],
        "cpu": {"classic": {"hints": 10, "median_ms": 20.0, "p95_ms": 150.0, "max_ms": 400.0}},
    }


CODES = ["YU1-C-AAAAAAA", "YU1-C-AAAAAAB", "YU1-C-AAAAAAC", "YU1-C-AAAAAAD", "YU1-C-AAAAAAE", "YU1-C-AAAAAAF"]


def paired(tmp_path: Path, a: dict, b: dict) -> subprocess.CompletedProcess[str]:
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "b.json").write_text(json.dumps(b))
    return subprocess.run(
        [sys.executable, str(BENCH), "--paired", str(tmp_path / "a.json"), str(tmp_path / "b.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_paired_prints_wins_the_discordant_deals_and_p(tmp_path: Path) -> None:
    a = run(CODES, [True, False, False, True, False, False])
    b = run(CODES, [True, True, True, False, True, False], samples=48)
    done = paired(tmp_path, a, b)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "A won 2 of 6 winnable deals (33.3 %)" in out
    assert "B won 4 of 6 winnable deals (66.7 %)" in out
    assert "won by A, lost by B: 1 YU1-C-AAAAAAD" in out
    assert "won by B, lost by A: 3 YU1-C-AAAAAAB YU1-C-AAAAAAC YU1-C-AAAAAAE" in out
    assert f"p = {0.625:.4g}" in out  # b=1, c=3: 2 * (1 + 4) / 16


@pytest.mark.parametrize(
    "other",
    [
        run(CODES, [True] * 6, seed=2027),  # another seed
        run(CODES[:5], [True] * 5),  # fewer deals
        run([*CODES[:5], "YU1-C-AAAAAAG"], [True] * 6),  # another deal
        {**run(CODES, [True] * 6), "complete": False},  # a run stopped midway
        {"deals": []},  # not a saved run
    ],
    ids=["seed", "deals", "codes", "incomplete", "format"],
)
def test_paired_refuses_runs_over_other_deals(tmp_path: Path, other: dict) -> None:
    done = paired(tmp_path, run(CODES, [True] * 6), other)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "hint_bench.py --paired:" in done.stderr


def decision(bench: ModuleType, margin: int | None, down: int, replayed: bool = True, won: int = 10) -> object:
    kept = () if margin is None else (("t1:5S>t3", won - margin), ("fH>t4", 3))
    return bench.Decision("YU1-C-AAAAAAA", 9, down, "t2:4H>t3", won, 24, kept, replayed)


def test_fatal_summary_counts_how_the_fatal_moves_were_chosen(bench: ModuleType) -> None:
    decisions = [decision(bench, m, d) for m, d in [(0, 17), (1, 15), (2, 9), (5, 6), (None, 12)]]
    decisions.append(decision(bench, 0, 20, won=24))
    decisions.append(decision(bench, 0, 3, replayed=False))  # another code's decision: left out
    lines = bench.fatal_summary(decisions)
    assert lines[0] == "fatal: 7 decisions replayed, 6 chose the fatal move again"
    assert "(a tie: the rule of thumb chose) 2, one fewer 1, two fewer 1, three or more fewer 1" in lines[1]
    assert lines[1].endswith("no fresh move provably still wins 1")
    assert lines[2] == "fatal: the fatal move won every sample 1 (a tie among such moves is what step 5 breaks)"
    assert lines[3] == "fatal: cards face down at the decision: min 6, median 13.5, max 20; with 6 or fewer 1"


def test_a_fatal_decision_is_replayed_and_its_alternatives_asked(bench: ModuleType) -> None:
    """The saved run of today's hint lost YU1-C-KWMLQYA (seed 27) at its second move: the replay
    chooses that move again, the full-information solver loses after it, and a move it wins after
    won no more samples."""
    found = bench.fatal_decision(bench.GameCode.parse("YU1-C-KWMLQYA"), 2)
    assert found.replayed
    assert found.kept and found.chosen not in dict(found.kept)
    assert found.margin is not None and found.margin >= 0
    assert found.down == 21 - 1  # the first move turned one card up


def test_fatal_refuses_an_abbreviated_code_option_before_replaying_anything(tmp_path: Path) -> None:
    """``--co DIR`` is taken by argparse as ``--code`` but did not choose the code imported: the
    replay would be of this checkout's hint, not DIR's."""
    (tmp_path / "run.json").write_text(json.dumps(run(CODES, [False] * 6)))
    done = subprocess.run(
        [sys.executable, str(BENCH), "--fatal", str(tmp_path / "run.json"), "--co", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "write --code" in done.stderr
    assert "fatal:" not in done.stdout
