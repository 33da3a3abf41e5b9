// The daily deal (/daily): play today's deal; once won, show the rank from the leaderboard.
import { t, formatDate } from "./i18n.js";
import { games, daily, currentUser } from "./api.js";
import { initNav } from "./nav.js";
import { Settings } from "./settings.js";
import { GameTable } from "./game.js";
import { bindNewGameDialog, bindSettings, showWin } from "./dialogs.js";

const $ = (id) => document.getElementById(id);
const settings = new Settings();
settings.loadLocal();
const userReady = initNav();
userReady.then((user) => settings.loadAccount(user));

const todayUtc = () => new Date().toISOString().slice(0, 10);
let info = null;

const table = new GameTable({ settings, onWin: (state) => won(state) });
bindSettings(settings);
bindNewGameDialog((state) => {
  // A new random game belongs on the play page, which resumes the game named here.
  try {
    localStorage.setItem("yukon.game", state.id);
  } catch (err) {
    /* the play page then deals another */
  }
  location.href = "/";
});

function setStatus(text) {
  $("daily-status").textContent = text;
  $("daily-status").hidden = !text;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The board is updated by a background task right after the win: ask again for a few seconds.
async function rankLine(state) {
  const user = await currentUser();
  if (!user) return t("daily.guest");
  if (state.ranked === false) return t("daily.unranked");
  try {
    for (let attempt = 0; attempt < 8; attempt++) {
      const board = await daily.leaderboard(state.daily || todayUtc());
      const mine = board.me || (board.entries || []).find((e) => e.username === user.username);
      if (mine && mine.rank) return t("daily.rank", { rank: mine.rank, players: board.players ?? board.entries.length });
      if (state.status !== "won") break;
      await sleep(1000);
    }
    return t("daily.unranked");
  } catch (err) {
    return err.status === 404 ? t("lb.unavailable") : t("error.generic");
  }
}

async function won(state) {
  const line = await rankLine(state);
  setStatus(line);
  showWin(state, { onNew: () => { location.href = "/"; }, extra: line });
  const link = $("win-rank");
  link.href = `/leaderboards?date=${encodeURIComponent(state.daily || todayUtc())}`;
  link.hidden = false;
}

function reveal(state) {
  $("daily-intro").classList.add("compact");
  $("game-area").hidden = false;
  table.show(state, { deal: true });
  try {
    localStorage.setItem(`yukon.daily.${state.daily || todayUtc()}`, state.id);
  } catch (err) {
    /* fine */
  }
}

async function play() {
  $("daily-play").disabled = true;
  try {
    reveal(await games.start({ daily: true }));
  } catch (err) {
    setStatus(err.status === 404 ? t("daily.unavailable") : err.detail || t("error.generic"));
  } finally {
    $("daily-play").disabled = false;
  }
}

async function init() {
  const user = await userReady;
  let date = todayUtc();
  try {
    info = await daily.today();
    date = info.date || date;
    $("daily-date").textContent = t("daily.date", { date: formatDate(date) });
    if (typeof info.played === "number") $("daily-played").textContent = t("daily.played.count", { n: info.played });
    else if (info.played === true) $("daily-played").textContent = t("daily.played.yes");
  } catch (err) {
    $("daily-date").textContent = t("daily.date", { date: formatDate(date) });
    if (err.status === 404) setStatus(t("daily.unavailable"));
  }
  if (!user) $("daily-guest").hidden = false;
  $("daily-board").href = `/leaderboards?date=${date}`;
  const saved = localStorage.getItem(`yukon.daily.${date}`);
  if (saved) {
    try {
      const state = await games.get(saved);
      if (state.status === "playing") {
        $("daily-play").textContent = t("daily.resume");
        $("daily-play").onclick = () => reveal(state);
        return;
      }
      if (state.status === "won") setStatus(await rankLine(state));
    } catch (err) {
      /* start afresh */
    }
  }
  $("daily-play").onclick = play;
}

init();
