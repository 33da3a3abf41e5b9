// One game on the table: the page's store holds the server's state, and every state the server
// answers goes through it, which re-renders the board (board.js), the game bar (gamebar.js) and
// the keyboard cursor. This module turns what the player does (pointer.js, keyboard.js, the bar's
// buttons) into API moves, and shows hints and the server's answers (gamebar.js's Messages). It never judges
// a move itself: drop hints and the optimistic first frame use only moves the server listed in
// legal_moves (moves.js) and positions the server sent (an undo shows the one before at once);
// everything else is the server's answer. What the page knows is painted at once and confirmed by
// the server after; a refusal puts the cards back and says why.
import { t, tn, cardName } from "./i18n.js";
import { games } from "./api.js";
import { Board, previewMove, sourceIn } from "./board.js";
import { attachDrag, createTaps } from "./pointer.js";
import { attachKeyboard } from "./keyboard.js";
import { GameBar, Messages, elapsedMs } from "./gamebar.js";
import { Offline } from "./offline.js";
import { CONFIG } from "./config.js";
import { createStore, isNewGame } from "./store.js";
import { dropMove, hintFocus, isListed, knownAuto, legalTargets, movedCard, movedTo, onlyFoundation } from "./moves.js";
import { attachClock, rankedRunning } from "./pause.js";

// "Still winnable?" answered "deciding" (the worker is on it): asked again this often, this many times.
const DECIDING_MS = 2000;
const DECIDING_ROUNDS = 15;

const $ = (id) => document.getElementById(id);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const reducedMotion = () => Boolean(globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);

export class GameTable {
  constructor({ settings, onWin = null, onState = null, onLost = null, onSynced = null }) {
    this.settings = settings;
    this.onSynced = onSynced; // a game played offline is the server's again (its address may change)
    this.onWin = onWin;
    this.onState = onState;
    this.onLost = onLost; // the game shown is gone (404): the page says so
    this.ownPause = null; // (id) => whether a pause found by a move was this tab's own (pause.js)
    this.queue = Promise.resolve();
    this.sending = 0; // requests queued or on their way
    this.hinted = null; // the hint on show: {el, timer}
    this.store = createStore();
    // The positions this game showed before its moves, newest last: an undo goes back to the last
    // one at once (the server confirms). Forgotten for another game or a stale one (409).
    this.before = [];
    this.store.subscribe((state, previous) => {
      if (!state || isNewGame(state, previous)) this.before = [];
    });
    this.board = new Board($("table"));
    this.messages = new Messages();
    // The views of the store, in this order: the table, the bar, then what depends on both.
    this.store.subscribe((state, previous, info) => this.render(state, previous, info));
    this.bar = new GameBar({
      store: this.store,
      messages: this.messages,
      onUndo: () => this.undo(),
      onHint: () => this.hint(),
      onWinnable: () => this.winnable(),
      onFinish: () => this.finish(),
      onDayOver: (state) => this.dayOver(state),
      onPause: () => this.togglePause(),
    });
    this.keys = attachKeyboard(this);
    attachClock(this);
    this.deciding = 0; // the timer of a "deciding" answer's next question
    this.store.subscribe((state, previous) => this.after(state, previous));
    // Practice that goes on offline (offline.js): the engine follows the server's game, and plays
    // it when the network is gone; back online its moves go to the server as one batch.
    this.offline = new Offline({ clock: () => (this.state ? elapsedMs(this.state, this.store.receivedAt) : 0) });
    this.offline.onRetry = () => this.syncOffline();
    this.store.subscribe((state) => this.offline.follow(state));
    window.addEventListener("online", () => this.syncOffline());
    this.offline.startWhenIdle();
    this.taps = createTaps({
      double: () => this.settings.get("double_click"),
      // A card that can only go up: at once, no wait for a second tap that would mean nothing.
      at: (card) => onlyFoundation(this.state, sourceIn(this.state, card)),
      // One that could go up or, with a second tap, to a column: shown going up while the wait runs.
      show: (card) => this.showTap(card),
      unshow: () => this.board.render(this.state),
      onSingle: (card) => this.tapToFoundation(card),
      onDouble: (card, { shown }) => {
        if (shown) this.board.render(this.state); // not up after all: the double tap's search
        this.autoPlace(card);
      },
    });
    attachDrag(this.board, {
      // (a tap on the card shown going up, while the wait runs, is a double tap's second one)
      onTap: (source) => { if (source.from[0] === "t" || this.taps.waiting) this.taps.tap(source.card, source.from); },
      onDragStart: (source) => this.dragStarted(source),
      onDrop: (source, target, info) => this.dropped(source, target, info),
    });
    settings.onChange((values) => {
      this.board.root.classList.toggle("four-color", Boolean(values.four_color));
    });
    this.board.root.classList.toggle("four-color", Boolean(settings.get("four_color")));
  }

