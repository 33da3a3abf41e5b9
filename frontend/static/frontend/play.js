// The play page (/): always the player's game in progress. Once a game is on the table the
// address names it (?game=<id>, replacing ?code=), so reload, back/forward and a bookmark return
// to it. Without one: the most recent unfinished game of the account (any device) or the guest's
// session (GET games?status=playing), else a new deal. ?code=YU1-… deals that code.
import { t, tn } from "./i18n.js";
import { games, currentUser, sessionEndedSinceLastVisit } from "./api.js";
import { initNav } from "./nav.js";
import { Settings } from "./settings.js";
import { GameTable } from "./game.js";
import { bindNewGameDialog, bindSettings, showWin } from "./dialogs.js";

const KEY = "yukon.game";
const HOWTO_KEY = "yukon.howto.seen";
const $ = (id) => document.getElementById(id);
const settings = new Settings();
settings.loadLocal();

const openNew = () => $("new-button").click();
let rankedElsewhere = null; // the account's ranked attempt of today, still running (not on this page)
const table = new GameTable({
  settings,
  onWin: (state, info) => won(state, info),
  onLost: () => lost(t("lost.gone")),
  // A game played offline is the server's again: the address names it (a game dealt offline has
  // its server id now).
  onSynced: (state) => {
    if (state && state.id !== new URLSearchParams(location.search).get("game")) start(state);
  },
});
bindSettings(settings);
// A practice game left for a new one keeps its time: its clock stops once the player confirms
// (the dialog's question says it stays in My games, to be resumed), and goes on if the dialog is
// closed without a new game (docs/scoring.md, "Time").
let pausedHere = null; // the game this page paused itself: {id, why: "leave" | "howto"}
bindNewGameDialog((state) => start(state, { push: true }), {
  current: () => table.state,
  // No network: a practice game dealt on this device (offline.js), or null (the dialog says so).
  offline: async (options) => {
    if (options.code) return null;
    const state = await table.offline.deal(options.rule);
    if (state) {
      start(state, { push: true });
      table.messages.showNotice(t("offline.dealt"), "offline"); // (after: a new game clears the notice)
    }
    return state;
  },
  leave: (state) => stopClock(state, "leave"),
  stay: (state) => goOn(state.id, "leave"),
});
$("lost-new").addEventListener("click", openNew);
initNav().then((user) => settings.loadAccount(user));

const stored = (key) => {
  try {
    return localStorage.getItem(key);
  } catch (err) {
    return null;
  }
};
const store = (key, value) => {
  try {
    localStorage.setItem(key, value);
  } catch (err) {
    /* no storage: the game is still in the account / session */
  }
};

/** Stop the clock of `state`, the game on the table, if it may stop (a practice game in play; a
 *  ranked attempt's never does), and remember why. */
function stopClock(state, why) {
  if (!state || state.status !== "playing" || !state.pausable || state.paused) return;
  // A game left untouched is replaced by the new deal (replace_untouched): nothing to keep.
  if (why === "leave" && state.moves === 0) return;
  if (!table.state || table.state.id !== state.id) return;
  pausedHere = { id: state.id, why };
  table.pause();
}

/** The clock this page stopped for `why` goes on (the game is still on the table). */
function goOn(id, why) {
  if (!pausedHere || pausedHere.id !== id || pausedHere.why !== why) return;
  pausedHere = null;
  if (table.state && table.state.id === id) table.resume();
}

// While the first visit's how-to is read, the cards lie under the pause's cover, which says why.
const cover = $("pause-cover");
const coverTexts = [cover.querySelector("h2"), cover.querySelector("p"), $("resume-button")];
const pausedTexts = coverTexts.map((el) => el.textContent);
const readyTexts = () => [t("howto.cover.title"), t("howto.cover.text"), t("howto.cover.start")];
table.store.subscribe((state) => {
  if (pausedHere && state && state.id === pausedHere.id) {
    if (state.paused) pausedHere.seen = true;
    else if (pausedHere.seen) pausedHere = null; // going again: the pause is over
  }
  const ready = Boolean(state && state.paused && pausedHere && pausedHere.id === state.id && pausedHere.why === "howto");
  const texts = ready ? readyTexts() : pausedTexts;
  coverTexts.forEach((el, i) => {
    if (el.textContent !== texts[i]) el.textContent = texts[i];
  });
});

