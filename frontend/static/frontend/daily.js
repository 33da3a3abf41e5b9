// The daily deal (/daily): where the player stands today (GET daily's `attempt`), today's board,
// and the game. Today's deal is for accounts (docs/fair-play.md): a guest sees the board, a sign-up prompt
// and yesterday's deal to practise. Until the day's deal is prepared the server answers 503
// daily_not_ready with Retry-After, and the page says so and asks again by itself.
import { t, tn, formatDate, formatMoment, formatNumber, formatTime } from "./i18n.js";
import "./strings.js";
import "./social_strings.js";
import { games, daily, social } from "./api.js";
import { initNav, playerName, verifiedMark } from "./nav.js";
import { Settings } from "./settings.js";
import { GameTable } from "./game.js";
import { CLOSE_WARNING_MS } from "./gamebar.js";
import { bindNewGameDialog, bindSettings, showWin } from "./dialogs.js";
import { showShare } from "./share.js";
import { liveCounts, renderStanding, settledStanding } from "./standing.js";
import { createStore } from "./store.js";
import { dayBoardRow } from "./day_board.js";
import { newcomerText } from "./standing.js";

const $ = (id) => document.getElementById(id);
const settings = new Settings();
settings.loadLocal();
const userReady = initNav();
userReady.then((user) => settings.loadAccount(user));

const TOP = 10; // lines of today's board shown here; the leaderboards page has them all
const RETRY_SECONDS = { fallback: 5, min: 1, max: 300 };
const LIVE_MS = 60_000; // the live counts (started, won) are asked for again this often
const REVIEW_TEXT = { held: "daily.review.held", rejected: "daily.review.rejected", invalid: "daily.review.invalid" };

/** Why a won attempt is not on the board (or null while it is being checked): a held one says
 *  which kind of check holds it and by when staff look at it (the server's held_for, review_by). */
function reviewText({ review, held_for: heldFor, review_by: reviewBy }) {
  if (review === "held" && heldFor && heldFor.length) {
    const kinds = heldFor.map((kind) => t(`daily.review.held.${kind}`)).join(" ");
    return reviewBy ? `${kinds} ${t("daily.review.by", { time: formatMoment(reviewBy) })}` : kinds;
  }
  return REVIEW_TEXT[review] ? t(REVIEW_TEXT[review]) : null;
}

// The day as the server last told it (GET daily's answer) and when it came (closes_in_ms counts
// from there); null before it loads and once its close has passed (the next day loads then). The
// game on the table is the table's own store (table.state).
const day = createStore();
let retryTimer = 0;

const table = new GameTable({ settings, onWin: (state, info) => won(state, info) });
bindSettings(settings);
bindNewGameDialog(
  (state) => {
    // A new random game belongs on the play page, which opens the game named in its address.
    location.href = `/?game=${encodeURIComponent(state.id)}`;
  },
  { current: () => table.state },
);

const notReady = (err) => err.status === 503 && err.code === "daily_not_ready";
const roundUp = (ms) => Math.ceil(ms / 1000) * 1000;

function line(id, text) {
  $(id).textContent = text || "";
  $(id).hidden = !text;
}
/** The page's status line; a held result is said as a hold (the warning's colours), never as a success. */
function setStatus(text, { held = false } = {}) {
  line("daily-status", text);
  $("daily-status").classList.toggle("warn", Boolean(text) && held);
}

function dayBefore(iso) {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** Milliseconds until today's deal closes (00:00 UTC by the server's clock), or null. */
function closesIn() {
  const today = day.state;
  if (!today || today.closes_in_ms == null) return null;
  return today.closes_in_ms - (performance.now() - day.receivedAt);
}

// -- this browser's memory: the last game of each day's deal (to continue a practice game) ------
const savedKey = (date) => `yukon.daily.${date}`;

function remember(state) {
  try {
    localStorage.setItem(savedKey(state.daily), state.id);
  } catch (err) {
    /* fine: the server knows the ranked attempt */
  }
}

function saved(date) {
  try {
    return localStorage.getItem(savedKey(date));
  } catch (err) {
    return null;
  }
}

