// The ISO week a club's page asks for: the one Python's date.isocalendar() gives (the API's).
import assert from "node:assert/strict";
import test from "node:test";

import { isoWeek } from "../../frontend/static/frontend/weeks.js";

test("weeks at the turn of the year belong to the year of their Thursday", () => {
  const cases = {
    "2026-12-05": "2026-W49",
    "2026-01-01": "2026-W01",
    "2026-12-28": "2026-W53",
    "2027-01-01": "2026-W53",
    "2024-12-30": "2025-W01",
    "2021-01-03": "2020-W53",
    "2021-01-04": "2021-W01",
    "2026-06-15": "2026-W25",
  };
  for (const [day, week] of Object.entries(cases)) assert.equal(isoWeek(day), week, day);
});
