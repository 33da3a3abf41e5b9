// The game bar's clock (gamebar.js elapsedMs): it runs on from the server's elapsed_ms while a game
// is played, and stands while it is paused or won (issue 41: the time counted is the time played).
import { test } from "node:test";
import assert from "node:assert/strict";
import { elapsedMs } from "../../frontend/static/frontend/gamebar.js";

const state = (fields) => ({ status: "playing", paused: false, elapsed_ms: 120_000, ...fields });

test("a game in play: the clock runs on from the server's figure", () => {
  assert.equal(elapsedMs(state({}), 1_000, 6_000), 125_000);
});

test("a paused game: the clock stands at the server's figure", () => {
  assert.equal(elapsedMs(state({ paused: true }), 1_000, 600_000), 120_000);
});

test("a won game: its final time", () => {
  assert.equal(elapsedMs(state({ status: "won" }), 1_000, 600_000), 120_000);
});
