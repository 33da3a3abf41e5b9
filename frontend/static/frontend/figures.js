// A player's figures as the pages show them, read from the server's statistics as the schema
// says (MyStats of me/stats, PlayerStats of players/{name}/stats): the tiles of the statistics
// page and of a player's profile (one set for both), the chart's points and its time axis. The
// pages compute no statistic themselves.
import { CONFIG } from "./config.js";
import { formatNumber, formatTime, t, tn } from "./i18n.js";
import "./strings.js";

const DASH = "–";

/** The tiles of `stats`, in order: {id, label, value, title}. The best daily rank is an
 *  account's only (a guest plays no ranked attempt: its `username` is null). */
export function statTiles(stats, { cleanWinScore = CONFIG.clean_win_score } = {}) {
  const { overall, daily } = stats;
  const time = (ms) => (ms != null ? formatTime(ms) : DASH);
  const tiles = [
    ["tile-played", t("stats.played"), formatNumber(overall.played)],
    ["tile-won", t("stats.won"), formatNumber(overall.won)],
    ["tile-winrate", t("stats.winrate"), `${formatNumber(overall.win_rate * 100)} %`],
    ["tile-streak", t("stats.streak"), tn("stats.days", daily.current_streak)],
    ["tile-longest", t("stats.longest"), tn("stats.days", daily.longest_streak)],
    ["tile-besttime", t("stats.besttime"), time(overall.best_time_ms)],
    ["tile-fewest", t("stats.fewest"), overall.fewest_moves != null ? formatNumber(overall.fewest_moves) : DASH],
    ["tile-clean", t("stats.clean"), formatNumber(overall.clean_wins), t("stats.clean.title", { score: cleanWinScore })],
    ["tile-avgtime", t("stats.avgtime"), time(overall.average_time_ms)],
  ];
  if (stats.username != null) {
    tiles.push(["tile-bestrank", t("stats.bestrank"), daily.best_rank != null ? `#${daily.best_rank}` : DASH]);
  }
  return tiles.map(([id, label, value, title = ""]) => ({ id, label, value, title }));
}

/** Put the tiles of `stats` into `container` (replacing what it held). */
export function renderTiles(container, stats) {
  container.replaceChildren(
    ...statTiles(stats).map(({ id, label, value, title }) => {
      const box = Object.assign(document.createElement("div"), { className: "tile", id });
      if (title) box.title = title;
      const strong = document.createElement("strong");
      strong.textContent = value;
      const span = document.createElement("span");
      span.textContent = label;
      box.append(strong, span);
      return box;
    }),
  );
}

/** The chart's points from the statistics' `history` (the games played, oldest first): when each
 *  ended (or was dealt, if it is not finished), whether it was won, and its clock. */
export function historyPoints(history) {
  return history.map((game) => ({
    when: game.finished_at ?? game.created_at,
    won: game.won,
    timeMs: game.elapsed_ms,
    moves: game.moves,
  }));
}

const STEPS = [0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 240, 480];

/** The chart's time axis, in minutes, for bars of `minutes` (`won`: which are wins): whole steps
 *  (0:15, 0:30, 1:00, 2:00, 5:00 …, at most six), never "0.9"; a game left unfinished for more
 *  than twice the longest win is cut at that height (`top`) instead of flattening every other bar
 *  (`top` undefined: the axis fits the bars). */
export function timeAxis(minutes, won) {
  const wonMax = Math.max(...minutes.filter((_, i) => won[i]));
  const highest = Math.max(...minutes);
  const cut = highest > 2 * wonMax;
  const span = cut ? 2 * wonMax : highest;
  const step = STEPS.find((s) => span / s <= 6) ?? 960;
  return { step, top: cut ? Math.ceil(span / step) * step : undefined };
}
