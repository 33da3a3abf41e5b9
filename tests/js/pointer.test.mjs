// Pointer gestures (frontend/static/frontend/pointer.js): a press becomes a drag past a few
// pixels; taps on one card within DOUBLE_TAP_MS make a double tap.
import assert from "node:assert/strict";
import test from "node:test";

import { DOUBLE_TAP_MS, DRAG_THRESHOLD, createTaps, isDrag } from "../../frontend/static/frontend/pointer.js";

/** Timers that run only when told to: advance(ms). */
function fakeTimers() {
  let now = 0;
  let next = 1;
  const due = new Map();
  return {
    setTimeout: (fn, ms) => { due.set(next, { fn, at: now + ms }); return next++; },
    clearTimeout: (id) => due.delete(id),
    advance(ms) {
      now += ms;
      for (const [id, { fn, at }] of [...due]) if (at <= now) { due.delete(id); fn(); }
    },
  };
}

function tapper(double = true) {
  const timers = fakeTimers();
  const seen = [];
  const taps = createTaps({ double: () => double, onSingle: (c) => seen.push(["single", c]), onDouble: (c) => seen.push(["double", c]), timers });
  return { taps, timers, seen };
}

test("a press is a drag only once it has moved past the threshold", () => {
  assert.ok(!isDrag(0, 0));
  assert.ok(!isDrag(3, 4)); // 5 px
  assert.ok(isDrag(DRAG_THRESHOLD, 0));
  assert.ok(isDrag(-5, -5));
});

test("one tap is a single tap once the double-tap time has passed", () => {
  const { taps, timers, seen } = tapper();
  taps.tap("5C");
  timers.advance(DOUBLE_TAP_MS - 1);
  assert.deepEqual(seen, []);
  timers.advance(1);
  assert.deepEqual(seen, [["single", "5C"]]);
});

test("two taps on a card in time are one double tap; on two cards, two single ones", () => {
  const { taps, timers, seen } = tapper();
  taps.tap("5C");
  timers.advance(100);
  taps.tap("5C");
  timers.advance(1000);
  assert.deepEqual(seen, [["double", "5C"]]);
  seen.length = 0;
  taps.tap("5C");
  taps.tap("QH");
  timers.advance(1000);
  assert.deepEqual(seen, [["single", "QH"]]); // the first is dropped for the second card
});

test("a drag forgets a waiting tap; with double taps off every tap counts at once", () => {
  const { taps, timers, seen } = tapper();
  taps.tap("5C");
  taps.cancel();
  timers.advance(1000);
  assert.deepEqual(seen, []);
  const off = tapper(false);
  off.taps.tap("5C");
  off.taps.tap("5C");
  assert.deepEqual(off.seen, [["single", "5C"], ["single", "5C"]]);
});
