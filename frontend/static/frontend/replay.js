// The replay viewer (/replay/<game id>): a finished game move by move, read-only, as its player saw
// it. Every position comes from GET games/{id}/replay (face-down cards are "XX" until a move turned
// them up); the page only shows them, on the play page's table (board.js), and marks the solver's
// post-mortem: the move after which the game could no longer be won, an undo that rescued it.
import { t, tn, addStrings, cardName, formatDate, formatTime } from "./i18n.js";
import "./strings.js";
import { games } from "./api.js";
import { initNav } from "./nav.js";
import { Settings } from "./settings.js";
import { Board } from "./board.js";

const pgettext = globalThis.django?.pgettext ?? ((context, text) => text);
addStrings({
  "replay.counter": pgettext("replay.counter", "move {n} of {total}"),
  "replay.play": pgettext("replay.play", "Play (Space)"),
  "replay.pause": pgettext("replay.pause", "Pause (Space)"),
  "replay.deal": pgettext("replay.deal", "The deal as dealt."),
  "replay.undo": pgettext("replay.undo", "Move {n}: undo."),
  "replay.moved": pgettext("replay.moved", "Move {n}: {card} to {target}."),
  "replay.flipped": pgettext("replay.flipped", "{card} turned face up."),
  "replay.by": pgettext("replay.by", "{player}'s game"),
  "replay.guest": pgettext("replay.guest", "A guest's game"),
  "replay.yours": pgettext("replay.yours", "Your game"),
  "replay.daily": pgettext("replay.daily", "Daily deal {date}"),
  "replay.won": pgettext("replay.won", "won in {time}"),
  "replay.unfinished": pgettext("replay.unfinished", "not won"),
  "replay.lost": pgettext("replay.lost", "Winnable until move {until}; after move {lost} it could no longer be won."),
  "replay.lost.deal": pgettext("replay.lost.deal", "This deal could not be won from the start."),
  "replay.rescued": pgettext("replay.rescued", "An undo at move {n} made it winnable again."),
  "replay.winnable": pgettext("replay.winnable", "Winnable throughout: no move lost the game."),
  "replay.winnable.open": pgettext("replay.winnable.open", "Still winnable after the last move."),
  "replay.unknown": pgettext("replay.unknown", "Unknown: the solver could not decide it within its budget."),
  "replay.unknown.until": pgettext("replay.unknown.until", "Unknown after move {n}: winnable until then at least; the solver could not decide the rest within its budget."),
  "replay.pending": pgettext("replay.pending", "Not analysed yet: the solver is on it. This page asks again in a moment."),
  "replay.notyet": pgettext("replay.notyet", "Not analysed yet."),
  "replay.notyet.daily": pgettext("replay.notyet.daily", "Analysed once the day of this daily deal is over."),
  "replay.goto": pgettext("replay.goto", "Go to move {n}"),
  "replay.notfound": pgettext("replay.notfound", "This replay is not there for you: the game does not exist, or it is another player's. Anyone may watch only the top 10 of a daily deal once its day is over."),
  "replay.broken": pgettext("replay.broken", "This game's move log cannot be replayed: it is damaged, so there is nothing to show."),
  "replay.moved.f": pgettext("replay.moved.f", "Move {n}: {card} to its foundation."),
});

const $ = (id) => document.getElementById(id);
const POLL_MS = 5000;
const POLLS = 6;

initNav();
const root = $("replay");
if (root) start(root.dataset.game);

function fail(text) {
  stopPlaying();
  if (root) root.hidden = true;
  $("replay-error-text").textContent = text;
  $("replay-error").hidden = false;
  document.body.dataset.replayReady = "error";
}

async function start(id) {
  let data;
  try {
    data = await games.replay(id);
  } catch (err) {
    if (err.status === 404) return fail(t("replay.notfound"));
    if (err.status === 409) return fail(t("replay.broken"));
    return fail(err.detail || t(err.status === 0 ? "error.network" : "error.generic"));
  }
  new Replay(data, id);
}

