// The language and number formats every page uses (frontend/static/frontend/i18n.js). Outside a
// page (no document) the language is German, the site's default (docs/api.md).
import assert from "node:assert/strict";
import test from "node:test";

import { formatTime, lang, pickLanguage } from "../../frontend/static/frontend/i18n.js";

test("the first German or English tag wins, German when neither matches", () => {
  assert.equal(pickLanguage(["en-GB", "de"]), "en");
  assert.equal(pickLanguage(["fr-FR", "DE-at"]), "de");
  assert.equal(pickLanguage(["fr", "it"]), "de");
  assert.equal(pickLanguage([]), "de");
  assert.equal(pickLanguage(undefined), "de");
});

test("without a page the language is German", () => {
  assert.equal(lang, "de");
});

test("times read m:ss below an hour and h:mm:ss from it, never negative", () => {
  assert.equal(formatTime(0), "0:00");
  assert.equal(formatTime(59_999), "0:59");
  assert.equal(formatTime(61_000), "1:01");
  assert.equal(formatTime(3_661_000), "1:01:01");
  assert.equal(formatTime(-5_000), "0:00");
  assert.equal(formatTime(null), "0:00");
});

test("the quick plural forms and numbers agree with Intl's for the counts a page writes", async () => {
  const { formatNumber, pluralForm } = await import("../../frontend/static/frontend/i18n.js");
  const counts = [0, 1, 2, 5, 11, 21, 101, 1000, 1.5, 0.5];
  // The shortcut's premise: in German and English a whole number is "one" only when it is 1.
  for (const language of ["de", "en"]) {
    const rules = new Intl.PluralRules(language);
    for (const n of counts.filter(Number.isInteger)) assert.equal(rules.select(n), n === 1 ? "one" : "other", `${language} ${n}`);
  }
  const german = new Intl.PluralRules("de");
  for (const n of counts) assert.equal(pluralForm(n), german.select(n), String(n));
  const number = new Intl.NumberFormat("de-DE", { maximumFractionDigits: 0 });
  for (const n of [0, 7, 999, -12, 1000, 12345]) assert.equal(formatNumber(n), number.format(n), String(n));
  assert.equal(formatNumber(12.345, 1), "12,3");
});
