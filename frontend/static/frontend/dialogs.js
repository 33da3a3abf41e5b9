// The play page's dialogs: new game, settings, and the win screen.
import { t, tn, formatTime } from "./i18n.js";
import { games } from "./api.js";
import { bindSettingsDialog } from "./settings.js";
import { allowLeave, rankedRunning } from "./pause.js";

const WINNABLE_KEY = "yukon.winnableOnly"; // the new game's "winnable deals only", remembered

const $ = (id) => document.getElementById(id);

const stored = (key) => {
  try {
    return localStorage.getItem(key);
  } catch (err) {
    return null;
  }
};
const store = (key, value) => {
  try {
    localStorage.setItem(key, value);
  } catch (err) {
    /* not remembered: the switch starts off */
  }
};

function openDialog(dialog) {
  if (!dialog.open) dialog.showModal();
}

/** Asks before a game in progress is left: it stays resumable in My games; a ranked attempt's
 *  clock runs on meanwhile (it has no pause), which the question says. */
function confirmLeave(state) {
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = rankedRunning(state)
    ? t("confirm.ranked")
    : t("confirm.text", { moves: tn("moves", state.moves) });
  dialog.returnValue = "";
  $("confirm-go").onclick = () => dialog.close("go");
  dialog.querySelector("[data-close]").onclick = () => dialog.close("");
  openDialog(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "go"), { once: true });
  });
}

/** The new game dialog: Klassisch (default) or Gelockert, or a game code (which decides the
 *  rule: the dialog says so, and the game's state shows which). Whether a code is one is the
 *  server's answer (400 bad_code, shown as the error): the page knows no code grammar. `current()`
 *  is the game on the table: one in progress is left only after a confirmation, and then
 *  `leave(state)` is called (its clock stops while the dialog is open: play.js); `stay(state)`
 *  when the dialog is closed without a new game. */
export function bindNewGameDialog(onStarted, { current = () => null, leave = () => {}, stay = () => {}, offline = async () => null } = {}) {
  const dialog = $("new-dialog");
  const form = dialog.querySelector("form");
  const error = $("new-error");
  const codeRule = $("new-code-rule");
  const radios = [...form.elements.rule];
  const winnableOnly = form.elements.winnable_only;
  const showCodeRule = () => {
    const code = form.elements.code.value.trim();
    for (const radio of radios) radio.disabled = Boolean(code);
    winnableOnly.disabled = Boolean(code); // a code names its deal
    codeRule.textContent = code ? t("new.code.rule") : "";
    codeRule.hidden = !code;
  };
  let left = null; // the game confirmed to be left, until a new game starts or the dialog closes
  let started = false;
  dialog.addEventListener("close", () => {
    if (left && !started) stay(left);
    left = null;
  });
  form.elements.code.addEventListener("input", () => {
    error.hidden = true;
    showCodeRule();
  });
  $("new-button").addEventListener("click", async () => {
    const state = current();
    const ask = state && state.status === "playing" && (state.moves > 0 || rankedRunning(state));
    if (ask && !(await confirmLeave(state))) return;
    left = ask ? state : null;
    started = false;
    if (left) leave(left);
    error.hidden = true;
    form.reset();
    winnableOnly.checked = stored(WINNABLE_KEY) === "1";
    showCodeRule();
    openDialog(dialog);
  });
  dialog.querySelector("[data-close]").addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = form.elements.code.value.trim();
    // The page's deals replace the player's untouched ones (they would pile up and count nothing).
    const rule = { rule: form.elements.rule.value, ...(winnableOnly.checked ? { winnable_only: true } : {}) };
    const options = { ...(code ? { code } : rule), replace_untouched: true };
    if (!code) store(WINNABLE_KEY, winnableOnly.checked ? "1" : "0");
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    error.hidden = true;
    try {
      const state = await games.start(options);
      if (rankedRunning(current())) allowLeave(); // asked and confirmed: the page may go
      started = true;
      dialog.close();
      onStarted(state);
    } catch (err) {
      if (err.status === 0 && !options.winnable_only && (await offline(options))) {
        started = true;
        dialog.close();
        return;
      }
      error.textContent = err.detail || t(err.status === 0 ? "error.network" : "error.generic");
      error.hidden = false;
      codeRule.hidden = true; // the code decides no rule: only the error speaks
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
