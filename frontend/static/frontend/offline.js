// Practice that goes on offline (docs/offline.md). The server's own rules engine runs in the page
// (engine_worker.js: Pyodide and games/engine), loaded in the background once the page is idle.
// While online it follows the practice game on the table move for move (a mirror: the same move
// the server accepted, played by the same engine, its position checked against the server's), so
// that when the network goes the game goes on at once, from the position the server last sent.
// Offline the mirror is the game: its moves are kept on this device (localStorage, with the game's
// code and log, so a reload offline shows it), and back online they go to the server as one batch,
// which replays them with the engine like any move; the server's answer is the game from then on.
// A practice game can also be dealt offline (GameCode.random on the device), and is made on the
// server with its moves when the network is back. Today's deal never plays offline: its code and
// face-down cards never reach the page.
import { CONFIG } from "./config.js";
import { games } from "./api.js";
import { keepInWorker } from "./nav.js";

const RECORD_KEY = "yukon.offline";
const RETRY_MS = 15000; // while offline, the batch is tried again this often (and at once on "online")
const IDLE_START_MS = 4000; // the engine starts this long after the page is up, when idle

/** The engine in its worker: call(op, args) -> the engine's answer ({ok} or {error, relaxed}). */
class Engine {
  constructor(config) {
    this.config = config;
    this.worker = null;
    this.next = 1;
    this.waiting = new Map();
    this.ready = null;
    this.loadedMs = null;
  }

  start() {
    if (this.ready) return this.ready;
    this.worker = new Worker(this.config.worker, { type: "module", name: "yukon-engine" });
    this.worker.onmessage = ({ data }) => {
      const done = this.waiting.get(data.id);
      this.waiting.delete(data.id);
      if (done) done(data);
    };
    this.worker.onerror = () => {
      for (const done of this.waiting.values()) done({ error: "engine_failed" });
      this.waiting.clear();
    };
    this.ready = this.call("init", { pyodide: this.config.pyodide, engine: this.config.engine }).then((answer) => {
      if (answer.error) throw new Error(answer.detail || answer.error);
      this.loadedMs = answer.ok.ms;
      document.documentElement.dataset.engine = "ready"; // (the browser tests wait for it)
      // Pyodide's files are kept by the service worker (fetched before it was there: now).
      const base = new URL(".", new URL(this.config.pyodide, location.href)).href;
      keepInWorker([this.config.pyodide, this.config.engine, ...answer.ok.files.map((name) => base + name)].map((url) => new URL(url, location.href).href));
      return this;
    });
    this.ready.catch(() => {
      this.ready = null; // tried again later (the network may have been gone)
      if (this.worker) this.worker.terminate();
      this.worker = null;
    });
    return this.ready;
  }

  call(op, args = {}) {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, op, ...args });
    });
  }
}

const sameView = (view, state) =>
  view.moves === state.moves &&
  view.score === state.score &&
  JSON.stringify(view.tableau) === JSON.stringify(state.tableau) &&
  JSON.stringify(view.foundations) === JSON.stringify(state.foundations);

/** Whether a server state is a game this page may play on offline: a practice game in play
 *  (never a daily deal's: its code is not the page's to know). */
export const playableOffline = (state) =>
  Boolean(state && state.code && !state.daily && state.status === "playing" && !state.offline);

