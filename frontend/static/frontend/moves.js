// What a gesture means as a move of the API (docs/api.md), read only from the state the server
// sent: its legal_moves for drop hints and the optimistic frame, its columns to name a card. The
// page judges no rule here: a move not listed still goes to the server, which says why not. Pure
// (tests/js/moves.test.mjs).

export const sameMove = (a, b) => a.from === b.from && a.to === b.to && (a.card || null) === (b.card || null);

/** Whether the server listed `move` among the state's legal moves. */
export const isListed = (state, move) => Boolean(state && state.legal_moves.some((m) => sameMove(m, move)));

/** Where the server lets `source` (board.sourceOf: {from, card, last}) go: "t3", "fH", ... */
export function legalTargets(state, source) {
  if (!state) return [];
  const targets = [];
  for (const m of state.legal_moves) {
    if (m.from !== source.from) continue;
    if (m.to === "f") {
      if (source.last) targets.push(`f${source.card[1]}`);
    } else if (source.from[0] === "f" || m.card === source.card) {
      targets.push(m.to);
    }
  }
  return targets;
}

/** The move a drop asks for, or null (put it back). `target` is {to: "t3"} or {to: "f"}; with
 *  autoDrop (the setting) a card from a column that lands where the server lists no move asks the
 *  server for a place (to: "auto"), unless the drag was cancelled. */
export function dropMove(state, source, target, { autoDrop = false, cancelled = false } = {}) {
  const fromTableau = source.from[0] === "t";
  let move = null;
  if (target && target.to === "f") {
    if (fromTableau) move = source.last ? { from: source.from, to: "f" } : { from: source.from, card: source.card, to: "f" };
  } else if (target && target.to !== source.from) {
    move = fromTableau ? { from: source.from, card: source.card, to: target.to } : { from: source.from, to: target.to };
  }
  if (autoDrop && fromTableau && !cancelled && (!move || (move.to !== "f" && !isListed(state, move)))) {
    move = { from: source.from, card: source.card, to: "auto" };
  }
  return move;
}

/** The card `move` takes in `state`: its own card, else a column's last card or a foundation's top. */
export function movedCard(state, move) {
  if (move.card) return move.card;
  if (move.from[0] === "t") return state.tableau[Number(move.from.slice(1)) - 1].at(-1) || null;
  return state.foundations[move.from[1]] || null;
}

/** Where a move went: "t3", "fH"; an "auto" move's column is read from the state after it. */
export function movedTo(move, card, after) {
  if (move.to === "f") return `f${card[1]}`;
  if (move.to !== "auto") return move.to;
  const index = after ? after.tableau.findIndex((col) => col.includes(card)) : -1;
  return index >= 0 ? `t${index + 1}` : "";
}

/** What a hint points at: the card, its target ("t3", "fH") and the card it goes on (the target
 *  column's last card), null for a foundation or an empty column. */
export function hintFocus(state, move) {
  const card = movedCard(state, move);
  if (!card) return null;
  const target = movedTo(move, card, null);
  const goal = target[0] === "t" ? state.tableau[Number(target.slice(1)) - 1].at(-1) || null : null;
  return { card, target, goal };
}

/** The columns the server lists for `card` taken from `from` ("t3"): ["t1", "t5"]. */
export const listedColumns = (state, from, card) =>
  state ? state.legal_moves.filter((m) => m.from === from && m.card === card && m.to[0] === "t").map((m) => m.to) : [];

/** The move a double tap's search (to: "auto") will make, when the state says it already: the
 *  server lists exactly one column for the card, so the search can find no other. null when it
 *  lists none (the server refuses and says why) or several (the server chooses). */
export function knownAuto(state, move) {
  const columns = listedColumns(state, move.from, move.card);
  return columns.length === 1 ? { from: move.from, card: move.card, to: columns[0] } : null;
}

/** Whether a tap on `source` (a column's card) can only mean its foundation: the server lists
 *  that move and no column for the card, so a double tap would have nothing to do; the tap is
 *  played at once instead of after the double-tap wait. */
export function onlyFoundation(state, source) {
  if (!state || !source || source.from[0] !== "t" || !source.last) return false;
  return isListed(state, { from: source.from, to: "f" }) && listedColumns(state, source.from, source.card).length === 0;
}