/** Put a game on the table and name it in the address (a new game adds a history entry). A game
 *  the page opens with (load: resumed, named in the address, or dealt for a first visit) is simply
 *  there; a new game of the dialog is dealt card by card (`deal`). The cascade of 52 cards costs the
 *  page's first seconds a main thread busy with styles and paints (Lighthouse's blocking time). */
function start(state, { push = false, resumed = false, deal = push } = {}) {
  store(KEY, state.id);
  const url = `/?game=${encodeURIComponent(state.id)}`;
  if (location.pathname + location.search !== url) history[push ? "pushState" : "replaceState"]({ game: state.id }, "", url);
  document.body.classList.remove("no-game");
  $("game-lost").hidden = true;
  if (state.status !== "won") $("play-result").hidden = true;
  // Another game comes (a new one, back or forward): the one on the table stops its clock.
  if (table.state && table.state.id !== state.id && !(pausedHere && pausedHere.id === table.state.id)) {
    stopClock(table.state, "leave");
  }
  table.show(state, { deal });
  if (!$("howto").hidden) stopClock(state, "howto"); // a first visit: the clock waits for the player
  if (resumed && state.moves > 0 && state.status === "playing") table.showNote(t("resumed", { moves: tn("moves", state.moves) }));
  if (rankedElsewhere && rankedElsewhere !== state.id) {
    // Its clock does not stop (it has no pause): the way back is one tap away.
    table.messages.showNotice(t("ranked.elsewhere"), "warning", { href: "/daily", text: t("ranked.back") });
  }
  performance.mark("board-rendered");
}

/** The win dialog: what the win was for the player, its score taken apart and, for a practice
 *  game, a challenge to send (win.js), after a short cascade of cards for a win just made; for a
 *  won ranked daily attempt (also one opened again, ?game=<id>) where it stands and the text to
 *  share, in the dialog and on the page below the table (reachable after the dialog is closed).
 *  Their modules are loaded only then: the play page stays light. */
async function won(state, { reopened = false } = {}) {
  let win = null;
  try {
    win = await import("./win.js");
    win.fillWin(state);
  } catch (err) {
    console.error(err); // the dialog without its extra lines
  }
  if (win && !reopened) await win.celebrate(table.board);
  if (!table.state || table.state.id !== state.id) return; // another game meanwhile
  showWin(state, { onNew: openNew });
  $("play-result").hidden = true;
  const counted = state.ranked && state.daily && !state.closed;
  const board = $("win-rank"); // the day's board, where the rank is
  board.href = counted ? `/leaderboards?date=${encodeURIComponent(state.daily)}` : "/leaderboards";
  board.hidden = !counted;
  if (!counted || !(state.attempt && state.attempt.shareable)) return; // the server says what may be shared
  const [{ renderStanding, settledStanding }, { showShare }] = await Promise.all([
    import("./standing.js"),
    import("./share.js"),
  ]);
  const found = await settledStanding(state.daily);
  if (!table.state || table.state.id !== state.id) return; // another game meanwhile
  if (found) {
    renderStanding($("win-standing"), found);
    renderStanding($("play-standing"), found);
  }
  if (found && found.me && !found.me.attempt.shareable) return;
  await showShare([$("win-share"), $("play-share")], {
    gameId: state.id,
    date: state.daily,
    timeMs: state.elapsed_ms,
    moves: state.moves,
    standing: found,
  });
  $("play-result").hidden = false;
}

/** A lasting message instead of an empty table: the game is not there, or the code is bad. */
function lost(text) {
  table.clear();
  document.body.classList.add("no-game");
  $("game-lost-text").textContent = text;
  $("game-lost").hidden = false;
}

/** The game to resume: the newest unfinished one that is no daily deal (those are resumed on the
 *  daily page). A known guest's browser (api.js's hint) that never kept a game deals at once,
 *  without waiting for auth/me; any other asks who is playing first (a session may be an account's). */
