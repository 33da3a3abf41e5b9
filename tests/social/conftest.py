from __future__ import annotations

from datetime import date

import pytest

from games.competition import clock


@pytest.fixture
def today() -> date:
    return clock.today()
