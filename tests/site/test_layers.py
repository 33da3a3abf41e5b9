"""Dependencies point one way: games knows nothing of stats; stats listens to the games' events.
Presenters render what they are given and never query the database."""

from __future__ import annotations

import ast
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games import presenters, selectors, signals
from games import tasks as games_tasks
from games.daily import utc_today
from games.models import DailyDeal, Game, MoveLog
from stats import tasks as stats_tasks
from tests import factories

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"


def imports_of(source: str, package: str) -> list[str]:
    """Every module ``source`` (a module of ``package``) imports anywhere, also inside a function,
    as absolute names."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            names.append(".".join([*base, *([node.module] if node.module else [])]))
    return names


def _package(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts if parts[-1] == "__init__" else parts[:-1]).removesuffix(".__init__")


@pytest.mark.parametrize("path", sorted(GAMES.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_of_games_imports_stats(path: Path) -> None:
    source = path.read_text()
    offending = [name for name in imports_of(source, _package(path)) if name.split(".")[0] == "stats"]
    assert offending == [], f"{path.relative_to(ROOT)} imports {offending}: send an event (games.signals) instead"
    assert 'import_module("stats' not in source


def test_the_scan_sees_late_and_relative_imports() -> None:
    late = "def board():\n    from stats import tasks\n"
    assert imports_of(late, "games") == ["stats"]
    assert imports_of("from ..stats.tasks import x\n", "games.engine") == ["games.stats.tasks"]
    assert imports_of("from .. import stats\n", "games.engine") == ["games"]
    assert imports_of("from .models import Game\n", "games") == ["games.models"]
    assert "games.engine.cards" in imports_of((GAMES / "engine" / "game.py").read_text(), "games.engine")


@pytest.mark.django_db
def test_stats_and_games_hand_the_games_events_to_their_tasks(monkeypatch, django_capture_on_commit_callbacks) -> None:
    sent = []
    for module, name in (
        (stats_tasks, "personal_best_update"),
        (stats_tasks, "daily_result_update"),
        (games_tasks, "game_postmortem"),
        (games_tasks, "ranked_win_review"),
    ):
        record = lambda game_id, name=name: sent.append((name, game_id))  # noqa: E731
        monkeypatch.setattr(getattr(module, name), "delay", record)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        signals.game_won.send(sender=Game, game_id="g1", ranked=False)
        signals.game_won.send(sender=Game, game_id="g2", ranked=True)
        signals.ranked_results_changed.send(sender=Game, game_ids=["g3", "g4"])

    assert len(callbacks) == 1  # the post-mortem goes out once the transaction commits

    assert sorted(sent) == sorted(
        [
            ("game_postmortem", "g1"),  # a ranked attempt (g2) is a daily deal's: analysed once its day is over
            ("personal_best_update", "g1"),
            ("personal_best_update", "g2"),
            ("ranked_win_review", "g2"),  # games reviews its ranked win; its verdict is the next event
            ("daily_result_update", "g3"),
            ("daily_result_update", "g4"),
        ]
    )


@pytest.mark.django_db
def test_presenters_render_a_past_daily_game_without_a_query(django_assert_num_queries) -> None:
    day = utc_today() - timedelta(days=1)
    DailyDeal.objects.create(date=day, code="YU1-C-AAAAAAB", solution_length=97)
    game = factories.game(owner=factories.user(), daily=day)
    entry = MoveLog(game=game, seq=1, move="t1>f", points=10, flipped="", created_at=timezone.now())
    now = timezone.now()
    length = selectors.daily_solution_length(game=game, now=now)
    with django_assert_num_queries(0):
        state = presenters.game_state(game=game, now=now, solution_length=length)
        summary = presenters.game_summary(game=game, now=now)
        presenters.move_log_entry(entry)
    assert state["solution_length"] == 97 and state["code"] == summary["code"] == "YU1-C-AAAAAAB"
