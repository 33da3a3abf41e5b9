// Statistics (/stats, /stats?user=name): figures from me/stats (or players/{name}/stats) and a
// chart of times and results over time. For a guest (me/stats answers accounts only) the page
// shows what the guest's own game list (GET games) tells, and says so.
import { t, tn, formatTime, formatNumber, lang } from "./i18n.js";
import "./strings.js";
import { games, stats as statsApi, currentUser } from "./api.js";
import { initNav } from "./nav.js";

const $ = (id) => document.getElementById(id);
const first = (...values) => values.find((v) => v !== undefined && v !== null);

async function ownGames() {
  const all = [];
  for (let page = 1; page <= 5; page++) {
    let data;
    try {
      data = await games.list(page);
    } catch (err) {
      break;
    }
    const rows = Array.isArray(data) ? data : data.results || [];
    all.push(...rows);
    if (Array.isArray(data) || !data.next) break;
  }
  return all;
}

/** One history point from the server's history or a game summary. */
function point(row) {
  const won = row.won !== undefined ? Boolean(row.won) : row.status === "won";
  return {
    when: first(row.finished_at, row.date, row.created_at, row.day),
    won,
    timeMs: first(row.time_ms, row.elapsed_ms, 0),
    moves: first(row.moves, 0),
    score: first(row.score, 0),
    rule: row.rule || "classic",
    daily: row.daily || null,
  };
}

/** Figures from the game list alone: the fallback. A game counts as played from its first move. */
function summarise(all) {
  const points = all.filter((p) => p.moves > 0);
  const won = points.filter((p) => p.won);
  const dailyDays = new Set(won.filter((p) => p.daily).map((p) => p.daily));
  let longest = 0, run = 0, current = 0;
  const days = [...dailyDays].sort();
  days.forEach((day, i) => {
    const prev = i && new Date(`${days[i - 1]}T00:00:00Z`);
    const gapDays = prev ? (new Date(`${day}T00:00:00Z`) - prev) / 86400000 : 1;
    run = gapDays === 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
  });
  if (days.length) {
    const last = new Date(`${days[days.length - 1]}T00:00:00Z`);
    const age = (Date.parse(new Date().toISOString().slice(0, 10) + "T00:00:00Z") - last) / 86400000;
    current = age <= 1 ? run : 0;
  }
  return {
    played: points.length,
    won: won.length,
    win_rate: points.length ? won.length / points.length : 0,
    current_streak: current,
    longest_streak: longest,
    best_time_ms: won.length ? Math.min(...won.map((p) => p.timeMs)) : null,
    fewest_moves: won.length ? Math.min(...won.map((p) => p.moves)) : null,
    clean_wins: won.filter((p) => p.score === 625).length,
    average_time_ms: won.length ? won.reduce((a, p) => a + p.timeMs, 0) / won.length : null,
  };
}

/** The server's statistics, read generously: flat fields or grouped by "totals"/"bests". */
function normalise(s) {
  const totals = s.totals || s.overall || s;
  const bests = s.bests || s.best || {};
  const classic = (s.rules || s.per_rule || s.by_rule || {}).classic || {};
  const dailyStats = s.daily || s.daily_deals || {};
  const played = first(totals.played, totals.games_played, 0);
  const won = first(totals.won, totals.games_won, 0);
  let rate = first(totals.win_rate, played ? won / played : 0);
  if (rate > 1) rate /= 100;
  return {
    played, won, win_rate: rate,
    current_streak: first(s.current_streak, totals.current_streak, dailyStats.current_streak, s.streak && s.streak.current, 0),
    longest_streak: first(s.longest_streak, totals.longest_streak, dailyStats.longest_streak, s.streak && s.streak.longest, 0),
    best_time_ms: first(totals.best_time_ms, bests.time_ms, bests.best_time_ms, classic.best_time_ms),
    fewest_moves: first(totals.fewest_moves, bests.moves, bests.fewest_moves, classic.fewest_moves),
    clean_wins: first(totals.clean_wins, bests.clean_wins, 0),
    average_time_ms: first(totals.average_time_ms, totals.avg_time_ms, s.average_time_ms),
    best_rank: first(dailyStats.best_rank, s.best_daily_rank, s.best_rank),
    rules: s.rules || s.per_rule || s.by_rule || null,
  };
}