// -- loading the day ---------------------------------------------------------------------------
async function load() {
  clearTimeout(retryTimer);
  const user = await userReady;
  try {
    day.set(await daily.today());
  } catch (err) {
    if (notReady(err)) return preparing(err);
    if (err.status === 0) {
      // Offline (the page came from the service worker's copy): the deal is the server's alone.
      setStatus(t("daily.offline"));
      window.addEventListener("online", () => load(), { once: true });
      return;
    }
    setStatus(err.status === 404 ? t("daily.unavailable") : err.detail || t("error.generic"));
    return;
  }
  setStatus("");
  const today = day.state;
  const number = today.number != null ? `Yukon #${today.number} · ` : "";
  $("daily-date").textContent = number + t("daily.date", { date: formatDate(today.date) });
  $("daily-played").textContent = tn("daily.players", today.played);
  $("daily-arrangements").hidden = !(today.arrangements > 1);
  if (today.arrangements > 1) $("daily-arrangements").textContent = tn("daily.arrangements", today.arrangements);
  $("daily-board").href = `/leaderboards?date=${today.date}`;
  tickCloses();
  showBoard(today.date);
  whereYouStand(today.date);
  if (user) await standing(today.attempt, today.date);
  else await guestView();
}

/** 503 daily_not_ready: say so (no spinner, no error) and load again after Retry-After. */
function preparing(err) {
  setStatus(t("daily.preparing"));
  $("daily-play").hidden = true;
  const seconds = Math.min(Math.max(err.retryAfter ?? RETRY_SECONDS.fallback, RETRY_SECONDS.min), RETRY_SECONDS.max);
  clearTimeout(retryTimer);
  retryTimer = setTimeout(load, seconds * 1000);
}

function tickCloses() {
  const left = closesIn();
  const counting = left !== null && left > 0;
  line("daily-closes", counting ? t("daily.closes", { time: formatTime(roundUp(left)) }) : "");
  if (left !== null && !counting && !table.state) {
    day.set(null); // a new day, a new deal (which may still be being prepared): load it once
    setTimeout(load, 2000);
  }
}
setInterval(tickCloses, 1000);

/** The top of the day's board: rank, player, time, moves. */
async function showBoard(date) {
  let board;
  try {
    board = await daily.leaderboard(date);
  } catch (err) {
    $("daily-top").hidden = true;
    return;
  }
  const entries = board.entries.slice(0, TOP);
  const mine = board.me && board.me.username;
  $("daily-top-body").replaceChildren(
    ...entries.map((entry) => {
      const row = document.createElement("tr");
      if (entry.rank <= 3) row.className = `podium rank-${entry.rank}`;
      if (mine && entry.username === mine) row.classList.add("mine");
      const player = document.createElement("th");
      player.scope = "row";
      player.append(playerName(entry.username));
      if (entry.verified) player.append(" ", verifiedMark());
      const cell = (text) => Object.assign(document.createElement("td"), { textContent: String(text) });
      row.append(cell(entry.rank), player, cell(formatTime(entry.time_ms)), cell(entry.moves));
      return row;
    }),
  );
  $("daily-top-table").hidden = !entries.length;
  $("daily-legend").hidden = !entries.length;
  $("daily-top-empty").hidden = entries.length > 0;
  $("daily-top").hidden = false;
  if (await userReady) showFriends(date);
}

// -- the friends' tab: the day's counted results of the player and the people they follow --------
const TAB_KEY = "yukon.daily.tab";
const TABS = ["all", "friends"];

function chooseTab(name, { focus = false } = {}) {
  for (const tab of TABS) {
    const button = $(`daily-tab-${tab}`);
    button.setAttribute("aria-selected", String(tab === name));
    button.tabIndex = tab === name ? 0 : -1;
    $(`daily-panel-${tab}`).hidden = tab !== name;
    if (focus && tab === name) button.focus();
  }
  try {
    localStorage.setItem(TAB_KEY, name);
  } catch (err) {
    /* the next visit opens on everyone */
  }
}

for (const tab of TABS) {
  $(`daily-tab-${tab}`).addEventListener("click", () => chooseTab(tab));
  $(`daily-tab-${tab}`).addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    const to = event.key === "Home" ? 0 : event.key === "End" ? TABS.length - 1 : step ? (TABS.indexOf(tab) + step + TABS.length) % TABS.length : null;
    if (to === null) return;
    event.preventDefault();
    chooseTab(TABS[to], { focus: true });
  });
}

