// The four play settings of docs/rules.md and the four-colour deck (a display choice).
// A logged-in player's settings live in the account (GET/PATCH auth/settings); a guest's in
// localStorage, and in the guest's session too, so that signing up carries them over.
import { request } from "./api.js";
import { t } from "./i18n.js";

const KEY = "yukon.settings";

export const DEFAULTS = Object.freeze({
  double_click: true, // Doppelklick
  drop_hints: true, // Ablagehilfe
  interactive_rules: true, // Interaktive Regeln
  auto_drop: false, // Automatische Ablage
  four_color: false, // display only
});

const SERVER_KEYS = ["double_click", "drop_hints", "interactive_rules", "auto_drop", "four_color"];

function readLocal() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    return saved && typeof saved === "object" ? saved : {};
  } catch (err) {
    return {};
  }
}

function writeLocal(values) {
  try {
    localStorage.setItem(KEY, JSON.stringify(values));
  } catch (err) {
    /* private mode: the settings last for this page only */
  }
}

export class Settings {
  constructor() {
    this.values = { ...DEFAULTS };
    this.user = null;
    this.listeners = [];
  }

  get(name) {
    return this.values[name];
  }

  onChange(listener) {
    this.listeners.push(listener);
  }

  /** Guests: the browser's copy at once. Players: the account's, when `user` is known. */
  loadLocal() {
    const local = readLocal();
    for (const name of Object.keys(DEFAULTS)) if (typeof local[name] === "boolean") this.values[name] = local[name];
    this.emit();
  }

  async loadAccount(user) {
    this.user = user;
    if (!user) return;
    let remote = user.settings;
    if (!remote) {
      try {
        remote = await request("GET", "auth/settings");
      } catch (err) {
        remote = null;
      }
    }
    if (remote) {
      for (const name of SERVER_KEYS) if (typeof remote[name] === "boolean") this.values[name] = remote[name];
      this.emit();
    }
  }

  /** Change one setting; resolves to the message saying where it was kept. */
  async set(name, value) {
    this.values[name] = Boolean(value);
    this.emit();
    writeLocal(this.values);
    if (!SERVER_KEYS.includes(name)) return t("settings.saved.local");
    try {
      await request("PATCH", "auth/settings", { [name]: Boolean(value) });
    } catch (err) {
      if (this.user) throw err;
    }
    return this.user ? t("settings.saved.account") : t("settings.saved.local");
  }

  emit() {
    for (const listener of this.listeners) listener(this.values);
  }
}

/** Wire the settings dialog's checkboxes (input[name=<setting>]) to `settings`. */
export function bindSettingsDialog(dialog, settings) {
  const status = dialog.querySelector(".settings-status");
  const sync = () => {
    for (const input of dialog.querySelectorAll("input[type=checkbox][name]")) input.checked = Boolean(settings.get(input.name));
  };
  settings.onChange(sync);
  sync();
  dialog.addEventListener("change", async (event) => {
    const input = event.target;
    if (!input.name || !(input.name in DEFAULTS)) return;
    status.textContent = "";
    try {
      status.textContent = await settings.set(input.name, input.checked);
    } catch (err) {
      status.textContent = (err && err.detail) || t("error.generic");
    }
  });
}