function tile(label, value, id, title = "") {
  const box = document.createElement("div");
  box.className = "tile";
  box.id = id;
  if (title) box.title = title;
  const v = document.createElement("strong");
  v.textContent = value;
  const l = document.createElement("span");
  l.textContent = label;
  box.append(v, l);
  return box;
}

function showFigures(f) {
  const dash = "–";
  const grid = $("stats-tiles");
  grid.replaceChildren(
    tile(t("stats.played"), formatNumber(f.played), "tile-played"),
    tile(t("stats.won"), formatNumber(f.won), "tile-won"),
    tile(t("stats.winrate"), `${formatNumber(f.win_rate * 100, 0)} %`, "tile-winrate"),
    tile(t("stats.streak"), tn("stats.days", f.current_streak || 0), "tile-streak"),
    tile(t("stats.longest"), tn("stats.days", f.longest_streak || 0), "tile-longest"),
    tile(t("stats.besttime"), f.best_time_ms != null ? formatTime(f.best_time_ms) : dash, "tile-besttime"),
    tile(t("stats.fewest"), f.fewest_moves != null ? formatNumber(f.fewest_moves) : dash, "tile-fewest"),
    tile(t("stats.clean"), formatNumber(f.clean_wins || 0), "tile-clean", t("stats.clean.title")),
    tile(t("stats.avgtime"), f.average_time_ms != null ? formatTime(f.average_time_ms) : dash, "tile-avgtime"),
  );
  if (f.best_rank != null) grid.append(tile(t("stats.bestrank"), `#${f.best_rank}`, "tile-bestrank"));
  if (f.rules && typeof f.rules === "object") {
    const body = $("rules-body");
    body.replaceChildren();
    for (const [rule, r] of Object.entries(f.rules)) {
      const row = document.createElement("tr");
      const played = first(r.played, r.games_played, 0);
      const won = first(r.won, r.games_won, 0);
      const cells = [t(`rule.${rule}`), played, won, played ? `${formatNumber((won / played) * 100)} %` : dash,
        first(r.best_time_ms) != null ? formatTime(r.best_time_ms) : dash, first(r.fewest_moves, dash), first(r.clean_wins, 0)];
      for (const value of cells) {
        const cell = document.createElement("td");
        cell.textContent = String(value);
        row.append(cell);
      }
      body.append(row);
    }
    $("rules-section").hidden = !body.children.length;
  }
}

/** Chart.js (210 KB) is fetched only when there is something to draw; resolves to window.Chart or null. */
function chartLibrary(canvas) {
  if (window.Chart) return Promise.resolve(window.Chart);
  return new Promise((resolve) => {
    const script = Object.assign(document.createElement("script"), { src: canvas.dataset.library, async: true });
    script.onload = () => resolve(window.Chart || null);
    script.onerror = () => resolve(null);
    document.head.append(script);
  });
}

