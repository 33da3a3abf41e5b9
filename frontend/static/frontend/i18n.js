// The texts the scripts write themselves (the play page's, and what all pages share; the other
// pages' own are in strings.js, so the play page does not load them). The page's static text is
// rendered on the server in the player's language; these come from the same gettext catalogues
// (locale/*/LC_MESSAGES/djangojs.po, `make messages`), served by Django's JavaScriptCatalog at
// /jsi18n/<lang>.js, which the page loads (deferred) before its modules. Each is
// pgettext(key, English): the key is the context, the German is the catalogue's.

const pgettext = globalThis.django?.pgettext ?? ((context, text) => text);

const STRINGS = {
  "nav.daily": pgettext("nav.daily", "Daily deal"),
  "nav.login": pgettext("nav.login", "Log in"),
  "nav.signup": pgettext("nav.signup", "Sign up"),
  "nav.logout": pgettext("nav.logout", "Log out"),
  "nav.account": pgettext("nav.account", "Account"),
  "nav.clubs": pgettext("nav.clubs", "Clubs"),
  "nav.guest": pgettext("nav.guest", "Guest"),
  "signedOut": pgettext("signedOut", "You were signed out — sign in to go on with this game."),
  "signedOut.login": pgettext("signedOut.login", "Sign in"),
  "loggedOut": pgettext("loggedOut", "You are logged out. Your games stay with your account: log in again to go on with them."),
  "confirmSent": pgettext("confirmSent", "A link to confirm {email} is on its way: open it within three days, and you can set a new password if you ever forget yours."),
  "gamesKept.one": pgettext("gamesKept.one", "Your game as a guest is now your account's: it counts in your statistics."),
  "gamesKept.other": pgettext(
    "gamesKept.other",
    "Your {n} games as a guest are now your account's: they count in your statistics.",
  ),
  "bar.time": pgettext("bar.time", "Time"),
  "bar.moves": pgettext("bar.moves", "Moves"),
  "bar.score": pgettext("bar.score", "Score"),
  "bar.copy": pgettext("bar.copy", "Copy game code"),
  "bar.daily": pgettext("bar.daily", "Daily deal"),
  "hint.move": pgettext("hint.move", "Hint: {card} → {target}"),
  "hint.none": pgettext("hint.none", "No move left: undo some moves or start again."),
  "hint.no_progress": pgettext("hint.no_progress", "No useful move — consider undo."),
  "winnable.yes": pgettext("winnable.yes", "This game can still be won."),
  "winnable.no": pgettext("winnable.no", "This game can no longer be won: undo some moves."),
  "winnable.unknown": pgettext("winnable.unknown", "The solver could not decide that, not even in the background."),
  "winnable.deciding": pgettext("winnable.deciding", "Deciding … the solver is working on it in the background."),
  "bar.winnable_deal": pgettext("bar.winnable_deal", "winnable deal"),
  "bar.pause": pgettext("bar.pause", "Pause"),
  "bar.resume": pgettext("bar.resume", "Resume"),
  "ranked.nopause": pgettext("ranked.nopause", "A ranked attempt cannot be paused: its clock runs until the end."),
  "ranked.away": pgettext("ranked.away", "The clock kept running while you were away: a ranked attempt has no pause."),
  "howto.cover.title": pgettext("howto.cover.title", "Your game is dealt"),
  "howto.cover.text": pgettext("howto.cover.text", "Its clock starts when you do: read how to play, then start."),
  "howto.cover.start": pgettext("howto.cover.start", "Start"),
  "ranked.elsewhere": pgettext("ranked.elsewhere", "Your ranked attempt at today's deal is still running: its clock does not stop while you play here."),
  "ranked.back": pgettext("ranked.back", "Back to it"),
  "help.thinking": pgettext("help.thinking", "One moment …"),
  "solved.in.one": pgettext("solved.in.one", "Solvable in 1 move"),
  "solved.in.other": pgettext("solved.in.other", "Solvable in {n} moves"),
  "rule.classic": pgettext("rule.classic", "Classic"),
  "rule.relaxed": pgettext("rule.relaxed", "Relaxed"),
  "suit.S": pgettext("suit.S", "Spades"),
  "suit.H": pgettext("suit.H", "Hearts"),
  "suit.D": pgettext("suit.D", "Diamonds"),
  "suit.C": pgettext("suit.C", "Clubs"),
  "rank.1": pgettext("rank.1", "Ace"),
  "rank.11": pgettext("rank.11", "Jack"),
  "rank.12": pgettext("rank.12", "Queen"),
  "rank.13": pgettext("rank.13", "King"),
  "short.1": pgettext("short.1", "A"),
  "short.11": pgettext("short.11", "J"),
  "short.12": pgettext("short.12", "Q"),
  "short.13": pgettext("short.13", "K"),
  "card.down": pgettext("card.down", "face-down card"),
  "column": pgettext("column", "column {n}"),
  "column.empty": pgettext("column.empty", "column {n}, empty"),
  "column.cards.one": pgettext("column.cards.one", "column {col}, 1 card"),
  "column.cards.other": pgettext("column.cards.other", "column {col}, {n} cards"),
  "foundation": pgettext("foundation", "{suit} foundation"),
  "foundation.empty": pgettext("foundation.empty", "{suit} foundation, empty"),
  "foundations": pgettext("foundations", "foundations"),
  "cursor.card": pgettext("cursor.card", "{card}, column {n}"),
  "cursor.covered.one": pgettext("cursor.covered.one", "1 card on it"),
  "cursor.covered.other": pgettext("cursor.covered.other", "{n} cards on it"),
  "cursor.picked": pgettext("cursor.picked", "Picked up {card}. Choose a target, Enter to drop, Escape to cancel."),
  "cursor.target": pgettext("cursor.target", "Target: {target}"),
  "cursor.cancel": pgettext("cursor.cancel", "Cancelled."),
  "moved": pgettext("moved", "{card} to {target}"),
  "moved.undo": pgettext("moved.undo", "Move undone."),
  "finish.offered": pgettext("finish.offered", "Every card is face up: Finish (F) puts them all onto the foundations."),
  "finished.one": pgettext("finished.one", "Finished: 1 card onto its foundation."),
  "finished.other": pgettext("finished.other", "Finished: {n} cards onto their foundations."),
  "flipped": pgettext("flipped", "{card} turned face up."),
  "settings.saved.account": pgettext("settings.saved.account", "Saved to your account."),
  "settings.saved.local": pgettext("settings.saved.local", "Saved in this browser."),
  "error.network": pgettext("error.network", "Cannot reach the server. Please try again."),
  "offline.playing": pgettext("offline.playing", "Offline: your moves are kept on this device and saved when you are back online."),
  "offline.dealt": pgettext("offline.dealt", "Offline: a new practice game dealt on this device. It is saved when you are back online."),
  "offline.saved.one": pgettext("offline.saved.one", "Back online: your move played offline is saved."),
  "offline.saved.other": pgettext("offline.saved.other", "Back online: your {n} moves played offline are saved."),
  "offline.refused": pgettext("offline.refused", "Back online: the server replayed {n} of your {of} offline moves; the game is kept up to its last legal move."),
  "offline.notSaved": pgettext("offline.notSaved", "The moves played offline could not be saved: {detail}"),
  "offline.movedOn": pgettext("offline.movedOn", "This game went on elsewhere meanwhile: the moves played offline here could not be added."),
  "offline.dailyMove": pgettext("offline.dailyMove", "Today's deal plays only online: its face-down cards never leave the server. Your move waits for the network."),
  "offline.noHelp": pgettext("offline.noHelp", "Hints and \u201cstill winnable?\u201d need the network."),
  "offline.notYet": pgettext("offline.notYet", "Cannot reach the server, and offline play is not ready on this device yet (it loads once the page has been open a moment)."),
  "error.generic": pgettext("error.generic", "That did not work."),
  "error.stale": pgettext("error.stale", "The game was played elsewhere – reloaded."),
  "rule.close": pgettext("rule.close", "Close"),
  "loading": pgettext("loading", "Loading …"),
  "close.warning": pgettext("close.warning", "Less than 15 minutes left: the ranked attempt counts only if won before 00:00 UTC."),
  "close.over": pgettext("close.over", "The day is over: this game no longer counts for the leaderboard; you can play on as practice."),
  "bar.ranked": pgettext("bar.ranked", "Ranked"),
  "bar.practice": pgettext("bar.practice", "Practice"),
  "bar.copy.code": pgettext("bar.copy.code", "Copy game code {code}"),
  "resumed": pgettext("resumed", "Your game in progress ({moves}) – carry on."),
  "moves.one": pgettext("moves.one", "1 move"),
  "moves.other": pgettext("moves.other", "{n} moves"),
  "movesWith.one": pgettext("movesWith.one", "1 move"),
  "movesWith.other": pgettext("movesWith.other", "{n} moves"),
  "confirm.text": pgettext("confirm.text", "Your game in progress ({moves}) stays in “My games”, where you can resume it."),
  "confirm.ranked": pgettext("confirm.ranked", "Your ranked attempt's clock keeps running while you play another game: it has no pause. Come back to it before 00:00 UTC to win it."),
  "lost.game": pgettext("lost.game", "This game does not exist (any more), or it belongs to another account."),
  "lost.code": pgettext("lost.code", "No game can be started with this game code: {detail}"),
  "lost.gone": pgettext("lost.gone", "This game no longer exists (it was replaced by a new one before its first move)."),
  "new.code.rule": pgettext("new.code.rule", "The game code decides the rule."),
};

