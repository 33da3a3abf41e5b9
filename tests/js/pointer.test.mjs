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

function tapper(double = true, at = () => false) {
  const timers = fakeTimers();
  const seen = [];
  const taps = createTaps({ double: () => double, at, onSingle: (c) => seen.push(["single", c]), onDouble: (c) => seen.push(["double", c]), timers });
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

test("a card whose only use is its single tap plays at once; the rest of a double tap is let go", () => {
  const { taps, timers, seen } = tapper(true, (card) => card === "AH");
  taps.tap("AH", "t3");
  assert.deepEqual(seen, [["single", "AH"]]); // no wait
  timers.advance(120);
  taps.tap("9C", "t3"); // the second tap of a double tap, on the card the ace uncovered
  timers.advance(1000);
  assert.deepEqual(seen, [["single", "AH"]]);
  // Later, or on another column, a tap is a tap again.
  taps.tap("AH", "t3");
  timers.advance(DOUBLE_TAP_MS);
  taps.tap("9C", "t3");
  timers.advance(DOUBLE_TAP_MS);
  assert.deepEqual(seen, [["single", "AH"], ["single", "AH"], ["single", "9C"]]);
  seen.length = 0;
  taps.tap("AH", "t3");
  taps.tap("5D", "t5"); // another column at once: counted
  timers.advance(DOUBLE_TAP_MS);
  assert.deepEqual(seen, [["single", "AH"], ["single", "5D"]]);
});

test("a waiting tap may be shown at once; its place's second tap makes the double, a drag takes it back", () => {
  const timers = fakeTimers();
  const seen = [];
  const taps = createTaps({
    show: (card) => { seen.push(["show", card]); return card === "2H"; },
    unshow: () => seen.push(["unshow"]),
    onSingle: (c) => seen.push(["single", c]),
    onDouble: (c, { shown }) => seen.push(["double", c, shown]),
    timers,
  });
  taps.tap("2H", "t4");
  assert.deepEqual(seen, [["show", "2H"]]); // painted now, played when the wait is over
  assert.ok(taps.waiting);
  timers.advance(DOUBLE_TAP_MS);
  assert.deepEqual(seen.at(-1), ["single", "2H"]);
  assert.ok(!taps.waiting);
  seen.length = 0;
  taps.tap("2H", "t4");
  taps.tap("9S", "t4"); // the finger's second tap finds the card the 2 uncovered
  assert.deepEqual(seen, [["show", "2H"], ["double", "2H", true]]);
  seen.length = 0;
  taps.tap("2H", "t4");
  taps.cancel(); // a drag began
  timers.advance(1000);
  assert.deepEqual(seen, [["show", "2H"], ["unshow"]]);
  seen.length = 0;
  taps.tap("5C", "t2"); // nothing shown: only the same card makes a double tap
  taps.tap("9S", "t2");
  timers.advance(1000);
  assert.deepEqual(seen, [["show", "5C"], ["show", "9S"], ["single", "9S"]]);
});
