// The table: renders a game state (docs/api.md, the state) as absolutely placed card elements and animates
// every change. Positions are CSS transforms, so moving a card from where it is shown (First) to
// where the new state puts it (Last) is one transform change that the browser transitions
// (Invert + Play), started in the same frame as the drop. Cards are keyed by name, so the element
// that was dragged is the one that slides; a face-down element that becomes a named card turns over.
// Where everything goes is a set of pure functions of a state and the table's size (measure,
// layout, targetAt, revealBy, previewMove: no document, tests/js/board.test.mjs runs them under
// Node); the Board class puts elements where they say. Pointer input is pointer.js's, keys keyboard.js's.
import { t, tn, cardName, rankLabel } from "./i18n.js";

export const SUITS = ["S", "H", "D", "C"];
export const SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const HIDDEN = "XX";
const RANKS = "A23456789TJQK";

/** The shape of a new deal (docs/rules.md): column c holds c face-down cards under 5 face-up ones (1 in the first). */
export const DEAL = {
  tableau: Array.from({ length: 7 }, (_, c) => [...Array(c).fill(HIDDEN), ...Array(c ? 5 : 1).fill("up")]),
  foundations: {},
};

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

/** The smallest strip of a covered face-up card: a target a finger can hold (WCAG 2.5.8, 24 px). */
export const MIN_TARGET = 24;
const DOWN = 0.1; // a face-down card's strip, of a card's height
const UP = 0.28; // a face-up card's strip, of a card's height, where the table is short

/** Sizes for a table `width` wide with `available` pixels of window below its top. The cards are
 *  as large as the width allows while a new deal with one more face-up card on its longest column
 *  fits the height; they keep that size for the whole game (nothing jumps as columns grow). A covered face-up card shows at least MIN_TARGET pixels, more where the window
 *  has room for a column of 13 face-up cards with longer strips (a phone's tall screen); only a
 *  column that would not fit closes up (layout), down to `minUp`, which keeps each rank readable;
 *  past that the table grows and scrolls. */
