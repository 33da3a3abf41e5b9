// Statistics (/stats, /stats?user=name): the figures of me/stats (a guest's too: the games of
// this browser) or players/{name}/stats, as the server counts them, and a chart of times and
// results over time.
import { t, formatTime, formatNumber, lang } from "./i18n.js";
import "./strings.js";
import { stats as statsApi } from "./api.js";
import { initNav } from "./nav.js";
import { historyPoints, renderTiles, timeAxis } from "./figures.js";

const $ = (id) => document.getElementById(id);
const DASH = "–";

/** The table by rule, once there is something to tell apart (a game played). */
function showRules({ overall, rules }) {
  const body = $("rules-body");
  body.replaceChildren();
  for (const [rule, r] of Object.entries(rules)) {
    const row = document.createElement("tr");
    const cells = [
      t(`rule.${rule}`),
      formatNumber(r.played),
      formatNumber(r.won),
      r.played ? `${formatNumber(r.win_rate * 100)} %` : DASH,
      r.best_time_ms != null ? formatTime(r.best_time_ms) : DASH,
      r.fewest_moves != null ? formatNumber(r.fewest_moves) : DASH,
      formatNumber(r.clean_wins),
    ];
    for (const value of cells) {
      const cell = document.createElement("td");
      cell.textContent = value;
      row.append(cell);
    }
    body.append(row);
  }
  $("rules-section").hidden = overall.played === 0;
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
  const sorted = [...points].sort((a, b) => String(a.when).localeCompare(String(b.when))).slice(-60);
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
  const { step, top } = timeAxis(sorted.map(minutes), sorted.map((p) => p.won));
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
        // A game left open longer than the axis stands to its top, with a dark edge that says it
        // goes on (its tooltip names its whole time), rather than ending at the axis as if cut off.
        { type: "bar", label: t("stats.chart.open"), data: sorted.map((p) => (p.won ? null : top != null ? Math.min(minutes(p), top) : minutes(p))),
          backgroundColor: "#c9ced6", borderRadius: 4, yAxisID: "y", order: 3,
          borderColor: "#5b6470", borderSkipped: "bottom",
          borderWidth: (ctx) => (top != null && !sorted[ctx.dataIndex].won && minutes(sorted[ctx.dataIndex]) > top ? { top: 4, left: 0, right: 0, bottom: 0 } : 0) },
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
            label: (item) => {
              if (item.dataset.yAxisID === "rate") return `${item.dataset.label}: ${item.raw} %`;
              const whole = minutes(sorted[item.dataIndex]);
              return `${item.dataset.label}: ${clock(whole)}${whole > item.raw ? ` (${t("stats.chart.beyond")})` : ""}`;
            },
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
  let server;
  try {
    server = viewingOther ? await statsApi.player(name) : await statsApi.mine();
  } catch (err) {
    // No such player: say only that (no tiles of zeros, no empty chart); any other failure too.
    $("stats-note").textContent = viewingOther && err.status === 404 ? t("stats.notfound") : err.detail || t("error.generic");
    $("stats-note").hidden = false;
    for (const id of ["stats-tiles", "chart-card", "rules-section"]) $(id).hidden = true;
    document.body.dataset.statsReady = "1";
    return;
  }
  if (!user && !viewingOther) {
    $("stats-note").textContent = t("stats.login");
    $("stats-note").hidden = false;
    $("stats-login").hidden = false;
  }
  const points = historyPoints(server.history);
  $("chart-empty").textContent = points.length ? t("stats.chart.empty") : t("stats.none");
  renderTiles($("stats-tiles"), server);
  showRules(server);
  window.yukonChart = await drawChart(points);
  document.body.dataset.statsReady = "1";
}

init();