  /** The state shown: the store's, the server's last answer (null: no game on the table). */
  get state() {
    return this.store.state;
  }

  /** Show a state from the server. The first state of a game deals; later ones animate. */
  show(state, { deal = false } = {}) {
    this.store.set(state, { deal });
  }

  /** No game on the table (it could not be opened): nothing to show, nothing to undo. */
  clear() {
    this.store.set(null);
  }

  /** The table's view of the store. */
  render(state, previous, { deal = false } = {}) {
    const board = this.board;
    this.clearHint(); // it was for the state before
    if (!state) {
      board.clear();
      this.messages.hideNote();
      return;
    }
    const fresh = isNewGame(state, previous);
    if (deal) {
      // Restarting a deal's animation needs a style flush; the first deal (most loads) does not.
      if (board.layer.classList.contains("dealing")) {
        board.layer.classList.remove("dealing");
        void getComputedStyle(board.layer).animationName;
      }
      board.layer.classList.add("dealing");
      setTimeout(() => board.layer.classList.remove("dealing"), 1400);
    }
    board.render(state, { animate: !fresh });
    if (deal) {
      [...board.layer.children].forEach((el, i) => el.style.setProperty("--deal-delay", `${i * 14}ms`));
    }
  }

  /** After the table and the bar: the cursor, a flip said aloud, the page's own view, a win. */
  after(state, previous) {
    if (!state) return;
    const fresh = isNewGame(state, previous);
    this.keys.refresh();
    if (state.last && state.last.flipped && !fresh) this.announce(t("flipped", { card: cardName(state.last.flipped) }));
    if (this.onState) this.onState(state);
    if (state.status === "won" && (fresh || previous.status !== "won") && this.onWin) {
      // (a won game opened again, or one just won: only that one celebrates)
      setTimeout(() => this.onWin(state, { reopened: fresh }), fresh ? 0 : 450);
    }
  }

  /** The server closes a ranked attempt at 00:00 UTC: fetch its word (closed, ranked false). */
  dayOver(state) {
    const id = state.id;
    setTimeout(() => this.enqueue(async () => {
      if (!this.state || this.state.id !== id) return;
      try {
        this.show(await games.get(id));
      } catch (err) {
        /* keep what is shown */
      }
    }), 1500);
  }

  // -- what the player does ---------------------------------------------------------------------
  legalTargets(source) {
    return legalTargets(this.state, source);
  }

  dragStarted(source) {
    this.taps.cancel();
    this.clearHint();
    this.messages.hideNote();
    if (this.settings.get("drop_hints")) this.board.highlight(this.legalTargets(source));
  }

  dropped(source, target, info = {}) {
    this.board.highlight([]);
    const move = dropMove(this.state, source, target, { autoDrop: this.settings.get("auto_drop"), cancelled: info.cancelled });
    if (!move) {
      this.board.render(this.state); // back where it came from
      return;
    }
    this.play(move, { dragged: true });
  }

  /** Tap: the last card of a column to its foundation, when the server lists that move. A move
   *  it does not list wiggles the card; with "Interaktive Regeln" the server's reason is shown,
   *  as for a refused drag (the page judges nothing itself). */
  tapToFoundation(card) {
    const source = sourceIn(this.state, card);
    if (!source || source.from[0] !== "t") return;
    const move = { from: source.from, to: "f" };
    if (source.last && isListed(this.state, move)) {
      this.play(move);
      return;
    }
    this.nudge(card);
    if (source.last && this.settings.get("interactive_rules")) this.play(move);
  }

  /** Double-tap: the server's search for a column (to: "auto"). */
  autoPlace(card) {
    const source = sourceIn(this.state, card);
    if (!source || source.from[0] !== "t") return;
    this.play({ from: source.from, card, to: "auto" });
  }

  /** While a tap waits for a second one: the card shown on its foundation, where the server lists
   *  that move (and nothing is on its way to the server, whose answer would redraw the table). */
  showTap(card) {
    const state = this.state;
    const source = sourceIn(state, card);
    if (this.sending || !state || state.status !== "playing" || state.paused || !source || !source.last) return false;
    const move = { from: source.from, to: "f" };
    if (!isListed(state, move)) return false;
    this.board.render(previewMove(state, move));
    return true;
  }

  nudge(card) {
    const el = this.board.cardElement(card);
    if (!el) return;
    el.classList.remove("nudge");
    void el.offsetWidth;
    el.classList.add("nudge");
  }

