// Where you stand on a day's deal (issue 19 item 1): GET daily/<date>/standing drawn as two small
// histograms (time, moves) of the day's counted results, the player's own bar marked, "faster
// than N % of players" with its ties explained, and the live "N started · M won". Drawn with CSS
// bars (no chart library: the play page loads this module only after a ranked daily win). What
// the bars show is also in a visually hidden table for screen readers; the mark is a bar with a
// pattern and the word "You" over it, not a colour alone.
import { t, tn, addStrings, formatNumber, formatTime } from "./i18n.js";
import { daily } from "./api.js";
import { CONFIG } from "./config.js";

const pgettext = globalThis.django?.pgettext ?? ((context, text) => text);

addStrings({
  "standing.live": pgettext("standing.live", "{started} started · {won} won"),
  "standing.live.over": pgettext("standing.live.over", "{started} played · {won} won"),
  "standing.me": pgettext("standing.me", "You: {time}, faster than {n} % of players"),
  "standing.me.alone": pgettext("standing.me.alone", "You: {time} – nobody else on the board to compare with yet"),
  "standing.me.review": pgettext("standing.me.review", "You: {time} – under review: it is compared with the others once staff have checked it."),
  "standing.review.one": pgettext("standing.review.one", "1 more under review"),
  "standing.review.other": pgettext("standing.review.other", "{n} more under review"),
  "standing.you.value": pgettext("standing.you.value", "(you: {value})"),
  "standing.ties.one": pgettext("standing.ties.one", "1 other player had the same time; a tie does not count as beaten."),
  "standing.ties.other": pgettext("standing.ties.other", "{n} other players had the same time; a tie does not count as beaten."),
  "standing.none": pgettext("standing.none", "Nobody won this deal."),
  "standing.you": pgettext("standing.you", "You"),
  "standing.bar": pgettext("standing.bar", "{range}: {players}"),
  "standing.players.one": pgettext("standing.players.one", "1 player"),
  "standing.players.other": pgettext("standing.players.other", "{n} players"),
  "standing.newcomer": pgettext("standing.newcomer", "Your win is not on the public board yet: the results of a new account count there once it has played on an earlier day. It would be in place {rank}; it counts for your bests, your streak, your friends and your clubs."),
  "standing.newcomer.next": pgettext("standing.newcomer.next", "Your results count there from the next day you play on."),
  "standing.newcomer.more.one": pgettext("standing.newcomer.more.one", "Your results count there once you have played on 1 more day."),
  "standing.newcomer.more.other": pgettext("standing.newcomer.more.other", "Your results count there once you have played on {n} more days."),
});

/** A newcomer's own line of a board (`public: false`, docs/daily.md "Who is on the public board"):
 *  not counted publicly yet, the place it would have, and when its results will count there. */
export function newcomerText(me) {
  const when = me.public_in_days ? tn("standing.newcomer.more", me.public_in_days) : t("standing.newcomer.next");
  return `${t("standing.newcomer", { rank: me.rank })} ${when}`;
}

/** The live counts: "12 started · 5 won" (during the day), "12 played · 5 won" once it is over,
 *  and the wins not on the board yet: "· 1 more under review". */
export function liveCounts(standing) {
  const figures = { started: formatNumber(standing.started), won: formatNumber(standing.won) };
  const counts = t(standing.over ? "standing.live.over" : "standing.live", figures);
  return standing.under_review ? `${counts} · ${tn("standing.review", standing.under_review)}` : counts;
}

/** "You: 3:12, faster than 88 % of players" (or alone on the board); a result under review is
 *  compared with nobody. */
export function percentileText(me) {
  if (!me.counted) return t("standing.me.review", { time: formatTime(me.time_ms) });
  if (me.faster_than_percent == null) return t("standing.me.alone", { time: formatTime(me.time_ms) });
  return t("standing.me", { time: formatTime(me.time_ms), n: me.faster_than_percent });
}

/** The ties explained, or "" without any. */
export function tiesText(me) {
  return me.tied ? tn("standing.ties", me.tied) : "";
}

const RANGE = {
  time: (bar) => (bar.high == null ? `${formatTime(bar.low)}+` : `${formatTime(bar.low)}–${formatTime(bar.high)}`),
  moves: (bar) => (bar.high == null ? `${bar.low}+` : `${bar.low}–${bar.high - 1}`),
};

const WIDTH = CONFIG.bar_widths; // the server's bars (stats/standing.py BARS): {time: ms, moves}
const MIN_BARS = 12;
const MAX_BARS = 32; // a few very slow results would squeeze the rest into a corner: they share the last bar

/** A few empty bars on either side of a narrow histogram (one player: one bar), for a scale. */
export function padded(bars, width, min = MIN_BARS) {
  const out = bars.slice();
  if (!out.length) return out;
  for (let side = 0; out.length < min; side++) {
    const first = out[0];
    const last = out[out.length - 1];
    const canLeft = first.low >= width;
    const canRight = last.high != null;
    if (!canLeft && !canRight) break;
    if ((side % 2 === 0 && canLeft) || !canRight) out.unshift({ low: first.low - width, high: first.low, count: 0 });
    else out.push({ low: last.high, high: last.high + width, count: 0 });
  }
  return out;
}

