// api.js is the only door to the server (docs/api.md): no other page module fetches, and none
// writes an API path itself; they call api.js's named operations.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import test from "node:test";

const STATIC = new URL("../../frontend/static/frontend/", import.meta.url);
// The workers' scripts run where api.js cannot (no document, no cookie of their own to read):
// the engine's worker fetches the engine's source, the service worker pages and static files.
const WORKERS = ["engine_worker.js", "service_worker.js"];
const modules = readdirSync(STATIC).filter((name) => name.endsWith(".js") && !WORKERS.includes(name));

test("only api.js fetches", () => {
  const fetching = modules.filter((name) => name !== "api.js" && /\bfetch\s*\(|XMLHttpRequest|sendBeacon/.test(readFileSync(new URL(name, STATIC), "utf8")));
  assert.deepEqual(fetching, []);
});

test("the workers never ask the API", () => {
  const asking = WORKERS.filter((name) => /api\/v1/.test(readFileSync(new URL(name, STATIC), "utf8")));
  assert.deepEqual(asking, []);
});

test("no other module sends its own request through api.js", () => {
  const raw = modules.filter((name) => {
    const source = readFileSync(new URL(name, STATIC), "utf8");
    return name !== "api.js" && /import\s*\{[^}]*\brequest\b[^}]*\}\s*from\s*"\.\/api\.js"/.test(source);
  });
  assert.deepEqual(raw, []);
});
