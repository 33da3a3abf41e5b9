// The header: who is playing (guest or account), log out.
import { t, tn } from "./i18n.js";
import { CONFIRM_KEY, KEPT_KEY, auth, currentUser, rememberLogin } from "./api.js";

export async function initNav() {
  const page = document.documentElement.dataset.page;
  registerWorker();
  for (const link of document.querySelectorAll(".site-nav a[data-page]")) {
    if (link.dataset.page === page) link.setAttribute("aria-current", "page");
  }
  // The footer's language switch comes back to the address as it is now (a page may have named its
  // game in it since it was served), in the language chosen.
  const languages = document.querySelector(".lang-switch");
  if (languages) {
    languages.addEventListener("submit", () => {
      languages.elements.next.value = location.pathname + location.search;
    });
  }
  const box = document.getElementById("account");
  // A write found the session ended (api.js): the header shows a guest, and a lasting word says
  // how to go on, with a way back here after signing in.
  window.addEventListener("yukon:signed-out", () => {
    renderAccount(box, null, page);
    showSignedOut();
  });
  const user = await currentUser();
  if (!document.getElementById("signed-out")) renderAccount(box, user, page);
  if (user) showGamesKept();
  if (user) showConfirmSent();
  else showLoggedOut();
  return user;
}

/** The service worker (/sw.js, docs/offline.md): the app can be installed, and its pages and the
 *  practice game come up without the network. Registered once the page has loaded and been idle a
 *  moment, so that its install (some forty files to keep) never competes with the page's own
 *  requests and drawing (measured: the statistics page's chart waited for it, Lighthouse's blocking
 *  time 350 → 930 ms on a phone). */
function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const idle = globalThis.requestIdleCallback || ((fn) => setTimeout(fn, 0));
  const later = () => setTimeout(() => idle(register, { timeout: 5000 }), 3000);
  const register = () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
    // What this page loaded before the worker was there (a first visit) is kept too: the page
    // itself and its static files, so that it comes up without the network next time.
    keepInWorker([...performance.getEntriesByType("resource").map((entry) => entry.name)], { page: location.href });
  };
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
}

/** Ask the service worker to keep `urls` (static files: its cache-first route takes them) and,
 *  with `page`, that page's answer (service_worker.js). */
export function keepInWorker(urls, { page = null } = {}) {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.ready
    .then((registration) => {
      const worker = registration.active;
      if (!worker) return;
      const own = urls.filter((url) => url.startsWith(location.origin) && !url.includes("/api/"));
      if (own.length) worker.postMessage({ type: "CACHE_URLS", payload: { urlsToCache: own } });
      if (page) worker.postMessage({ type: "KEEP_PAGE", url: page });
    })
    .catch(() => {});
}

const LOGGED_OUT_KEY = "yukon.loggedOut";

/** Log out (the header's button, the login page's): the next page says so (showLoggedOut). */
export async function logOut() {
  await auth.logout();
  rememberLogin(null);
  try {
    sessionStorage.setItem(LOGGED_OUT_KEY, "1");
  } catch (err) {
    /* without storage the header alone shows the guest */
  }
}

/** Once, on the page after logging out: that it worked, and that the games stay the account's. */
function showLoggedOut() {
  let flagged = false;
  try {
    flagged = sessionStorage.getItem(LOGGED_OUT_KEY) === "1";
    sessionStorage.removeItem(LOGGED_OUT_KEY);
  } catch (err) {
    return;
  }
  if (!flagged || document.getElementById("signed-out")) return;
  const notice = Object.assign(document.createElement("p"), { id: "logged-out", className: "site-notice" });
  notice.setAttribute("role", "status");
  notice.textContent = t("loggedOut");
  document.getElementById("main").prepend(notice);
}

/** Once, after signing up with an address: a link to confirm it is on its way. */
function showConfirmSent() {
  const email = sessionStorage.getItem(CONFIRM_KEY);
  sessionStorage.removeItem(CONFIRM_KEY);
  if (!email) return;
  const notice = Object.assign(document.createElement("p"), { id: "confirm-sent", className: "site-notice" });
  notice.setAttribute("role", "status");
  notice.textContent = t("confirmSent", { email });
  document.getElementById("main").prepend(notice);
}

