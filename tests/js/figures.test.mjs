// The statistics' tiles, chart points and time axis (frontend/static/frontend/figures.js): what
// the statistics page and a player's profile show of the server's answer, and nothing computed.
// Outside a page the texts are the English ones and the numbers German (the default language).
import assert from "node:assert/strict";
import test from "node:test";

import { historyPoints, statTiles, timeAxis } from "../../frontend/static/frontend/figures.js";

function rule(fields = {}) {
  return {
    played: 0, won: 0, win_rate: 0, best_time_ms: null, fewest_moves: null, clean_wins: 0,
    average_time_ms: null, average_moves: null, average_score: null, ...fields,
  };
}

function stats({ username = "lena", overall = {}, daily = {} } = {}) {
  return {
    username,
    member_since: username ? "2026-11-01T10:00:00Z" : null,
    overall: rule(overall),
    rules: { classic: rule(overall), relaxed: rule() },
    daily: { played: 0, won: 0, ranked: 0, ranked_won: 0, current_streak: 0, longest_streak: 0, best_rank: null, ...daily },
    history: [],
    recent_daily: [],
  };
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
  const points = historyPoints([
    { created_at: "2026-12-01T09:00:00Z", finished_at: "2026-12-01T09:05:00Z", won: true, time_ms: 300_000, elapsed_ms: 300_000, moves: 140 },
    { created_at: "2026-12-01T10:00:00Z", finished_at: null, won: false, time_ms: null, elapsed_ms: 90_000, moves: 12 },
  ]);
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
