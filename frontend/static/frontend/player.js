// A player's public profile (/players/<name>): member since, the figures' tiles (those of the
// statistics page: figures.js), personal bests per rule and the last daily results with their
// ranks, from GET players/{name}/stats.
import { t, formatDate, formatNumber, formatTime } from "./i18n.js";
import "./strings.js";
import "./social_strings.js";
import { currentUser, social, stats } from "./api.js";
import { initNav } from "./nav.js";
import { renderTiles } from "./figures.js";

const $ = (id) => document.getElementById(id);
const dash = "–";
initNav();

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
  renderTiles($("player-tiles"), s);
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

function showFollow(state, user) {
  const button = $("follow");
  $("followers").textContent =
    state.followers === 1 ? t("follow.followers.one") : t("follow.followers.other", { n: formatNumber(state.followers) });
  const self = user && user.username.toLowerCase() === state.username.toLowerCase();
  button.hidden = !user || self;
  $("follow-login").hidden = Boolean(user);
  $("follow-login").textContent = t("follow.login");
  button.textContent = state.following ? t("follow.unfollow") : t("follow.follow");
  button.setAttribute("aria-pressed", String(state.following));
  button.classList.toggle("primary", !state.following);
  button.classList.toggle("ghost-dark", state.following);
  if (state.following) button.setAttribute("aria-label", t("follow.unfollow.label", { name: state.username }));
  else button.removeAttribute("aria-label");
}

async function initFollow(name) {
  const [state, user] = await Promise.all([social.followState(name), currentUser()]);
  showFollow(state, user);
  $("follow").addEventListener("click", async () => {
    const button = $("follow");
    button.disabled = true;
    try {
      const following = button.getAttribute("aria-pressed") === "true";
      showFollow(await (following ? social.unfollow(name) : social.follow(name)), user);
    } catch (err) {
      $("player-note").textContent = err.detail || t("error.generic");
      $("player-note").hidden = false;
    } finally {
      button.disabled = false;
    }
  });
}

async function init() {
  const since = $("player-since");
  if (!since) return; // no such player: the page says so by itself
  initFollow(since.dataset.player).catch(() => {});
  try {
    show(await stats.player(since.dataset.player));
  } catch (err) {
    if (err.code === "profile_hidden") {
      // A private profile reads as private, not as empty tables.
      $("player-figures").hidden = true;
      $("player-private").hidden = false;
    } else {
      $("player-note").textContent = err.status === 404 ? t("stats.notfound") : err.detail || t("error.generic");
      $("player-note").hidden = false;
    }
  }
  document.body.dataset.playerReady = "1";
}

init();