/** Once, after signing up or in: the games this browser played as a guest are the account's now. */
function showGamesKept() {
  const kept = Number(sessionStorage.getItem(KEPT_KEY));
  sessionStorage.removeItem(KEPT_KEY);
  if (!(kept > 0)) return;
  const notice = Object.assign(document.createElement("p"), { id: "games-kept", className: "site-notice" });
  notice.setAttribute("role", "status");
  notice.textContent = tn("gamesKept", kept);
  document.getElementById("main").prepend(notice);
}

function showSignedOut() {
  let notice = document.getElementById("signed-out");
  if (!notice) {
    notice = Object.assign(document.createElement("p"), { id: "signed-out", className: "site-notice" });
    notice.setAttribute("role", "alert");
    document.getElementById("main").prepend(notice);
  }
  const login = document.createElement("a");
  login.href = `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
  login.textContent = t("signedOut.login");
  notice.replaceChildren(t("signedOut"), " ", login);
}

function renderAccount(box, user, page) {
  box.replaceChildren();
  if (user) {
    const who = document.createElement("a");
    who.className = "who";
    who.href = "/stats";
    who.textContent = user.username;
    who.title = user.username; // (cut short on a phone)
    const out = document.createElement("button");
    out.type = "button";
    out.className = "link-button";
    out.id = "logout-button";
    out.textContent = t("nav.logout");
    out.addEventListener("click", async () => {
      out.disabled = true;
      try {
        await logOut();
      } finally {
        location.href = "/";
      }
    });
    const account = document.createElement("a");
    account.href = "/account";
    account.id = "account-link";
    account.textContent = t("nav.account");
    if (page === "account") account.setAttribute("aria-current", "page");
    // The player's clubs, where a player looks for what is theirs (issue 49 item 6).
    const clubs = document.createElement("a");
    clubs.href = "/clubs";
    clubs.id = "clubs-link";
    clubs.textContent = t("nav.clubs");
    if (page === "clubs" || page === "club") clubs.setAttribute("aria-current", "page");
    box.append(who, clubs, account, out);
  } else {
    const guest = document.createElement("span");
    guest.className = "who guest";
    guest.textContent = t("nav.guest");
    // Back here after logging in or signing up (from those pages themselves: where they lead).
    const onAuthPage = page === "login" || page === "signup";
    const back = onAuthPage ? new URLSearchParams(location.search).get("next") : location.pathname + location.search;
    const next = back ? `?next=${encodeURIComponent(back)}` : "";
    const login = document.createElement("a");
    login.href = `/login${next}`;
    login.textContent = t("nav.login");
    const signup = document.createElement("a");
    signup.href = `/signup${next}`;
    signup.className = "button small";
    signup.textContent = t("nav.signup");
    box.append(guest, login, signup);
  }
  box.hidden = false;
}

/** A name on a board: a link to the player's profile; a deleted account's result shows no name
 *  and no link, just "deleted player" (its result still counts). */
export function playerName(username) {
  if (username == null) {
    const deleted = Object.assign(document.createElement("span"), { className: "deleted-player" });
    deleted.textContent = t("lb.deleted");
    deleted.title = t("lb.deleted.title");
    return deleted;
  }
  const link = document.createElement("a");
  link.href = `/players/${encodeURIComponent(username)}`;
  link.textContent = username;
  return link;
}

/** The check mark beside a name on a board whose win the server replayed (`verified`): "✓", named
 *  for screen readers; the boards' legend says what it means. */
export function verifiedMark() {
  const check = document.createElement("span");
  check.className = "lb-verified";
  check.textContent = "\u2713";
  check.title = t("lb.verified");
  check.setAttribute("role", "img");
  check.setAttribute("aria-label", t("lb.verified"));
  return check;
}