  /** Send a move. A listed move is shown at once (optimistic: a frame of the board only, the
   *  store keeps the server's state) and then reconciled with the server's answer; anything
   *  else goes back at once and waits for the server's verdict. */
  play(move, { dragged = false } = {}) {
    return this.enqueue(async () => {
      const state = this.state;
      if (!state) return;
      if (this.offline.playing(state) || (await this.knownOffline(state))) return this.playHere(move, state, { dragged });
      if (state.status !== "playing" || state.paused) {
        if (dragged) this.board.render(state);
        return;
      }
      // A listed move, or a double tap's search whose one column the server listed: shown now.
      const known = move.to === "auto" ? knownAuto(state, move) : isListed(state, move) ? move : null;
      const preview = known ? previewMove(state, known) : null;
      if (preview) this.board.render(preview);
      else if (dragged) this.board.render(state);
      try {
        const next = await games.move(state.id, { ...move, seq: state.moves }, { timeout: this.offline.patience(state) });
        this.remember(state, next);
        this.offline.mirror(state, move, next);
        this.show(next);
        this.announceMove(move, state, next);
      } catch (err) {
        if (await this.goOffline(err, state)) return this.playHere(move, state, { dragged });
        let refusal = err;
        if (err.code === "game_paused" && this.ownPause && this.ownPause(state.id)) {
          // This tab's own pause, sent as the page before this one was left (a reload), reached
          // the server after this page had read the game: take it back and play the move.
          try {
            const resumed = await games.resume(state.id);
            const next = await games.move(state.id, { ...move, seq: resumed.moves });
            this.remember(state, next);
            this.show(next);
            this.announceMove(move, resumed, next);
            return;
          } catch (again) {
            refusal = again;
          }
        }
        this.board.render(this.state);
        await this.refused(refusal);
      }
    });
  }

  /** Keep the position `state` showed before the move that `next` answered (for undo). */
  remember(state, next) {
    if (next.id !== state.id || next.moves <= state.moves) return;
    this.before.push(state);
    if (this.before.length > 100) this.before.shift(); // an undo goes back 100 moves at most
  }

  /** Undo: the position before the last move is the one this page showed before it, painted at
   *  once (the board only: the store keeps the server's state, the bar its figures) and then the
   *  server's answer; a refusal puts the cards back and says why. Without that position (the
   *  game was opened with moves made) the server's answer is waited for. */
  undo() {
    return this.enqueue(async () => {
      const state = this.state;
      if (!state || state.status !== "playing" || state.paused || !state.undo_available) return;
      if (this.offline.playing(state) || (await this.knownOffline(state))) return this.playHere("undo", state);
      const back = this.before.at(-1);
      const known = back && back.id === state.id ? back : null;
      if (known) this.board.render(known);
      try {
        const next = await games.undo(state.id, state.moves, { timeout: this.offline.patience(state) });
        if (known) this.before.pop();
        this.offline.mirror(state, "undo", next);
        this.show(next);
        this.announce(t("moved.undo"));
      } catch (err) {
        if (await this.goOffline(err, state)) return this.playHere("undo", state);
        if (known) this.board.render(this.state);
        await this.refused(err);
      }
    });
  }

  /** Finish (docs/rules.md): offered by the server once every card is face up; one request puts
   *  every card left onto its foundation, and the moves it answers are shown one after another (a
   *  short cascade) before the won state. */
  finish() {
    return this.enqueue(async () => {
      const state = this.state;
      if (!state || state.status !== "playing" || !state.finish_available) return;
      this.clearHint();
      this.messages.hideNote();
      if (this.offline.playing(state) || (await this.knownOffline(state))) return this.playHere("finish", state);
      try {
        const next = await games.finish(state.id, state.moves);
        const moves = next.finish_moves || [];
        await this.cascade(state, moves);
        this.offline.mirror(state, "finish", next);
        this.show(next);
        this.announce(tn("finished", moves.length));
      } catch (err) {
        if (await this.goOffline(err, state)) return this.playHere("finish", state);
        this.board.render(this.state);
        await this.refused(err);
      }
    });
  }

  /** The finish's moves from `state`, one after another, each card sliding up as if tapped: about
   *  a second in all (none under prefers-reduced-motion: the won state comes at once). */
  async cascade(state, moves) {
    if (!moves.length || reducedMotion()) return;
    const step = Math.max(25, Math.min(70, 1200 / moves.length));
    let view = state;
    for (const move of moves) {
      view = previewMove(view, move);
      if (!view) return;
      this.board.render(view);
      await pause(step);
    }
    await pause(220); // the last card's slide
  }

