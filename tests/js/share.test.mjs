// The share text of a won ranked daily attempt (frontend/static/frontend/share.js): how full the
// foundations were at each fifth of the move log, and the top %; never a card or a code.
import assert from "node:assert/strict";
import test from "node:test";

import { foundationCounts, place, progressStrip, shareText, topPercent } from "../../frontend/static/frontend/share.js";

// Log entries as GET games/{id}/moves sends them: the move's fields beside its text (null for an undo).
const UNDO = { move: "undo", from: null, card: null, to: null };
const move = (from, to, card = null) => ({ move: `${from}${card ? `:${card}` : ""}>${to}`, from, card, to });
const log = (...entries) => entries.map((entry, i) => ({ seq: i + 1, ...entry }));

test("a card onto a foundation counts one, a take-back takes one off, an undo reverses the move it undoes", () => {
  const counts = foundationCounts(log(move("t1", "f"), move("t3", "t5", "7H"), move("t2", "f"), move("fS", "t4"), UNDO, UNDO, move("t6", "f")));
  assert.deepEqual(counts, [1, 1, 2, 1, 2, 1, 2]);
});

test("the count reads the move's fields, not its text", () => {
  // A text that says otherwise changes nothing: the page keeps no grammar of the move text.
  assert.deepEqual(foundationCounts(log({ ...move("t1", "f"), move: "t1>t2" }, { ...move("fH", "t2"), move: "t3>f" })), [1, 0]);
});

test("the strip has five squares by how full the foundations were at the end of each fifth", () => {
  const won = log(...Array(52).fill(move("t1", "f")));
  assert.equal(progressStrip(won), "⬜🟨🟧🟦🟩"); // 11, 21, 32, 42, 52 cards
  assert.equal(progressStrip(log(move("t1", "f"), move("t2", "f"))), "⬜⬜⬜⬜⬜");
  assert.equal(progressStrip([]), "");
});

test("top % is the share at least as fast, 1 at best, none without a comparison", () => {
  assert.equal(topPercent(88), 12);
  assert.equal(topPercent(100), 1);
  assert.equal(topPercent(null), null);
});

test("a result under review says so instead of a top %", () => {
  const base = { date: "2026-12-02", timeMs: 192_000, moves: 140, fasterThan: 88, strip: "🟨🟧🟦🟦🟩", url: "https://example.org/leaderboards?date=2026-12-02" };
  assert.equal(shareText(base), "Yukon · 2026-12-02 · 3:12 · 140 moves · top 12 %\n🟨🟧🟦🟦🟩\nhttps://example.org/leaderboards?date=2026-12-02");
  assert.equal(shareText({ ...base, underReview: true }).split("\n")[0], "Yukon · 2026-12-02 · 3:12 · 140 moves · under review");
});

test("a held result says which kind of check holds it, never a figure", () => {
  const base = { date: "2026-12-02", timeMs: 192_000, moves: 140, fasterThan: 88, strip: "", url: "" };
  assert.equal(shareText({ ...base, underReview: true, heldFor: ["play"] }), "Yukon · 2026-12-02 · 3:12 · 140 moves · under review (move check)");
  assert.equal(
    shareText({ ...base, underReview: true, heldFor: ["accounts", "pace"] }),
    "Yukon · 2026-12-02 · 3:12 · 140 moves · under review (account check), under review (time check)",
  );
});

test("the deal's number names the day, and a counted result says the streak it continues", () => {
  const base = { date: "2026-12-11", number: 12, timeMs: 195_000, moves: 91, fasterThan: 75, strip: "🟨🟧🟦🟩🟩", url: "https://example.org/leaderboards?date=2026-12-11" };
  assert.equal(
    shareText({ ...base, streak: 3 }),
    "Yukon #12 · 3:15 · 91 moves · top 25 %\n🟨🟧🟦🟩🟩\nStreak: 3 days\nhttps://example.org/leaderboards?date=2026-12-11",
  );
  assert.equal(shareText({ ...base, streak: 1 }).split("\n")[2], "Streak: 1 day");
  assert.ok(!shareText({ ...base, streak: 0 }).includes("Streak"));
  // Under review it is on no board yet: no streak, no top %.
  assert.equal(shareText({ ...base, streak: 3, underReview: true }), "Yukon #12 · 3:15 · 91 moves · under review\n🟨🟧🟦🟩🟩\nhttps://example.org/leaderboards?date=2026-12-11");
  // Without a number (the standing could not be read): the date, as before.
  assert.equal(shareText({ ...base, number: null }).split("\n")[0], "Yukon · 2026-12-11 · 3:15 · 91 moves · top 25 %");
});

test("a member's club and place among its results of the day follow the first line", () => {
  const base = { date: "2026-12-11", number: 12, timeMs: 195_000, moves: 91, fasterThan: 75, strip: "🟩", url: "" };
  const club = { name: "Büro-Patience", rank: 3, of: 14 };
  assert.equal(shareText({ ...base, club }), "Yukon #12 · 3:15 · 91 moves · top 25 %\n3rd of 14 in Büro-Patience today\n🟩");
  // Under review the result is on no board: no place in the club either.
  assert.ok(!shareText({ ...base, club, underReview: true }).includes("Büro"));
});

test("places read as ordinals, the teens included", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(place), ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]);
});