async function showFriends(date) {
  let board;
  try {
    board = await social.friends(date);
  } catch (err) {
    return; // the tabs stay hidden: everyone's board alone
  }
  $("daily-friends-body").replaceChildren(...board.entries.map(dayBoardRow));
  $("daily-friends-table").hidden = !board.entries.length;
  line("daily-friends-empty", board.entries.length ? "" : t(board.following ? "daily.friends.empty" : "daily.friends.none"));
  $("daily-tabs").hidden = false;
  $("daily-legend-overall").hidden = false;
  let saved = null;
  try {
    saved = localStorage.getItem(TAB_KEY);
  } catch (err) {
    saved = null;
  }
  chooseTab(saved === "friends" ? "friends" : "all");
}

// -- where you stand: the live counts for everyone, the histograms once the attempt is won ----------
/** GET daily/<date>/standing: the counts into the page's line, the histograms into its block (and
 *  into `dialog`'s, the win dialog's, when given). Resolves to the answer, or null. */
async function whereYouStand(date, { dialog = null } = {}) {
  let found;
  try {
    found = await daily.standing(date);
  } catch (err) {
    return null; // the line keeps GET daily's count of players
  }
  if (day.state && date === day.state.date) $("daily-played").textContent = liveCounts(found);
  renderStanding($("daily-standing"), found);
  if (dialog) renderStanding(dialog, found);
  return found;
}

setInterval(() => {
  if (day.state && !document.hidden) whereYouStand(day.state.date);
}, LIVE_MS);

// -- a guest: the board, a sign-up prompt, yesterday's deal to practise --------------------------
async function guestView() {
  $("daily-play").hidden = true;
  $("daily-clock").hidden = true;
  line("daily-note", "");
  $("daily-guest").hidden = false;
  try {
    // The newest past day, from the archive: a site's first day has none (an empty page, no 404).
    const [past] = (await daily.archive(1, { size: 1 })).results;
    if (past && day.state && past.date === dayBefore(day.state.date) && past.code) {
      $("daily-past").href = `/?code=${encodeURIComponent(past.code)}`;
      $("daily-past").hidden = false;
    }
  } catch (err) {
    /* no archive: nothing to practise */
  }
}

// -- an account: where it stands today -----------------------------------------------------------
function offer(text, action) {
  const button = $("daily-play");
  button.textContent = text;
  button.onclick = action;
  button.hidden = false;
}

async function standing(attempt, date) {
  $("daily-guest").hidden = true;
  // Before the ranked attempt and while it runs: its clock never stops (pause.js), said beforehand.
  $("daily-clock").hidden = !(!attempt || attempt.status === "playing");
  if (!attempt) {
    line("daily-note", t("daily.attempt.none"));
    offer(t("daily.play"), startRanked);
  } else if (attempt.status === "playing") {
    setStatus(t("daily.attempt.playing"));
    offer(t("daily.resume"), () => open(attempt.game));
  } else if (attempt.status === "closed") {
    setStatus(t("daily.attempt.closed"));
    offer(t("daily.playon"), () => open(attempt.game));
  } else {
    // Won: the rank (or why it does not count), the time and the moves.
    const figures = attempt.time_ms != null ? t("daily.won", { time: formatTime(attempt.time_ms), moves: tn("movesWith", attempt.moves) }) : "";
    // "Your rank: 1 of 3. Won in 3:05 with 90 moves." (a sentence of its own after the rank)
    const withFigures = (text) => (figures ? `${/[.!?…]$/.test(text) ? text : `${text}.`} ${figures}` : text);
    setStatus(withFigures(reviewText(attempt) || t("daily.review.pending")), { held: attempt.review === "held" });
    rankedResult({ id: attempt.game, answer: attempt, date }).then(async ({ text, held }) => {
      setStatus(withFigures(text), { held });
      const found = await whereYouStand(date); // again: the result is on the board now
      if (attempt.shareable) {
        showShare($("daily-share"), { gameId: attempt.game, date, timeMs: attempt.time_ms, moves: attempt.moves, standing: found, heldFor: attempt.held_for });
      }
    });
    await offerPractice(attempt.game, date);
  }
}

/** After the ranked attempt: continue this browser's practice game of today, or start one. */
async function offerPractice(attemptId, date) {
  line("daily-note", t("daily.practice"));
  const id = saved(date);
  if (id && id !== attemptId) {
    try {
      const state = await games.get(id);
      if (state.status === "playing" && state.daily === date) {
        offer(t("daily.continue"), () => reveal(state));
        return;
      }
    } catch (err) {
      /* gone: start another */
    }
  }
  offer(t("daily.again"), start);
}

