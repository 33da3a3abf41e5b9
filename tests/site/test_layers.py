"""Dependencies point one way: every import between the project's packages runs from a higher
layer to a lower one (or stays within its package), anywhere in a module, also inside a function.

The layers, from the bottom:

0. ``common`` — the pieces every app shares (errors, parsers, sessions, rate limits, metrics): no app.
1. ``games.engine`` — the rules: the standard library only (tests/engine also checks that).
2. ``games.solver`` — beside the engine, on top of it.
3. ``games`` — games, move log, the daily deal, the competition: it sends events and knows nothing
   of the apps that listen (stats, accounts).
4. ``stats`` — boards, bests and statistics, from the games' events and rows.
5. ``accounts`` — registration, login, tokens, settings; deleting an account detaches its results
   (stats) and its games (games), so it sits above both.
6. ``frontend`` — the pages, over every app.
7. ``yukon_site`` — the project: settings, URLs, the Celery app. No app imports it: a task's app is
   ``task.app`` (``common.background``), Celery's current app (``common.metrics``).

Presenters render what they are given and never query the database."""

from __future__ import annotations

import ast
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games import signals
from games import tasks as games_tasks
from games.competition import clock
from games.engine import Game as EngineGame
from games.models import DailyDeal, Game
from games.movelog import LogEntry
from games.play import presenters, selectors
from games.play.api import outcome_state
from games.play.services import MoveOutcome
from stats import tasks as stats_tasks
from tests import factories

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"

#: Each package of the project and its layer (a package's subpackages are in it, unless named).
LAYERS = {
    "common": 0,
    "games.engine": 1,
    "games.solver": 2,
    "games": 3,
    "stats": 4,
    "social": 5,
    "accounts": 6,
    "frontend": 7,
    "yukon_site": 8,
}


