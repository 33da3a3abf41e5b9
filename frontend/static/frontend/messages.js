// What the play page tells the player besides the table: the note over the table (a rule that
// refused a move, an error, a hint, a word about the game), the lasting notice about the day's
// end, and the announcements for screen readers (#live).
const $ = (id) => document.getElementById(id);

export class Messages {
  constructor() {
    this.live = $("live");
    this.note = $("rule-note");
    this.noteTimer = 0;
    this.notice = $("game-notice");
    this.note.querySelector("button").addEventListener("click", () => this.hideNote());
    // Scrolled or resized while a note shows: keep it off the game bar.
    const replace = () => { if (!this.note.hidden && !this.note.classList.contains("docked")) this.placeNote(); };
    addEventListener("scroll", replace, { passive: true });
    addEventListener("resize", replace, { passive: true });
    this.notice.querySelector("button").addEventListener("click", () => this.hideNotice());
  }

  /** A note over the table: a rule that refused a move ("§"), an error ("!"), or a word about
   *  the game, a hint, a resumed game ("i"). */
  showNote(text, code = "", kind = code ? "rule" : "info") {
    clearTimeout(this.noteTimer);
    this.note.querySelector(".rule-text").textContent = text;
    this.note.dataset.kind = kind;
    this.note.querySelector(".rule-icon").textContent = { rule: "§", error: "!" }[kind] ?? "i";
    this.note.dataset.code = code || "";
    this.note.classList.remove("docked");
    this.note.hidden = false;
    this.placeNote();
    this.noteTimer = setTimeout(() => this.hideNote(), 7000);
  }

  /** A note never lies on the game bar's buttons (then it goes in the page under the bar), and
   *  the page keeps room for it below the table, so no card stays hidden under it. */
  placeNote() {
    const bar = document.querySelector(".game-bar");
    const note = this.note.getBoundingClientRect();
    const over = bar && bar.getBoundingClientRect();
    if (over && note.top < over.bottom && note.bottom > over.top) this.note.classList.add("docked");
    const space = this.note.classList.contains("docked") ? 0 : Math.ceil(this.note.offsetHeight) + 16;
    document.documentElement.style.setProperty("--note-space", `${space}px`);
  }

  hideNote() {
    clearTimeout(this.noteTimer);
    this.note.hidden = true;
    this.note.classList.remove("docked");
    document.documentElement.style.removeProperty("--note-space");
  }

  /** How much of the window's bottom the note covers (0 when hidden or docked in the page). */
  noteCover() {
    if (this.note.hidden || this.note.classList.contains("docked")) return 0;
    return Math.max(0, innerHeight - this.note.getBoundingClientRect().top);
  }

  /** The lasting notice under the bar ("warning": the day ends soon; "over": it ended). */
  showNotice(text, kind) {
    $("game-notice-text").textContent = text;
    this.notice.dataset.kind = kind;
    this.notice.hidden = false;
    this.announce(text);
  }

  hideNotice() {
    this.notice.hidden = true;
  }

  announce(text) {
    this.live.textContent = "";
    requestAnimationFrame(() => { this.live.textContent = text; });
  }
}
