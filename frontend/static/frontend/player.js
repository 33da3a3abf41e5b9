// A player's public profile (/players/<name>): member since, games and streaks, personal bests
// per rule and the last daily results with their ranks, from GET players/{name}/stats.
import { t, tn, formatDate, formatNumber, formatTime } from "./i18n.js";
import "./strings.js";
import { stats } from "./api.js";
import { initNav } from "./nav.js";

const $ = (id) => document.getElementById(id);
const dash = "–";
initNav();

function tile(label, value, id) {
  const box = Object.assign(document.createElement("div"), { className: "tile", id });
  const strong = document.createElement("strong");
  strong.textContent = value;
  const span = document.createElement("span");
  span.textContent = label;
  box.append(strong, span);
  return box;
}

function row(...cells) {
  const line = document.createElement("tr");
  for (const value of cells) {
    const cell = document.createElement("td");
    if (value instanceof Node) cell.append(value);
    else cell.textContent = String(value);
    line.append(cell);
  }
  return line;
}

function show(s) {
  $("player-since").textContent = t("player.since", { date: formatDate(s.member_since.slice(0, 10)) });
  const daily = s.daily;
  $("player-tiles").replaceChildren(
    tile(t("stats.played"), formatNumber(s.overall.played), "tile-played"),
    tile(t("stats.won"), formatNumber(s.overall.won), "tile-won"),
    tile(t("stats.winrate"), `${formatNumber(s.overall.win_rate * 100)} %`, "tile-winrate"),
    tile(t("stats.streak"), tn("stats.days", daily.current_streak), "tile-streak"),
    tile(t("stats.longest"), tn("stats.days", daily.longest_streak), "tile-longest"),
    tile(t("stats.bestrank"), daily.best_rank != null ? `#${daily.best_rank}` : dash, "tile-bestrank"),
  );
  const rules = $("player-rules-body");
  rules.replaceChildren();
  for (const [rule, r] of Object.entries(s.rules)) {
    rules.append(
      row(
        t(`rule.${rule}`),
        formatNumber(r.played),
        formatNumber(r.won),
        r.best_time_ms != null ? formatTime(r.best_time_ms) : dash,
        r.fewest_moves != null ? formatNumber(r.fewest_moves) : dash,
        formatNumber(r.clean_wins),
      ),
    );
  }
  const recent = $("player-recent-body");
  recent.replaceChildren();
  for (const result of s.recent_daily) {
    const board = document.createElement("a");
    board.href = `/leaderboards?date=${encodeURIComponent(result.day)}`;
    board.textContent = formatDate(result.day);
    recent.append(row(board, `#${result.rank}`, formatTime(result.time_ms), formatNumber(result.moves)));
  }
  $("player-recent").hidden = !s.recent_daily.length;
  $("player-recent-empty").hidden = Boolean(s.recent_daily.length);
}

async function init() {
  const since = $("player-since");
  if (!since) return; // no such player: the page says so by itself
  try {
    show(await stats.player(since.dataset.player));
  } catch (err) {
    $("player-note").textContent = err.status === 404 ? t("stats.notfound") : err.detail || t("error.generic");
    $("player-note").hidden = false;
  }
  document.body.dataset.playerReady = "1";
}

init();
