// The statistics' tiles, chart points and time axis (frontend/static/frontend/figures.js): what
// the statistics page and a player's profile show of the server's answer, and nothing computed.
// Outside a page the texts are the English ones and the numbers German (the default language).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { historyPoints, statTiles, timeAxis } from "../../frontend/static/frontend/figures.js";

// An answer of me/stats in the documented shape (tests/stats/test_stats_api.py holds it to the schema).
const ANSWER = JSON.parse(readFileSync(new URL("fixtures/player_stats.json", import.meta.url), "utf8"));

function stats({ username = "lena", overall = {}, daily = {} } = {}) {
  return { ...ANSWER, username, overall: { ...ANSWER.overall, ...overall }, daily: { ...ANSWER.daily, ...daily } };
}

const byId = (tiles) => Object.fromEntries(tiles.map((tile) => [tile.id, tile.value]));

test("the tiles show the server's figures as they are: a win rate of 0..1 in per cent", () => {
  const tiles = byId(
    statTiles(
      stats({
        overall: { played: 1234, won: 617, win_rate: 0.5, best_time_ms: 185_000, fewest_moves: 97, clean_wins: 3, average_time_ms: 3_725_000 },
        daily: { current_streak: 1, longest_streak: 12, best_rank: 2 },
      }),
    ),
  );
  assert.deepEqual(tiles, {
    "tile-played": "1.234",
    "tile-won": "617",
    "tile-winrate": "50 %",
    "tile-streak": "1 day",
    "tile-longest": "12 days",
    "tile-besttime": "3:05",
    "tile-fewest": "97",
    "tile-clean": "3",
    "tile-avgtime": "1:02:05",
    "tile-bestrank": "#2",
  });
});

test("a figure the server has not got yet is a dash, never a zero", () => {
  const tiles = byId(statTiles(stats()));
  assert.equal(tiles["tile-besttime"], "–");
  assert.equal(tiles["tile-fewest"], "–");
  assert.equal(tiles["tile-avgtime"], "–");
  assert.equal(tiles["tile-bestrank"], "–");
  assert.equal(tiles["tile-winrate"], "0 %");
});

test("a guest has no best-rank tile: it plays no ranked attempt", () => {
  const ids = statTiles(stats({ username: null })).map((tile) => tile.id);
  assert.equal(ids.length, 9);
  assert.ok(!ids.includes("tile-bestrank"));
});

test("the clean-win tile names the score the server renders", () => {
  const clean = statTiles(stats(), { cleanWinScore: 625 }).find((tile) => tile.id === "tile-clean");
  assert.equal(clean.title, "Won with 625 points, without taking a card back from a foundation");
});

test("the chart's points: a finished game at its end with its final time, an open one at its deal with its clock", () => {
  const points = historyPoints(ANSWER.history);
  assert.deepEqual(points, [
    { when: "2026-12-01T09:05:00Z", won: true, timeMs: 300_000, moves: 140 },
    { when: "2026-12-01T10:00:00Z", won: false, timeMs: 90_000, moves: 12 },
  ]);
});

test("the time axis goes in whole steps, at most six, and cuts a game left open for days", () => {
  assert.deepEqual(timeAxis([0.9, 2.5, 1.6], [true, false, true]), { step: 0.5, top: undefined });
  assert.deepEqual(timeAxis([7, 12, 5], [true, true, true]), { step: 2, top: undefined });
  // Open for three days beside wins of at most 10 minutes: the axis ends at 20 minutes.
  assert.deepEqual(timeAxis([10, 4320, 6], [true, false, true]), { step: 5, top: 20 });
});