async function drawChart(points) {
  const canvas = $("history-chart");
  const sorted = points.filter((p) => p.when && p.moves > 0).sort((a, b) => String(a.when).localeCompare(String(b.when))).slice(-60);
  // The chart appears from the first finished game; before, a friendly word instead of an empty grid.
  if (!sorted.some((p) => p.won) || !(await chartLibrary(canvas))) {
    $("chart-empty").hidden = false;
    canvas.closest(".chart-box").hidden = true;
    return null;
  }
  const locale = lang === "en" ? "en-GB" : "de-DE";
  // Each game by its day and time of day (two lines), so that games of one day can be told apart.
  const labels = sorted.map((p) => {
    const when = new Date(p.when);
    return [when.toLocaleDateString(locale, { day: "numeric", month: "short" }), when.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" })];
  });
  const minutes = (p) => p.timeMs / 60000;
  // The time axis in whole steps (0:15, 0:30, 1:00, 2:00, 5:00 …), never "0.9"; a game left
  // unfinished for days reaches the top instead of flattening every other bar.
  const wonMax = Math.max(...sorted.filter((p) => p.won).map(minutes));
  const cut = Math.max(...sorted.map(minutes)) > 2 * wonMax;
  const span = cut ? 2 * wonMax : Math.max(...sorted.map(minutes));
  const step = [0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 240, 480].find((s) => span / s <= 6) ?? 960;
  const top = cut ? Math.ceil(span / step) * step : undefined;
  const clock = (value) => formatTime(Math.round(value * 60) * 1000);
  let wins = 0;
  const rate = sorted.map((p, i) => {
    wins += p.won ? 1 : 0;
    return Math.round((wins / (i + 1)) * 100);
  });
  const style = getComputedStyle(document.documentElement);
  const ink = style.getPropertyValue("--ink-soft").trim() || "#555";
  return new window.Chart(canvas, {
    data: {
      labels,
      datasets: [
        { type: "bar", label: t("stats.chart.won"), data: sorted.map((p) => (p.won ? minutes(p) : null)),
          backgroundColor: "#2f8f5b", borderRadius: 4, yAxisID: "y", order: 2 },
        { type: "bar", label: t("stats.chart.open"), data: sorted.map((p) => (p.won ? null : minutes(p))),
          backgroundColor: "#c9ced6", borderRadius: 4, yAxisID: "y", order: 3 },
        { type: "line", label: t("stats.winrate"), data: rate, borderColor: "#d9822b", backgroundColor: "#d9822b",
          tension: 0.3, pointRadius: 2, yAxisID: "rate", order: 1, clip: false },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: { duration: 400 },
      interaction: { mode: "index", intersect: false },
      scales: {
        x: { stacked: true, ticks: { color: ink, maxRotation: 0, autoSkip: true } },
        y: { stacked: true, beginAtZero: true, max: top, title: { display: true, text: t("stats.chart.time"), color: ink },
          ticks: { color: ink, stepSize: step, callback: clock } },
        rate: { position: "right", min: 0, max: 100, grid: { drawOnChartArea: false },
          ticks: { color: ink, callback: (v) => `${v} %` }, title: { display: true, text: t("stats.winrate"), color: ink } },
      },
      plugins: {
        legend: { labels: { color: ink, usePointStyle: true } },
        tooltip: {
          filter: (item) => item.raw != null,
          callbacks: {
            title: (items) => (items.length ? labels[items[0].dataIndex].join(" ") : ""),
            label: (item) => `${item.dataset.label}: ${item.dataset.yAxisID === "rate" ? `${item.raw} %` : clock(item.raw)}`,
          },
        },
      },
    },
  });
}

async function init() {
  const user = await initNav();
  const name = new URLSearchParams(location.search).get("user");
  const viewingOther = name && (!user || user.username !== name);
  $("stats-heading").textContent = viewingOther ? t("stats.of", { name }) : t("stats.title");
  let server = null;
  let note = "";
  try {
    server = viewingOther ? await statsApi.player(name) : user ? await statsApi.mine() : null;
  } catch (err) {
    if (viewingOther && err.status === 404) {
      // No such player: say only that (no tiles of zeros, no empty chart).
      $("stats-note").textContent = t("stats.notfound");
      $("stats-note").hidden = false;
      for (const id of ["stats-tiles", "chart-card", "rules-section"]) $(id).hidden = true;
      document.body.dataset.statsReady = "1";
      return;
    }
    if (err.status === 404) note = t("stats.unavailable");
  }
  if (!user && !viewingOther) note = t("stats.login");
  let points = [];
  if (server && Array.isArray(server.history)) points = server.history.map(point);
  else if (!viewingOther) points = (await ownGames()).map(point);
  const figures = server ? normalise(server) : summarise(points);
  if (note) {
    $("stats-note").textContent = note;
    $("stats-note").hidden = false;
  }
  if (!user && !viewingOther) $("stats-login").hidden = false;
  $("chart-empty").textContent = points.some((p) => p.moves > 0) ? t("stats.chart.empty") : t("stats.none");
  showFigures(figures);
  const chart = await drawChart(points);
  window.yukonChart = chart;
  document.body.dataset.statsReady = "1";
}

init();
