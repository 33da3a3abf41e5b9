// The archive (/archive?page=N): the past daily deals, newest first (GET daily/archive, 20 a page),
// each with its players, winners, winning time and par, the player's own result and rank, a link
// to its board and one to play the deal again as practice (/?code=…: unranked, guests too).
import { t, tn, cardName, rankLabel, formatDate, formatTime, lang } from "./i18n.js";
import "./strings.js";
import { daily } from "./api.js";
import { initNav } from "./nav.js";

const $ = (id) => document.getElementById(id);
const PAGE_SIZE = 20;
const userReady = initNav();
const shortDate = (iso) =>
  new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "de-DE", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${iso}T00:00:00Z`));

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function message(text) {
  $("archive-message").textContent = text || "";
}

/** The player's own result of the day: won (time, moves), under review, day over, or nothing. */
function mine(me) {
  if (!me) return t("archive.mine.none");
  if (me.status === "closed") return t("games.closed");
  if (me.status !== "won") return t("games.playing");
  const figures = me.time_ms != null ? `${formatTime(me.time_ms)} · ${tn("moves", me.moves)}` : tn("moves", me.moves);
  if (me.attempt.state === "held") return `${figures} (${t("archive.review.held")})`;
  if (!me.attempt.shareable) return `${figures} (${t("archive.review.rejected")})`; // rejected or invalid
  return figures;
}

/** The par: one deal's solution length, or the range of the day's arrangements ("92–100 moves"). */
function par(day) {
  if (day.par_low != null && day.par_high != null && day.par_low !== day.par_high) return tn("moves", day.par_high).replace(String(day.par_high), `${day.par_low}–${day.par_high}`);
  return day.par != null ? tn("moves", day.par) : "–";
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** The day's opening, folded: seven small columns of the face-up cards everyone was dealt. */
function opening(day) {
  const columns = day.opening.map((column) =>
    el(
      "ol",
      {},
      ...column.map((card) =>
        card === "XX"
          ? el("li", { className: "down", title: cardName(card) })
          : el("li", { className: card[1] === "H" || card[1] === "D" ? "red" : "", title: cardName(card), textContent: `${rankLabel(card)}${SUITS[card[1]]}` }),
      ),
    ),
  );
  const grid = el("div", { className: "mini-opening" }, ...columns);
  grid.setAttribute("role", "img");
  grid.setAttribute("aria-label", t("archive.opening.label", { date: formatDate(day.date) }));
  return el("details", { className: "archive-opening" }, el("summary", { textContent: t("archive.opening") }), grid);
}

function row(day, { account }) {
  const item = el("tr");
  item.dataset.date = day.date;
  if (day.me && day.me.rank) item.classList.add("mine");
  const date = el("th", { scope: "row" }, el("a", { href: `/leaderboards?date=${day.date}`, textContent: shortDate(day.date) }));
  if (day.arrangements > 1) date.append(el("small", { className: "muted archive-arrangements", textContent: tn("archive.arrangements", day.arrangements) }));
  if (day.opening) date.append(opening(day));
  const cell = (label, text) => {
    const td = el("td", { textContent: text });
    td.dataset.label = label;
    return td;
  };
  item.append(
    date,
    cell(t("archive.players"), String(day.players)),
    cell(t("archive.winners"), String(day.winners)),
    cell(t("archive.best"), day.winning_time_ms != null ? formatTime(day.winning_time_ms) : "–"),
    cell(t("archive.par"), par(day)),
  );
  if (account) {
    item.append(
      Object.assign(cell(t("archive.mine"), mine(day.me)), { className: "archive-mine" }),
      cell(t("archive.rank"), day.me && day.me.rank ? String(day.me.rank) : "–"),
    );
  }
  const board = el("a", { className: "button ghost-dark archive-board", href: `/leaderboards?date=${day.date}`, textContent: t("archive.board") });
  board.setAttribute("aria-label", t("archive.board.label", { date: formatDate(day.date) }));
  const play = el("a", { className: "button primary archive-play", href: `/?code=${encodeURIComponent(day.code)}`, textContent: t("archive.play") });
  play.setAttribute("aria-label", t("archive.play.label", { date: formatDate(day.date) }));
  play.title = day.arrangements > 1 && account ? t("archive.play.own") : t("archive.play.title");
  item.append(el("td", { className: "archive-links" }, board, play));
  return item;
}

async function show(page) {
  const account = Boolean(await userReady);
  $("archive-mine-head").hidden = !account;
  $("archive-rank-head").hidden = !account;
  message(t("loading"));
  let data;
  try {
    data = await daily.archive(page, { size: PAGE_SIZE });
  } catch (err) {
    if (err.status === 404 && page > 1) return go(1, { replace: true }); // past the end: the first page
    message(err.detail || t(err.status === 0 ? "error.network" : "error.generic"));
    return;
  }
  const days = data.results;
  $("archive-body").replaceChildren(...days.map((day) => row(day, { account })));
  $("archive-table").hidden = !days.length;
  message(days.length ? "" : t("archive.empty"));
  $("archive-count").textContent = data.count ? tn("archive.count", data.count) : "";
  const pages = Math.max(1, Math.ceil(data.count / PAGE_SIZE));
  $("archive-pager").hidden = pages <= 1;
  $("archive-page").textContent = t("games.page", { page, pages });
  $("archive-prev").disabled = !data.previous;
  $("archive-next").disabled = !data.next;
  $("archive-prev").onclick = () => go(page - 1);
  $("archive-next").onclick = () => go(page + 1);
  document.body.dataset.archiveReady = String(page);
}

function go(page, { replace = false } = {}) {
  const url = page > 1 ? `?page=${page}` : location.pathname;
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  show(page);
}

function current() {
  const page = Number(new URLSearchParams(location.search).get("page"));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

window.addEventListener("popstate", () => show(current()));
show(current());