  /** Hint: the server's suggestion, named in the note and shown on the card and its target for
   *  a moment; on a phone both are scrolled into view, above the note (a long column's last card
   *  lies below the fold). */
  hint() {
    return this.enqueue(async () => {
      const state = this.state;
      if (!state || state.status !== "playing" || state.paused) return;
      this.clearHint();
      if (state.offline) return this.showNote(t("offline.noHelp"));
      this.showNote(t("help.thinking"));
      try {
        const { move, reason } = await games.hint(state.id);
        if (this.state !== state) {
          this.hideNote(); // another game came in between: the hint was for the one before
          return;
        }
        const focus = move && hintFocus(state, move);
        if (!focus) {
          this.showNote(t(reason === "no_progress" ? "hint.no_progress" : "hint.none"));
          return;
        }
        const { card, target, goal } = focus;
        this.showNote(t("hint.move", { card: cardName(card), target: this.placeName(target) }));
        this.board.highlight([target]);
        const el = this.board.cardElement(card);
        if (el) el.classList.add("hinted");
        const spot = goal ? this.board.cardElement(goal) : this.board.lanes[target] || this.board.slots[target];
        this.board.reveal([el, spot], { bottom: this.messages.noteCover() });
        this.hinted = { el, timer: setTimeout(() => this.clearHint(), 2500) };
      } catch (err) {
        await this.refused(err);
      }
    });
  }

  /** Take a hint's marks off the table: a new hint, a drag or a new state makes them stale (a
   *  mark left behind lit two cards at once, and its timer put out the next hint's target). */
  clearHint() {
    if (!this.hinted) return;
    clearTimeout(this.hinted.timer);
    if (this.hinted.el) this.hinted.el.classList.remove("hinted");
    this.board.highlight([]);
    this.hinted = null;
  }

  /** "Still winnable?": the server's answer; "deciding" (the worker is deciding what the request
   *  could not) is said as such and asked again until it is known, as long as the game stays where
   *  it was asked about. */
  winnable() {
    return this.enqueue(async () => {
      const state = this.state;
      if (!state || state.paused) return;
      if (state.offline) return this.showNote(t("offline.noHelp"));
      clearTimeout(this.deciding);
      this.showNote(t("help.thinking"));
      try {
        const { winnable } = await games.winnable(state.id);
        this.winnableSaid(state, winnable, 1);
      } catch (err) {
        await this.refused(err);
      }
    });
  }

  winnableSaid(state, answer, round) {
    if (this.state !== state) return; // moved on: the answer was about another position
    if (answer !== "deciding") {
      this.showNote(t(`winnable.${answer}`));
      return;
    }
    if (round > DECIDING_ROUNDS) {
      this.showNote(t("winnable.unknown"));
      return;
    }
    this.showNote(t("winnable.deciding"));
    this.deciding = setTimeout(async () => {
      if (this.state !== state) return;
      try {
        const { winnable } = await games.winnable(state.id);
        this.winnableSaid(state, winnable, round + 1);
      } catch (err) {
        /* the note says "deciding" until it fades: the button asks again */
      }
    }, DECIDING_MS);
  }

  // -- the clock (pause.js) ----------------------------------------------------------------------
  /** Pause a practice game: sent at once (also as the page is closed: keepalive), its answer shown
   *  in turn with the moves before it. */
  pause({ keepalive = false } = {}) {
    const state = this.state;
    if (!state || state.status !== "playing" || state.paused) return this.queue;
    if (!state.pausable) {
      if (rankedRunning(state)) this.showNote(t("ranked.nopause"));
      return this.queue;
    }
    const sent = games.pause(state.id, { keepalive });
    return this.enqueue(async () => {
      try {
        const next = await sent;
        if (this.state && this.state.id === next.id) this.show(next);
      } catch (err) {
        // A game left for another (its pause sent as it went) is no longer this table's: a
        // refusal of it (an untouched game the new deal replaced: 404) says nothing about the new one.
        if (err.status !== 0 && this.state && this.state.id === state.id) await this.refused(err);
      }
    });
  }

  resume() {
    return this.enqueue(async () => {
      const state = this.state;
      if (!state || !state.paused) return;
      try {
        this.show(await games.resume(state.id));
      } catch (err) {
        await this.refused(err);
      }
    });
  }

  togglePause() {
    return this.state && this.state.paused ? this.resume() : this.pause();
  }

  enqueue(task) {
    this.sending += 1;
    this.queue = this.queue
      .then(task)
      .catch((err) => {
        console.error(err);
      })
      .finally(() => {
        this.sending -= 1;
      });
    return this.queue;
  }

