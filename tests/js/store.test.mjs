// The page's one state store (frontend/static/frontend/store.js): every change goes through set()
// and reaches each view, with the state before it and the moment it came.
import assert from "node:assert/strict";
import test from "node:test";

import { createStore } from "../../frontend/static/frontend/store.js";

test("a set reaches every view in order with the state before it and its info", () => {
  let clock = 100;
  const store = createStore({ now: () => clock });
  const seen = [];
  store.subscribe((next, previous, info) => seen.push(["board", next, previous, info]));
  store.subscribe((next, previous) => seen.push(["bar", next, previous]));
  assert.equal(store.state, null);
  store.set({ id: "a", moves: 0 }, { deal: true });
  clock = 250;
  store.set({ id: "a", moves: 1 });
  assert.deepEqual(seen, [
    ["board", { id: "a", moves: 0 }, null, { deal: true }],
    ["bar", { id: "a", moves: 0 }, null],
    ["board", { id: "a", moves: 1 }, { id: "a", moves: 0 }, {}],
    ["bar", { id: "a", moves: 1 }, { id: "a", moves: 0 }],
  ]);
  assert.deepEqual(store.state, { id: "a", moves: 1 });
  assert.equal(store.receivedAt, 250); // the running clock starts at the latest answer
});

test("a view sees the new state in the store while it renders", () => {
  const store = createStore({ now: () => 0 });
  let inside = null;
  store.subscribe(() => { inside = store.state; });
  store.set({ id: "b" });
  assert.deepEqual(inside, { id: "b" });
});

test("clearing is a set of null, and an unsubscribed view hears nothing more", () => {
  const store = createStore({ now: () => 0 });
  const seen = [];
  const stop = store.subscribe((next) => seen.push(next));
  store.set({ id: "c" });
  store.set(null);
  stop();
  store.set({ id: "d" });
  assert.deepEqual(seen, [{ id: "c" }, null]);
  assert.deepEqual(store.state, { id: "d" });
});