export function measure({ width, available }) {
  available = Math.max(available, 360);
  const gap = clamp(Math.round(width * 0.014), 4, 14);
  const byWidth = (width - gap * 6 - 4) / 7;
  // Two card heights (the foundations' row and a column's last card), six face-down strips and
  // five face-up ones, and the gaps between the rows.
  const byHeight = (available - gap * 4.5) / (2 + 6 * DOWN + 5 * UP) / 1.4;
  const cw = Math.floor(Math.min(byWidth, Math.max(byHeight, Math.min(byWidth, 62)), 150));
  const ch = Math.round(cw * 1.4);
  const left = Math.round((width - 7 * cw - 6 * gap) / 2);
  const tabY = gap * 2 + ch + Math.round(gap / 2);
  const down = Math.max(5, Math.round(ch * DOWN));
  const roomy = Math.floor((available - tabY - ch - gap - 6 * down) / 12);
  return {
    width, gap, cw, ch, left, available, tabY,
    foundY: gap,
    down,
    up: Math.max(MIN_TARGET, Math.round(ch * UP), Math.min(roomy, Math.round(ch * 0.4))),
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

/** Where a face-up card lies in `view`: {from, card, group, col, index, last} or {from: "fS", ...}. */
export function sourceIn(view, card) {
  if (!view || !card) return null;
  for (let c = 0; c < 7; c++) {
    const index = view.tableau[c].indexOf(card);
    if (index >= 0) {
      const col = view.tableau[c];
      return { from: `t${c + 1}`, card, col: c, index, group: col.slice(index), last: index === col.length - 1 };
    }
  }
  const suit = card[1];
  if (view.foundations[suit] === card) return { from: `f${suit}`, card, suit, group: [card], last: true };
  return null;
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

const MOVE_MS = 200;

export class Board {
  constructor(root) {
    this.root = root;
    this.view = null;
    this.metrics = null;
    this.cards = new Map(); // key -> element; key = card name, or "d<col>-<index>" when face down
    this.boxes = new Map(); // key -> {x, y, z}
    this.restoreTimers = new Map();
    this.lanes = {};
    this.slots = {};
    this.layer = document.createElement("div");
    this.layer.className = "card-layer";
    this.buildSlots();
    root.append(this.layer);
    this.cursor = document.createElement("div");
    this.cursor.className = "kbd-cursor";
    this.cursor.hidden = true;
    root.append(this.cursor);
    let resizeFrame = 0;
    const relayout = () => {
      cancelAnimationFrame(resizeFrame);
      resizeFrame = requestAnimationFrame(() => this.view && this.render(this.view, { animate: false }));
    };
    window.addEventListener("resize", relayout);
    this.relayout = relayout; // the room below the table changed (the first visit's how-to closed)
    // Only a new width lays the cards out again: the table's own height is set by render().
    let observedWidth = null;
    if (window.ResizeObserver) {
      new ResizeObserver(([entry]) => {
        if (entry.contentRect.width === observedWidth) return;
        observedWidth = entry.contentRect.width;
        relayout();
      }).observe(root);
    }
    // The table's height before the first state arrives: that of a new deal, so that nothing below
    // it moves when the cards come (layout shift).
    // The empty places are where the cards will lie, at their size, from the start.
    this.metrics = this.measure();
    this.height = layout(DEAL, this.metrics).height;
    root.style.height = `${Math.ceil(this.height)}px`;
    this.sizeCards();
    this.positionSlots();
  }

  sizeCards() {
    this.root.style.setProperty("--cw", `${this.metrics.cw}px`);
    this.root.style.setProperty("--ch", `${this.metrics.ch}px`);
  }

  buildSlots() {
    for (let c = 0; c < 7; c++) {
      const lane = document.createElement("div");
      lane.className = "lane";
      lane.dataset.target = `t${c + 1}`;
      const base = document.createElement("div");
      base.className = "slot column-slot";
      base.id = `slot-t${c + 1}`;
      base.dataset.target = `t${c + 1}`;
      // A picture of the place (named "column 1, empty" or "column 1, 6 cards", placeSlots): a bare div may not carry a name.
      base.setAttribute("role", "img");
      base.setAttribute("aria-label", t("column.empty", { n: c + 1 }));
      base.innerHTML = '<span class="slot-mark">K</span>';
      this.lanes[`t${c + 1}`] = lane;
      this.slots[`t${c + 1}`] = base;
      this.root.append(lane, base);
    }
    for (const suit of SUITS) {
      const slot = document.createElement("div");
      slot.className = `slot foundation-slot suit-${suit}`;
      slot.id = `slot-f${suit}`;
      slot.dataset.target = "f";
      slot.dataset.suit = suit;
      slot.innerHTML = `<span class="slot-mark">${SYMBOL[suit]}</span>`;
      slot.setAttribute("role", "img");
      slot.setAttribute("aria-label", t("foundation.empty", { suit: t(`suit.${suit}`) }));
      this.slots[`f${suit}`] = slot;
      this.root.append(slot);
    }
  }

  /** Sizes from the table's width and the window's height below its top (measure). */
  measure() {
    const top = this.root.getBoundingClientRect().top + window.scrollY;
    const below = window.innerHeight - top - 12;
    // A short window (a phone held sideways): the header and the bar scroll away, the table takes
    // the whole window.
    const available = window.innerHeight < 560 ? Math.max(below, window.innerHeight - 8) : below;
    return measure({ width: this.root.clientWidth, available });
  }

  colX(c) {
    return colX(this.metrics, c);
  }

  foundationBox(suit) {
    return foundationBox(this.metrics, suit);
  }

  /** Show `view`. With animate, every card that changes place slides there and flips turn over. */
  /** Nothing shown: no view, no cards. */
  clear() {
    this.view = null;
    this.cards = new Map();
    this.boxes = new Map();
    this.layer.replaceChildren();
  }

  render(view, { animate = true } = {}) {
    this.view = view;
    this.metrics = this.measure();
    const m = this.metrics;
    const { places, height } = layout(view, m);
    this.height = height;
    this.sizeCards();
    this.root.style.height = `${Math.ceil(this.height)}px`;
    this.root.classList.toggle("instant", !animate);
    this.placeSlots();

    const old = this.cards;
    const oldBoxes = this.boxes;
    const wanted = new Set(places.map((p) => p.key));
    const fresh = [];
    const next = new Map();
    const nextBoxes = new Map();
    for (const place of places) {
      let el = old.get(place.key);
      let isNew = false;
      if (el) {
        old.delete(place.key);
      } else {
        el = this.reuseForFlip(old, oldBoxes, wanted, place);
        if (!el) {
          el = this.createCard();
          isNew = true;
        }
      }
      this.dressCard(el, place);
      el.dataset.key = place.key;
      const transform = `translate(${place.x}px, ${place.y}px)`;
      // Moved: shown anywhere else than its new place (its old place, or where a drag let it go).
      const moved = !isNew && el.style.transform !== transform;
      if (isNew) {
        el.classList.add("instant");
        fresh.push(el);
      }
      el.style.transform = transform;
      this.setZ(el, place.z, animate && moved);
      next.set(place.key, el);
      nextBoxes.set(place.key, { x: place.x, y: place.y, z: place.z, col: place.col, index: place.index, suit: place.suit });
    }
    for (const el of old.values()) el.remove();
    // New cards go in at once, placed without a transition: one style flush for all of them (not a
    // forced layout per card), then they animate like the others.
    if (fresh.length) {
      this.layer.append(...fresh);
      void getComputedStyle(fresh[0]).transform;
      for (const el of fresh) el.classList.remove("instant");
    }
    this.cards = next;
    this.boxes = nextBoxes;
    if (!animate) requestAnimationFrame(() => this.root.classList.remove("instant"));
  }

  /** A face-down element whose place now holds a named card (a flip), or a named card that an
   *  undo turned face down again: the same element turns over instead of popping in. */
  reuseForFlip(old, oldBoxes, wanted, place) {
    if (place.col === undefined) return null;
    for (const [key, el] of old) {
      if (wanted.has(key)) continue;
      const box = oldBoxes.get(key);
      if (box && box.col === place.col && box.index === place.index && (key[0] === "d") === (place.card !== HIDDEN)) {
        old.delete(key);
        return el;
      }
    }
    return null;
  }

  createCard() {
    const el = document.createElement("div");
    el.className = "card down";
    el.innerHTML = '<div class="inner"><div class="face front"></div><div class="face back"></div></div>';
    return el;
  }

  dressCard(el, place) {
    const faceUp = place.card !== HIDDEN;
    if (faceUp && el.dataset.card !== place.card) {
      const card = place.card;
      const suit = card[1];
      const rank = rankLabel(card);
      const court = "JQK".includes(card[0]);
      el.querySelector(".front").innerHTML =
        `<span class="corner"><span class="rank">${rank}</span><span class="suit">${SYMBOL[suit]}</span></span>` +
        (court
          ? `<span class="court"><span>${rank}</span><span>${SYMBOL[suit]}</span></span>`
          : `<span class="pip${card[0] === "A" ? " ace" : ""}">${SYMBOL[suit]}</span>`) +
        `<span class="corner bottom"><span class="rank">${rank}</span><span class="suit">${SYMBOL[suit]}</span></span>`;
      el.className = `card suit-${suit} ${suit === "H" || suit === "D" ? "red" : "black"}${el.classList.contains("instant") ? " instant" : ""}`;
      el.dataset.card = card;
      el.id = `card-${card}`;
    } else if (!faceUp) {
      el.classList.add("down");
      delete el.dataset.card;
      el.removeAttribute("id");
    }
    el.classList.toggle("down", !faceUp);
    el.classList.toggle("under", Boolean(place.under));
    el.dataset.place = place.col !== undefined ? `t${place.col + 1}` : `f${place.suit}`;
    el.setAttribute("role", "img");
    if (faceUp && place.col !== undefined) {
      el.setAttribute("aria-label", `${cardName(place.card)}, ${t("column", { n: place.col + 1 })}`);
    } else if (faceUp) {
      el.setAttribute("aria-label", `${cardName(place.card)}, ${t("foundation", { suit: t(`suit.${place.suit}`) })}`);
    } else {
      el.setAttribute("aria-label", `${t("card.down")}, ${t("column", { n: place.col + 1 })}`);
    }
  }

  setZ(el, z, flying) {
    clearTimeout(this.restoreTimers.get(el));
    if (flying) {
      el.style.zIndex = String(400 + z);
      this.restoreTimers.set(el, setTimeout(() => { el.style.zIndex = String(z); }, MOVE_MS + 60));
    } else if (!el.classList.contains("dragging")) {
      el.style.zIndex = String(z);
    }
  }

  /** The columns' and foundations' places and the lanes under the columns, for this.metrics. */
  positionSlots() {
    const m = this.metrics;
    for (let c = 0; c < 7; c++) {
      const x = this.colX(c);
      this.slots[`t${c + 1}`].style.transform = `translate(${x}px, ${m.tabY}px)`;
      const lane = this.lanes[`t${c + 1}`];
      lane.style.transform = `translate(${x - m.gap / 2}px, ${m.tabY - m.gap / 2}px)`;
      lane.style.width = `${m.cw + m.gap}px`;
      lane.style.height = `${this.height - m.tabY}px`;
    }
    for (const suit of SUITS) {
      const { x, y } = this.foundationBox(suit);
      this.slots[`f${suit}`].style.transform = `translate(${x}px, ${y}px)`;
    }
  }

  placeSlots() {
    this.positionSlots();
    for (let c = 0; c < 7; c++) {
      const base = this.slots[`t${c + 1}`];
      const count = this.view.tableau[c].length;
      base.classList.toggle("empty", count === 0);
      // Named by what it holds: "column 3, 7 cards" (it said "empty" under its cards too).
      base.setAttribute("aria-label", count ? tn("column.cards", count, { col: c + 1 }) : t("column.empty", { n: c + 1 }));
    }
    for (const suit of SUITS) {
      const slot = this.slots[`f${suit}`];
      const top = this.view.foundations[suit];
      slot.setAttribute("aria-label", top
        ? `${t("foundation", { suit: t(`suit.${suit}`) })}: ${cardName(top)}`
        : t("foundation.empty", { suit: t(`suit.${suit}`) }));
    }
  }

  // -- queries used by dragging and the keyboard -------------------------------------------------

  /** Where a face-up card can be taken from, as the table shows it (sourceIn). */
  sourceOf(card) {
    return sourceIn(this.view, card);
  }

  cardElement(card) {
    return this.cards.get(card) || null;
  }

  box(card) {
    return this.boxes.get(card) || null;
  }

  /** The drop target under table point (x, y): "t1".."t7", or "f" with the foundation's suit. */
  targetAt(x, y) {
    return targetAt(this.metrics, x, y);
  }

  /** Scroll the window so that `elements` (a hinted card and its target) are in view, above the
   *  `bottom` pixels that something fixed covers at the window's foot (revealBy). */
  reveal(elements, { bottom = 0 } = {}) {
    const rects = elements.filter(Boolean).map((el) => el.getBoundingClientRect());
    const dy = revealBy(rects, { height: innerHeight, bottom });
    if (dy) window.scrollBy(0, dy);
  }

  /** Ablagehilfe: light up these targets ("t3", "fH"); an empty list clears. */
  highlight(targets) {
    const set = new Set(targets);
    for (const [key, lane] of Object.entries(this.lanes)) lane.classList.toggle("hint", set.has(key));
    for (const suit of SUITS) this.slots[`f${suit}`].classList.toggle("hint", set.has(`f${suit}`));
  }

  /** The keyboard cursor over a card or an empty place; null hides it. */
  showCursor(spec) {
    if (!spec || !this.metrics) {
      this.cursor.hidden = true;
      return;
    }
    const m = this.metrics;
    let x, y, h = m.ch;
    if (spec.card && this.boxes.get(spec.card)) {
      const box = this.boxes.get(spec.card);
      x = box.x; y = box.y;
      if (spec.col !== undefined) {
        const colBoxes = this.view.tableau[spec.col].map((c, i) => this.boxes.get(c === HIDDEN ? `d${spec.col}-${i}` : c));
        const lastBox = colBoxes[colBoxes.length - 1];
        h = lastBox.y + m.ch - y;
      }
    } else if (spec.suit) {
      ({ x, y } = this.foundationBox(spec.suit));
    } else if (spec.foundations) {
      x = this.colX(3); y = m.foundY; h = m.ch;
      this.cursor.style.width = `${4 * m.cw + 3 * m.gap + 8}px`;
    } else {
      x = this.colX(spec.col); y = m.tabY;
      const col = this.view.tableau[spec.col];
      if (col.length) {
        const lastKey = col[col.length - 1] === HIDDEN ? `d${spec.col}-${col.length - 1}` : col[col.length - 1];
        h = this.boxes.get(lastKey).y + m.ch - y;
      }
    }
    if (!spec.foundations) this.cursor.style.width = `${m.cw + 8}px`;
    this.cursor.style.height = `${h + 8}px`;
    this.cursor.style.transform = `translate(${x - 4}px, ${y - 4}px)`;
    this.cursor.classList.toggle("picking", Boolean(spec.picking));
    this.cursor.hidden = false;
  }
}