/** At most `max` bars: those past it go together into an open-ended last one ("24:00+"). */
export function capped(bars, max = MAX_BARS) {
  if (bars.length <= max) return bars;
  const tail = bars.slice(max - 1);
  const last = { low: tail[0].low, high: null, count: tail.reduce((sum, bar) => sum + bar.count, 0) };
  return [...bars.slice(0, max - 1), last];
}

const holds = (bar, value) => value >= bar.low && (bar.high == null || value < bar.high);

/** One histogram into its figure ([data-histogram]): the bars, their two ends, the table. The
 *  player's own result is the hatched top part of its bar (one player's share of its height): the
 *  others in that bar stay visible. */
function drawHistogram(figure, kind, given, mine, yours) {
  const range = RANGE[kind];
  const bars = capped(padded(given, WIDTH[kind]));
  const top = Math.max(1, ...bars.map((bar) => bar.count));
  const marked = mine == null ? -1 : bars.findIndex((bar) => holds(bar, mine));
  const row = figure.querySelector("[data-bars]");
  row.replaceChildren(
    ...bars.map((bar, i) => {
      const el = document.createElement("span");
      el.className = "bar";
      el.style.setProperty("--h", `${bar.count ? Math.max(4, (100 * bar.count) / top) : 0}%`);
      el.title = t("standing.bar", { range: range(bar), players: tn("standing.players", bar.count) });
      if (i === marked) {
        el.classList.add("mine");
        const own = document.createElement("span");
        own.className = "bar-own";
        own.style.setProperty("--own", `${100 / Math.max(1, bar.count)}%`);
        el.append(own);
        const you = document.createElement("span");
        you.className = i < bars.length / 6 ? "bar-you start" : i >= (bars.length * 5) / 6 ? "bar-you end" : "bar-you";
        you.textContent = t("standing.you");
        el.append(you);
      }
      return el;
    }),
  );
  const ends = figure.querySelector("[data-ends]");
  const value = kind === "time" ? formatTime : String;
  const last = bars[bars.length - 1];
  const endTexts = bars.length ? [value(bars[0].low), last.high == null ? `${value(last.low)}+` : value(last.high)] : [];
  ends.replaceChildren(...endTexts.map((text) => Object.assign(document.createElement("span"), { textContent: text })));
  // For screen readers: the bars with a result, and the player's.
  figure.querySelector("[data-table] tbody").replaceChildren(
    ...bars
      .map((bar, i) => ({ bar, i }))
      .filter(({ bar, i }) => bar.count || i === marked)
      .map(({ bar, i }) => {
        const tr = document.createElement("tr");
        const th = Object.assign(document.createElement("th"), { scope: "row", textContent: range(bar) });
        const td = Object.assign(document.createElement("td"), { textContent: formatNumber(bar.count) });
        const you = Object.assign(document.createElement("td"), { textContent: i === marked ? t("standing.you") : "" });
        tr.append(th, td, you);
        return tr;
      }),
  );
  figure.querySelector("[data-you]").textContent = mine == null ? "" : t("standing.you.value", { value: yours });
  figure.hidden = !bars.length;
}

/** Fill the standing block `box` ([data-standing]) from a GET daily/<date>/standing answer. */
export function renderStanding(box, standing) {
  if (!box) return;
  const counts = box.querySelector("[data-standing-live]");
  if (counts) counts.textContent = liveCounts(standing);
  const me = standing.me;
  const say = (selector, text) => {
    const el = box.querySelector(selector);
    el.textContent = text || "";
    el.hidden = !text;
  };
  say("[data-standing-me]", me ? percentileText(me) : standing.visible && !standing.won ? t("standing.none") : "");
  say("[data-standing-ties]", me && me.counted ? tiesText(me) : "");
  const mark = me && me.counted ? me : null; // a result under review is not placed among the others
  const charts = box.querySelector("[data-standing-charts]");
  charts.hidden = !standing.visible || !standing.won;
  if (!charts.hidden) {
    const time = box.querySelector('[data-histogram="time"]');
    const moves = box.querySelector('[data-histogram="moves"]');
    drawHistogram(time, "time", standing.time_histogram || [], mark && mark.time_ms, mark && formatTime(mark.time_ms));
    drawHistogram(moves, "moves", standing.moves_histogram || [], mark && mark.moves, mark && tn("moves", mark.moves));
  }
  box.hidden = !standing.visible;
  return standing;
}

/** Ask for `date`'s standing and draw it into `box`; resolves to the answer (null if none came). */
export async function showStanding(box, date) {
  let standing;
  try {
    standing = await daily.standing(date);
  } catch (err) {
    return null;
  }
  renderStanding(box, standing);
  return standing;
}

/** `date`'s standing once the board shows what the review of the caller's won ranked attempt
 *  decided (on the board, or held, rejected, invalid off it): a ranked win is checked and put on
 *  the board by background tasks, and while they run the answer says when to ask again
 *  (`me.board` "pending", `me.retry_after_ms`; none: the page stops waiting). Null if none came. */
export async function settledStanding(date) {
  for (;;) {
    let found;
    try {
      found = await daily.standing(date);
    } catch (err) {
      return null;
    }
    const me = found.me;
    if (!me || me.board === "ready" || me.retry_after_ms == null) return found;
    await new Promise((resolve) => setTimeout(resolve, me.retry_after_ms));
  }
}
