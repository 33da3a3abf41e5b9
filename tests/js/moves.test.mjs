// What a gesture asks the server for (frontend/static/frontend/moves.js), read only from the
// state the server sent: its legal_moves and its columns.
import assert from "node:assert/strict";
import test from "node:test";

import { dropMove, hintFocus, isListed, knownAuto, legalTargets, movedCard, movedTo, onlyFoundation } from "../../frontend/static/frontend/moves.js";

const state = {
  tableau: [["KS"], ["XX", "QH", "5C"], [], ["XX", "4D"], [], [], ["JC"]],
  foundations: { C: "4C" },
  legal_moves: [
    { from: "t2", card: "QH", to: "t1" },
    { from: "t2", to: "f" },
    { from: "fC", to: "t4" },
  ],
};
const source = (from, card, last) => ({ from, card, last });

test("drop hints are the targets the server lists for the card taken", () => {
  assert.deepEqual(legalTargets(state, source("t2", "QH", false)), ["t1"]);
  assert.deepEqual(legalTargets(state, source("t2", "5C", true)), ["fC"]);
  assert.deepEqual(legalTargets(state, source("fC", "4C", true)), ["t4"]);
  assert.deepEqual(legalTargets(null, source("t2", "QH", false)), []);
  assert.ok(isListed(state, { from: "t2", card: "QH", to: "t1" }));
  assert.ok(!isListed(state, { from: "t2", card: "5C", to: "t1" }));
});

test("a drop asks for the move onto the place it was let go", () => {
  assert.deepEqual(dropMove(state, source("t2", "QH", false), { to: "t1" }), { from: "t2", card: "QH", to: "t1" });
  assert.deepEqual(dropMove(state, source("t2", "5C", true), { to: "f", suit: "C" }), { from: "t2", to: "f" });
  // Not the last card: the server is asked all the same and says why not.
  assert.deepEqual(dropMove(state, source("t2", "QH", false), { to: "f" }), { from: "t2", card: "QH", to: "f" });
  assert.deepEqual(dropMove(state, source("fC", "4C", true), { to: "t4" }), { from: "fC", to: "t4" });
  assert.equal(dropMove(state, source("fC", "4C", true), { to: "f" }), null);
  assert.equal(dropMove(state, source("t2", "QH", false), { to: "t2" }), null); // where it came from
  assert.equal(dropMove(state, source("t2", "QH", false), null), null);
});

test("with auto drop a card let go where no move is listed asks the server for a place", () => {
  const auto = { autoDrop: true };
  assert.deepEqual(dropMove(state, source("t2", "5C", true), { to: "t7" }, auto), { from: "t2", card: "5C", to: "auto" });
  assert.deepEqual(dropMove(state, source("t2", "5C", true), null, auto), { from: "t2", card: "5C", to: "auto" });
  assert.deepEqual(dropMove(state, source("t2", "QH", false), { to: "t1" }, auto), { from: "t2", card: "QH", to: "t1" });
  assert.equal(dropMove(state, source("t2", "5C", true), null, { autoDrop: true, cancelled: true }), null);
  assert.deepEqual(dropMove(state, source("fC", "4C", true), { to: "t7" }, auto), { from: "fC", to: "t7" });
});

test("a move names its card and its target, an auto move's column from the state after it", () => {
  assert.equal(movedCard(state, { from: "t2", to: "f" }), "5C");
  assert.equal(movedCard(state, { from: "fC", to: "t4" }), "4C");
  assert.equal(movedCard(state, { from: "t3", to: "f" }), null);
  assert.equal(movedTo({ from: "t2", to: "f" }, "5C", null), "fC");
  const after = { tableau: [["KS", "QH", "5C"], ["XX"], [], [], [], [], []] };
  assert.equal(movedTo({ from: "t2", card: "QH", to: "auto" }, "QH", after), "t1");
});

test("a hint points at the card, its target and the card it goes on", () => {
  assert.deepEqual(hintFocus(state, { from: "t2", card: "QH", to: "t1" }), { card: "QH", target: "t1", goal: "KS" });
  assert.deepEqual(hintFocus(state, { from: "t2", to: "f" }), { card: "5C", target: "fC", goal: null });
  assert.deepEqual(hintFocus(state, { from: "t1", card: "KS", to: "t3" }), { card: "KS", target: "t3", goal: null });
});

test("a tap plays at once only where the server lists the foundation and no column for the card", () => {
  assert.ok(onlyFoundation(state, source("t2", "5C", true)));
  assert.ok(!onlyFoundation(state, source("t2", "QH", false))); // not a column's last card
  assert.ok(!onlyFoundation(state, source("t4", "4D", true))); // no foundation move listed
  const both = { ...state, legal_moves: [...state.legal_moves, { from: "t2", card: "5C", to: "t5" }] };
  assert.ok(!onlyFoundation(both, source("t2", "5C", true))); // a double tap could send it to t5
  assert.ok(!onlyFoundation(null, source("t2", "5C", true)));
});

test("a double tap's column is known when the server lists exactly one for the card", () => {
  assert.deepEqual(knownAuto(state, { from: "t2", card: "QH", to: "auto" }), { from: "t2", card: "QH", to: "t1" });
  assert.equal(knownAuto(state, { from: "t2", card: "5C", to: "auto" }), null); // none: the server says why
  const two = { ...state, legal_moves: [...state.legal_moves, { from: "t2", card: "QH", to: "t3" }] };
  assert.equal(knownAuto(two, { from: "t2", card: "QH", to: "auto" }), null); // the server chooses
});
