// The play page's dialogs: new game, settings, and the win screen.
import { t, formatTime } from "./i18n.js";
import { games } from "./api.js";
import { bindSettingsDialog } from "./settings.js";

const $ = (id) => document.getElementById(id);

function openDialog(dialog) {
  if (!dialog.open) dialog.showModal();
}

/** The new game dialog: Klassisch (default) or Gelockert, or a game code. */
export function bindNewGameDialog(onStarted) {
  const dialog = $("new-dialog");
  const form = dialog.querySelector("form");
  const error = $("new-error");
  $("new-button").addEventListener("click", () => {
    error.hidden = true;
    form.reset();
    openDialog(dialog);
  });
  dialog.querySelector("[data-close]").addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = form.elements.code.value.trim();
    const options = code ? { code } : { rule: form.elements.rule.value };
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    error.hidden = true;
    try {
      const state = await games.start(options);
      dialog.close();
      onStarted(state);
    } catch (err) {
      error.textContent = err.detail || t("error.generic");
      error.hidden = false;
    } finally {
      submit.disabled = false;
    }
  });
}

export function bindSettings(settings) {
  const dialog = $("settings-dialog");
  bindSettingsDialog(dialog, settings);
  $("settings-button").addEventListener("click", () => {
    dialog.querySelector(".settings-status").textContent = "";
    openDialog(dialog);
  });
  dialog.querySelector("[data-close]").addEventListener("click", () => dialog.close());
}

/** The win screen; `extra` fills the optional line under the figures (the daily rank). */
export function showWin(state, { onNew, extra = null } = {}) {
  const dialog = $("win-dialog");
  $("win-time").textContent = formatTime(state.elapsed_ms);
  $("win-moves").textContent = String(state.moves);
  $("win-score").textContent = String(state.score);
  const line = $("win-extra");
  line.textContent = extra || "";
  line.hidden = !extra;
  const again = $("win-new");
  again.onclick = () => {
    dialog.close();
    onNew();
  };
  dialog.querySelector("[data-close]").onclick = () => dialog.close();
  openDialog(dialog);
  return dialog;
}