async function resumable() {
  const saved = stored(KEY);
  if (!saved && stored("yukon.user") === "") return null;
  const user = await currentUser();
  if (!saved && !user) return null;
  // Only "not found" means no game: a lookup that failed (no network, the page being left while it
  // loads) throws, so that no new deal is made in place of a game that exists (it would be the
  // newest and hide that game on the next visit).
  const [list, own] = await Promise.all([
    games.list(1, { status: "playing", size: 10 }),
    saved ? games.get(saved).catch(gone) : Promise.resolve(null),
  ]);
  const running = list && (list.results || []).find((game) => game.attempt && game.attempt.state === "open");
  rankedElsewhere = running ? running.id : null;
  const newest = list && (list.results || []).find((game) => !game.daily);
  if (!newest) return own && own.status === "playing" && !own.daily ? own : null;
  if (own && own.id === newest.id) return own;
  return games.get(newest.id).catch(gone);
}

/** A game asked for by id is gone (404: removed, another's, a session that ended): null; any other
 *  failure is passed on. */
function gone(err) {
  if (err.status === 404) return null;
  throw err;
}

async function load() {
  const params = new URLSearchParams(location.search);
  const id = params.get("game");
  const code = params.get("code");
  // A game played on this device whose moves the server has not had yet: sent first; without the
  // network it is shown from the device (offline.js).
  const kept = table.offline.restore(id);
  if (kept && kept.unsent) {
    const synced = (await table.offline.reachable()) ? await table.offline.sync() : null;
    if (synced && synced.state) {
      start(synced.state);
      table.saidSynced(synced);
      return;
    }
    if (synced) table.saidSynced(synced); // (the game is not there to show: the usual load below)
    else {
      const here = await table.offline.resume();
      if (here) {
        start(here);
        table.messages.showNotice(t("offline.playing"), "offline");
        return;
      }
    }
  }
  try {
    if (id) {
      try {
        return start(await games.get(id), { resumed: true });
      } catch (err) {
        if (err.status === 404 && (await sessionEndedSinceLastVisit())) {
          // The account's game, most likely: the header's word says how to get back to it.
          window.dispatchEvent(new CustomEvent("yukon:signed-out"));
          return lost(t("signedOut"));
        }
        if (err.status === 404) return lost(t("lost.game"));
        throw err;
      }
    }
    if (code) {
      try {
        return start(await games.start({ code, replace_untouched: true }));
      } catch (err) {
        if (err.status === 400) return lost(t("lost.code", { detail: err.detail || code }));
        throw err;
      }
    }
    const state = await resumable();
    if (state) return start(state, { resumed: true });
    return start(await games.start({ rule: "classic", replace_untouched: true }));
  } catch (err) {
    if (err.status === 0 && kept && kept.record && (!id || id === kept.record.id)) {
      // No network: the practice game this device followed last goes on here.
      const here = await table.offline.resume(kept.record);
      if (here) {
        start(here);
        table.messages.showNotice(t("offline.playing"), "offline");
        return;
      }
    }
    lost(err.detail || t(err.status === 0 ? "error.network" : "error.generic"));
  }
}

// Back and forward move between the games named in the address.
window.addEventListener("popstate", () => load());

// A short first-visit introduction, dismissed once and remembered. It is in the page from the
// start (no shift when it appears); the page's head hides it for a returning player (howto-seen).
if (stored(HOWTO_KEY)) {
  $("howto").hidden = true;
} else {
  $("howto-close").addEventListener("click", () => {
    $("howto").hidden = true;
    store(HOWTO_KEY, "1");
    table.board.relayout(); // the table has the window's height below the bar now
    if (table.state) goOn(table.state.id, "howto");
    $("table").focus({ preventScroll: true });
  });
}

// The installed app's shortcut "New game" (/?new=1): the game in progress first, then the dialog.
// (start() names the game in the address, which drops the parameter.)
const wantsNew = new URLSearchParams(location.search).get("new") === "1";
load().then(() => {
  if (wantsNew && table.state) openNew();
});