def imports_of(source: str, package: str) -> list[str]:
    """Every module ``source`` (a module of ``package``) imports anywhere, also inside a function,
    as absolute names; and the names it hands to ``import_module`` or ``import_string``."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            names.append(".".join([*base, *([node.module] if node.module else [])]))
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) in ("import_module", "import_string")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.append(node.args[0].value)
    return names


def layer_of(module: str) -> tuple[str, int] | None:
    """The project package of a module name and its layer, or None for anything else."""
    for package in sorted(LAYERS, key=len, reverse=True):
        if module == package or module.startswith(package + "."):
            return package, LAYERS[package]
    return None


def _package(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts if parts[-1] == "__init__" else parts[:-1]).removesuffix(".__init__")


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def upward_imports(source: str, module: str, package: str) -> list[str]:
    """The imports of ``source`` (the module ``module`` of ``package``) that go to a higher layer."""
    own = layer_of(module)
    assert own is not None, module
    return [
        name
        for name in imports_of(source, package)
        if (other := layer_of(name)) is not None and other[0] != own[0] and other[1] > own[1]
    ]


MODULES = sorted(
    path
    for top in {name.split(".")[0] for name in LAYERS}
    for path in (ROOT / top).rglob("*.py")
    if "migrations" not in path.parts
)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_from_a_higher_layer(path: Path) -> None:
    module = _module(path)
    offending = upward_imports(path.read_text(), module, _package(path))
    assert offending == [], (
        f"{path.relative_to(ROOT)} (layer {layer_of(module)}) imports {offending} from a higher layer: "
        "move the shared piece down, or send an event (games.signals) instead"
    )


def test_every_package_of_the_project_has_a_layer() -> None:
    tops = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests", "bench", "deploy"}
    assert tops <= {name.split(".")[0] for name in LAYERS}, tops
    inside = {_module(path) for path in GAMES.glob("*/__init__.py")} - {"games.migrations", "games.management"}
    assert inside <= {*LAYERS, "games.competition"}, inside  # (a new subpackage of games: give it its layer)


def test_the_scan_sees_late_relative_and_named_imports() -> None:
    late = "def board():\n    from stats import tasks\n"
    assert imports_of(late, "games") == ["stats"]
    assert imports_of("from ..stats.tasks import x\n", "games.engine") == ["games.stats.tasks"]
    assert imports_of("from .. import stats\n", "games.engine") == ["games"]
    assert imports_of("from .models import Game\n", "games") == ["games.models"]
    assert imports_of('importlib.import_module("stats.tasks")\n', "games") == ["stats.tasks"]
    assert "games.engine.cards" in imports_of((GAMES / "engine" / "game.py").read_text(), "games.engine")


@pytest.mark.parametrize(
    ("source", "module", "package", "offending"),
    [
        (
            "def f():\n    from yukon_site.celery import app\n",
            "games.competition.daily",
            "games",
            ["yukon_site.celery"],
        ),
        ("from stats.tasks import x\n", "games.signals", "games", ["stats.tasks"]),
        ("from accounts.models import ApiToken\n", "common.auth", "common", ["accounts.models"]),
        ("from ..models import Game\n", "games.engine.game", "games.engine", ["games.models"]),
        ("from . import cards\n", "games.engine.game", "games.engine", []),
        ("from games.solver import solve\n", "games.engine.moves", "games.engine", ["games.solver"]),
        ("from games.engine import Game\n", "stats.api", "stats", []),
        ("from .services import x\n", "accounts.api", "accounts", []),
    ],
)
def test_an_import_from_a_higher_layer_is_found(source: str, module: str, package: str, offending: list[str]) -> None:
    assert upward_imports(source, module, package) == offending


@pytest.mark.django_db
def test_stats_hands_the_games_one_event_to_its_one_task_and_games_listens_to_none(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    sent = []
    for module, name in ((stats_tasks, "game_results_update"), (games_tasks, "ranked_win_review")):
        record = lambda game_id, name=name: sent.append((name, game_id))  # noqa: E731
        monkeypatch.setattr(getattr(module, name), "delay", record)

    with django_capture_on_commit_callbacks(execute=True):
        signals.results_changed.send(sender=Game, game_ids=["g1", "g2"])

    # games sends its own tasks itself (a ranked win's review, on the win's commit), never through
    # an event to itself; no post-mortem either: that waits until a player opens the game's replay.
    assert sent == [("game_results_update", "g1"), ("game_results_update", "g2")]
    connects = [
        path.relative_to(ROOT)
        for path in GAMES.rglob("*.py")
        if any(
            isinstance(node, ast.Attribute) and node.attr == "connect" for node in ast.walk(ast.parse(path.read_text()))
        )
    ]
    assert connects == []


@pytest.mark.django_db
def test_presenters_render_a_past_daily_game_without_a_query(django_assert_num_queries) -> None:
    day = clock.today() - timedelta(days=1)
    DailyDeal.objects.create(date=day, code="YU1-C-AAAAAAB", solution_length=97)
    game = factories.game(owner=factories.user(), daily=day)
    entry = LogEntry(seq=1, move="t1>f", points=10, flipped="", at=timezone.now())
    now = timezone.now()
    length = selectors.daily_solution_length(game=game, now=now)
    outcome = MoveOutcome(game=game, at=now, engine=EngineGame.from_state(game.state), solution_length=length)
    with django_assert_num_queries(0):
        state = presenters.game_state(game=game, now=now, solution_length=length)
        summary = presenters.game_summary(game=game, now=now)
        presenters.move_log_entry(entry)
        moved = outcome_state(outcome)  # a move's answer, inside its key's transaction: from the outcome
    assert state["solution_length"] == 97 and state["code"] == summary["code"] == "YU1-C-AAAAAAB"
    assert moved == state


def test_rate_limits_are_declared_once_per_operation_not_computed_by_each_view() -> None:
    """Views name each operation's limits in ``rate_limits`` (common.api.ApiView reads them);
    none writes a ``get_throttles`` of its own (issue 35: twelve copies had drifted apart)."""
    defined = []
    for package in ("games", "stats", "social", "accounts", "frontend", "common"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef) and node.name == "get_throttles":
                    defined.append(str(path.relative_to(ROOT)))
    assert defined == ["common/api.py"]


def test_every_limited_operation_counts_per_player_and_per_address() -> None:
    from rest_framework.views import APIView

    from common.api import ApiView
    from common.throttles import IpThrottle
    from yukon_site import urls  # noqa: F401 - every view imported

    views = [view for view in _subclasses(ApiView) if view.rate_limits]
    assert len(views) >= 12
    for view in views:
        assert issubclass(view, APIView)
        for method, limits in view.rate_limits.items():
            assert method in {"GET", "POST", "PUT", "PATCH", "DELETE"}, (view, method)
            assert IpThrottle in limits.by, (view, method)  # one address cannot go around a per-player limit


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


#: The modules that touch the move log's rows: the model, the one reader of both forms
#: (games.movelog), the move's write (games.play.store, games.play.services: the log entry, an undo's step),
#: and what only concerns games in play (the undo history's move into the log, idle games' last move).
MOVE_LOG_ROWS = {
    "games/models.py",
    "games/movelog.py",
    "games/play/store.py",
    "games/play/services.py",
    "games/history.py",
}
MOVE_LOG_ROWS |= {"games/lifecycle.py"}


def names_used(source: str) -> set[str]:
    return {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)} | {
        node.attr for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Attribute)
    }


def test_a_log_is_read_through_games_movelog_alone() -> None:
    # A won game's log is packed (issue 34): a reader of the rows would find a won game empty.
    readers = sorted(str(path.relative_to(ROOT)) for path in MODULES if "MoveLog" in names_used(path.read_text()))
    assert set(readers) <= MOVE_LOG_ROWS, set(readers) - MOVE_LOG_ROWS
    assert names_used("rows = MoveLog.objects.filter(game=game)") >= {"MoveLog"}  # the scan sees a use
