// The play page (/): resumes the player's game or deals a new one. ?code=YU1-… plays that deal,
// ?game=<id> opens one of the player's games.
import "./i18n.js";
import { games } from "./api.js";
import { initNav } from "./nav.js";
import { Settings } from "./settings.js";
import { GameTable } from "./game.js";
import { bindNewGameDialog, bindSettings, showWin } from "./dialogs.js";

const KEY = "yukon.game";
const settings = new Settings();
settings.loadLocal();

const openNew = () => document.getElementById("new-button").click();
const table = new GameTable({ settings, onWin: (state) => showWin(state, { onNew: openNew }) });
bindSettings(settings);
bindNewGameDialog((state) => start(state));
initNav().then((user) => settings.loadAccount(user));

function start(state) {
  try {
    localStorage.setItem(KEY, state.id);
  } catch (err) {
    /* no storage: the game is still in the account / session */
  }
  table.show(state, { deal: true });
  performance.mark("board-rendered");
}

async function load() {
  const params = new URLSearchParams(location.search);
  try {
    if (params.get("game")) return start(await games.get(params.get("game")));
    if (params.get("code")) return start(await games.start({ code: params.get("code") }));
    const saved = localStorage.getItem(KEY);
    if (saved) {
      try {
        const state = await games.get(saved);
        if (state.status === "playing" && !state.daily) return start(state);
      } catch (err) {
        /* gone or not ours: deal a new one */
      }
    }
    return start(await games.start({ rule: "classic" }));
  } catch (err) {
    table.showNote(err.detail || err.message);
  }
}

load();