export function pickLanguage(languages) {
  for (const tag of languages || []) {
    const base = String(tag).toLowerCase().slice(0, 2);
    if (base === "de" || base === "en") return base;
  }
  return "de";
}

/** The page's language: the server chose it (Accept-Language, docs/api.md) and rendered the page in it
 *  (German outside a page: the unit tests under Node, tests/js/). */
export const lang = pickLanguage([globalThis.document?.documentElement.lang]);

/** The text for `key`, with `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const text = STRINGS[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/** The plural form of `n` by the language's rules: for German and English a whole 1 is "one", any
 *  other whole number "other" (CLDR); anything else asks Intl.PluralRules, made when first needed
 *  (making it reads the locale's data: time the play page's first render does not have). */
let pluralRules = null;
export function pluralForm(n) {
  if (Number.isInteger(n)) return n === 1 ? "one" : "other";
  pluralRules ??= new Intl.PluralRules(lang);
  return pluralRules.select(n);
}

/** The text for `key` with the count `n`: `key.one`, `key.other` (…) by the language's plural
 *  rules; `{n}` is the formatted number. */
export function tn(key, n, vars = {}) {
  const form = `${key}.${pluralForm(n)}`;
  return t(STRINGS[form] !== undefined ? form : `${key}.other`, { ...vars, n: formatNumber(n) });
}

