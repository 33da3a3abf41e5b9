"""The daily deal (SPEC sections 5 and 6): the hook that issue 4 fills in.

``daily_code_for`` must return the secret, randomly drawn code of the UTC date's deal (classic
rule), creating it on first use. Until then a daily game cannot be started.
"""

from __future__ import annotations

from datetime import date

from common.errors import ApplicationError
from games.engine import GameCode


def daily_code_for(*, day: date) -> GameCode:
    raise ApplicationError("not_available", 400)
