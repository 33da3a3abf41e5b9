// The result to share (issue 19 item 2): a spoiler-free line for a won ranked daily attempt,
//   Yukon · 2026-12-01 · 3:12 · 118 moves · top 12 %
// a strip of the foundations' progress over the game's five fifths and a link to the day's board.
// It never holds a card, a game code or a deal number: only the date, the player's own figures,
// the percentile (GET daily/<date>/standing) and how full the foundations were as the game went on.
// Its texts are here (not in strings.js): the play page loads this module alone, after a win.
import { t, tn, addStrings, formatTime } from "./i18n.js";
import { daily, games } from "./api.js";

const pgettext = globalThis.django?.pgettext ?? ((context, text) => text);

addStrings({
  "share.top": pgettext("share.top", "top {n} %"),
  "share.review": pgettext("share.review", "under review"),
  "share.review.pace": pgettext("share.review.pace", "under review (time check)"),
  "share.review.accounts": pgettext("share.review.accounts", "under review (account check)"),
  "share.review.play": pgettext("share.review.play", "under review (move check)"),
  "share.copied": pgettext("share.copied", "Copied to the clipboard."),
  "share.copy.failed": pgettext("share.copy.failed", "Could not copy: select the text and copy it by hand."),
});

const FIFTHS = 5;
// Cards on the foundations at the end of each fifth of the game: ⬜ under 13, then 🟨 🟧 🟦, 🟩 all 52.
const SQUARES = ["\u2B1C", "\u{1F7E8}", "\u{1F7E7}", "\u{1F7E6}", "\u{1F7E9}"];

/** The cards on the foundations after each logged move (GET games/{id}/moves: a move's `from` and
 *  `to` as in a move's body, both null for an undo). */
export function foundationCounts(log) {
  const counts = [];
  const done = []; // each move's change of the foundations, for the undos
  let cards = 0;
  for (const entry of log) {
    if (entry.to === null) cards -= done.pop() || 0;
    else {
      const change = (entry.to === "f" ? 1 : 0) - (entry.from[0] === "f" ? 1 : 0);
      done.push(change);
      cards += change;
    }
    counts.push(cards);
  }
  return counts;
}

/** Five squares: how full the foundations were at the end of each fifth of the game. */
export function progressStrip(log) {
  const counts = foundationCounts(log);
  if (!counts.length) return "";
  let strip = "";
  for (let fifth = 1; fifth <= FIFTHS; fifth++) {
    const cards = counts[Math.ceil((counts.length * fifth) / FIFTHS) - 1] ?? 0;
    strip += SQUARES[cards >= 52 ? 4 : Math.min(3, Math.floor(cards / 13))];
  }
  return strip;
}

/** "top N %" from "faster than F %": the share of players at least as fast (1 at best). */
export function topPercent(fasterThan) {
  return fasterThan == null ? null : Math.max(1, 100 - fasterThan);
}

/** The text to share; a result not on the board yet (`underReview`) says so and no top %, and a
 *  held one which kind of check holds it (`heldFor`: the state's held_for). */
export function shareText({ date, timeMs, moves, fasterThan, strip, url, underReview = false, heldFor = null }) {
  const parts = ["Yukon", date, formatTime(timeMs), tn("moves", moves)];
  const top = underReview ? null : topPercent(fasterThan);
  if (underReview) parts.push(heldFor && heldFor.length ? heldFor.map((kind) => t(`share.review.${kind}`)).join(", ") : t("share.review"));
  else if (top != null) parts.push(t("share.top", { n: top }));
  return [parts.join(" · "), strip, url].filter(Boolean).join("\n");
}

async function moveLog(gameId) {
  const log = [];
  for (let page = 1; ; page++) {
    const data = await games.moves(gameId, page);
    log.push(...data.results);
    if (!data.next) return log;
  }
}

/** Fill the share box `box` (a [data-share] block, or a list of them) for the won ranked attempt
 *  `gameId` of `date`; `standing` is the day's GET daily/<date>/standing if the caller has it
 *  (else it is asked for). */
export async function showShare(box, { gameId, date, timeMs, moves, standing = undefined, heldFor = null }) {
  const boxes = [].concat(box).filter(Boolean);
  if (!boxes.length || timeMs == null) return;
  let fasterThan = null;
  let underReview = false;
  let strip = "";
  try {
    if (standing === undefined) standing = await daily.standing(date);
    fasterThan = standing && standing.me ? standing.me.faster_than_percent : null;
    underReview = Boolean(standing && standing.me && !standing.me.counted);
  } catch (err) {
    /* without the standing: no percentile */
  }
  try {
    strip = progressStrip(await moveLog(gameId));
  } catch (err) {
    /* without the log: no strip */
  }
  const url = `${location.origin}/leaderboards?date=${date}`;
  const text = shareText({ date, timeMs, moves, fasterThan, strip, url, underReview: underReview || Boolean(heldFor), heldFor });
  for (const one of boxes) fill(one, text);
}

/** Put `text` in the share box `box` with its copy and share buttons (the challenge of a practice
 *  win uses it too: win.js). */
export function fill(box, text) {
  box.querySelector("[data-share-text]").textContent = text;
  const done = box.querySelector("[data-share-done]");
  const say = (message) => {
    done.textContent = message;
    done.hidden = !message;
  };
  say("");
  box.querySelector("[data-share-copy]").onclick = async () => {
    try {
      await navigator.clipboard.writeText(text);
      say(t("share.copied"));
    } catch (err) {
      say(t("share.copy.failed"));
    }
  };
  const native = box.querySelector("[data-share-native]");
  native.hidden = typeof navigator.share !== "function";
  native.onclick = async () => {
    try {
      await navigator.share({ title: "Yukon", text });
    } catch (err) {
      /* cancelled */
    }
  };
  box.hidden = false;
}
