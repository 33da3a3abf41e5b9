"""The Yukon solver, apart from the rules engine: it imports the engine, never the reverse."""

from .hint import hint, still_winnable
from .search import SolveResult, Verdict, solve

__all__ = ["SolveResult", "Verdict", "hint", "solve", "still_winnable"]
