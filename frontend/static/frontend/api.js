// The only door: every piece of game data comes from the JSON API at /api/v1/ (docs/api.md).
import { lang, t } from "./i18n.js";
import { CONFIG } from "./config.js";

const ROOT = "/api/v1/";

export class ApiError extends Error {
  constructor(status, body, { retryAfter = null } = {}) {
    super((body && (body.detail || body.error)) || `HTTP ${status}`);
    this.status = status;
    this.code = body && body.error;
    this.detail = body && typeof body.detail === "string" ? body.detail : null;
    // Seconds from a Retry-After header (503 daily_not_ready, 429), or null.
    this.retryAfter = retryAfter;
    this.body = body; // the whole answer (a refused offline batch carries the game as kept)
  }
}

/** Retry-After in seconds: a number of seconds or an HTTP date; null when absent or unreadable. */
function retryAfterSeconds(header) {
  if (!header) return null;
  if (/^\s*\d+\s*$/.test(header)) return Number(header);
  const when = Date.parse(header);
  return Number.isNaN(when) ? null : Math.max(0, Math.round((when - Date.now()) / 1000));
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** One request; resolves to the JSON answer (null for 204), rejects with ApiError. `keepalive`:
 *  it is sent even if the page is being closed (a pause as the tab goes). */
export async function request(method, path, body, { keepalive = false, key = null, timeout = 0 } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": lang };
  if (key) headers["Idempotency-Key"] = key; // a retry with it changes nothing (docs/api.md)
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  if (body !== undefined) headers["Content-Type"] = "application/json";
  // `timeout` (ms): a request that hangs counts as no network (offline.js: a train's network).
  const signal = timeout && globalThis.AbortSignal && AbortSignal.timeout ? AbortSignal.timeout(timeout) : undefined;
  let response;
  try {
    response = await fetch(ROOT + path, {
      method,
      headers,
      credentials: "same-origin",
      keepalive,
      signal,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, { error: "network", detail: null });
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    if (method !== "GET" && REFUSED_WHEN_SIGNED_OUT.has(response.status) && (await sessionEnded())) {
      throw new ApiError(401, { error: "signed_out", detail: t("signedOut") });
    }
    throw new ApiError(response.status, data, { retryAfter: retryAfterSeconds(response.headers.get("Retry-After")) });
  }
  return data;
}

// A write refused as a session that ended would be (another's game: 404; today's deal: 403; a
// page for accounts: 401). Whether it did end, the page learns from its own auth/me alone:
// it knew an account, and the server now sees a guest. Nothing about the game is asked, so a
// guest learns nothing about other accounts' games.
const REFUSED_WHEN_SIGNED_OUT = new Set([401, 403, 404]);

async function sessionEnded() {
  if (!mePromise || !(await mePromise)) return false; // a guest all along
  let me;
  try {
    me = await request("GET", "auth/me");
  } catch (err) {
    return false;
  }
  if (me && me.authenticated) return false;
  rememberLogin(null);
  mePromise = Promise.resolve(null);
  window.dispatchEvent(new CustomEvent("yukon:signed-out"));
  return true;
}

export const games = {
  start: (options) => request("POST", "games", options),
  get: (id) => request("GET", `games/${encodeURIComponent(id)}`),
  /** `timeout`: for a game that can go on offline, a move whose answer does not come is played on
   *  the device (game.js; a move that did arrive is found in the server's log later). */
  move: (id, move, { timeout = 0 } = {}) => request("POST", `games/${encodeURIComponent(id)}/moves`, move, { timeout }),
  hint: (id) => request("GET", `games/${encodeURIComponent(id)}/hint`),
  winnable: (id) => request("GET", `games/${encodeURIComponent(id)}/winnable`),
  /** Stop a practice game's clock (also as the page is closed: keepalive), and start it again. */
  pause: (id, { keepalive = false } = {}) =>
    request("POST", `games/${encodeURIComponent(id)}/pause`, undefined, { keepalive }),
  resume: (id) => request("POST", `games/${encodeURIComponent(id)}/resume`),
  /** One page of a game's move log (`page` 1 first). */
  moves: (id, page = 1) => request("GET", `games/${encodeURIComponent(id)}/moves?page=${page}`),
  /** A game's replay: its deal, the moves as its player saw them, the solver's verdict. */
  replay: (id) => request("GET", `games/${encodeURIComponent(id)}/replay`),
  undo: (id, seq, { timeout = 0 } = {}) =>
    request("POST", `games/${encodeURIComponent(id)}/undo`, seq === undefined ? {} : { seq }, { timeout }),
  /** Every card left onto its foundation (once all are face up): the won state and `finish_moves`. */
  finish: (id, seq) => request("POST", `games/${encodeURIComponent(id)}/finish`, seq === undefined ? {} : { seq }),
  /** The moves played offline on a game, replayed by the server from its move counter `seq`
   *  (docs/offline.md); `key` makes a retry harmless. */
  batch: (id, body, key, { timeout = 0 } = {}) =>
    request("POST", `games/${encodeURIComponent(id)}/batch`, body, { key, timeout }),
  /** A practice game dealt on this device while offline, with its moves: made once per `key`. */
  offline: (body, key, { timeout = 0 } = {}) => request("POST", "games/offline", body, { key, timeout }),
  /** One page of the player's games, newest first; `status: "playing"` for the unfinished ones. */
  list: (page = 1, { status = null, size = null } = {}, { timeout = 0 } = {}) => {
    const query = new URLSearchParams({ page: String(page) });
    if (status) query.set("status", status);
    if (size) query.set("page_size", String(size));
    return request("GET", `games?${query}`, undefined, { timeout });
  },
};

export const auth = {
  me: () => request("GET", "auth/me"),
  login: (username, password) => request("POST", "auth/login", { username, password }),
  register: (username, password, email = "") =>
    request("POST", "auth/register", email ? { username, password, email } : { username, password }),
  logout: () => request("POST", "auth/logout"),
  /** Delete the account (its password asked again); 204, then the session is a guest's. */
  deleteAccount: (password) => request("DELETE", "auth/me", { password }),
  /** A new e-mail address: a confirmation link goes to it (`detail` says so). */
  setEmail: (email, password) => request("PUT", "auth/email", { email, password }),
  removeEmail: (password) => request("DELETE", "auth/email", { password }),
  changePassword: (oldPassword, newPassword) =>
    request("POST", "auth/password", { old_password: oldPassword, new_password: newPassword }),
  setLanguage: (language) => request("PUT", "auth/language", { language }),
  /** A reset link by e-mail (`detail` says what happens, whether the address is known or not). */
  requestPasswordReset: (email) => request("POST", "auth/password-reset", { email }),
  sessions: () => request("GET", "auth/sessions"),
  /** Log out every other browser; `ended` says how many. */
  endOtherSessions: () => request("DELETE", "auth/sessions"),
  tokens: () => request("GET", "auth/tokens"),
  makeToken: (name) => request("POST", "auth/tokens", { name }),
  revokeToken: (id) => request("DELETE", `auth/tokens/${encodeURIComponent(id)}`),
  /** The play settings: the account's, or the guest session's. */
  settings: () => request("GET", "auth/settings"),
  changeSettings: (changes) => request("PATCH", "auth/settings", changes),
};

export const daily = {
  /** Today's deal: date, players, closes_in_ms and the caller's ranked attempt (never its code). */
  today: () => request("GET", "daily"),
  /** A day's deal; its code once that day is over (404 not_found: no deal that day). */
  day: (date) => request("GET", `daily/${encodeURIComponent(date)}`),
  leaderboard: (date) => request("GET", `leaderboards/daily/${encodeURIComponent(date)}`),
  /** One page of the past days, newest first: figures, the deal's code, the caller's result. */
  archive: (page = 1, { size = null } = {}) => {
    const query = new URLSearchParams({ page: String(page) });
    if (size) query.set("page_size", String(size));
    return request("GET", `daily/archive?${query}`);
  },
  /** Where the caller stands on a day: histograms, percentile, live counts (nothing about the deal). */
  standing: (date) => request("GET", `daily/${encodeURIComponent(date)}/standing`),
};

export const stats = {
  mine: () => request("GET", "me/stats"),
  player: (username) => request("GET", `players/${encodeURIComponent(username)}/stats`),
};

const name = (username) => encodeURIComponent(username);
const slugPath = (slug) => `clubs/${encodeURIComponent(slug)}`;

/** Following players and clubs (docs/social.md). */
export const social = {
  followState: (username) => request("GET", `players/${name(username)}/follow`),
  follow: (username) => request("POST", `players/${name(username)}/follow`),
  unfollow: (username) => request("DELETE", `players/${name(username)}/follow`),
  friends: (date) => request("GET", `daily/${encodeURIComponent(date)}/friends`),
  privacy: () => request("GET", "me/privacy"),
  privacySet: (profileHidden) => request("PUT", "me/privacy", { profile_hidden: profileHidden }),
  clubs: () => request("GET", "clubs"),
  clubCreate: (clubName) => request("POST", "clubs", { name: clubName }),
  clubJoin: (invite) => request("POST", "clubs/join", { invite }),
  club: (slug) => request("GET", slugPath(slug)),
  clubChange: (slug, change) => request("PATCH", slugPath(slug), change),
  clubDelete: (slug) => request("DELETE", slugPath(slug)),
  inviteRevoke: (slug) => request("DELETE", `${slugPath(slug)}/invite`),
  memberRemove: (slug, username) => request("DELETE", `${slugPath(slug)}/members/${name(username)}`),
  removalLift: (slug, username) => request("DELETE", `${slugPath(slug)}/removed/${name(username)}`),
  clubDay: (slug, date) => request("GET", `${slugPath(slug)}/daily/${encodeURIComponent(date)}`),
  clubWeek: (slug, week) => request("GET", `${slugPath(slug)}/week/${encodeURIComponent(week)}`),
};

// What this browser last knew: "" a guest, else the username (set on log in / sign up / log out
// and by every auth/me answer). A known guest's pages skip auth/me (one request fewer); a browser
// that has no hint yet asks once. (A guest's auth/me is 200 with authenticated false; 401 only for a
// bad token.)
const USER_HINT = "yukon.user";
/** In sessionStorage from signing in to the next page: how many guest games the account took (nav.js). */
export const KEPT_KEY = "yukon.gamesKept";
export const CONFIRM_KEY = "yukon.confirmSent";

export function rememberLogin(username) {
  try {
    const before = localStorage.getItem(USER_HINT);
    localStorage.setItem(USER_HINT, username || "");
    // Another account (or none) now: the pages the service worker keeps were the other's.
    if (before !== null && before !== (username || "") && navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "FORGET_PAGES" });
    }
  } catch (err) {
    /* without storage every page asks auth/me */
  }
}

