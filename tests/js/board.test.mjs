// The table's layout (the pure functions of frontend/static/frontend/board.js): where each card
// goes for a state and a table size, which place a point names, how far a hint scrolls. No document.
import assert from "node:assert/strict";
import test from "node:test";

import { DEAL, HIDDEN, colX, layout, measure, previewMove, revealBy, targetAt } from "../../frontend/static/frontend/board.js";

const PHONE = { width: 382, available: 700 };
const DESKTOP = { width: 1100, available: 600 };

/** A state with column 1 holding `up` face-up cards under `down` face-down ones. */
function tall(down, up) {
  const names = "A23456789TJQK".split("").flatMap((r) => ["S", "H", "D", "C"].map((s) => r + s));
  const col = [...Array(down).fill(HIDDEN), ...names.slice(0, up)];
  return { tableau: [col, [], [], [], [], [], []], foundations: {} };
}

test("seven columns fit the width, centred, on a phone and on a desktop", () => {
  for (const size of [PHONE, DESKTOP]) {
    const m = measure(size, DEAL);
    const right = colX(m, 6) + m.cw;
    assert.ok(m.left >= 0 && right <= size.width, `${m.left}..${right} in ${size.width}`);
    assert.ok(Math.abs(m.left - (size.width - right)) <= 1); // centred
    assert.equal(m.ch, Math.round(m.cw * 1.4));
  }
  assert.ok(measure(DESKTOP, DEAL).cw > measure(PHONE, DEAL).cw);
});

test("a deal's cards go down their columns, face-down ones closer together", () => {
  const m = measure(DESKTOP, DEAL);
  const { places, height } = layout(DEAL, m);
  assert.equal(places.length, 52); // 21 face down, 31 face up
  assert.equal(places.filter((p) => p.card === HIDDEN).length, 21);
  const col7 = places.filter((p) => p.col === 6);
  assert.deepEqual(col7.map((p) => p.key).slice(0, 6), ["d6-0", "d6-1", "d6-2", "d6-3", "d6-4", "d6-5"]);
  assert.equal(col7[1].y - col7[0].y, m.down);
  assert.equal(col7[7].y - col7[6].y, m.up);
  assert.ok(col7.every((p, i) => p.z === i + 1 && p.x === colX(m, 6)));
  assert.equal(height, Math.max(m.available, col7.at(-1).y + m.ch + 2 * m.gap));
});

test("a long column closes up to fit the window, but never below a readable step", () => {
  const m = measure(PHONE, tall(0, 32));
  const { places, height } = layout(tall(0, 32), m);
  const steps = places.slice(1).map((p, i) => p.y - places[i].y);
  assert.ok(steps.every((s) => s === steps[0] && s >= m.minUp && s < m.up), String(steps[0]));
  // The last card, 32nd of the column, lies within the table's height: the page scrolls to it.
  assert.ok(places.at(-1).y + m.ch <= height);
});

test("a foundation shows its top card over the one below it", () => {
  const m = measure(DESKTOP, DEAL);
  const view = { tableau: [[], [], [], [], [], [], []], foundations: { H: "3H", S: "AS" } };
  const { places } = layout(view, m);
  assert.deepEqual(places.map((p) => [p.key, p.z, Boolean(p.under)]), [
    ["AS", 2, false],
    ["2H", 1, true],
    ["3H", 2, false],
  ]);
  assert.equal(places[1].x, places[2].x);
});

test("a point names the column or foundation under it", () => {
  const m = measure(DESKTOP, DEAL);
  assert.deepEqual(targetAt(m, colX(m, 2) + 5, m.tabY + 300), { to: "t3" });
  assert.deepEqual(targetAt(m, colX(m, 4) + 5, m.foundY + 5), { to: "f", suit: "H" });
  assert.equal(targetAt(m, colX(m, 0) + 5, m.foundY + 5), null); // over columns 1-3 lies nothing
  assert.equal(targetAt(null, 0, 0), null);
});

test("the optimistic frame moves a listed group, a card to its foundation and back", () => {
  const view = { tableau: [["KS"], ["XX", "QH", "5C"], [], [], [], [], []], foundations: { D: "2D" }, moves: 3 };
  const moved = previewMove(view, { from: "t2", card: "QH", to: "t1" });
  assert.deepEqual(moved.tableau.slice(0, 2), [["KS", "QH", "5C"], ["XX"]]);
  assert.equal(moved.moves, 3);
  assert.deepEqual(view.tableau[1], ["XX", "QH", "5C"]); // the state itself is untouched
  assert.deepEqual(previewMove(view, { from: "t2", to: "f" }).foundations, { D: "2D", C: "5C" });
  const back = previewMove(view, { from: "fD", to: "t3" });
  assert.deepEqual([back.tableau[2], back.foundations.D], [["2D"], "AD"]);
  assert.equal(previewMove(view, { from: "t3", to: "f" }), null);
});

test("a hint's card and target are scrolled into the window above the note, the card first", () => {
  const window = { height: 844, bottom: 80 }; // a phone; the note covers the last 80 px
  const card = { top: 900, bottom: 967 }; // the 2 of Hearts, below the fold
  const goal = { top: 700, bottom: 767 };
  // Both fit: the lower edge comes up to 8 px above the note.
  assert.equal(revealBy([card, goal], window), 967 - (844 - 80 - 8));
  assert.equal(revealBy([{ top: 100, bottom: 167 }, { top: 600, bottom: 667 }], window), 0); // in view already
  assert.equal(revealBy([{ top: -50, bottom: 17 }, goal], window), -58); // above the window
  // Too far apart for one window: the card is shown, its top never scrolled out.
  const far = { top: 1900, bottom: 1967 };
  assert.equal(revealBy([far, { top: 200, bottom: 267 }], window), 1967 - 756);
  assert.equal(revealBy([{ top: 2000, bottom: 2900 }], window), 2000 - 8);
  assert.equal(revealBy([], window), 0);
});
