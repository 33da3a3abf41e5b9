// Pointer input on the table (mouse, touch, pen). A press on a face-up card (or a foundation's top
// card) either becomes a tap (released without moving) or a drag of the card with every card on
// it; taps on the same card in quick succession make a double tap. What a drop or a tap means is
// decided by the caller from the server's legal_moves; this part only moves elements under the
// pointer and names the place where they were let go. The recognisers (isDrag, createTaps) are
// pure and run under Node (tests/js/pointer.test.mjs).

/** Pixels a press may wander and still be a tap. */
export const DRAG_THRESHOLD = 6;
/** Milliseconds within which a second tap on the same card is a double tap. */
export const DOUBLE_TAP_MS = 280;

/** Whether a press that has moved by (dx, dy) is a drag. */
export const isDrag = (dx, dy) => Math.hypot(dx, dy) >= DRAG_THRESHOLD;

/** Single and double taps on cards: tap(card, place) calls onSingle(card) once DOUBLE_TAP_MS have
 *  passed without a second tap on it, or onDouble(card, {shown}) at the second one. A card whose
 *  single tap has nothing for a double tap to do (at(card): the caller knows from the server's
 *  legal moves) is played at once, not after the wait; a tap on the same place (its column) within
 *  the double-tap time after it is then the rest of a double tap and is let go (it would play the
 *  card uncovered). Otherwise show(card) may paint what the single tap will do while the wait runs
 *  (true when it did): then a second tap on its place (the card has gone from under the finger)
 *  also makes the double tap, and cancel() takes it back with unshow(). With double: false (the
 *  setting is off) every tap is a single one at once. cancel() forgets a waiting tap (a drag began). */
export function createTaps({
  onSingle,
  onDouble,
  double = () => true,
  at = () => false,
  show = () => false,
  unshow = () => {},
  delay = DOUBLE_TAP_MS,
  timers = globalThis,
}) {
  let pending = null; // {card, place, shown, timer}: a tap waiting for a second one
  let played = null; // {place, timer}: a tap played at once, whose second tap may still come
  const forget = () => {
    if (pending) timers.clearTimeout(pending.timer);
    const was = pending;
    pending = null;
    return was;
  };
  return {
    tap(card, place = card) {
      if (!double()) {
        forget();
        onSingle(card);
        return;
      }
      if (played && played.place === place) {
        timers.clearTimeout(played.timer);
        played = null;
        return;
      }
      if (pending && (pending.card === card || (pending.shown && pending.place === place))) {
        const { card: first, shown } = forget();
        onDouble(first, { shown });
        return;
      }
      const dropped = forget();
      if (dropped && dropped.shown) unshow();
      if (at(card)) {
        if (played) timers.clearTimeout(played.timer);
        const mine = { place, timer: timers.setTimeout(() => { if (played === mine) played = null; }, delay) };
        played = mine;
        onSingle(card);
        return;
      }
      const mine = { card, place, shown: false };
      mine.timer = timers.setTimeout(() => {
        if (pending === mine) pending = null;
        onSingle(card);
      }, delay);
      pending = mine;
      mine.shown = Boolean(show(card));
    },
    /** Whether a tap is waiting for its second one. */
    get waiting() {
      return pending !== null;
    },
    cancel() {
      const dropped = forget();
      if (dropped && dropped.shown) unshow();
    },
  };
}

/** Follow presses on `board`'s table: onTap(source), onDragStart(source), onDrop(source, target,
 *  info), where source is board.sourceOf(card) and target board.targetAt(...) or null. */
export function attachDrag(board, { onTap, onDragStart, onDrop }) {
  const root = board.root;
  let press = null;

  root.addEventListener("pointerdown", (event) => {
    if (press || (event.pointerType === "mouse" && event.button !== 0)) return;
    const el = event.target.closest(".card");
    if (!el || el.classList.contains("down") || el.classList.contains("under") || !el.dataset.card) return;
    const source = board.sourceOf(el.dataset.card);
    if (!source) return;
    event.preventDefault();
    try {
      root.setPointerCapture(event.pointerId);
    } catch (err) {
      /* synthetic events have no capture */
    }
    press = { id: event.pointerId, source, x0: event.clientX, y0: event.clientY, dragging: false, els: [], bases: [] };
  });

  root.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x0;
    const dy = event.clientY - press.y0;
    if (!press.dragging) {
      if (!isDrag(dx, dy)) return;
      press.dragging = true;
      press.els = press.source.group.map((card) => board.cardElement(card)).filter(Boolean);
      press.bases = press.source.group.map((card) => board.box(card)).filter(Boolean);
      press.els.forEach((el, i) => {
        el.classList.add("dragging");
        el.style.zIndex = String(1000 + i);
      });
      onDragStart(press.source);
    }
    press.els.forEach((el, i) => {
      el.style.transform = `translate(${press.bases[i].x + dx}px, ${press.bases[i].y + dy}px)`;
    });
  });

  const finish = (event, cancelled) => {
    if (!press || event.pointerId !== press.id) return;
    const done = press;
    press = null; // the capture ends by itself with pointerup / pointercancel
    if (!done.dragging) {
      if (!cancelled) onTap(done.source, event);
      return;
    }
    for (const el of done.els) el.classList.remove("dragging");
    if (cancelled) {
      onDrop(done.source, null, { cancelled: true });
      return;
    }
    const rect = root.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    let target = board.targetAt(x, y);
    if (!target && done.bases.length) {
      // Let go beside the table's lanes: judge by the middle of the dragged card's top edge.
      const m = board.metrics;
      const first = done.bases[0];
      target = board.targetAt(first.x + (event.clientX - done.x0) + m.cw / 2, first.y + (event.clientY - done.y0) + m.ch / 4);
    }
    onDrop(done.source, target, { x, y });
  };

  root.addEventListener("pointerup", (event) => finish(event, false));
  root.addEventListener("pointercancel", (event) => finish(event, true));
  root.addEventListener("lostpointercapture", (event) => {
    if (press && press.dragging && event.pointerId === press.id) finish(event, true);
  });
  // A drag must not select text or start the browser's own drag of an element.
  root.addEventListener("dragstart", (event) => event.preventDefault());
}
