// Where everything on the table goes, as pure functions of a state and the table's size: no
// document, no element (board.js puts elements where these say; tests/js/layout.test.mjs holds
// them under Node). A state is the server's (SPEC 7 "State"): seven columns of card names, "XX"
// for a face-down card, and the top card of each foundation.

export const SUITS = ["S", "H", "D", "C"];
export const SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const HIDDEN = "XX";
const RANKS = "A23456789TJQK";

/** The shape of a new deal (SPEC 1): column c holds c face-down cards under 5 face-up ones (1 in the first). */
export const DEAL = {
  tableau: Array.from({ length: 7 }, (_, c) => [...Array(c).fill(HIDDEN), ...Array(c ? 5 : 1).fill("up")]),
  foundations: {},
};

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

/** Sizes for a table `width` wide with `available` pixels of window below its top: a phone gets
 *  narrow cards, a desktop cards that leave room for long columns. */
export function measure({ width, available }, view) {
  available = Math.max(available, 360);
  const gap = clamp(Math.round(width * 0.014), 4, 14);
  const byWidth = (width - gap * 8) / 7;
  const byHeight = (available - gap * 3) / 5.4 / 1.4;
  let cw = Math.floor(Math.min(byWidth, Math.max(byHeight, Math.min(byWidth, 62)), 112));
  // A long column (Yukon moves big groups) shrinks the cards a little rather than the gaps
  // between them below what keeps each rank readable; past that the table grows and scrolls.
  const tallest = Math.max(...view.tableau.map((col) => {
    const down = col.filter((card) => card === HIDDEN).length;
    return down * 0.14 + Math.max(0, col.length - down - 1) * 0.34 + 2.8;
  }));
  const fit = Math.floor((available - gap * 4) / tallest);
  if (fit < cw) cw = Math.max(fit, Math.min(cw, 56), Math.floor(cw * 0.7));
  const ch = Math.round(cw * 1.4);
  const left = Math.round((width - 7 * cw - 6 * gap) / 2);
  const tabY = gap * 2 + ch + Math.round(gap / 2);
  return {
    width, gap, cw, ch, left, available, tabY,
    foundY: gap,
    down: Math.max(4, Math.round(ch * 0.1)),
    up: Math.max(15, Math.round(ch * 0.27)),
    minUp: Math.max(14, Math.round(cw * 0.34)),
  };
}

/** The left edge of column c (0..6). */
export const colX = (m, c) => m.left + c * (m.cw + m.gap);

/** The top left corner of a suit's foundation (over columns 4 to 7). */
export const foundationBox = (m, suit) => ({ x: colX(m, 3 + SUITS.indexOf(suit)), y: m.foundY });

/** Every card's place for `view` and the table's height: {places: [{key, card, x, y, z, col,
 *  index} | {key, card, x, y, z, suit, under}], height}. A face-down card's key is "d<col>-<index>";
 *  a foundation shows its top card over the one below (so that taking the top one back shows it). */
export function layout(view, m) {
  const places = [];
  let bottom = m.tabY + m.ch;
  view.tableau.forEach((col, c) => {
    const downCount = col.filter((card) => card === HIDDEN).length;
    const upCount = col.length - downCount;
    let up = m.up;
    const room = m.available - m.tabY - m.ch - m.gap - downCount * m.down;
    if (upCount > 1 && (upCount - 1) * up > room) up = Math.max(m.minUp, Math.floor(room / (upCount - 1)));
    let y = m.tabY;
    col.forEach((card, i) => {
      const faceUp = card !== HIDDEN;
      places.push({ key: faceUp ? card : `d${c}-${i}`, card, x: colX(m, c), y, z: i + 1, col: c, index: i });
      if (i < col.length - 1) y += faceUp ? up : m.down;
    });
    bottom = Math.max(bottom, y + m.ch);
  });
  for (const suit of SUITS) {
    const top = view.foundations[suit];
    if (!top) continue;
    const { x, y } = foundationBox(m, suit);
    const rank = RANKS.indexOf(top[0]);
    if (rank > 0) places.push({ key: RANKS[rank - 1] + suit, card: RANKS[rank - 1] + suit, x, y, z: 1, suit, under: true });
    places.push({ key: top, card: top, x, y, z: 2, suit });
  }
  return { places, height: Math.max(m.available, bottom + m.gap * 2) };
}

/** The drop target under table point (x, y): {to: "t1".."t7"}, {to: "f", suit} or null. */
export function targetAt(m, x, y) {
  if (!m) return null;
  const half = m.gap / 2;
  if (y < m.tabY - half) {
    for (const suit of SUITS) {
      const box = foundationBox(m, suit);
      if (x >= box.x - half && x <= box.x + m.cw + half && y <= box.y + m.ch + half) return { to: "f", suit };
    }
    return null;
  }
  for (let c = 0; c < 7; c++) {
    const x0 = colX(m, c) - half;
    if (x >= x0 && x <= x0 + m.cw + m.gap) return { to: `t${c + 1}` };
  }
  return null;
}

/** How far to scroll down (negative: up) so that `rects` (window coordinates: {top, bottom}) lie
 *  in a window `height` tall whose last `bottom` pixels something fixed covers, `margin` from its
 *  edges. Where they do not fit together, the first one is shown (the hinted card before its
 *  target); scrolling up never hides its top. 0 when they are in view. */
export function revealBy(rects, { height, bottom = 0, margin = 8 }) {
  if (!rects.length) return 0;
  const end = height - bottom - margin;
  let top = Math.min(...rects.map((r) => r.top));
  let low = Math.max(...rects.map((r) => r.bottom));
  if (low - top > end - margin) ({ top, bottom: low } = rects[0]);
  if (top < margin) return top - margin;
  if (low > end) return Math.min(low - end, top - margin);
  return 0;
}

/** The state a move would show if the server accepts it: for the optimistic first frame only.
 *  It knows nothing of the rules: the caller passes moves the server listed as legal. */
export function previewMove(view, move) {
  const tableau = view.tableau.map((col) => col.slice());
  const foundations = { ...view.foundations };
  if (move.from[0] === "f") {
    const suit = move.from[1];
    const card = foundations[suit];
    if (!card || move.to[0] !== "t") return null;
    tableau[Number(move.to.slice(1)) - 1].push(card);
    const rank = RANKS.indexOf(card[0]);
    foundations[suit] = rank > 0 ? RANKS[rank - 1] + suit : null;
  } else {
    const col = tableau[Number(move.from.slice(1)) - 1];
    if (move.to === "f") {
      const card = col.pop();
      if (!card || card === HIDDEN) return null;
      foundations[card[1]] = card;
    } else if (move.to[0] === "t") {
      const index = move.card ? col.indexOf(move.card) : col.length - 1;
      if (index < 0) return null;
      tableau[Number(move.to.slice(1)) - 1].push(...col.splice(index));
    } else {
      return null;
    }
  }
  return { ...view, tableau, foundations };
}