  // -- offline (offline.js, docs/offline.md) -------------------------------------------------------
  /** A request that found no network: the game goes on on this device if it can (a practice game
   *  the engine holds); today's deal says it waits for the network. True: play it here. */
  async goOffline(err, state) {
    if (err.status !== 0 || !state) return false;
    if (await this.offline.ready(state)) {
      this.offline.begin();
      this.messages.showNotice(t("offline.playing"), "offline");
      return true;
    }
    if (state.daily) this.showNote(t("offline.dailyMove"), "", "error");
    else if (this.offline.engine && state.code) this.showNote(t("offline.notYet"), "", "error");
    return false;
  }

  /** The browser knows it has no network (a request would only hang or fail): the game goes on
   *  on this device at once, if it can. */
  async knownOffline(state) {
    return navigator.onLine === false && (await this.goOffline({ status: 0 }, state));
  }

  /** An entry ("undo", "finish" or a move's body) played on this device: the engine's answer
   *  shown, or its refusal said in the server's words (the page's config carries them). */
  async playHere(entry, state, { dragged = false } = {}) {
    const answer = (await this.offline.play(entry)) || { error: "engine_failed" };
    if (!this.state || this.state.id !== state.id) return;
    if (answer.error) {
      this.board.render(this.state);
      const refusals = (CONFIG.offline && CONFIG.offline.refusals) || {};
      const detail = refusals[answer.relaxed && answer.error === "does_not_fit" ? "does_not_fit_relaxed" : answer.error];
      if (!dragged && entry.to === "f" && !this.settings.get("interactive_rules")) return;
      await this.refused({ status: 422, code: answer.error, detail: detail || t("error.generic") });
      return;
    }
    if (entry === "finish") await this.cascade(state, answer.moves || []);
    if (entry === "undo") this.before.pop();
    else this.remember(state, answer.state);
    this.show(answer.state);
    if (entry === "undo") this.announce(t("moved.undo"));
    else if (entry === "finish") this.announce(tn("finished", (answer.moves || []).length));
    else this.announceMove(entry, state, answer.state);
  }

  /** Back online (the browser says so, or the retry's time came): the moves played here go to
   *  the server, and its answer is the game from then on. */
  async syncOffline() {
    // (asked outside the moves' queue: a network that hangs holds no move up)
    if (!(await this.offline.reachable())) {
      if (this.offline.active) this.offline.scheduleRetry();
      return;
    }
    await this.enqueue(async () => {
      const result = await this.offline.sync();
      if (!result) return;
      this.messages.hideNotice();
      this.before = [];
      if (result.state) {
        this.show(result.state);
        if (this.onSynced) this.onSynced(result.state);
      }
      this.saidSynced(result);
    });
  }

  /** What became of the moves played offline, in a note. */
  saidSynced(result) {
    const refused = result.refused;
    if (refused && refused.code === "game_moved_on") this.showNote(t("offline.movedOn"), "", "error");
    else if (refused && refused.code === "batch_refused") this.showNote(t("offline.refused", { n: result.saved, of: result.of }), "", "error");
    else if (refused) this.showNote(t("offline.notSaved", { detail: refused.detail || refused.code || "" }), "", "error");
    else if (result.of) this.showNote(tn("offline.saved", result.of));
  }

  async refused(err) {
    if (err.code === "signed_out") return; // the header says so, with a way to sign in (nav.js)
    if (err.code === "game_paused") {
      // Paused meanwhile (another tab was hidden): the game's state shows the cover and Resume.
      try {
        this.show(await games.get(this.state.id));
      } catch (e) {
        /* keep what is shown */
      }
    } else if (err.status === 409) {
      this.before = []; // the game moved on elsewhere: what this page saw is not its past any more
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

  // -- messages (gamebar.js) --------------------------------------------------------------------
  showNote(text, code = "", kind = undefined) {
    this.messages.showNote(text, code, kind);
  }

  hideNote() {
    this.messages.hideNote();
  }

  announce(text) {
    this.messages.announce(text);
  }

  /** "column 3" or "foundation Hearts" for a target "t3", "fH". */
  placeName(target) {
    return target[0] === "f" ? t("foundation", { suit: t(`suit.${target[1]}`) }) : t("column", { n: target.slice(1) });
  }

  announceMove(move, before, after) {
    const card = movedCard(before, move);
    if (!card) return;
    const said = t("moved", { card: cardName(card), target: this.placeName(movedTo(move, card, after)) });
    // The move that turned the last card up, or cleared the way: the finish is there now.
    const offered = after.finish_available && !before.finish_available ? ` ${t("finish.offered")}` : "";
    this.announce(said + offered);
  }
}
