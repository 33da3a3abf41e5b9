// One game on the table: shows the server's state, turns drags, taps and keys into API moves,
// and keeps the game bar. It never judges a move itself: drop hints and the optimistic first
// frame use only moves the server listed in legal_moves; everything else is the server's answer.
import { t, tn, cardName, formatTime } from "./i18n.js";
import { games } from "./api.js";
import { Board, attachDrag, previewMove } from "./board.js";
import { attachKeyboard } from "./keyboard.js";

const DOUBLE_TAP_MS = 280;
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

const sameMove = (a, b) => a.from === b.from && a.to === b.to && (a.card || null) === (b.card || null);

export class GameTable {
  constructor({ settings, onWin = null, onState = null, onLost = null }) {
    this.settings = settings;
    this.onWin = onWin;
    this.onState = onState;
    this.onLost = onLost; // the game shown is gone (404): the page says so
    this.state = null;
    this.receivedAt = 0;
    this.queue = Promise.resolve();
    this.pendingTap = null;
    this.board = new Board($("table"));
    this.live = $("live");
    this.note = $("rule-note");
    this.noteTimer = 0;
    this.notice = $("game-notice");
    this.closedId = null; // the game whose day ended while it was shown (said once)
    attachDrag(this.board, {
      onTap: (source) => this.tapped(source),
      onDragStart: (source) => this.dragStarted(source),
      onDrop: (source, target, info) => this.dropped(source, target, info),
    });
    this.keys = attachKeyboard(this);
    $("undo-button").addEventListener("click", () => this.undo());
    $("hint-button").addEventListener("click", () => this.hint());
    $("winnable-button").addEventListener("click", () => this.winnable());
    $("code-button").addEventListener("click", () => this.copyCode());
    this.note.querySelector("button").addEventListener("click", () => this.hideNote());
    // Scrolled or resized while a note shows: keep it off the game bar.
    const replace = () => { if (!this.note.hidden && !this.note.classList.contains("docked")) this.placeNote(); };
    addEventListener("scroll", replace, { passive: true });
    addEventListener("resize", replace, { passive: true });
    this.notice.querySelector("button").addEventListener("click", () => { this.notice.hidden = true; });
    document.addEventListener("keydown", (event) => {
      const typing = event.target.closest && event.target.closest("input, textarea, select, dialog");
      if (typing) return;
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === "z") {
        event.preventDefault();
        this.undo();
      }
    });
    settings.onChange((values) => {
      this.board.root.classList.toggle("four-color", Boolean(values.four_color));
    });
    this.board.root.classList.toggle("four-color", Boolean(settings.get("four_color")));
    setInterval(() => this.tick(), 250);
  }

  /** Show a state from the server. The first state of a game deals; later ones animate. */
  show(state, { deal = false } = {}) {
    const previous = this.state;
    const fresh = !previous || previous.id !== state.id;
    this.state = state;
    this.receivedAt = performance.now();
    if (deal) {
      // Restarting a deal's animation needs a style flush; the first deal (most loads) does not.
      if (this.board.layer.classList.contains("dealing")) {
        this.board.layer.classList.remove("dealing");
        void getComputedStyle(this.board.layer).animationName;
      }
      this.board.layer.classList.add("dealing");
      setTimeout(() => this.board.layer.classList.remove("dealing"), 1400);
    }
    this.board.render(state, { animate: !fresh });
    this.closingNotice(previous, fresh);
    if (deal) {
      [...this.board.layer.children].forEach((el, i) => el.style.setProperty("--deal-delay", `${i * 14}ms`));
    }
    this.updateBar();
    this.keys.refresh();
    if (state.last && state.last.flipped && !fresh) this.announce(t("flipped", { card: cardName(state.last.flipped) }));
    if (this.onState) this.onState(state);
    if (state.status === "won" && (fresh || previous.status !== "won") && this.onWin) {
      setTimeout(() => this.onWin(state), fresh ? 0 : 450);
    }
  }

  /** No game on the table (it could not be opened): nothing to show, nothing to undo. */
  clear() {
    this.state = null;
    this.board.view = null;
    this.board.cards = new Map();
    this.board.boxes = new Map();
    this.board.layer.replaceChildren();
    this.hideNote();
    this.notice.hidden = true;
    $("stat-moves").textContent = "0";
    $("stat-score").textContent = "0";
    $("stat-time").textContent = "0:00";
    $("code-text").textContent = "–";
    $("code-button").disabled = true;
    $("rule-badge").textContent = "";
    $("undo-button").disabled = true;
    $("hint-button").hidden = true;
    $("winnable-button").hidden = true;
    $("close-figure").hidden = true;
  }

  // -- the game bar ------------------------------------------------------------------------------
  updateBar() {
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
    $("undo-button").disabled = !s.undo_available || s.status !== "playing";
    // Help exists for practice games only: never for today's daily deal (its code is still secret).
    const help = s.status === "playing" && !(s.daily && !s.code);
    $("hint-button").hidden = !help;
    $("winnable-button").hidden = !help;
    document.documentElement.dataset.rule = s.rule; // the rules text and how-to of this game's rule
    const badge = [t(`rule.${s.rule}`)];
    if (s.daily && !s.code) badge.push(t(this.counts() ? "bar.ranked" : "bar.practice"));
    if (s.solution_length) badge.push(tn("solved.in", s.solution_length));
    $("rule-badge").textContent = badge.join(" · ");
    this.tick();
  }

  /** Whether the game shown is a ranked attempt that still counts (not closed, day not over). */
  counts() {
    const s = this.state;
    if (!s || !s.ranked || s.closed || this.closedId === s.id) return false;
    const left = closingIn(s, this.receivedAt);
    return left === null || left > 0;
  }

  /** The countdown to 00:00 UTC of a ranked attempt, from closes_in_ms as received (the server's
   *  clock, not this browser's). At zero the page says that the game now counts as practice. */
  tickClose() {
    if (!this.state) return;
    const left = closingIn(this.state, this.receivedAt);
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
    if (fresh) this.notice.hidden = true;
    if (s.closed && (fresh || !previous.closed)) {
      this.dayOver();
      return;
    }
    const left = closingIn(s, this.receivedAt);
    if (fresh && left !== null && left > 0 && left < CLOSE_WARNING_MS) this.showNotice(t("close.warning"), "warning");
  }

  dayOver() {
    if (!this.state || this.closedId === this.state.id) return;
    this.closedId = this.state.id;
    this.showNotice(t("close.over"), "over");
    this.updateBar();
    // The server closes the attempt at 00:00 UTC: fetch its word (closed, ranked false).
    const id = this.state.id;
    if (!this.state.closed) {
      setTimeout(() => this.enqueue(async () => {
        if (!this.state || this.state.id !== id) return;
        try {
          this.show(await games.get(id));
        } catch (err) {
          /* keep what is shown */
        }
      }), 1500);
    }
  }

  showNotice(text, kind) {
    $("game-notice-text").textContent = text;
    this.notice.dataset.kind = kind;
    this.notice.hidden = false;
    this.announce(text);
  }

  elapsed() {
    if (!this.state) return 0;
    const running = this.state.status === "playing" ? performance.now() - this.receivedAt : 0;
    return this.state.elapsed_ms + running;
  }

  tick() {
    if (!this.state) return;
    const text = formatTime(this.elapsed());
    const el = $("stat-time");
    if (el.textContent !== text) el.textContent = text;
    this.tickClose();
  }

  async copyCode() {
    const code = this.state && this.state.code;
    if (!code) return;
    try {
      await navigator.clipboard.writeText(code);
    } catch (err) {
      // The bar may show a shortened code: copy the whole one from a scratch field.
      const field = document.createElement("textarea");
      field.value = code;
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
    const label = $("code-copied");
    label.hidden = false;
    setTimeout(() => { label.hidden = true; }, 1500);
  }

  // -- what the player does ---------------------------------------------------------------------
  legalTargets(source) {
    if (!this.state) return [];
    const targets = [];
    for (const m of this.state.legal_moves) {
      if (m.from !== source.from) continue;
      if (m.to === "f") {
        if (source.last) targets.push(`f${source.card[1]}`);
      } else if (source.from[0] === "f" || m.card === source.card) {
        targets.push(m.to);
      }
    }
    return targets;
  }

  isListed(move) {
    return Boolean(this.state && this.state.legal_moves.some((m) => sameMove(m, move)));
  }

  dragStarted(source) {
    this.cancelPendingTap();
    this.hideNote();
    if (this.settings.get("drop_hints")) this.board.highlight(this.legalTargets(source));
  }

  dropped(source, target, info = {}) {
    this.board.highlight([]);
    const fromTableau = source.from[0] === "t";
    const auto = this.settings.get("auto_drop") && fromTableau;
    let move = null;
    if (target && target.to === "f") {
      if (fromTableau) move = source.last ? { from: source.from, to: "f" } : { from: source.from, card: source.card, to: "f" };
    } else if (target && target.to !== source.from) {
      move = fromTableau ? { from: source.from, card: source.card, to: target.to } : { from: source.from, to: target.to };
    }
    if (auto && !info.cancelled && (!move || (move.to !== "f" && !this.isListed(move)))) {
      move = { from: source.from, card: source.card, to: "auto" };
    }
    if (!move) {
      this.board.render(this.state); // back where it came from
      return;
    }
    this.play(move, { dragged: true });
  }

  tapped(source) {
    if (source.from[0] !== "t") return;
    if (!this.settings.get("double_click")) {
      this.tapToFoundation(source.card);
      return;
    }
    if (this.pendingTap && this.pendingTap.card === source.card) {
      this.cancelPendingTap();
      this.autoPlace(source.card);
      return;
    }
    this.cancelPendingTap();
    const card = source.card;
    this.pendingTap = { card, timer: setTimeout(() => { this.pendingTap = null; this.tapToFoundation(card); }, DOUBLE_TAP_MS) };
  }

  cancelPendingTap() {
    if (this.pendingTap) clearTimeout(this.pendingTap.timer);
    this.pendingTap = null;
  }

  /** Tap: the last card of a column to its foundation, when the server lists that move. A move
   *  it does not list wiggles the card; with "Interaktive Regeln" the server's reason is shown,
   *  as for a refused drag (the page judges nothing itself). */
  tapToFoundation(card) {
    const source = this.board.sourceOf(card);
    if (!source || source.from[0] !== "t") return;
    const move = { from: source.from, to: "f" };
    if (source.last && this.isListed(move)) {
      this.play(move);
      return;
    }
    this.nudge(card);
    if (source.last && this.settings.get("interactive_rules")) this.play(move);
  }

  /** Double-tap: the server's search for a column (to: "auto"). */
  autoPlace(card) {
    const source = this.board.sourceOf(card);
    if (!source || source.from[0] !== "t") return;
    this.play({ from: source.from, card, to: "auto" });
  }

  nudge(card) {
    const el = this.board.cardElement(card);
    if (!el) return;
    el.classList.remove("nudge");
    void el.offsetWidth;
    el.classList.add("nudge");
  }

  /** Send a move. A listed move is shown at once (optimistic) and then reconciled with the
   *  server's state; anything else goes back at once and waits for the server's verdict. */
  play(move, { dragged = false } = {}) {
    return this.enqueue(async () => {
      const state = this.state;
      if (!state) return;
      if (state.status !== "playing") {
        if (dragged) this.board.render(state);
        return;
      }
      const preview = move.to !== "auto" && this.isListed(move) ? previewMove(state, move) : null;
      if (preview) this.board.render(preview);
      else if (dragged) this.board.render(state);
      try {
        const next = await games.move(state.id, { ...move, seq: state.moves });
        this.show(next);
        this.announceMove(move, state, next);
      } catch (err) {
        this.board.render(this.state);
        await this.refused(err);
      }
    });
  }

  undo() {
    return this.enqueue(async () => {
      const state = this.state;
      if (!state || state.status !== "playing" || !state.undo_available) return;
      try {
        const next = await games.undo(state.id, state.moves);
        this.show(next);
        this.announce(t("moved.undo"));
      } catch (err) {
        await this.refused(err);
      }
    });
  }

  /** Hint: the server's suggestion, shown on the card and its target for a moment. */
  hint() {
    return this.enqueue(async () => {
      const state = this.state;
      if (!state || state.status !== "playing") return;
      this.showNote(t("help.thinking"));
      try {
        const { move, reason } = await games.hint(state.id);
        if (!move) {
          this.showNote(t(reason === "no_progress" ? "hint.no_progress" : "hint.none"));
          return;
        }
        let card = move.card;
        if (!card && move.from[0] === "t") {
          const col = state.tableau[Number(move.from.slice(1)) - 1];
          card = col[col.length - 1];
        }
        if (!card) card = state.foundations[move.from[1]];
        const target = move.to === "f" ? `f${card[1]}` : move.to;
        const where = move.to === "f" ? t("foundation", { suit: t(`suit.${card[1]}`) }) : t("column", { n: target.slice(1) });
        this.showNote(t("hint.move", { card: cardName(card), target: where }));
        this.board.highlight([target]);
        const el = this.board.cardElement(card);
        if (el) el.classList.add("hinted");
        // On a phone either may lie below the fold (a long column): the card, then the target's
        // last card (or its empty place) into view.
        const goal = move.to === "f" ? null : state.tableau[Number(target.slice(1)) - 1].at(-1);
        const spot = goal ? this.board.cardElement(goal) : this.board.lanes[target] || this.board.slots[target];
        for (const one of [el, spot]) if (one) one.scrollIntoView({ block: "nearest", inline: "nearest" });
        setTimeout(() => {
          this.board.highlight([]);
          if (el) el.classList.remove("hinted");
        }, 2500);
      } catch (err) {
        await this.refused(err);
      }
    });
  }

  winnable() {
    return this.enqueue(async () => {
      const state = this.state;
      if (!state) return;
      this.showNote(t("help.thinking"));
      try {
        const { winnable } = await games.winnable(state.id);
        this.showNote(t(`winnable.${winnable}`));
      } catch (err) {
        await this.refused(err);
      }
    });
  }

  enqueue(task) {
    this.queue = this.queue.then(task).catch((err) => {
      console.error(err);
    });
    return this.queue;
  }

  async refused(err) {
    if (err.code === "signed_out") return; // the header says so, with a way to sign in (nav.js)
    if (err.status === 409) {
      try {
        this.show(await games.get(this.state.id));
      } catch (e) {
        /* keep what is shown */
      }
      this.showNote(t("error.stale"), "", "error");
    } else if (err.status === 422 || err.status === 400) {
      if (this.settings.get("interactive_rules")) this.showNote(err.detail || t("error.generic"), err.code);
      else this.announce(err.detail || t("error.generic"));
    } else if (err.status === 404 && this.onLost) {
      this.onLost();
    } else if (err.status === 0) {
      this.showNote(t("error.network"), "", "error");
    } else {
      this.showNote(err.detail || t("error.generic"), "", "error"); // a rate limit, the server
    }
  }

  // -- messages ---------------------------------------------------------------------------------
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

  announce(text) {
    this.live.textContent = "";
    requestAnimationFrame(() => { this.live.textContent = text; });
  }

  announceMove(move, before, after) {
    let card = move.card;
    if (!card && move.from[0] === "t") {
      const col = before.tableau[Number(move.from.slice(1)) - 1];
      card = col[col.length - 1];
    }
    if (!card && move.from[0] === "f") card = before.foundations[move.from[1]];
    let target = move.to;
    if (target === "auto") {
      const index = after.tableau.findIndex((col) => col.includes(card));
      target = index >= 0 ? `t${index + 1}` : "";
    }
    const where = target === "f" ? t("foundation", { suit: t(`suit.${card[1]}`) }) : t("column", { n: target.slice(1) });
    this.announce(t("moved", { card: cardName(card), target: where }));
  }
}
