from __future__ import annotations

from datetime import date

import pytest

from games.daily import utc_today


@pytest.fixture
def today() -> date:
    return utc_today()
