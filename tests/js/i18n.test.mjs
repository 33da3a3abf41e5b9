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
