// Leaderboards (/leaderboards?date=YYYY-MM-DD): the daily deal's ranked, won attempts; once a day
// is over its top 10 link their replays.
import { t, tn, formatDate, formatTime } from "./i18n.js";
import "./strings.js";
import { daily } from "./api.js";
import { initNav, playerName, verifiedMark } from "./nav.js";
import { liveCounts, newcomerText } from "./standing.js";

const $ = (id) => document.getElementById(id);
initNav();

const todayUtc = () => new Date().toISOString().slice(0, 10);
const input = $("lb-date");
const asked = new URLSearchParams(location.search).get("date");

/** Whether ``text`` is a day of the calendar written YYYY-MM-DD (2026-13-45 is not). */
function isDay(text) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

input.value = asked && isDay(asked) ? asked : todayUtc();
input.max = todayUtc();
if (asked && !isDay(asked)) {
  // An address with a date that is none: say so and show today's board (under today's address).
  $("lb-bad-date").textContent = t("lb.baddate", { date: asked.slice(0, 40) });
  $("lb-bad-date").hidden = false;
  history.replaceState(null, "", location.pathname);
}

function message(text) {
  $("lb-message").textContent = text;
  $("lb-message").hidden = !text;
}

let retryTimer = 0;

/** During the day, over the board: live, how many started today's deal, how many won it and how
 *  many wins are under review; on any day, a player whose own win is under review hears so (it
 *  is not on the board). */
async function live(date) {
  const line = $("lb-live");
  const review = $("lb-review");
  line.hidden = true;
  review.hidden = true;
  let standing;
  try {
    standing = await daily.standing(date);
  } catch (err) {
    return; /* no counts: the board says how many played */
  }
  if (input.value !== date) return;
  line.textContent = liveCounts(standing);
  line.hidden = standing.over || date !== todayUtc();
  const me = standing.me;
  if (me && !me.counted && me.attempt.shareable && !me.attempt.counts) {
    review.textContent = t("lb.review.mine", { time: formatTime(me.time_ms), moves: tn("movesWith", me.moves) });
    review.hidden = false;
  }
}

/** One line of the board: the player's name (their statistics) with a check mark if the server
 *  replayed the win, and for a past day's top 10 a link to watch the game (`replay`: its id). */
function line(entry) {
  const row = document.createElement("tr");
  if (entry.rank <= 3) row.className = `podium rank-${entry.rank}`;
  const cell = (tag, text) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = String(text);
    return node;
  };
  const name = cell("th");
  name.scope = "row";
  name.append(playerName(entry.username));
  if (entry.verified) name.append(" ", verifiedMark());
  const watch = cell("td");
  watch.className = "lb-replay";
  if (entry.replay) {
    const replay = document.createElement("a");
    replay.href = `/replay/${encodeURIComponent(entry.replay)}`;
    const icon = document.createElement("span");
    icon.setAttribute("aria-hidden", "true");
    icon.className = "lb-replay-icon";
    icon.textContent = "\u25B6";
    const word = document.createElement("span");
    word.className = "lb-replay-word";
    word.textContent = t("lb.replay");
    replay.append(icon, word);
    const player = entry.username ?? t("lb.deleted");
    replay.title = t("lb.replay.label", { player });
    replay.setAttribute("aria-label", t("lb.replay.label", { player }));
    watch.append(replay);
  }
  const score = cell("td", entry.score);
  score.className = "lb-score";
  row.append(cell("td", entry.rank), name, cell("td", formatTime(entry.time_ms)), cell("td", entry.moves), score, watch);
  return row;
}

async function show(date, { first = false } = {}) {
  clearTimeout(retryTimer);
  if (!first) $("lb-bad-date").hidden = true;
  $("lb-next").disabled = date >= todayUtc(); // no board for a day that has not come
  $("lb-heading").textContent = formatDate(date);
  $("lb-number").textContent = "";
  $("lb-players").textContent = "";
  $("lb-par").textContent = "";
  $("lb-review").hidden = true;
  $("lb-newcomer").hidden = true;
  const body = $("lb-body");
  body.replaceChildren();
  $("lb-table").hidden = true;
  $("lb-legend").hidden = true;
  message(t("loading"));
  let board;
  try {
    board = await daily.leaderboard(date);
  } catch (err) {
    if (err.status === 503 && err.code === "daily_not_ready") {
      // Today's deal is still being prepared: say so and ask again after Retry-After.
      message(t("daily.preparing"));
      const seconds = Math.min(Math.max(err.retryAfter ?? 5, 1), 300);
      retryTimer = setTimeout(() => { if (input.value === date) show(date); }, seconds * 1000);
      return;
    }
    // 404: that day had no daily deal (a past day will never have one).
    message(err.status === 404 ? t(date < todayUtc() ? "lb.noday" : "lb.unavailable") : err.detail || t("error.generic"));
    return;
  }
  live(date);
  const entries = board.entries;
  if (board.number != null) $("lb-number").textContent = `Yukon #${board.number} · `;
  $("lb-players").textContent = ` · ${tn("lb.players", board.players)}`;
  if (board.par != null) $("lb-par").textContent = ` · ${t("lb.par", { moves: tn("moves", board.par) })}`;
  if (board.me && board.me.public === false) {
    $("lb-newcomer").textContent = newcomerText(board.me);
    $("lb-newcomer").hidden = false;
  }
  if (!entries.length) {
    message(t("lb.empty"));
    return;
  }
  message("");
  for (const entry of entries) body.append(line(entry));
  $("lb-table").hidden = false;
  $("lb-legend").hidden = false;
}

$("lb-form").addEventListener("submit", (event) => {
  event.preventDefault();
  history.replaceState(null, "", `?date=${input.value}`);
  show(input.value);
});
input.addEventListener("change", () => {
  if (!input.value) return;
  history.replaceState(null, "", `?date=${input.value}`);
  show(input.value);
});
for (const button of document.querySelectorAll("[data-shift]")) {
  button.addEventListener("click", () => {
    const d = new Date(`${input.value}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + Number(button.dataset.shift));
    const next = d.toISOString().slice(0, 10);
    if (next > todayUtc()) return;
    input.value = next;
    history.replaceState(null, "", `?date=${next}`);
    show(next);
  });
}
show(input.value, { first: true });
