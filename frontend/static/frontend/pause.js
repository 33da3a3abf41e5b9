// The game's clock on the page (docs/scoring.md, "Time"). A practice game's clock stops while the
// page is hidden (another tab, the phone's home screen, the tab closed) and when the player taps
// Pause (or P); the server keeps the time (POST games/{id}/pause, .../resume), and while the game
// is paused its cards are covered. A pause the page made itself, as it was hidden, ends when the
// page is shown again (also after a reload or a visit to another page of the site in the same
// tab: sessionStorage); a pause the player chose, or one found when the game is opened in a new
// tab, ends when the player taps Resume. A ranked attempt's clock never stops: the page asks
// before it is left, and says so when its player comes back.
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const AUTO_KEY = "yukon.autoPaused"; // the game this tab paused as it was hidden

let leaving = false;
/** The player chose to leave (a confirmed new game): the page is not held back any more. */
export function allowLeave() {
  leaving = true;
}

/** A ranked attempt that still counts and is being played: its clock runs whatever happens. */
export function rankedRunning(state) {
  return Boolean(state && state.status === "playing" && state.attempt && state.attempt.state === "open");
}

function remembered() {
  try {
    return sessionStorage.getItem(AUTO_KEY);
  } catch (err) {
    return null;
  }
}

function remember(id) {
  try {
    if (id) sessionStorage.setItem(AUTO_KEY, id);
    else sessionStorage.removeItem(AUTO_KEY);
  } catch (err) {
    /* without storage a reload shows the cover: one tap goes on */
  }
}

export function attachClock(table) {
  const cover = $("pause-cover");
  const root = table.board.root;
  let awaySince = null; // when a ranked attempt's page was hidden
  let autoResume = remembered(); // the id of a game this tab paused itself
  // A move refused as paused asks whether the pause was this tab's own (the page before a reload
  // paused the game as it was left, and that request can arrive after this page read the game):
  // then the move takes it back and is played (game.js). Asked once.
  table.ownPause = (id) => {
    if (autoResume !== id) return false;
    autoResume = null;
    remember(null);
    return true;
  };

  table.store.subscribe((state) => {
    const paused = Boolean(state && state.paused);
    root.classList.toggle("paused", paused);
    cover.hidden = !paused;
    if (!state) return;
    if (paused && autoResume === state.id && !document.hidden) {
      autoResume = null;
      remember(null);
      table.resume();
    }
  });
  $("resume-button").addEventListener("click", () => {
    table.resume();
    root.focus({ preventScroll: true });
  });

  document.addEventListener("visibilitychange", () => {
    const state = table.state;
    if (document.hidden) {
      if (state && state.status === "playing" && state.pausable && !state.paused) {
        autoResume = state.id;
        remember(state.id);
        table.pause({ keepalive: true });
      } else if (rankedRunning(state)) {
        awaySince = Date.now();
      }
      return;
    }
    if (state && autoResume === state.id && state.paused) {
      autoResume = null;
      remember(null);
      table.resume();
    }
    if (awaySince !== null && rankedRunning(table.state)) table.messages.showNotice(t("ranked.away"), "warning");
    awaySince = null;
  });

  // Leaving a ranked attempt (a link, a reload, the tab closed): the browser asks first.
  addEventListener("beforeunload", (event) => {
    if (leaving || !rankedRunning(table.state)) return;
    event.preventDefault();
    event.returnValue = "";
  });
}
