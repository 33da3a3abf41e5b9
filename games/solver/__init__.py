"""The Yukon solver, apart from the rules engine: it imports the engine, never the reverse.

:func:`solve` answers whether a full position can be won (and how); :func:`advise` (the hint) and
:func:`still_winnable` are the help for practice games; ``python -m games.solver`` measures.
"""

from .hint import Advice, advise, hint, position_key, still_winnable
from .search import SolveResult, Verdict, solve

__all__ = ["Advice", "SolveResult", "Verdict", "advise", "hint", "position_key", "solve", "still_winnable"]
