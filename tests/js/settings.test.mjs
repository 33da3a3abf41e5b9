// The play settings' defaults come from the page the server rendered (config.js reads them), and
// a saved copy only overrides them with booleans (frontend/static/frontend/settings.js).
import assert from "node:assert/strict";
import test from "node:test";

import { readConfig } from "../../frontend/static/frontend/config.js";
import { DEFAULTS, mergeSettings } from "../../frontend/static/frontend/settings.js";

const SERVER_DEFAULTS = { double_click: true, drop_hints: true, interactive_rules: true, auto_drop: false, four_color: false };

function page(config) {
  const element = { textContent: JSON.stringify(config) };
  return { getElementById: (id) => (id === "page-config" ? element : null) };
}

test("the configuration is what the page carries, frozen", () => {
  const config = readConfig(page({ settings: SERVER_DEFAULTS, clean_win_score: 625 }));
  assert.deepEqual(config, { settings: SERVER_DEFAULTS, clean_win_score: 625 });
  assert.ok(Object.isFrozen(config) && Object.isFrozen(config.settings));
});

test("without a page there is no configuration, and no default is made up", () => {
  assert.deepEqual(readConfig(undefined), {});
  assert.deepEqual(readConfig({ getElementById: () => null }), {});
  assert.deepEqual(DEFAULTS, {});
});

test("saved booleans override the defaults; unknown names and other values are left out", () => {
  const saved = { auto_drop: true, drop_hints: "no", four_color: 1, theme: "dark" };
  assert.deepEqual(mergeSettings(SERVER_DEFAULTS, saved), { ...SERVER_DEFAULTS, auto_drop: true });
  assert.deepEqual(mergeSettings(SERVER_DEFAULTS, null), SERVER_DEFAULTS);
  assert.deepEqual(mergeSettings(SERVER_DEFAULTS, "[]"), SERVER_DEFAULTS);
});