function knownGuest() {
  try {
    return localStorage.getItem(USER_HINT) === "";
  } catch (err) {
    return false;
  }
}

function lastKnownUser() {
  try {
    return localStorage.getItem(USER_HINT) || "";
  } catch (err) {
    return "";
  }
}

// This browser was logged in when it was last here, and the server sees a guest now: the session
// ended meanwhile (expired, or ended elsewhere). Only this browser's own knowledge.
let signedOutMeanwhile = false;
export const sessionEndedSinceLastVisit = () => currentUser().then(() => signedOutMeanwhile);

let mePromise = null;
/** The logged-in player (auth/me), or null for a guest: the page's own copy of that answer
 *  (page-config's `me`, rendered with the page), else asked at most once per page. */
export function currentUser() {
  if (!mePromise && CONFIG.me) mePromise = Promise.resolve(known(CONFIG.me));
  if (!mePromise) {
    mePromise = knownGuest()
      ? Promise.resolve(null)
      : auth.me().then(known, () => {
          rememberLogin(null);
          return null;
        });
  }
  return mePromise;
}

/** The answer of auth/me as the page keeps it: the player, or null for a guest (and whether a
 *  login this browser knew has ended meanwhile). */
function known(me) {
  const user = me && me.authenticated ? me : null; // a guest: 200, authenticated false
  if (!user && lastKnownUser()) signedOutMeanwhile = true;
  rememberLogin(user && user.username);
  return user;
}
