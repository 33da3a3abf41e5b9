// My games (/games?page=N): the player's unfinished and finished games, newest first (GET games,
// 20 a page). An unfinished one is resumed on the play page (/?game=<id>); a finished one is
// watched move by move (/replay/<id>) and its deal played again (/?code=…). Today's daily deal has
// no code here (it is secret until the day is over).
import { t, tn, formatTime, formatDate, lang } from "./i18n.js";
import "./strings.js";
import { games } from "./api.js";
import { initNav } from "./nav.js";

const $ = (id) => document.getElementById(id);
const PAGE_SIZE = 20;
const locale = lang === "en" ? "en-GB" : "de-DE";
const when = (iso) => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
const day = (iso) => new Intl.DateTimeFormat(locale, { dateStyle: "long" }).format(new Date(iso));

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function mark(text, kind) {
  return el("span", { className: `mark ${kind}`, textContent: text });
}

function row(game) {
  const item = el("li", { className: `game-row ${game.status}` });
  item.dataset.game = game.id;
  const started = when(game.created_at);
  const deal = game.code || (game.daily ? t("games.daily.today") : "–");
  const head = el("div", { className: "game-row-head" },
    el("span", { className: "game-row-deal", textContent: deal }),
    mark(t(`rule.${game.rule}`), "rule"),
    mark(t(game.status === "won" ? "games.won" : "games.playing"), game.status));
  if (game.daily) {
    head.append(mark(game.code ? t("games.daily", { date: formatDate(game.daily) }) : t("nav.daily"), "daily"));
    if (game.ranked) head.append(mark(t("games.ranked"), "ranked"));
    else if (game.closed) head.append(mark(t("games.closed"), "closed"));
    else head.append(mark(t("games.practice"), "practice"));
  }
  const figure = (label, value) => el("span", {}, `${label} `, el("b", { textContent: value }));
  const figures = el("p", { className: "game-row-figures" },
    figure(t("games.when"), started),
    figure(t("bar.moves"), String(game.moves)),
    figure(t("bar.score"), String(game.score)),
    figure(t("bar.time"), formatTime(game.elapsed_ms)));
  head.id = `game-${game.id}-head`;
  figures.id = `game-${game.id}-figures`;
  const text = el("div", {}, head, figures);
  if (game.removal_at) {
    // An unfinished practice game left alone for months is removed (docs/capacity.md): said beforehand.
    text.append(el("p", { className: "game-row-removal", textContent: t("games.removal", { date: day(game.removal_at) }) }));
  }
  const actions = [];
  // Named by its visible words (WCAG 2.5.3), described by the game's row: which deal, when.
  const described = (link) => {
    link.setAttribute("aria-describedby", `${head.id} ${figures.id}`);
    return link;
  };
  if (game.status === "playing") {
    actions.push(described(el("a", { className: "button primary", href: `/?game=${encodeURIComponent(game.id)}`, textContent: t("games.resume") })));
  } else {
    // A finished game: watch it move by move (also a daily deal of today: the replay keeps its secrets).
    actions.push(described(el("a", { className: "button primary game-replay", href: `/replay/${encodeURIComponent(game.id)}`, textContent: t("games.watch") })));
  }
  if (game.status !== "playing" && game.code) {
    actions.push(described(el("a", { className: "button ghost-dark", href: `/?code=${encodeURIComponent(game.code)}`, textContent: t("games.replay") })));
  }
  item.append(text);
  if (actions.length) item.append(el("div", { className: "game-row-actions" }, ...actions));
  return item;
}

async function show(page) {
  let data;
  try {
    data = await games.list(page, { size: PAGE_SIZE });
  } catch (err) {
    if (err.status === 404 && page > 1) return show(1); // past the end: the first page
    $("games-note").textContent = err.detail || t(err.status === 0 ? "error.network" : "error.generic");
    $("games-note").hidden = false;
    return;
  }
  const rows = data.results;
  $("games-list").replaceChildren(...rows.map(row));
  $("games-empty").hidden = rows.length > 0;
  $("games-count").textContent = data.count ? tn("games.count", data.count) : "";
  const pages = Math.max(1, Math.ceil(data.count / PAGE_SIZE));
  $("games-pager").hidden = pages <= 1;
  $("games-page").textContent = t("games.page", { page, pages });
  $("games-prev").disabled = !data.previous;
  $("games-next").disabled = !data.next;
  $("games-prev").onclick = () => go(page - 1);
  $("games-next").onclick = () => go(page + 1);
  document.body.dataset.gamesReady = "1";
}

function go(page) {
  history.pushState(null, "", page > 1 ? `?page=${page}` : location.pathname);
  show(page);
}

function current() {
  const page = Number(new URLSearchParams(location.search).get("page"));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

window.addEventListener("popstate", () => show(current()));
initNav().then((user) => {
  if (!user) {
    $("games-note").textContent = t("games.guest");
    $("games-note").hidden = false;
  }
});
show(current());
