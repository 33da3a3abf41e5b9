// What the win dialog says besides the figures (loaded only after a win, like share.js): what the
// win was for the player (the state's `win`: a first win of the rule, a new best time, fewer moves
// than ever), the score taken apart (625 for a clean win, 10 more for each card put up again after
// a take-back: docs/scoring.md), a practice win as a challenge to a friend (the game code's link),
// and a short cascade of cards off the foundations (nothing under prefers-reduced-motion).
// Every figure is the server's; the page only words them.
import { t, tn, addStrings, formatTime } from "./i18n.js";
import { SUITS, foundationBox } from "./board.js";
import { fill } from "./share.js";
import { currentUser } from "./api.js";

const pgettext = globalThis.django?.pgettext ?? ((context, text) => text);

addStrings({
  "win.first": pgettext("win.first", "Your first win with the rule “{rule}”!"),
  "win.best.time": pgettext("win.best.time", "New best time! Your best before: {time}."),
  "win.best.moves": pgettext("win.best.moves", "Fewest moves yet! Your best before: {moves}."),
  "win.seen": pgettext("win.seen", "You had played this deal before, so this win does not count for your best time or fewest moves."),
  "win.score.clean": pgettext("win.score.clean", "{score} points: a clean win – 52 cards on the foundations × 10 and 21 cards turned up × 5."),
  "win.score.again.one": pgettext("win.score.again.one", "{score} points: {clean} for the win and 10 more, because 1 card went onto its foundation again after a take-back. Without take-backs a win makes exactly {clean}: a clean win."),
  "win.score.again.other": pgettext("win.score.again.other", "{score} points: {clean} for the win and 10 more for each of the {n} cards that went onto a foundation again after a take-back. Without take-backs a win makes exactly {clean}: a clean win."),
  "win.challenge": pgettext("win.challenge", "Can you beat my {time} with {moves}?"),
  "win.challenge.moves.one": pgettext("win.challenge.moves.one", "1 move"),
  "win.challenge.moves.other": pgettext("win.challenge.moves.other", "{n} moves"),
});

const $ = (id) => document.getElementById(id);

/** The lines that say what the win was for its player (the state's `win`): first win of the rule,
 *  new best time, fewest moves. None for a win that was none of these, or without `win`. */
export function recordLines(state) {
  const win = state.win;
  if (!win) return [];
  if (win.counts_for_bests === false) return [t("win.seen")];
  if (win.first_of_rule) return [t("win.first", { rule: t(`rule.${state.rule}`) })];
  const lines = [];
  if (win.best_time) lines.push(t("win.best.time", { time: formatTime(win.before.best_time_ms) }));
  if (win.fewest_moves) lines.push(t("win.best.moves", { moves: tn("moves", win.before.fewest_moves) }));
  return lines;
}

/** The score taken apart: a clean win's 625, or 625 and 10 for each card put up again after a
 *  take-back (the server's `put_up_again`). Empty for a score that is neither (no real game). */
export function scoreNote(state) {
  const win = state.win;
  if (!win) return "";
  if (win.clean) return t("win.score.clean", { score: state.score });
  const again = win.put_up_again;
  if (again > 0 && state.score === win.clean_score + 10 * again) {
    return tn("win.score.again", again, { score: state.score, clean: win.clean_score });
  }
  return "";
}

/** Whether a win may be sent to a friend as a challenge: a game whose code is public (never
 *  today's daily deal, whose code the server keeps back) that is no ranked attempt (its result is
 *  shared with the day's text). */
export function challengeable(state) {
  return Boolean(state.code) && state.status === "won" && !state.ranked;
}

/** The challenge: the deal's rule and code, the player's time and moves, the link that deals it. */
export function challengeText(state, origin) {
  const url = `${origin}/?code=${encodeURIComponent(state.code)}`;
  const head = ["Yukon", t(`rule.${state.rule}`), state.code].join(" · ");
  const ask = t("win.challenge", { time: formatTime(state.elapsed_ms), moves: tn("win.challenge.moves", state.moves) });
  return [head, ask, url].join("\n");
}

/** Fill the win dialog's own lines for `state`: the records, the score's note, the challenge. */
export function fillWin(state) {
  const records = $("win-records");
  const lines = recordLines(state);
  records.replaceChildren(...lines.map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
  records.hidden = !lines.length;
  const note = $("win-score-note");
  note.textContent = scoreNote(state);
  note.hidden = !note.textContent;
  const challenge = $("win-challenge");
  if (challengeable(state)) fill(challenge, challengeText(state, location.origin));
  else challenge.hidden = true;
  // A guest is asked to keep the win with an account (its games move to it on sign-up).
  const keep = $("win-keep");
  if (keep) currentUser().then((user) => { keep.hidden = Boolean(user); }, () => {});
}

const reducedMotion = () => Boolean(globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);

const CASCADE_RANKS = "KQJT";
const STAGGER_MS = 45;
const FLIGHT_MS = 1100;

/** A short cascade of cards off the foundations and down over the table (decoration: hidden from
 *  screen readers, not under prefers-reduced-motion). Resolves when the dialog may come, while the
 *  last cards are still falling. */
export function celebrate(board) {
  const m = board.metrics;
  if (reducedMotion() || !m) return Promise.resolve();
  const layer = document.createElement("div");
  layer.className = "celebration";
  layer.setAttribute("aria-hidden", "true");
  const height = board.height || m.available;
  let i = 0;
  for (const rank of CASCADE_RANKS) {
    for (const suit of SUITS) {
      const card = rank + suit;
      const el = board.createCard();
      board.dressCard(el, { card, suit });
      for (const name of ["id", "role", "aria-label"]) el.removeAttribute(name);
      const { x, y } = foundationBox(m, suit);
      // A fixed spread (the same cascade every time): left and right, near and far.
      const spread = (((i * 7) % 9) - 4) / 4;
      el.style.setProperty("--x0", `${x}px`);
      el.style.setProperty("--y0", `${y}px`);
      el.style.setProperty("--xm", `${x + spread * m.width * 0.18}px`);
      el.style.setProperty("--ym", `${y + m.ch * 0.15}px`);
      el.style.setProperty("--x1", `${x + spread * m.width * 0.45 - (x - m.width / 2) * 0.4}px`);
      el.style.setProperty("--y1", `${height + m.ch * 0.2}px`);
      el.style.setProperty("--turn", `${spread * 200}deg`);
      el.style.setProperty("--delay", `${i * STAGGER_MS}ms`);
      layer.append(el);
      i += 1;
    }
  }
  board.root.append(layer);
  setTimeout(() => layer.remove(), i * STAGGER_MS + FLIGHT_MS + 100);
  return new Promise((resolve) => setTimeout(resolve, Math.min(1000, i * STAGGER_MS + FLIGHT_MS / 2)));
}