let stopPlaying = () => {};

class Replay {
  constructor(data, id) {
    this.id = id;
    this.data = data;
    this.positions = [data.start, ...data.steps];
    this.total = data.steps.length;
    this.at = 0;
    this.timer = 0;
    const settings = new Settings();
    settings.loadLocal();
    this.board = new Board($("table"));
    this.board.root.classList.toggle("four-color", Boolean(settings.get("four_color")));
    this.describe();
    this.bind();
    this.verdict();
    this.show(0, { animate: false });
    stopPlaying = () => this.pause();
    document.body.dataset.replayReady = "1";
    if (data.postmortem_pending) this.poll(POLLS);
  }

  /** The figures that stay: whose game, which deal, the par. */
  describe() {
    const data = this.data;
    const whose = data.own ? t("replay.yours") : data.player ? t("replay.by", { player: data.player }) : t("replay.guest");
    const deal = data.daily ? t("replay.daily", { date: formatDate(data.daily) }) : data.code || "–";
    const result = data.status === "won" ? t("replay.won", { time: formatTime(data.time_ms) }) : t("replay.unfinished");
    $("replay-deal-label").textContent = whose;
    $("replay-deal").textContent = `${deal} · ${result}`;
    $("replay-par").textContent = data.par != null ? tn("moves", data.par) : "–";
    for (const el of [$("replay-slider"), $("replay-jump")]) el.max = String(this.total);
  }

