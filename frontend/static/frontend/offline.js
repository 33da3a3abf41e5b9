// Practice that goes on offline (docs/offline.md). The server's own rules engine runs in the page
// (engine_worker.js: Pyodide and games/engine), started in the background once the page is idle.
// While online it follows the practice game on the table move for move (the same move the server
// accepted, played by the same engine, its position checked against the server's), so that when
// the network goes the game goes on at once, from the position the server last sent. Offline the
// engine's game is the game: its moves are kept on this device (localStorage, one record per game,
// with the game's code and log, so a reload offline shows it), and back online they go to the
// server in batches, which it replays with the engine like any move; its answer is the game from
// then on. A practice game can also be dealt offline (GameCode.random on the device); the server
// makes it with its moves when the network is back. Today's deal never plays offline: its code and
// face-down cards never reach the page.
import { CONFIG } from "./config.js";
import { games } from "./api.js";
import { keepInWorker } from "./nav.js";

const PREFIX = "yukon.offline."; // + the game's id: that game's record on this device
const RETRY_MS = 15000; // while offline, the moves are tried again this often (and on "online")
const IDLE_START_MS = 4000; // the engine starts this long after the service worker is ready
const BATCH_MAX = 1000; // entries in one batch (the server's limit)
const SYNC_TIMEOUT_MS = 10000; // a batch's request gives up after this (a network that hangs)
const MOVE_TIMEOUT_MS = 8000; // a move whose answer takes longer is played on the device