function newKey() {
  return globalThis.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`.slice(2);
}

export class Offline {
  /** `clock()`: the game's time now, in ms, as the page's bar shows it. */
  constructor({ clock, config = CONFIG.offline }) {
    this.config = config;
    this.clock = clock;
    this.engine = config && typeof Worker !== "undefined" ? new Engine(config) : null;
    this.record = null; // the game the engine holds: {id, code, rule, log, base, pending, elapsed, key, local, shell}
    this.active = false; // the game on the table is played on the device (no network)
    this.latest = null; // the last state the server sent
    this.chain = Promise.resolve(); // the engine's calls, in order
    this.retry = 0;
  }

  /** Start the engine once the page is idle (its first visit downloads Pyodide; later ones find
   *  it in the service worker's cache). */
  startWhenIdle() {
    if (!this.engine || !("serviceWorker" in navigator)) return;
    const go = () =>
      this.engine
        .start()
        .then(() => this.follow(this.latest))
        .catch(() => {});
    const idle = globalThis.requestIdleCallback || ((fn) => setTimeout(fn, 0));
    // Once the service worker is there to keep it (without one, nothing would be there offline).
    navigator.serviceWorker.ready.then(() => setTimeout(() => idle(go, { timeout: 2000 }), IDLE_START_MS));
  }

  /** Run `task` after the engine's calls before it; its result (a failure is logged, and null). */
  then(task) {
    const result = this.chain.then(task).catch((err) => {
      console.error(err);
      return null;
    });
    this.chain = result;
    return result;
  }

  // -- online: following the server's game ------------------------------------------------------
  /** Every state the server sends: a new practice game is loaded into the engine (its log read
   *  once, if it has moves); anything else lets the engine's game go. */
  follow(state) {
    if (state && !state.offline) this.latest = state;
    // (nothing until the engine is started: startWhenIdle, or a game dealt or resumed offline)
    if (!this.engine || !this.engine.ready || this.active || !state || state.offline) return;
    if (!playableOffline(state)) {
      if (this.record && !this.record.pending.length && (!state || this.record.id === state.id)) this.forget();
      return;
    }
    const record = this.record;
    if (record && record.id === state.id && (record.log.length === state.moves || record.expected === state.moves)) return;
    this.then(() => this.load(state));
  }

  async load(state) {
    await this.engine.start();
    if (this.active || (this.record && this.record.pending.length)) return;
    const log = state.moves ? await this.serverLog(state.id) : [];
    const answer = await this.engine.call("load", { code: state.code, log });
    if (answer.error || !sameView(answer.ok, state)) {
      this.record = null; // read again with the next state
      return;
    }
    this.record = { id: state.id, code: state.code, rule: state.rule, log, base: state.moves, pending: [], elapsed: state.elapsed_ms, key: null, local: false, shell: shellOf(state) };
    this.save();
  }

  async serverLog(id) {
    const entries = [];
    for (let page = 1; page < 100; page += 1) {
      const answer = await games.moves(id, page);
      entries.push(...(answer.results || []).map((entry) => entry.move));
      if (!answer.next) break;
    }
    return entries;
  }

  /** The server accepted `entry` (a move's body, "undo" or "finish") on `before`, answering
   *  `after`: the engine plays the same, and its position must be the server's. */
  mirror(before, entry, after) {
    if (!this.engine || this.active) return;
    const record = this.record;
    if (!record || record.id !== before.id || record.log.length !== before.moves || record.pending.length) return;
    record.expected = after.moves; // (the state comes before the engine has played it)
    this.then(async () => {
      if (this.record !== record || record.log.length !== before.moves) return;
      const answer = await this.apply(entry);
      if (answer.error || !sameView(answer.ok.view, after)) {
        this.record = null; // out of step: loaded again from the server's log
        this.follow(after);
        return;
      }
      record.log.push(...answer.entries);
      record.base = after.moves;
      record.elapsed = after.elapsed_ms;
      record.shell = shellOf(after);
      this.save();
    });
  }

  /** One entry on the engine: {ok: {view, ...}, entries} or {error, relaxed}. */
  async apply(entry) {
    if (entry === "undo") {
      const answer = await this.engine.call("undo");
      return answer.error ? answer : { ...answer, entries: ["undo"] };
    }
    if (entry === "finish") {
      const answer = await this.engine.call("finish");
      return answer.error ? answer : { ...answer, entries: answer.ok.entries };
    }
    const move = { from: entry.from, to: entry.to, ...(entry.card ? { card: entry.card } : {}) };
    const answer = await this.engine.call("play", { move });
    return answer.error ? answer : { ...answer, entries: [answer.ok.entry] };
  }

  // -- offline: the device plays --------------------------------------------------------------
  /** Whether the game of `state` can go on here now (the engine holds it, at that position). */
  ready(state) {
    const record = this.record;
    return Boolean(playableOffline(state) && record && record.id === state.id && record.log.length === state.moves);
  }

  /** Play on the device from here: the state to show. */
  begin() {
    this.active = true;
    this.record.elapsed = this.clock();
    this.save();
    this.scheduleRetry();
  }

  /** An entry played on the device: {state} (to show) or {error, relaxed} (refused by the rules). */
  play(entry) {
    return this.then(async () => {
      const record = this.record;
      const answer = await this.apply(entry);
      if (answer.error) return answer;
      const body = entry === "undo" ? { undo: true } : entry === "finish" ? null : { from: entry.from, to: entry.to, ...(entry.card ? { card: entry.card } : {}) };
      if (entry === "finish") {
        for (const move of answer.ok.moves) record.pending.push(move);
      } else {
        record.pending.push(body);
      }
      record.log.push(...answer.entries);
      record.elapsed = this.clock();
      record.key = null; // the batch grew: a new key for it
      this.save();
      return { state: this.stateOf(answer.ok.view), moves: answer.ok.moves || null };
    });
  }

  /** A new practice game dealt on the device (no network): its state, or null without the engine. */
  async deal(rule) {
    if (!this.engine) return null;
    try {
      await this.engine.start();
    } catch (err) {
      return null; // the engine never loaded on this device
    }
    const answer = await this.engine.call("deal", { rule: rule || "classic" });
    if (answer.error) return null;
    const id = `local-${newKey()}`;
    const shell = {
      ...shellOf({ id, code: answer.ok.code, rule: rule || "classic", winnable_deal: false }),
    };
    this.record = { id, code: answer.ok.code, rule: rule || "classic", log: [], base: 0, pending: [], elapsed: 0, key: id, local: true, shell };
    this.active = true;
    this.save();
    this.scheduleRetry();
    return this.stateOf(answer.ok.view, { elapsed: 0 });
  }

  /** The state shown for the engine's view: the last server state's fields, the engine's position
   *  and figures, the device's clock; no pause, hint or daily deal. */
  stateOf(view, { elapsed = this.record.elapsed } = {}) {
    return {
      ...this.record.shell,
      ...view,
      elapsed_ms: elapsed,
      paused: false,
      pausable: false,
      offline: true,
      pending: this.record.pending.length,
    };
  }

  // -- back online -----------------------------------------------------------------------------
  scheduleRetry() {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.onRetry && this.onRetry(), RETRY_MS);
  }

  /** Send the moves played on the device. Resolves to {state, saved, refused} when the server
   *  answered (the game as it keeps it), or null while the network is still gone. */
  async sync() {
    const record = this.record;
    if (!this.active || !record) return null;
    const entries = record.pending.slice();
    record.key = record.key || newKey();
    this.save();
    const body = { moves: entries, elapsed_ms: Math.round(record.elapsed) };
    let state;
    let refused = null;
    try {
      state = record.local
        ? await games.offline({ code: record.code, ...body }, record.key)
        : await games.batch(record.id, { seq: record.base, ...body }, record.key);
    } catch (err) {
      if (err.status === 0) {
        this.scheduleRetry();
        return null;
      }
      if (err.code === "batch_refused" && err.body && err.body.state) {
        state = err.body.state;
        refused = err;
      } else if (err.status === 409 && !record.local) {
        const server = await this.caughtUp(record);
        if (server === null) return null;
        state = server.state;
        refused = server.refused;
      } else {
        refused = err;
        state = record.local ? null : await games.get(record.id).catch(() => null);
      }
    }
    if (this.record !== record) return null;
    this.active = false;
    clearTimeout(this.retry);
    this.forget();
    const saved = refused ? (refused.body && Number.isInteger(refused.body.applied) ? refused.body.applied : 0) : entries.length;
    return { state, saved, refused, of: entries.length, local: record.local };
  }

  /** The server's game is past the batch's start (an answer lost as the network went: the move
   *  reached it): the moves it has of the batch are dropped and the rest sent from its counter. */
  async caughtUp(record) {
    let server;
    let log;
    try {
      server = await games.get(record.id);
      log = await this.serverLog(record.id);
    } catch (err) {
      if (err.status === 0) return null;
      return { state: null, refused: err };
    }
    const mine = record.log;
    const agrees = log.length <= mine.length && log.every((entry, i) => entry === mine[i]) && log.length >= record.base;
    if (!agrees) return { state: server, refused: { code: "game_moved_on", body: { applied: 0 } } };
    const done = log.length - record.base;
    record.pending = record.pending.slice(done); // one pending entry per log entry (a finish's moves each)
    record.base = log.length;
    record.key = null;
    if (!record.pending.length) return { state: server, refused: null };
    return this.sync().then((result) => (result ? { state: result.state, refused: result.refused } : null));
  }

  // -- the device's copy ------------------------------------------------------------------------
  save() {
    document.documentElement.dataset.engineGame = this.record ? `${this.record.id}:${this.record.log.length}` : "";
    try {
      localStorage.setItem(RECORD_KEY, JSON.stringify(this.record));
    } catch (err) {
      /* without storage the game still goes on until the page is closed */
    }
  }

  forget() {
    this.record = null;
    try {
      localStorage.removeItem(RECORD_KEY);
    } catch (err) {
      /* nothing kept */
    }
  }

  /** The game kept on this device with moves the server has not had yet (a reload, offline or
   *  not): null if none. Its state is shown once the engine has it again. */
  async restore() {
    let record = null;
    try {
      record = JSON.parse(localStorage.getItem(RECORD_KEY) || "null");
    } catch (err) {
      record = null;
    }
    if (!record || !record.id || !Array.isArray(record.pending) || !Array.isArray(record.log)) return null;
    if (!record.pending.length && !record.local) {
      this.record = null; // only a mirror: the server has it all
      return { record, state: null };
    }
    this.record = record;
    this.active = true;
    return { record, state: null };
  }

  /** The restored game on the engine: its state (the engine is started if it was not). */
  async resume() {
    const record = this.record;
    if (!record || !this.engine) return null;
    try {
      await this.engine.start();
    } catch (err) {
      return null;
    }
    const answer = await this.engine.call("load", { code: record.code, log: record.log });
    if (answer.error) return null;
    this.scheduleRetry();
    return this.stateOf(answer.ok);
  }

  /** The game kept with only what the server has (the last mirror): for a reload without network. */
  async resumeMirror(record) {
    if (!this.engine || !record || record.pending.length) return null;
    this.record = record;
    const state = await this.resume();
    if (state) this.active = true;
    else this.record = null;
    return state;
  }
}

/** The fields of a server state the device keeps while it plays: which game, of which deal. */
function shellOf(state) {
  return {
    id: state.id,
    code: state.code,
    rule: state.rule,
    daily: null,
    ranked: null,
    closed: false,
    closes_at: null,
    closes_in_ms: null,
    review: null,
    held_for: null,
    review_by: null,
    attempt: null,
    winnable_deal: Boolean(state.winnable_deal),
    solution_length: null,
    win: null,
    played_offline: true,
  };
}
