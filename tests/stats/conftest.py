from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from games.competition import clock
from tests.stats.helpers import deal


@pytest.fixture
def today() -> date:
    return clock.today()


@pytest.fixture
def todays_deal(db: Any, today: date) -> Any:
    """Today's daily deal, ready (as the beat task leaves it): YU1-C-AAAAAAB, a known winnable deal."""
    return deal(today, code="YU1-C-AAAAAAB")