/** The ranked attempt: with less than 15 minutes left, the player hears that first. */
async function startRanked() {
  const left = closesIn();
  if (left !== null && left < CLOSE_WARNING_MS && !(await confirmLate(left))) return;
  await start();
}

function confirmLate(left) {
  const dialog = $("warn-dialog");
  $("warn-left").textContent = t("daily.warn.left", { time: formatTime(roundUp(left)) });
  dialog.returnValue = "";
  $("warn-go").onclick = () => dialog.close("go");
  dialog.querySelector("[data-close]").onclick = () => dialog.close("");
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "go"), { once: true });
  });
}

async function start() {
  const button = $("daily-play");
  button.disabled = true;
  try {
    reveal(await games.start({ daily: true }));
  } catch (err) {
    if (notReady(err)) preparing(err);
    else if (err.code === "daily_needs_account") await guestView(); // the session has ended
    else if (err.code === "daily_attempt_open") await load(); // started on another device meanwhile: offer it
    else setStatus(err.status === 404 ? t("daily.unavailable") : err.detail || t("error.generic"));
  } finally {
    button.disabled = false;
  }
}

async function open(id) {
  try {
    reveal(await games.get(id));
  } catch (err) {
    setStatus(err.detail || t("error.generic"));
  }
}

function reveal(state) {
  $("main").classList.add("playing"); // on a phone the board comes first
  $("daily-intro").classList.add("compact");
  $("game-area").hidden = false;
  setStatus(state.daily && !state.ranked ? t("daily.practice") : "");
  line("daily-note", "");
  table.show(state, { deal: true });
  remember(state);
}

// -- the win --------------------------------------------------------------------------------------
/** What a won ranked attempt gives: its rank once it is on the board, or why it is not there
 *  (`text`), and whether it is held (`held`: shown as a hold). The board is kept by background
 *  tasks after a win: the standing says when it shows the verdict, and how long to wait until it
 *  does (settledStanding). */
async function rankedResult({ id, answer, date }) {
  if (!reviewText(answer)) {
    const settled = await settledStanding(date);
    if (settled && settled.me && settled.me.review !== answer.review) {
      try {
        answer = await games.get(id); // decided meanwhile: its reasons, if it is held
      } catch (err) {
        /* as it was */
      }
    }
  }
  const why = reviewText(answer);
  if (why) return { text: why, held: answer.review === "held" };
  try {
    const board = await daily.leaderboard(date);
    if (board.me && board.me.rank) return { text: boardPlace(board), held: false };
  } catch (err) {
    if (!notReady(err)) return { text: err.status === 404 ? t("lb.unavailable") : t("error.generic"), held: false };
  }
  return { text: t("daily.review.pending"), held: false }; // still being checked
}

/** The caller's place on the day's board, as the board's own line says it; a newcomer's result,
 *  not on the public board, in words: the place it would have and when its results count there. */
function boardPlace(board) {
  if (board.me.public === false) return newcomerText(board.me);
  return t("daily.rank", { rank: board.me.rank, players: board.players });
}

async function won(state, { reopened = false } = {}) {
  // What the win was for the player and its score taken apart, after a short cascade (win.js).
  try {
    const win = await import("./win.js");
    win.fillWin(state);
    if (!reopened) await win.celebrate(table.board);
  } catch (err) {
    console.error(err); // the dialog without its extra lines
  }
  const date = state.daily || (day.state && day.state.date);
  const counted = state.ranked && !state.closed;
  const first = counted ? reviewText(state) || t("daily.review.pending") : t("daily.unranked");
  const heldNow = counted && state.review === "held";
  setStatus(first, { held: heldNow });
  showWin(state, { onNew: () => { location.href = "/"; }, extra: first });
  $("win-extra").classList.toggle("hold", heldNow);
  const link = $("win-rank");
  link.href = `/leaderboards?date=${encodeURIComponent(date)}`;
  link.hidden = false;
  if (!counted) return;
  const { text: result, held } = await rankedResult({ id: state.id, answer: state, date });
  setStatus(result, { held });
  line("win-extra", result);
  $("win-extra").classList.toggle("hold", held);
  let now = state;
  try {
    now = await games.get(state.id);
  } catch (err) {
    /* as it was */
  }
  const found = await whereYouStand(date, { dialog: $("win-standing") });
  if (now.attempt && now.attempt.shareable) {
    showShare($("win-share"), { gameId: state.id, date, timeMs: state.elapsed_ms, moves: state.moves, standing: found, heldFor: now.held_for });
  }
}

load();
