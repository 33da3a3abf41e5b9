// What the win dialog says besides the figures (frontend/static/frontend/win.js): the server's
// `win` in words, the score taken apart, and the challenge of a practice win.
import assert from "node:assert/strict";
import test from "node:test";

import { challengeable, challengeText, recordLines, scoreNote } from "../../frontend/static/frontend/win.js";

const win = (fields = {}) => ({
  first_of_rule: false,
  best_time: false,
  fewest_moves: false,
  before: { wins: 3, best_time_ms: 252_000, fewest_moves: 104 },
  clean: true,
  clean_score: 625,
  put_up_again: 0,
  ...fields,
});
const state = (fields = {}) => ({
  code: "YU1-C-ABCDEFG",
  rule: "classic",
  status: "won",
  ranked: null,
  elapsed_ms: 195_400,
  moves: 91,
  score: 625,
  win: win(),
  ...fields,
});

test("a first win of a rule says so, and only that", () => {
  const lines = recordLines(state({ win: win({ first_of_rule: true, best_time: false, before: { wins: 0, best_time_ms: null, fewest_moves: null } }) }));
  assert.deepEqual(lines, ["Your first win with the rule “Classic”!"]);
  assert.deepEqual(recordLines(state({ rule: "relaxed", win: win({ first_of_rule: true }) })), ["Your first win with the rule “Relaxed”!"]);
});

test("a new best time and fewest moves name the bests before", () => {
  assert.deepEqual(recordLines(state({ win: win({ best_time: true, fewest_moves: true }) })), [
    "New best time! Your best before: 4:12.",
    "Fewest moves yet! Your best before: 104 moves.",
  ]);
  assert.deepEqual(recordLines(state()), []);
  assert.deepEqual(recordLines(state({ win: null })), []);
});

test("the score is taken apart: 625 for a clean win, 10 more for each card put up again", () => {
  assert.equal(scoreNote(state()), "625 points: a clean win – 52 cards on the foundations × 10 and 21 cards turned up × 5.");
  const once = scoreNote(state({ score: 635, win: win({ clean: false, put_up_again: 1 }) }));
  assert.match(once, /^635 points: 625 for the win and 10 more, because 1 card went onto its foundation again after a take-back\./);
  const thrice = scoreNote(state({ score: 655, win: win({ clean: false, put_up_again: 3 }) }));
  assert.match(thrice, /^655 points: 625 for the win and 10 more for each of the 3 cards/);
  // A score that is neither (a position made for a test) gets no note rather than a wrong one.
  assert.equal(scoreNote(state({ score: 260, win: win({ clean: false, put_up_again: 0 }) })), "");
});

test("a practice win is a challenge with the code's link; a ranked attempt or a secret code is not", () => {
  assert.equal(
    challengeText(state(), "https://yukon.example"),
    "Yukon · Classic · YU1-C-ABCDEFG\nCan you beat my 3:15 with 91 moves?\nhttps://yukon.example/?code=YU1-C-ABCDEFG",
  );
  assert.equal(challengeable(state()), true);
  assert.equal(challengeable(state({ code: null, daily: "2026-12-05", ranked: true })), false); // today's deal
  assert.equal(challengeable(state({ ranked: true })), false); // the day's share text is for that
  assert.equal(challengeable(state({ status: "playing" })), false);
  assert.match(challengeText(state({ code: "YU2-C-ABC DEF" }), "https://y.example"), /\?code=YU2-C-ABC%20DEF$/);
});

test("a win of a deal played before says it counts for no best, and nothing else of records", () => {
  const lines = recordLines(state({ win: win({ counts_for_bests: false, first_of_rule: true }) }));
  assert.deepEqual(lines, ["You had played this deal before, so this win does not count for your best time or fewest moves."]);
});
