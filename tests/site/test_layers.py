"""Dependencies point one way: every import between the project's packages runs from a higher
layer to a lower one (or stays within its package), anywhere in a module, also inside a function;
and no modules import each other in a circle, imports inside functions counted.

The layers, from the bottom:

0. ``common`` — the pieces every app shares (errors, parsers, sessions, rate limits, metrics): no app.
1. ``games.engine`` — the rules: the standard library only (tests/engine also checks that).
2. ``games.solver`` — beside the engine, on top of it.
3. the games' floor — ``games.models``, ``games.movelog``, ``games.signals``, ``games.players``,
   ``games.lifecycle``, ``games.jobs``: the rows, the log, the one event, who plays, what is kept,
   the tasks sent by name.
4. ``games.competition`` — the day, its deal, the ranked attempt, fair play.
5. ``games.play`` — a game being played: its API, services, store, answers.
6. ``games.help`` — the hint, "still winnable?", the post-mortem, the replay: over the games played.
7. ``games`` — the app's wiring: tasks, admin, URLs, what it tells an operator. Games sends events
   and knows nothing of the apps that listen (stats, social, accounts).
8. ``stats`` — boards, bests and statistics, from the games' events and rows.
9. ``social`` — friends and clubs, over the boards.
10. ``accounts`` — registration, login, tokens, settings; deleting an account detaches its results
    (stats) and its games (games), so it sits above both.
11. ``frontend`` — the pages, over every app.
12. ``yukon_site`` — the project: settings, URLs, the Celery app. No app imports it: a task's app is
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

#: The games' floor: what every part of games stands on.
FLOOR = ("games.models", "games.movelog", "games.signals", "games.players", "games.lifecycle", "games.jobs")
#: Each package of the project and its layer (a package's subpackages are in it, unless named).
LAYERS = {
    "common": 0,
    "games.engine": 1,
    "games.solver": 2,
    **dict.fromkeys(FLOOR, 3),
    "games.competition": 4,
    "games.play": 5,
    "games.help": 6,
    "games": 7,
    "stats": 8,
    "social": 9,
    "accounts": 10,
    "frontend": 11,
    "yukon_site": 12,
}


def imports_of(source: str, package: str) -> list[str]:
    """Every name ``source`` (a module of ``package``) imports anywhere, also inside a function, as
    absolute names (``from a import b``: ``a.b``, a module or a name in ``a``); and the names it
    hands to ``import_module`` or ``import_string``."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names += [f"{module}.{alias.name}" for alias in node.names]  # (a module, or a name in one)
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
    assert inside <= set(LAYERS), inside  # (a new subpackage of games: give it its layer)


def test_the_scan_sees_late_relative_and_named_imports() -> None:
    late = "def board():\n    from stats import tasks\n"
    assert imports_of(late, "games") == ["stats.tasks"]
    assert imports_of("from ..stats.tasks import x\n", "games.engine") == ["games.stats.tasks.x"]
    assert imports_of("from .. import stats\n", "games.engine") == ["games.stats"]
    assert imports_of("from .models import Game\n", "games") == ["games.models.Game"]
    assert imports_of("from games import jobs, models\n", "games.play") == ["games.jobs", "games.models"]
    assert imports_of('importlib.import_module("stats.tasks")\n', "games") == ["stats.tasks"]
    assert any(
        name.startswith("games.engine.cards.")
        for name in imports_of((GAMES / "engine" / "game.py").read_text(), "games.engine")
    )


@pytest.mark.parametrize(
    ("source", "module", "package", "offending"),
    [
        (
            "def f():\n    from yukon_site.celery import app\n",
            "games.competition.daily",
            "games",
            ["yukon_site.celery.app"],
        ),
        ("from stats.tasks import x\n", "games.signals", "games", ["stats.tasks.x"]),
        ("from accounts.models import ApiToken\n", "common.auth", "common", ["accounts.models.ApiToken"]),
        ("from ..models import Game\n", "games.engine.game", "games.engine", ["games.models.Game"]),
        ("from . import cards\n", "games.engine.game", "games.engine", []),
        ("from games.solver import solve\n", "games.engine.moves", "games.engine", ["games.solver.solve"]),
        ("from games.engine import Game\n", "stats.api", "stats", []),
        ("from games import jobs\n", "games.play.services", "games.play", []),
        ("from games import tasks\n", "games.play.services", "games.play", ["games.tasks"]),
        ("from .services import x\n", "accounts.api", "accounts", []),
    ],
)
def test_an_import_from_a_higher_layer_is_found(source: str, module: str, package: str, offending: list[str]) -> None:
    assert upward_imports(source, module, package) == offending


def modules_imported(source: str, package: str, known: set[str]) -> set[str]:
    """The project's modules (``known``) that ``source`` (a module of ``package``) imports anywhere,
    also inside a function: each name imported, as the longest module it names."""
    found = set()
    for name in imports_of(source, package):
        parts = name.split(".")
        found |= {next((".".join(parts[:n]) for n in range(len(parts), 0, -1) if ".".join(parts[:n]) in known), "")}
    return found - {""}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round a circle (Tarjan's strongly connected
    components of more than one module, or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def module_graph() -> dict[str, set[str]]:
    known = {_module(path) for path in MODULES}
    return {
        _module(path): modules_imported(path.read_text(), _package(path), known) - {_module(path)} for path in MODULES
    }


def test_no_modules_import_each_other_in_a_circle() -> None:
    """Services send tasks by name (``<app>/jobs.py``), so tasks may import services: no circle is
    left to hide behind an import inside a function."""
    assert circles(module_graph()) == []


def test_the_circle_scan_sees_a_circle_behind_an_import_inside_a_function() -> None:
    known = {"games.play.services", "games.tasks", "games.models", "games.play", "games"}
    services = "from games.models import Game\n\ndef won():\n    from games.tasks import log_pack\n"
    tasks = "from games.play import services\n"
    graph = {
        "games.play.services": modules_imported(services, "games.play", known),
        "games.tasks": modules_imported(tasks, "games", known),
    }
    assert graph == {"games.play.services": {"games.models", "games.tasks"}, "games.tasks": {"games.play.services"}}
    assert circles(graph) == [["games.play.services", "games.tasks"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


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
#: (games.movelog), the move's write (games.play.store, which also reads an undo's step; games.play.services
#: makes the entries it writes), and what only concerns games in play (idle games' last move).
MOVE_LOG_ROWS = {"games/models.py", "games/movelog.py", "games/play/store.py", "games/play/services.py"}
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
