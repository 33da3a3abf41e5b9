// A page's one state store: it holds the last state the server sent (or null: nothing shown) and
// the moment it came, and every change goes through set(), which hands it to each view that
// subscribed (the board, the game bar, the keyboard cursor, the page). Nothing else keeps a copy
// of the state. Pure (tests/js/store.test.mjs): the clock is passed in.

/** A store: state, receivedAt, set(next, info), subscribe(view) -> unsubscribe. A view is called
 *  as view(next, previous, info) in the order of subscribing; info is what set() was given
 *  ({deal: true} for a new deal on the play page). */
export function createStore({ now = () => performance.now() } = {}) {
  let state = null;
  let receivedAt = 0;
  const views = [];
  return {
    get state() {
      return state;
    },
    /** When the state came, on now()'s clock: the running time and the day's countdown start there. */
    get receivedAt() {
      return receivedAt;
    },
    set(next, info = {}) {
      const previous = state;
      state = next;
      receivedAt = now();
      for (const view of [...views]) view(next, previous, info);
    },
    subscribe(view) {
      views.push(view);
      return () => {
        const i = views.indexOf(view);
        if (i >= 0) views.splice(i, 1);
      };
    },
  };
}

/** Whether ``state`` is another game than ``previous`` (or the first one shown): a view starts
 *  afresh then instead of animating the change. */
export function isNewGame(state, previous) {
  return !previous || previous.id !== state.id;
}
