// The service worker's logic (a classic script: importScripts'd by /sw.js, frontend/pwa.py, after
// Workbox's modules and self.YUKON, the addresses only the running site knows). docs/offline.md.
//
// - The app shell (the site's scripts and style sheets, the offline page, the engine's source) is
//   kept at install (precache: each by its hashed address, so an old one is never served for a new).
// - Pages: the network first, so that a page is always the current one with the current account;
//   the copy kept of the last answer when the network is gone (or silent for 4 s); an address
//   never kept: the play page's copy for the play page, else the offline page.
// - Pyodide and the other static files: from the cache once fetched (their addresses carry a
//   version or a hash). The script catalogue too (its address carries its digest).
// - The API is never kept: every answer about a game comes from the server.
/* global workbox */
const { precaching, routing, strategies, expiration, cacheableResponse, navigationPreload, core } = workbox;
const config = self.YUKON;
const PAGES = "yukon-pages";
const STATIC = "yukon-static";
const ENGINE = "yukon-engine";
const OFFLINE = config.offline;
// Pages never kept: an account's own (its address, sessions, tokens), and those whose address
// carries a secret (a confirmation, a reset, an invitation).
const PRIVATE = /^\/(account|login|signup|admin|clubs\/join\/)/;
const keptPage = (url) => url.origin === location.origin && !url.pathname.startsWith("/api/") && !PRIVATE.test(url.pathname);

core.setCacheNameDetails({ prefix: "yukon" });
core.clientsClaim();
self.skipWaiting();
navigationPreload.enable();
precaching.cleanupOutdatedCaches();
precaching.precacheAndRoute(config.precache, { ignoreURLParametersMatching: [/.*/] });

const ok = new cacheableResponse.CacheableResponsePlugin({ statuses: [200] });
// The play page is kept once, whatever game its address names (the game is found on the device).
const pageKey = (url) => (url.pathname === "/" ? `${url.origin}/` : url.href);
const onePlayPage = { cacheKeyWillBeUsed: async ({ request }) => pageKey(new URL(request.url)) };

// Pages (navigations): network first, the kept copy when offline.
// (A page varies by its cookies and language; the copy kept is the last one this browser had.)
const pages = new strategies.NetworkFirst({
  cacheName: PAGES,
  networkTimeoutSeconds: 4,
  matchOptions: { ignoreVary: true },
  plugins: [ok, onePlayPage, new expiration.ExpirationPlugin({ maxEntries: 30 })],
});
routing.registerRoute(
  ({ request, url }) => request.mode === "navigate" && keptPage(url),
  async (options) => {
    try {
      const response = await pages.handle(options);
      if (response) {
        refreshOffline(response);
        return response;
      }
    } catch (err) {
      /* no network and no copy of this address: below */
    }
    return fallback(options.url);
  },
);

/** The page for an address with no network and no copy: the play page (any game in its address:
 *  the page finds the game kept on the device) or the offline page. */
async function fallback(url) {
  const cache = await caches.open(PAGES);
  if (url.pathname === "/") {
    const play = await cache.match("/", { ignoreVary: true });
    if (play) return play;
  }
  const offline = (await cache.match(OFFLINE, { ignoreVary: true })) || (await precaching.matchPrecache(OFFLINE));
  return offline || Response.error();
}

// The offline page speaks the language of the pages: when a page comes in another language than
// the offline page kept, the offline page is fetched again (once per change).
let offlineLanguage = null;
async function refreshOffline(response) {
  const language = response.headers.get("Content-Language");
  if (!language || language === offlineLanguage) return;
  offlineLanguage = language;
  try {
    const fresh = await fetch(OFFLINE, { credentials: "same-origin" });
    if (fresh.ok) await (await caches.open(PAGES)).put(OFFLINE, fresh);
  } catch (err) {
    offlineLanguage = null;
  }
}

// Pyodide: a cache of its own, never trimmed (offline play needs all of it); an older version's
// files go when this worker takes over.
routing.registerRoute(
  ({ url }) => url.origin === location.origin && url.pathname.startsWith(config.pyodide),
  new strategies.CacheFirst({ cacheName: ENGINE, plugins: [ok] }),
);

// The site's other static files (Chart.js, …) and the script catalogue: cache first.
routing.registerRoute(
  ({ url }) =>
    url.origin === location.origin && (url.pathname.startsWith(`${config.static}frontend/`) || url.pathname.startsWith(config.catalog)),
  new strategies.CacheFirst({
    cacheName: STATIC,
    plugins: [ok, new expiration.ExpirationPlugin({ maxEntries: 60, purgeOnQuotaError: true })],
  }),
);

// A new worker (a new deploy): the pages kept name the old static files, which are gone now, so
// they go too, and the play page is fetched again; an older Pyodide's files go.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await caches.delete(PAGES);
      const engine = await caches.open(ENGINE);
      for (const request of await engine.keys()) {
        if (!new URL(request.url).pathname.startsWith(config.pyodide)) await engine.delete(request);
      }
      await keepPage(new URL("/", location.href));
    })().catch(() => {}),
  );
});

async function keepPage(url) {
  const cache = await caches.open(PAGES);
  const key = pageKey(url);
  const response = await fetch(url.href, { credentials: "same-origin" });
  if (response.ok) await cache.put(key, response);
}

// A page loaded before this worker was there (keepInWorker, nav.js): its answer is kept as if it
// had come through the pages' route (the static files it loaded come as Workbox's CACHE_URLS).
// Another account (or none) in this browser (api.js): the pages kept were the other's.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "FORGET_PAGES") {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (data.type !== "KEEP_PAGE" || typeof data.url !== "string") return;
  const url = new URL(data.url, location.href);
  if (!keptPage(url)) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(PAGES);
      if (await cache.match(pageKey(url), { ignoreVary: true })) return;
      await keepPage(url);
    })().catch(() => {}),
  );
});