  bind() {
    $("replay-first").addEventListener("click", () => this.jump(0));
    $("replay-back").addEventListener("click", () => this.step(-1));
    $("replay-forward").addEventListener("click", () => this.step(1));
    $("replay-last").addEventListener("click", () => this.jump(this.total));
    $("replay-play").addEventListener("click", () => this.toggle());
    $("replay-speed").addEventListener("change", () => {
      if (this.timer) this.play();
    });
    $("replay-slider").addEventListener("input", (event) => this.jump(Number(event.target.value)));
    const jumpInput = $("replay-jump");
    const jumpTo = () => {
      const n = Number(jumpInput.value);
      if (Number.isInteger(n)) this.jump(Math.max(0, Math.min(this.total, n)));
      else jumpInput.value = String(this.at);
    };
    jumpInput.addEventListener("change", jumpTo);
    jumpInput.addEventListener("keydown", (event) => {
      if (event.key === "Enter") jumpTo();
    });
    $("replay-verdict-jump").addEventListener("click", (event) => this.jump(Number(event.currentTarget.dataset.to)));
    document.addEventListener("keydown", (event) => this.key(event));
    // A button that Space activates natively would act twice: Space belongs to play / pause.
    document.addEventListener("keyup", (event) => {
      if (event.key === " " && event.target.closest && event.target.closest("button")) event.preventDefault();
    });
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    const field = target.closest && target.closest("input, select, textarea");
    if (field) return; // the slider, the number and the speed keep their own keys
    const actions = {
      ArrowLeft: () => this.step(-1),
      ArrowRight: () => this.step(1),
      Home: () => this.jump(0),
      End: () => this.jump(this.total),
      " ": () => this.toggle(),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  step(delta) {
    this.pause();
    this.show(this.at + delta);
  }

  jump(n) {
    this.pause();
    this.show(n, { animate: Math.abs(n - this.at) === 1 });
  }

  toggle() {
    if (this.timer) this.pause();
    else this.play();
  }

  play() {
    clearInterval(this.timer);
    if (this.at >= this.total) this.show(0, { animate: false }); // from the start again
    const every = Number($("replay-speed").value) || 800;
    this.timer = setInterval(() => {
      if (this.at >= this.total) return this.pause();
      this.show(this.at + 1);
      if (this.at >= this.total) this.pause();
    }, every);
    this.playing(true);
  }

  pause() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = 0;
    this.playing(false);
  }

  playing(on) {
    const button = $("replay-play");
    const label = t(on ? "replay.pause" : "replay.play");
    button.classList.toggle("playing", on);
    button.setAttribute("aria-label", label);
    button.title = label;
    document.body.dataset.replayPlaying = on ? "1" : "";
  }

  /** Position `n` (0: the deal), the counter, the slider and what the last move did. */
  show(n, { animate = true } = {}) {
    n = Math.max(0, Math.min(this.total, n));
    const position = this.positions[n];
    this.board.render({ tableau: position.tableau, foundations: position.foundations }, { animate });
    this.at = n;
    $("replay-counter").textContent = t("replay.counter", { n, total: this.total });
    $("replay-score").textContent = String(position.score);
    $("replay-slider").value = String(n);
    $("replay-slider").setAttribute("aria-valuetext", $("replay-counter").textContent);
    if (document.activeElement !== $("replay-jump")) $("replay-jump").value = String(n);
    $("replay-move").textContent = this.moveText(n);
    $("replay-first").disabled = $("replay-back").disabled = n === 0;
    $("replay-forward").disabled = $("replay-last").disabled = n === this.total;
    document.body.dataset.replayAt = String(n);
  }

  /** What move `n` did, in words: the server names the card it took and where it went. */
  moveText(n) {
    if (n === 0) return t("replay.deal");
    const step = this.positions[n];
    if (step.to === null) return t("replay.undo", { n });
    const card = cardName(step.card);
    let text = step.to === "f"
      ? t("replay.moved.f", { n, card })
      : t("replay.moved", { n, card, target: t("column", { n: step.to.slice(1) }) });
    if (step.flipped) text += ` ${t("replay.flipped", { card: cardName(step.flipped) })}`;
    return text;
  }

  /** The post-mortem in words, a button to its move, and a mark on the slider. */
  verdict() {
    const { postmortem: pm, postmortem_pending: pending } = this.data;
    const text = $("replay-verdict-text");
    const jump = $("replay-verdict-jump");
    const mark = $("replay-mark");
    const box = $("replay-verdict");
    jump.hidden = true;
    mark.hidden = true;
    box.dataset.verdict = pm ? pm.verdict : pending ? "pending" : "none";
    const offer = (n) => {
      jump.textContent = t("replay.goto", { n });
      jump.dataset.to = String(n);
      jump.hidden = false;
    };
    if (!pm) {
      text.textContent = pending ? t("replay.pending") : this.data.daily && !this.data.code ? t("replay.notyet.daily") : t("replay.notyet");
      return;
    }
    if (pm.verdict === "winnable") {
      text.textContent = t(this.data.status === "won" ? "replay.winnable" : "replay.winnable.open");
    } else if (pm.verdict === "lost") {
      if (pm.lost_at === 0) {
        text.textContent = t("replay.lost.deal");
      } else {
        const until = pm.winnable_until ?? pm.lost_at - 1;
        text.textContent = t("replay.lost", { until, lost: pm.lost_at });
        offer(until);
        this.markAt(pm.lost_at);
      }
      if (pm.rescued_at != null) {
        text.textContent += ` ${t("replay.rescued", { n: pm.rescued_at })}`;
        if (pm.lost_at === 0) offer(pm.rescued_at);
      }
    } else if (pm.winnable_until != null) {
      text.textContent = t("replay.unknown.until", { n: pm.winnable_until });
      offer(pm.winnable_until);
    } else {
      text.textContent = t("replay.unknown");
    }
  }

  markAt(n) {
    const mark = $("replay-mark");
    mark.style.setProperty("--at", String(this.total ? n / this.total : 0));
    mark.hidden = false;
  }

  /** Ask again while the post-mortem is being made: only its verdict and the par change. */
  poll(left) {
    if (left <= 0) return;
    setTimeout(async () => {
      let data;
      try {
        data = await games.replay(this.id);
      } catch (err) {
        return;
      }
      this.data = { ...this.data, postmortem: data.postmortem, postmortem_pending: data.postmortem_pending, par: data.par };
      this.describe();
      this.verdict();
      if (data.postmortem_pending) this.poll(left - 1);
    }, POLL_MS);
  }
}
