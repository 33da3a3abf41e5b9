// The result to share (issue 19 item 2, issue 41 item 3): a spoiler-free line for a won ranked
// daily attempt,
//   Yukon #12 · 3:12 · 118 moves · top 12 %
// a strip of the foundations' progress over the game's five fifths, the daily streak it continues,
// and a link to the day's board. It never holds a card or a game code: only the deal's number (days
// since the first daily deal, docs/daily.md; the date where it has none), the player's own figures,
// the percentile and the streak (GET daily/<date>/standing) and how full the foundations were as the
// game went on, and for a member of a club the place in it ("3rd of 14 in Büro-Patience today":
// the club's board of the day, GET clubs/{slug}/daily/{date}; a select picks the club when there
// are several). The share box and the board explain the squares (_squares.html).
// Its texts are here (not in strings.js): the play page loads this module alone, after a win.
import { t, tn, addStrings, formatTime } from "./i18n.js";
import { currentUser, daily, games, social } from "./api.js";

const pgettext = globalThis.django?.pgettext ?? ((context, text) => text);

addStrings({
  "share.top": pgettext("share.top", "top {n} %"),
  "share.review": pgettext("share.review", "under review"),
  "share.review.pace": pgettext("share.review.pace", "under review (time check)"),
  "share.review.accounts": pgettext("share.review.accounts", "under review (account check)"),
  "share.review.play": pgettext("share.review.play", "under review (move check)"),
  "share.review.attempts": pgettext("share.review.attempts", "under review (attempt check)"),
  "share.copied": pgettext("share.copied", "Copied to the clipboard."),
  "share.copy.failed": pgettext("share.copy.failed", "Could not copy: select the text and copy it by hand."),
  "share.streak.one": pgettext("share.streak.one", "Streak: 1 day"),
  "share.streak.other": pgettext("share.streak.other", "Streak: {n} days"),
  "share.club": pgettext("share.club", "{place} of {n} in {club} today"),
  "share.club.none": pgettext("share.club.none", "No club"),
  "share.place.one": pgettext("share.place.one", "{n}st"),
  "share.place.two": pgettext("share.place.two", "{n}nd"),
  "share.place.few": pgettext("share.place.few", "{n}rd"),
  "share.place.other": pgettext("share.place.other", "{n}th"),
});

/** A place in words: "1st", "2nd", "3rd", "11th", "22nd" (in German "3." for every form). */
export function place(n) {
  const [ones, tens] = [n % 10, n % 100];
  const form = ones === 1 && tens !== 11 ? "one" : ones === 2 && tens !== 12 ? "two" : ones === 3 && tens !== 13 ? "few" : "other";
  return t(`share.place.${form}`, { n });
}

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

/** The text to share: "Yukon #12" (the deal's `number`; "Yukon · <date>" without one), the time,
 *  moves and top %, the strip, the `streak` (counted days in a row, this one the last) and the
 *  board's link; `club` ({name, rank, of}) adds the place among the club's results of the day.
 *  A result not on the board yet (`underReview`) says so, with no top % and no
 *  streak, and a held one which kind of check holds it (`heldFor`: the state's held_for). */
export function shareText({ date, number = null, timeMs, moves, fasterThan, strip, url, underReview = false, heldFor = null, streak = 0, club = null }) {
  const parts = [...(number != null ? [`Yukon #${number}`] : ["Yukon", date]), formatTime(timeMs), tn("moves", moves)];
  const top = underReview ? null : topPercent(fasterThan);
  if (underReview) parts.push(heldFor && heldFor.length ? heldFor.map((kind) => t(`share.review.${kind}`)).join(", ") : t("share.review"));
  else if (top != null) parts.push(t("share.top", { n: top }));
  const run = !underReview && streak > 0 ? tn("share.streak", streak) : "";
  const inClub = !underReview && club ? t("share.club", { place: place(club.rank), n: club.of, club: club.name }) : "";
  return [parts.join(" · "), inClub, strip, run, url].filter(Boolean).join("\n");
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
  let number = null;
  let streak = 0;
  let strip = "";
  try {
    if (standing === undefined) standing = await daily.standing(date);
    fasterThan = standing && standing.me ? standing.me.faster_than_percent : null;
    underReview = Boolean(standing && standing.me && !standing.me.counted);
    number = standing ? (standing.number ?? null) : null;
    streak = standing && standing.me ? standing.me.streak || 0 : 0;
  } catch (err) {
    /* without the standing: no percentile, the date instead of the number */
  }
  try {
    strip = progressStrip(await moveLog(gameId));
  } catch (err) {
    /* without the log: no strip */
  }
  const url = `${location.origin}/leaderboards?date=${date}`;
  const facts = { date, number, timeMs, moves, fasterThan, strip, url, underReview: underReview || Boolean(heldFor), heldFor, streak };
  for (const one of boxes) fill(one, shareText(facts));
  if (!facts.underReview) await clubChoice(boxes, facts);
}

/** The player's clubs as a choice in each box (the first is named in the text; "no club" is one of
 *  the options): nothing for a player in no club or who is not counted in the chosen club today. */
async function clubChoice(boxes, facts) {
  let clubs = [];
  try {
    clubs = (await currentUser()) ? await social.clubs() : [];
  } catch (err) {
    return; // the text without a club
  }
  if (!clubs.length) return;
  const placeIn = async (slug) => {
    const found = clubs.find((club) => club.slug === slug);
    if (!found) return null;
    try {
      const board = await social.clubDay(slug, facts.date);
      const me = board.entries.find((entry) => entry.me);
      return me ? { name: board.club, rank: me.rank, of: board.entries.length } : null;
    } catch (err) {
      return null;
    }
  };
  const show = async (slug) => {
    const text = shareText({ ...facts, club: await placeIn(slug) });
    for (const one of boxes) {
      fill(one, text);
      const select = one.querySelector("[data-share-club] select");
      if (select) select.value = slug;
    }
  };
  for (const one of boxes) {
    const choice = one.querySelector("[data-share-club]");
    if (!choice) continue;
    const select = choice.querySelector("select");
    select.replaceChildren(
      ...clubs.map((club) => new Option(club.name, club.slug)),
      new Option(t("share.club.none"), ""),
    );
    select.onchange = () => show(select.value);
    choice.hidden = false;
  }
  await show(clubs[0].slug);
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
