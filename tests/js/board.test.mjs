// The table's layout (the pure functions of frontend/static/frontend/board.js): where each card
// goes for a state and a table size, which place a point names, how far a hint scrolls. No document.
import assert from "node:assert/strict";
import test from "node:test";

import { DEAL, HIDDEN, MIN_TARGET, colX, layout, measure, previewMove, revealBy, targetAt } from "../../frontend/static/frontend/board.js";

// The table's size on the play page as the browser gives it (a returning player: no how-to):
// a 390x844 phone (4 px margins; the table starts 192 px down) and a 1366x800 desktop (the
// table's 1320 px; it starts 130 px down); board.js's Board.measure leaves 12 px below.
const PHONE = { width: 382, available: 844 - 192 - 12 };
const DESKTOP = { width: 1320, available: 800 - 130 - 12 };
const LANDSCAPE = { width: 820, available: 390 - 8 }; // a phone held sideways: the whole window
const TABLET = { width: 796, available: 1180 - 206 - 12 };

/** The visible strips of a column's covered cards in a layout: [{card, strip}]. */
function strips(places, col) {
  const column = places.filter((p) => p.col === col);
  return column.slice(0, -1).map((p, i) => ({ card: p.card, strip: column[i + 1].y - p.y }));
}

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

test("on a 390x844 phone every covered face-up card of a new deal shows at least 24 px", () => {
  const m = measure(PHONE, DEAL);
  assert.ok(m.cw >= 49, `cw ${m.cw}`); // the width is what limits a phone's cards
  const { places, height } = layout(DEAL, m);
  for (let c = 0; c < 7; c++) {
    for (const { card, strip } of strips(places, c)) {
      if (card !== HIDDEN) assert.ok(strip >= MIN_TARGET, `column ${c + 1}: ${strip} px`);
      else assert.ok(strip >= 6, `column ${c + 1}: face down ${strip} px`);
    }
  }
  assert.ok(height <= PHONE.available); // all of it in the window
});

test("on a phone a growing column keeps 24 px strips while it fits, then closes up, readable", () => {
  const m = measure(PHONE, DEAL);
  // As many face-up cards under six face-down ones as fit at 24 px: none closes up.
  const room = m.available - m.tabY - m.ch - m.gap - 6 * m.down;
  const fits = Math.floor(room / MIN_TARGET) + 1;
  for (const up of [8, 13, fits]) {
    const { places } = layout(tall(6, up), m);
    const shown = strips(places, 0).filter((s) => s.card !== HIDDEN).map((s) => s.strip);
    assert.equal(shown.length, up - 1);
    assert.ok(shown.every((s) => s >= MIN_TARGET), `${up} cards: ${shown}`);
  }
  // One more card than fits: the strips close up, to no less than a readable step, and the
  // column ends within the window.
  const { places } = layout(tall(6, fits + 1), m);
  const shown = strips(places, 0).filter((s) => s.card !== HIDDEN).map((s) => s.strip);
  assert.ok(shown.every((s) => s < MIN_TARGET && s >= m.minUp), String(shown));
  assert.ok(places.at(-1).y + m.ch <= m.available);
});

test("on a 1366x800 desktop the cards are at least 100 px wide and a new deal fits the window", () => {
  const m = measure(DESKTOP, DEAL);
  assert.ok(m.cw >= 100, `cw ${m.cw}`);
  const { places, height } = layout(DEAL, m);
  assert.equal(height, DESKTOP.available);
  const last = places.filter((p) => p.col === 6).at(-1);
  assert.ok(last.y + m.ch + m.gap <= DESKTOP.available);
  assert.ok(strips(places, 6).filter((s) => s.card !== HIDDEN).every((s) => s.strip >= MIN_TARGET * 1.5));
  // The table uses the width: 7 cards and their gaps take over half of it.
  assert.ok(7 * m.cw + 6 * m.gap > DESKTOP.width / 2);
});

test("a phone held sideways and a tablet: cards fit the width, a new deal the window", () => {
  for (const size of [LANDSCAPE, TABLET]) {
    const m = measure(size, DEAL);
    assert.ok(colX(m, 6) + m.cw <= size.width && m.left >= 0);
    const { places, height } = layout(DEAL, m);
    assert.equal(height, size.available);
    for (let c = 0; c < 7; c++) {
      assert.ok(strips(places, c).filter((s) => s.card !== HIDDEN).every((s) => s.strip >= MIN_TARGET));
    }
  }
  assert.ok(measure(TABLET, DEAL).cw >= 100);
});

test("a card's size does not change as its columns grow (nothing jumps)", () => {
  for (const size of [PHONE, DESKTOP]) {
    assert.deepEqual(measure(size, tall(6, 30)), measure(size, DEAL));
  }
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
