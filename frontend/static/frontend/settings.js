// The four play settings of docs/rules.md and the four-colour deck (a display choice), with the
// defaults the server renders into the page (config.js).
// A logged-in player's settings live in the account (GET/PATCH auth/settings); a guest's in
// localStorage, and in the guest's session too, so that signing up carries them over.
import { auth } from "./api.js";
import { CONFIG } from "./config.js";
import { t } from "./i18n.js";

const KEY = "yukon.settings";

/** Each setting's default: {double_click: true, …} (accounts.models.SETTING_DEFAULTS). */
export const DEFAULTS = CONFIG.settings ?? Object.freeze({});

/** `defaults` with the booleans of `saved` (the browser's copy, or the account's) over them;
 *  anything else in `saved` (an unknown name, a value that is no boolean) is left out. */
export function mergeSettings(defaults, saved) {
  const values = { ...defaults };
  if (saved && typeof saved === "object") {
    for (const name of Object.keys(defaults)) if (typeof saved[name] === "boolean") values[name] = saved[name];
  }
  return values;
}

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
    this.values = mergeSettings(this.values, readLocal());
    this.emit();
  }

  async loadAccount(user) {
    this.user = user;
    if (!user) return;
    let remote = user.settings;
    if (!remote) {
      try {
        remote = await auth.settings();
      } catch (err) {
        remote = null;
      }
    }
    if (remote) {
      this.values = mergeSettings(this.values, remote);
      this.emit();
    }
  }

  /** Change one setting; resolves to the message saying where it was kept. */
  async set(name, value) {
    this.values[name] = Boolean(value);
    this.emit();
    writeLocal(this.values);
    try {
      await auth.changeSettings({ [name]: Boolean(value) });
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
