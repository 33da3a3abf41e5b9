// What the server decides and the pages need, so that no script writes it itself: the play
// settings' defaults (accounts.models.SETTING_DEFAULTS), the clean-win score (the engine's
// CLEAN_WIN_SCORE) and the width of the standing's histogram bars (stats.standing.BARS).
// frontend/views.py's page_config() renders them into every page as
// <script type="application/json" id="page-config">.

/** The configuration a document carries (frozen); empty outside a page. */
export function readConfig(doc = globalThis.document) {
  const element = doc?.getElementById("page-config");
  const config = element ? JSON.parse(element.textContent) : {};
  for (const value of Object.values(config)) if (value && typeof value === "object") Object.freeze(value);
  return Object.freeze(config);
}

export const CONFIG = readConfig();
