// Where you stand (frontend/static/frontend/standing.js): the live counts and the percentile in
// words, and the histogram's bars padded for a scale and capped in number.
import assert from "node:assert/strict";
import test from "node:test";

import { capped, liveCounts, newcomerText, padded, percentileText, tiesText } from "../../frontend/static/frontend/standing.js";

test("the live counts say started during the day and played once it is over, and the wins under review", () => {
  assert.equal(liveCounts({ started: 12, won: 5, over: false, under_review: 0 }), "12 started · 5 won");
  assert.equal(liveCounts({ started: 1200, won: 5, over: true, under_review: 2 }), "1.200 played · 5 won · 2 more under review");
});

test("the percentile: under review compared with nobody, alone on the board, else faster than N %", () => {
  assert.equal(percentileText({ counted: false, time_ms: 192_000 }), "You: 3:12 – under review: it is compared with the others once staff have checked it.");
  assert.equal(percentileText({ counted: true, time_ms: 192_000, faster_than_percent: null }), "You: 3:12 – nobody else on the board to compare with yet");
  assert.equal(percentileText({ counted: true, time_ms: 192_000, faster_than_percent: 88 }), "You: 3:12, faster than 88 % of players");
  assert.equal(tiesText({ tied: 0 }), "");
  assert.equal(tiesText({ tied: 1 }), "1 other player had the same time; a tie does not count as beaten.");
});

test("a narrow histogram gets empty bars on both sides, never below zero nor past an open end", () => {
  const one = [{ low: 60_000, high: 90_000, count: 1 }];
  const bars = padded(one, 30_000, 6);
  assert.equal(bars.length, 6);
  assert.equal(bars[0].low, 0); // two to the left (down to zero), the rest to the right
  assert.deepEqual(bars.map((bar) => bar.count), [0, 0, 1, 0, 0, 0]);
  assert.deepEqual(padded([{ low: 0, high: null, count: 3 }], 10, 6), [{ low: 0, high: null, count: 3 }]);
  assert.deepEqual(padded([], 10), []);
});

test("bars past the most shown go together into one open-ended last bar", () => {
  const bars = Array.from({ length: 5 }, (_, i) => ({ low: i * 10, high: (i + 1) * 10, count: i + 1 }));
  assert.deepEqual(capped(bars, 3), [bars[0], bars[1], { low: 20, high: null, count: 3 + 4 + 5 }]);
  assert.equal(capped(bars, 5), bars);
});

test("a newcomer's own line says in words it is not on the public board yet, its place there and when it counts", () => {
  const next = newcomerText({ rank: 12, public: false, public_in_days: 0 });
  assert.equal(
    next,
    "Your win is not on the public board yet: the results of a new account count there once it has played on an earlier day. " +
      "It would be in place 12; it counts for your bests, your streak, your friends and your clubs. " +
      "Your results count there from the next day you play on.",
  );
  assert.match(newcomerText({ rank: 3, public: false, public_in_days: 1 }), /once you have played on 1 more day\.$/);
  assert.match(newcomerText({ rank: 3, public: false, public_in_days: 2 }), /once you have played on 2 more days\.$/);
});
