// The game bar over the table: time, moves, score, the game's code (a click copies it), its rule,
// and for a ranked daily attempt the countdown to 00:00 UTC with its warning and its end. It shows
// the store's state and re-renders whenever the store changes; its buttons call the table back.
// Also what the play page says besides the table (Messages): the note over the table (a rule that
// refused a move, an error, a hint, a word about the game), the lasting notice about the day's
// end, and the announcements for screen readers (#live).
import { t, tn, formatTime } from "./i18n.js";
import { isNewGame } from "./store.js";

// A ranked attempt started or resumed with less than this left before 00:00 UTC gets a warning.
export const CLOSE_WARNING_MS = 15 * 60 * 1000;
const $ = (id) => document.getElementById(id);

/** A code short enough for the game bar: a version-2 code (54 characters) loses its middle. */
export function shortCode(code) {
  return code.length > 16 ? `${code.slice(0, 10)}…${code.slice(-4)}` : code;
}

/** Milliseconds left of a ranked attempt that still counts (today's, unfinished), else null. */
export function closingIn(state, receivedAt, now = performance.now()) {
  if (!state || !state.ranked || state.status !== "playing" || state.closes_in_ms == null) return null;
  return state.closes_in_ms - (now - receivedAt);
}

/** Milliseconds played: the server's elapsed_ms, running on from when it came while in play
 *  (not while the game is paused: its clock stands). */
export function elapsedMs(state, receivedAt, now = performance.now()) {
  if (!state) return 0;
  return state.elapsed_ms + (state.status === "playing" && !state.paused ? now - receivedAt : 0);
}

/** Put `text` on the clipboard; where the Clipboard API is refused, from a scratch field. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (err) {
    const field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.className = "visually-hidden";
    document.body.append(field);
    field.select();
    try {
      document.execCommand("copy");
    } catch (e) {
      /* nothing more to try */
    }
    field.remove();
  }
}

export class GameBar {
  /** onDayOver(state): the countdown reached 00:00 UTC on a game the server has not closed yet. */
  constructor({ store, messages, onUndo, onHint, onWinnable, onFinish, onDayOver, onPause }) {
    this.store = store;
    this.messages = messages;
    this.onDayOver = onDayOver;
    this.closedId = null; // the game whose day ended while it was shown (said once)
    $("undo-button").addEventListener("click", onUndo);
    $("hint-button").addEventListener("click", onHint);
    $("winnable-button").addEventListener("click", onWinnable);
    $("finish-button").addEventListener("click", onFinish);
    $("pause-button").addEventListener("click", onPause);
    $("code-button").addEventListener("click", () => this.copyCode());
    store.subscribe((state, previous) => this.render(state, previous));
    setInterval(() => this.tick(), 250);
  }

  get state() {
    return this.store.state;
  }

  render(state, previous) {
    if (!state) {
      this.clear();
      return;
    }
    this.closingNotice(previous, isNewGame(state, previous));
    this.update();
  }

  clear() {
    this.messages.hideNotice();
    $("stat-moves").textContent = "0";
    $("stat-score").textContent = "0";
    $("stat-time").textContent = "0:00";
    $("code-text").textContent = "–";
    $("code-button").disabled = true;
    $("rule-badge").textContent = "";
    $("undo-button").disabled = true;
    $("hint-button").hidden = true;
    $("winnable-button").hidden = true;
    $("finish-button").hidden = true;
    $("pause-button").hidden = true;
    $("close-figure").hidden = true;
  }

  update() {
    const s = this.state;
    $("stat-moves").textContent = String(s.moves);
    $("stat-score").textContent = String(s.score);
    const button = $("code-button");
    $("code-text").textContent = s.code ? shortCode(s.code) : t("bar.daily");
    button.disabled = !s.code;
    button.closest(".code-figure").classList.toggle("no-code", !s.code); // "Tagesspiel" names no code
    button.title = s.code ? `${t("bar.copy")}: ${s.code}` : t("bar.daily");
    // The name holds what the button shows (WCAG 2.5.3): a shortened code first, then the whole one.
    const shown = s.code ? shortCode(s.code) : "";
    const copy = s.code ? t("bar.copy.code", { code: s.code }) : t("bar.daily");
    button.setAttribute("aria-label", shown && shown !== s.code ? `${shown}, ${copy}` : copy);
    $("undo-button").disabled = !s.undo_available || s.status !== "playing" || Boolean(s.paused);
    // Finish: offered by the server once every card is face up and putting them up wins (the
    // player's act: docs/rules.md). It takes the place of the help, which has nothing left to say.
    const finish = s.status === "playing" && Boolean(s.finish_available) && !s.paused;
    $("finish-button").hidden = !finish;
    // Help exists for practice games only: never for today's daily deal (its code is still secret).
    const help = s.status === "playing" && !(s.daily && !s.code);
    $("hint-button").hidden = !help;
    $("winnable-button").hidden = !help;
    // Finish lies over the help's two buttons, which keep their room: nothing in the bar moves.
    $("help-slot").classList.toggle("finishing", finish && help);
    // Pause, for a game whose clock may stop (never a ranked attempt that counts: the server's pausable).
    const pause = $("pause-button");
    pause.hidden = !(s.pausable && s.status === "playing");
    pause.setAttribute("aria-pressed", String(Boolean(s.paused)));
    $("pause-label").textContent = t(s.paused ? "bar.resume" : "bar.pause");
    $("hint-button").disabled = $("winnable-button").disabled = Boolean(s.paused); // nothing is played while paused
    document.documentElement.dataset.rule = s.rule; // the rules text and how-to of this game's rule
    const badge = [t(`rule.${s.rule}`)];
    if (s.daily && !s.code) badge.push(t(this.counts() ? "bar.ranked" : "bar.practice"));
    if (s.solution_length) badge.push(tn("solved.in", s.solution_length));
    else if (s.winnable_deal) badge.push(t("bar.winnable_deal")); // "winnable deals only": the solver won it
    $("rule-badge").textContent = badge.join(" · ");
    this.tick();
  }