/** The engine in its worker: call(op, args) -> the engine's answer ({ok} or {error, relaxed}). */
class Engine {
  constructor(config) {
    this.config = config;
    this.worker = null;
    this.next = 1;
    this.waiting = new Map();
    this.ready = null;
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
      document.documentElement.dataset.engine = "ready"; // (the browser tests wait for it)
      // Pyodide's files are kept by the service worker (fetched before it was there: now).
      const base = new URL(".", new URL(this.config.pyodide, location.href)).href;
      const files = [this.config.pyodide, this.config.engine, ...answer.ok.files.map((name) => base + name)];
      keepInWorker(files.map((url) => new URL(url, location.href).href));
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

/** A move's body as the batch sends it (the finish: each of its moves), or the undo's. */
const bodyOf = (entry) =>
  entry === "undo" ? { undo: true } : { from: entry.from, to: entry.to, ...(entry.card ? { card: entry.card } : {}) };

function newKey() {
  return globalThis.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`.slice(2);
}

/** Who the page plays for: a record of another account's is never sent as this one's. */
const owner = () => (CONFIG.me && CONFIG.me.authenticated ? CONFIG.me.username : "");

// -- the records on this device --------------------------------------------------------------------
function readRecord(key) {
  try {
    const record = JSON.parse(localStorage.getItem(key) || "null");
    return record && record.id && Array.isArray(record.pending) && Array.isArray(record.log) ? record : null;
  } catch (err) {
    return null;
  }
}

function storedRecords() {
  const records = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key && key.startsWith(PREFIX)) {
        const record = readRecord(key);
        if (record) records.push(record);
      }
    }
  } catch (err) {
    /* no storage: nothing kept */
  }
  return records.sort((a, b) => (b.updated || 0) - (a.updated || 0));
}

/** Moves the server has not had yet (or a game it has not made yet). */
const unsent = (record) => Boolean(record && (record.pending.length || record.sent || record.local));

export class Offline {
  /** `clock()`: the game's time now, in ms, as the page's bar shows it. */
  constructor({ clock, config = CONFIG.offline }) {
    this.config = config;
    this.clock = clock;
    this.engine = config && typeof Worker !== "undefined" ? new Engine(config) : null;
    this.record = null; // the game the engine holds: {id, code, rule, owner, log, base, pending, sent, elapsed, local, shell}
    this.active = false; // that game is played on the device (no network)
    this.latest = null; // the last state the server sent
    this.chain = Promise.resolve(); // the engine's calls, in order
    this.retry = 0;
    this.syncing = null;
  }

  /** Start the engine once the page is idle and a service worker is there to keep it (without
   *  one nothing would be there offline): the first visit downloads Pyodide, later ones find it in
   *  the worker's cache. */
  startWhenIdle() {
    if (!this.engine || !("serviceWorker" in navigator)) return;
    const go = () =>
      this.engine
        .start()
        .then(() => this.follow(this.latest))
        .catch(() => {});
    const idle = globalThis.requestIdleCallback || ((fn) => setTimeout(fn, 0));
    navigator.serviceWorker.ready.then(() => setTimeout(() => idle(go, { timeout: 2000 }), IDLE_START_MS));
  }

  /** Run `task` after the engine's calls before it; its result (a failure is logged: null). */
  then(task) {
    const result = this.chain.then(task).catch((err) => {
      console.error(err);
      return null;
    });
    this.chain = result;
    return result;
  }

  /** Whether the game of `state` is the one played on this device now. */
  playing(state) {
    return Boolean(this.active && state && this.record && this.record.id === state.id);
  }

  // -- online: following the server's game ------------------------------------------------------
  /** Every state the server sends: a new practice game is loaded into the engine (its log read
   *  once, if it has moves); the game before it is let go (its unsent moves stay on the device). */
  follow(state) {
    if (!state || state.offline) return;
    this.latest = state;
    if (this.record && this.record.id !== state.id) this.letGo();
    if (!this.engine || !this.engine.ready || this.active) return;
    if (!playableOffline(state)) return;
    const record = this.record;
    if (record && record.id === state.id && (record.log.length === state.moves || record.expected === state.moves)) return;
    this.then(() => this.load(state));
  }

  /** The game on the table is another one now: its record stays only if it holds unsent moves. */
  letGo() {
    const record = this.record;
    this.record = null;
    this.active = false;
    if (record && !unsent(record)) this.remove(record);
  }

  async load(state) {
    await this.engine.start();
    if (this.active || (this.record && this.record.id !== state.id && unsent(this.record))) return;
    if (this.latest && this.latest.id !== state.id) return; // another game came meanwhile
    const log = state.moves ? await this.serverLog(state.id) : [];
    const latest = this.latest;
    if (!latest || latest.id !== state.id || latest.moves !== log.length) return; // moved on: the next state loads it
    const answer = await this.engine.call("load", { code: state.code, log });
    if (answer.error || !sameView(answer.ok, latest)) return;
    this.record = {
      v: 2,
      id: state.id,
      code: state.code,
      rule: state.rule,
      owner: owner(),
      log,
      base: latest.moves,
      pending: [],
      sent: null,
      elapsed: latest.elapsed_ms,
      local: false,
      shell: shellOf(latest),
    };
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
   *  `after`: the engine plays the same, and its position must be the server's. Called before the
   *  answer is shown. */
  mirror(before, entry, after) {
    const record = this.record;
    if (!this.engine || this.active || !record || record.id !== before.id || record.log.length !== before.moves) return;
    record.expected = after.moves; // (the state is shown before the engine has played it)
    this.then(async () => {
      if (this.record !== record || record.log.length !== before.moves) return;
      const answer = await this.apply(entry);
      if (answer.error || !sameView(answer.ok.view, after)) {
        this.record = null; // out of step: loaded again from the server's log
        this.follow(this.latest);
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
    const answer = await this.engine.call("play", { move: bodyOf(entry) });
    return answer.error ? answer : { ...answer, entries: [answer.ok.entry] };
  }

  // -- offline: the device plays --------------------------------------------------------------
  /** Whether the game of `state` can go on here now: the engine holds it at that position (once
   *  the moves the server accepted before are played on it). */
  async ready(state) {
    await this.chain;
    const record = this.record;
    return Boolean(playableOffline(state) && record && record.id === state.id && record.log.length === state.moves);
  }

  /** How long a move of `state` may wait for the server's answer before it is played on the
   *  device (ms; 0: as long as it takes, for a game the engine does not hold). */
  patience(state) {
    const record = this.record;
    return record && state && record.id === state.id && !this.active ? MOVE_TIMEOUT_MS : 0;
  }

  /** Play on the device from here. */
  begin() {
    this.active = true;
    this.record.elapsed = this.clock();
    this.save();
    this.scheduleRetry();
  }

  /** An entry played on the device: {state, moves} (to show) or {error, relaxed} (refused by the rules). */
  play(entry) {
    return this.then(async () => {
      const record = this.record;
      const answer = await this.apply(entry);
      if (answer.error) return answer;
      if (entry === "finish") record.pending.push(...answer.ok.moves);
      else record.pending.push(bodyOf(entry));
      record.log.push(...answer.entries);
      record.elapsed = this.clock();
      this.save();
      return { state: this.stateOf(answer.ok.view), moves: answer.ok.moves || null };
    });
  }

  /** A new practice game dealt on the device (no network): its state, or null without the engine.
   *  The game before it keeps its unsent moves on the device. */
  async deal(rule) {
    if (!this.engine) return null;
    try {
      await this.engine.start();
    } catch (err) {
      return null; // the engine never loaded on this device
    }
    const answer = await this.then(() => this.engine.call("deal", { rule: rule || "classic" }));
    if (!answer || answer.error) return null;
    this.letGo();
    const id = `local-${newKey()}`;
    const shell = shellOf({ id, code: answer.ok.code, rule: rule || "classic", winnable_deal: false });
    this.record = {
      v: 2,
      id,
      code: answer.ok.code,
      rule: rule || "classic",
      owner: owner(),
      log: [],
      base: 0,
      pending: [],
      sent: null,
      elapsed: 0,
      local: true,
      shell,
    };
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

  /** Whether the server answers now (a short request, outside the moves' queue: a network that
   *  hangs never holds a move up). */
  async reachable() {
    if (navigator.onLine === false) return false;
    try {
      await games.list(1, { status: "playing", size: 1 }, { timeout: 5000 });
      return true;
    } catch (err) {
      return err.status !== 0;
    }
  }

  /** Send every record of this device with unsent moves (this account's or a guest's): those of
   *  other games quietly, the one on the table last. Resolves to that one's outcome,
   *  {state, saved, of, refused}, when the server answered, or null (nothing to send, or still
   *  no network). */
  sync() {
    if (!this.syncing) this.syncing = this.syncAll().finally(() => (this.syncing = null));
    return this.syncing;
  }

  async syncAll() {
    const mine = owner();
    for (const record of storedRecords()) {
      if (this.record && record.id === this.record.id) continue;
      if (!unsent(record) || (record.owner && record.owner !== mine)) continue;
      const outcome = await this.flush(record);
      if (outcome === null) break; // still no network
    }
    const record = this.record;
    if (!this.active || !record || !unsent(record)) return null;
    const outcome = await this.flush(record);
    if (outcome === null) {
      this.scheduleRetry();
      return null;
    }
    this.active = false;
    clearTimeout(this.retry);
    this.record = null;
    return outcome;
  }

  /** Send a record's moves, a batch at a time, each request exactly as first sent until it is
   *  answered (its key with the same body: a retry changes nothing). {state, saved, of, refused},
   *  or null when the network or the server is not there (the record stays as it is). */
  async flush(record) {
    const of = record.pending.length;
    let saved = 0;
    let state = null;
    let refused = null;
    while (record.sent || record.pending.length || record.local) {
      if (!record.sent) {
        const count = Math.min(record.pending.length, BATCH_MAX);
        const moves = record.pending.slice(0, count);
        const elapsed = Math.round(record.elapsed);
        record.sent = record.local
          ? { kind: "offline", key: record.id, count, body: { code: record.code, moves, elapsed_ms: elapsed } }
          : { kind: "batch", key: newKey(), count, body: { seq: record.base, moves, elapsed_ms: elapsed } };
        this.save(record);
      }
      const sent = record.sent;
      let answer = null;
      try {
        answer =
          sent.kind === "offline"
            ? await games.offline(sent.body, sent.key, { timeout: SYNC_TIMEOUT_MS })
            : await games.batch(record.id, sent.body, sent.key, { timeout: SYNC_TIMEOUT_MS });
      } catch (err) {
        if (err.status === 0 || err.status === 429 || err.status >= 500 || err.code === "csrf_failed") return null;
        if (err.code === "batch_refused" && err.body && err.body.state) {
          // Kept up to its last legal move; the moves after the refused one depended on it.
          saved += err.body.applied || 0;
          state = err.body.state;
          refused = err;
        } else if (err.status === 409 && sent.kind === "batch") {
          const caught = await this.catchUp(record);
          if (caught === null) return null;
          if (!caught.movedOn) continue;
          state = caught.state;
          refused = { code: "game_moved_on" };
        } else {
          refused = err; // not this player's game any more, or the server refuses it as a whole
        }
        this.remove(record);
        return { state, saved, of, refused };
      }
      if (!answer || !answer.batch) return null; // not the server's answer (a portal's page): later
      saved += sent.count;
      state = answer;
      this.remove(record); // (stored under its old address, for a game made on the server now)
      record.pending = record.pending.slice(sent.count);
      record.base = answer.moves;
      record.id = answer.id;
      record.local = false;
      record.sent = null;
      if (record.pending.length) this.save(record);
    }
    this.remove(record);
    return { state, saved, of, refused };
  }

  /** The server's game is past the batch's start (the answer to a move was lost as the network
   *  went, but the move arrived): the moves it has of the batch are dropped and the rest sent from
   *  its counter; a game that went on otherwise keeps the server's moves ({movedOn, state}). */
  async catchUp(record) {
    let server;
    let log;
    try {
      server = await games.get(record.id);
      log = await this.serverLog(record.id);
    } catch (err) {
      if (err.status === 0 || err.status >= 500) return null;
      return { movedOn: true, state: null };
    }
    const mine = record.log;
    const agrees = log.length >= record.base && log.length <= mine.length && log.every((entry, i) => entry === mine[i]);
    if (!agrees) return { movedOn: true, state: server };
    record.pending = record.pending.slice(log.length - record.base); // one pending entry per log entry
    record.base = log.length;
    record.sent = null;
    this.save(record);
    return { movedOn: false, state: server };
  }

  // -- the device's copy ------------------------------------------------------------------------
  save(record = this.record) {
    if (!record) return;
    record.updated = Date.now();
    if (record === this.record) document.documentElement.dataset.engineGame = `${record.id}:${record.log.length}`;
    try {
      localStorage.setItem(PREFIX + record.id, JSON.stringify(record));
    } catch (err) {
      /* without storage the game still goes on until the page is closed */
    }
  }

  remove(record) {
    try {
      localStorage.removeItem(PREFIX + record.id);
    } catch (err) {
      /* nothing kept */
    }
  }

  /** The games kept on this device: the one the page opens (its address's, else the newest with
   *  unsent moves of this player) becomes the engine's, played here until it is sent. Returns it
   *  ({record, unsent}) or null. */
  restore(id = null) {
    const mine = owner();
    const records = storedRecords().filter((record) => !record.owner || record.owner === mine);
    const record = (id && records.find((r) => r.id === id)) || records.find(unsent) || null;
    for (const other of records) if (other !== record && !unsent(other)) this.remove(other); // old copies
    if (!record) return null;
    if (unsent(record)) {
      this.record = record;
      this.active = true;
    }
    return { record, unsent: unsent(record) };
  }

  /** The restored game on the engine: its state (the engine is started if it was not), or null. */
  async resume(record = this.record) {
    if (!record || !this.engine) return null;
    try {
      await this.engine.start();
    } catch (err) {
      return null;
    }
    const answer = await this.then(() => this.engine.call("load", { code: record.code, log: record.log }));
    if (!answer || answer.error) return null;
    this.record = record;
    this.active = true;
    this.scheduleRetry();
    return this.stateOf(answer.ok);
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
