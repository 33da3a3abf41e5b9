// Keyboard play (the keys are listed on the page): a cursor walks over the face-up cards; Enter
// picks up a card with the cards on it, the arrows choose a target, Enter drops. Drops go
// through the same path as a mouse drop, so the server decides as always. Ctrl+Z undoes anywhere
// on the page but in a form field.
import { t, tn, cardName } from "./i18n.js";
import { SUITS } from "./board.js";

export function attachKeyboard(table) {
  const board = table.board;
  const root = board.root;
  // cursor: {zone: "t", col, index} | {zone: "f", suit}; target while picked: "t1".."t7" | "f"
  let cursor = { zone: "t", col: 0, index: 0 };
  let picked = null;
  let target = null;
  let active = false;
  let followed = null; // the card under the cursor, followed when the state changes

  const view = () => table.state;
  const column = (c) => view().tableau[c];
  const firstUp = (c) => {
    const col = column(c);
    const i = col.findIndex((card) => card !== "XX");
    return i < 0 ? col.length : i;
  };
  const focusedCard = () => {
    if (cursor.zone === "f") return view().foundations[cursor.suit] || null;
    const col = column(cursor.col);
    const card = col[cursor.index];
    return card && card !== "XX" ? card : null;
  };

  function clampCursor(followCard) {
    if (!view()) return;
    if (followCard) {
      const source = board.sourceOf(followCard);
      if (source && source.from[0] === "t") {
        cursor = { zone: "t", col: source.col, index: source.index };
        return;
      }
    }
    if (cursor.zone === "t") {
      const col = column(cursor.col);
      cursor.index = Math.max(firstUp(cursor.col), Math.min(cursor.index, col.length - 1));
    }
  }

  function describe() {
    if (picked) {
      const where = target === "f" ? t("foundations") : t("column", { n: target.slice(1) });
      return t("cursor.target", { target: where });
    }
    if (cursor.zone === "f") {
      const top = view().foundations[cursor.suit];
      const name = t("foundation", { suit: t(`suit.${cursor.suit}`) });
      return top ? `${name}: ${cardName(top)}` : t("foundation.empty", { suit: t(`suit.${cursor.suit}`) });
    }
    const card = focusedCard();
    if (!card) return t("column.empty", { n: cursor.col + 1 });
    const covered = column(cursor.col).length - cursor.index - 1;
    const text = t("cursor.card", { card: cardName(card), n: cursor.col + 1 });
    return covered ? `${text}, ${tn("cursor.covered", covered)}` : text;
  }

  function paint(say = true) {
    if (!view()) return;
    if (!active) {
      board.showCursor(null);
      return;
    }
    let spec;
    if (picked) {
      spec = target === "f" ? { foundations: true, picking: true } : { col: Number(target.slice(1)) - 1, picking: true };
    } else if (cursor.zone === "f") {
      spec = { suit: cursor.suit };
    } else {
      const card = focusedCard();
      spec = card ? { card, col: cursor.col } : { col: cursor.col };
    }
    board.showCursor(spec);
    const card = focusedCard();
    const el = card && !picked ? board.cardElement(card) : null;
    const slot = document.getElementById(cursor.zone === "f" ? `slot-f${cursor.suit}` : `slot-t${cursor.col + 1}`);
    const active_id = el ? el.id : slot ? slot.id : "";
    if (active_id) root.setAttribute("aria-activedescendant", active_id);
    if (say) table.announce(describe());
  }

  function setPicked(source) {
    for (const el of root.querySelectorAll(".card.picked")) el.classList.remove("picked");
    picked = source;
    if (!source) {
      target = null;
      board.highlight([]);
      return;
    }
    for (const card of source.group) {
      const el = board.cardElement(card);
      if (el) el.classList.add("picked");
    }
    target = source.from[0] === "f" ? "t1" : source.from;
    if (table.settings.get("drop_hints")) board.highlight(table.legalTargets(source));
  }

  function move(dx, dy) {
    if (picked) {
      if (dy < 0) target = "f";
      else if (dy > 0 && target === "f") target = `t${cursor.zone === "t" ? cursor.col + 1 : 1}`;
      else if (dx) {
        const n = target === "f" ? (dx > 0 ? 1 : 7) : Math.min(7, Math.max(1, Number(target.slice(1)) + dx));
        target = `t${n}`;
      }
      return;
    }
    if (cursor.zone === "f") {
      if (dx) cursor.suit = SUITS[Math.min(3, Math.max(0, SUITS.indexOf(cursor.suit) + dx))];
      if (dy > 0) {
        const col = 3 + SUITS.indexOf(cursor.suit);
        cursor = { zone: "t", col, index: column(col).length - 1 };
        clampCursor();
      }
      return;
    }
    if (dx) {
      const col = Math.min(6, Math.max(0, cursor.col + dx));
      cursor = { zone: "t", col, index: column(col).length - 1 };
      clampCursor();
    } else if (dy < 0) {
      if (cursor.index > firstUp(cursor.col)) cursor.index -= 1;
      else cursor = { zone: "f", suit: SUITS[Math.max(0, cursor.col - 3)] };
    } else if (dy > 0) {
      cursor.index = Math.min(column(cursor.col).length - 1, cursor.index + 1);
    }
  }

  root.addEventListener("keydown", (event) => {
    if (!view() || event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key;
    if (key === "p" || key === "P") {
      event.preventDefault();
      table.togglePause();
      return;
    }
    if (view().paused) return; // covered: only P (or the cover's button) goes on
    let handled = true;
    active = true;
    if (key === "ArrowLeft") move(-1, 0);
    else if (key === "ArrowRight") move(1, 0);
    else if (key === "ArrowUp") move(0, -1);
    else if (key === "ArrowDown") move(0, 1);
    else if (/^[1-7]$/.test(key)) {
      if (picked) target = `t${key}`;
      else {
        const col = Number(key) - 1;
        cursor = { zone: "t", col, index: column(col).length - 1 };
        clampCursor();
      }
    } else if (key === "Enter" || key === " ") {
      if (picked) {
        const source = picked;
        const to = target;
        setPicked(null);
        table.dropped(source, to === source.from ? null : { to }, {});
        clampCursor(source.card);
      } else {
        const card = focusedCard();
        const source = card && board.sourceOf(card);
        if (source) {
          setPicked(source);
          paint(false);
          table.announce(t("cursor.picked", { card: cardName(card) }));
          event.preventDefault();
          return;
        }
      }
    } else if (key === "Escape") {
      if (picked) {
        setPicked(null);
        table.announce(t("cursor.cancel"));
      } else handled = false;
    } else if (key === "f" || key === "F") {
      // Once the server offers the finish, F is the finish (every card left goes up: the one
      // under the cursor with them, and the moves and score are the same as card by card).
      const card = focusedCard();
      if (view().finish_available) table.finish();
      else if (card && cursor.zone === "t") table.tapToFoundation(card);
    } else if (key === "a" || key === "A") {
      const card = focusedCard();
      if (card && cursor.zone === "t") table.autoPlace(card);
    } else if (key === "u" || key === "U") {
      table.undo();
    } else if (key === "n" || key === "N") {
      const button = document.getElementById("new-button");
      if (button) button.click();
    } else handled = false;
    if (handled) {
      event.preventDefault();
      followed = focusedCard();
      paint();
    }
  });
  root.addEventListener("pointerdown", () => {
    active = false;
    if (picked) setPicked(null);
    board.showCursor(null);
  });
  root.addEventListener("focus", () => paint(false));
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest && event.target.closest("input, textarea, select, dialog");
    if (typing) return;
    if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === "z") {
      event.preventDefault();
      table.undo();
    }
  });
  root.addEventListener("blur", () => board.showCursor(null));

  return {
    refresh() {
      if (!view()) return;
      clampCursor(followed);
      if (picked && !board.sourceOf(picked.card)) setPicked(null);
      if (document.activeElement === root) paint(false);
    },
  };
}