  /** Whether the game shown is a ranked attempt that still counts (not closed, day not over). */
  counts() {
    const s = this.state;
    if (!s || !s.ranked || s.closed || this.closedId === s.id) return false;
    const left = closingIn(s, this.store.receivedAt);
    return left === null || left > 0;
  }

  /** The countdown to 00:00 UTC of a ranked attempt, from closes_in_ms as received (the server's
   *  clock, not this browser's). At zero the page says that the game now counts as practice. */
  tickClose() {
    const left = closingIn(this.state, this.store.receivedAt);
    const figure = $("close-figure");
    if (left === null || this.closedId === this.state.id) {
      figure.hidden = true;
      return;
    }
    if (left <= 0) {
      figure.hidden = true;
      this.dayOver();
      return;
    }
    figure.hidden = false;
    figure.classList.toggle("urgent", left < CLOSE_WARNING_MS);
    // Round up: the last second shows 0:01, and 0:00 is the moment it closes.
    const text = formatTime(Math.ceil(left / 1000) * 1000);
    const value = $("stat-close");
    if (value.textContent !== text) value.textContent = text;
  }

  /** The < 15 minutes warning for a ranked attempt as it is dealt or resumed; the day-over
   *  message when a state says the attempt was closed. */
  closingNotice(previous, fresh) {
    const s = this.state;
    if (fresh) this.messages.hideNotice();
    if (s.closed && (fresh || !previous.closed)) {
      this.dayOver();
      return;
    }
    const left = closingIn(s, this.store.receivedAt);
    if (fresh && left !== null && left > 0 && left < CLOSE_WARNING_MS) this.messages.showNotice(t("close.warning"), "warning");
  }

  dayOver() {
    const s = this.state;
    if (!s || this.closedId === s.id) return;
    this.closedId = s.id;
    this.messages.showNotice(t("close.over"), "over");
    this.update();
    if (!s.closed) this.onDayOver(s);
  }

  tick() {
    if (!this.state) return;
    const text = formatTime(elapsedMs(this.state, this.store.receivedAt));
    const el = $("stat-time");
    if (el.textContent !== text) el.textContent = text;
    this.tickClose();
  }

  async copyCode() {
    const code = this.state && this.state.code;
    if (!code) return;
    // The bar may show a shortened code: the whole one is copied.
    await copyText(code);
    const label = $("code-copied");
    label.hidden = false;
    setTimeout(() => { label.hidden = true; }, 1500);
  }
}

export class Messages {
  constructor() {
    this.live = $("live");
    this.note = $("rule-note");
    this.noteTimer = 0;
    this.notice = $("game-notice");
    this.note.querySelector("button").addEventListener("click", () => this.hideNote());
    // Scrolled or resized while a note shows: keep it off the game bar.
    const replace = () => { if (!this.note.hidden && !this.note.classList.contains("docked")) this.placeNote(); };
    addEventListener("scroll", replace, { passive: true });
    addEventListener("resize", replace, { passive: true });
    this.notice.querySelector("button").addEventListener("click", () => this.hideNotice());
  }

  /** A note over the table: a rule that refused a move ("§"), an error ("!"), or a word about
   *  the game, a hint, a resumed game ("i"). */
  showNote(text, code = "", kind = code ? "rule" : "info") {
    clearTimeout(this.noteTimer);
    this.note.querySelector(".rule-text").textContent = text;
    this.note.dataset.kind = kind;
    this.note.querySelector(".rule-icon").textContent = { rule: "§", error: "!" }[kind] ?? "i";
    this.note.dataset.code = code || "";
    this.note.classList.remove("docked");
    this.note.hidden = false;
    this.placeNote();
    this.noteTimer = setTimeout(() => this.hideNote(), 7000);
  }

  /** A note never lies on the game bar's buttons (then it goes in the page under the bar), and
   *  the page keeps room for it below the table, so no card stays hidden under it. */
  placeNote() {
    const bar = document.querySelector(".game-bar");
    const note = this.note.getBoundingClientRect();
    const over = bar && bar.getBoundingClientRect();
    if (over && note.top < over.bottom && note.bottom > over.top) this.note.classList.add("docked");
    const space = this.note.classList.contains("docked") ? 0 : Math.ceil(this.note.offsetHeight) + 16;
    document.documentElement.style.setProperty("--note-space", `${space}px`);
  }

  hideNote() {
    clearTimeout(this.noteTimer);
    this.note.hidden = true;
    this.note.classList.remove("docked");
    document.documentElement.style.removeProperty("--note-space");
  }

  /** How much of the window's bottom the note covers (0 when hidden or docked in the page). */
  noteCover() {
    if (this.note.hidden || this.note.classList.contains("docked")) return 0;
    return Math.max(0, innerHeight - this.note.getBoundingClientRect().top);
  }

  /** The lasting notice under the bar ("warning": the day ends soon, or the ranked attempt's clock
   *  runs on; "over": it ended), with a link after the text when one is given. */
  showNotice(text, kind, link = null) {
    const line = $("game-notice-text");
    line.textContent = text;
    if (link) line.append(" ", Object.assign(document.createElement("a"), { href: link.href, textContent: link.text }));
    this.notice.dataset.kind = kind;
    this.notice.hidden = false;
    this.announce(text);
  }

  hideNotice() {
    this.notice.hidden = true;
  }

  announce(text) {
    this.live.textContent = "";
    requestAnimationFrame(() => { this.live.textContent = text; });
  }
}