/** More texts (of the pages other than the play page: strings.js). */
export function addStrings(more) {
  Object.assign(STRINGS, more);
}

/** A card's readable name: "Herz 7", "Queen of Spades". */
export function cardName(card) {
  if (!card || card === "XX") return t("card.down");
  const rank = rankNumber(card[0]);
  const suit = t(`suit.${card[1]}`);
  const rankText = rank === 1 || rank > 10 ? t(`rank.${rank}`) : String(rank);
  return lang === "en" ? `${rankText} of ${suit}` : `${suit} ${rankText}`;
}

/** The rank as printed on a card: A, 2..10, J/Q/K (B/D/K in German). */
export function rankLabel(card) {
  const rank = rankNumber(card[0]);
  return rank === 1 || rank > 10 ? t(`short.${rank}`) : String(rank);
}

export function rankNumber(letter) {
  return "A23456789TJQK".indexOf(letter) + 1;
}

/** Milliseconds as m:ss or h:mm:ss. */
export function formatTime(ms) {
  const total = Math.max(0, Math.floor((ms || 0) / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

const LOCALE = lang === "en" ? "en-GB" : "de-DE";
// Each formatter made once: making one reads the locale's data (the play page's first render made
// dozens, 0.1 s of its main thread, issue 41 item 8).
const formats = new Map();
function formatter(kind, options) {
  const key = `${kind} ${JSON.stringify(options)}`;
  if (!formats.has(key)) formats.set(key, new Intl[kind](LOCALE, options));
  return formats.get(key);
}

export function formatNumber(n, digits = 0) {
  // A whole number under 1000 reads the same in both languages without grouping: no formatter.
  if (Number.isInteger(n) && Math.abs(n) < 1000) return String(n);
  return formatter("NumberFormat", { maximumFractionDigits: digits }).format(n);
}

/** A moment as date and time in UTC, as the site counts its days ("5 December 2026, 00:00 UTC"). */
export function formatMoment(iso) {
  const format = formatter("DateTimeFormat", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });
  return `${format.format(new Date(iso))} UTC`;
}

export function formatDate(iso) {
  const d = new Date(`${iso}T00:00:00Z`);
  return formatter("DateTimeFormat", { dateStyle: "long", timeZone: "UTC" }).format(d);
}
