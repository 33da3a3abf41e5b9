// Every text of the pages, in German and English. The browser's language decides (SPEC 8):
// the first of navigator.languages that is German or English wins; German when neither is.

const STRINGS = {
  de: {
    "nav.play": "Spielen", "nav.daily": "Tagesspiel", "nav.leaderboards": "Bestenliste",
    "nav.stats": "Statistik", "nav.login": "Anmelden", "nav.signup": "Registrieren",
    "nav.logout": "Abmelden", "nav.guest": "Gast", "nav.main": "Hauptmenü",
    "title.play": "Yukon Solitaire", "title.daily": "Tagesspiel – Yukon Solitaire",
    "title.leaderboards": "Bestenliste – Yukon Solitaire", "title.stats": "Statistik – Yukon Solitaire",
    "title.login": "Anmelden – Yukon Solitaire", "title.signup": "Registrieren – Yukon Solitaire",
    "bar.time": "Zeit", "bar.moves": "Züge", "bar.score": "Punkte", "bar.code": "Spielcode",
    "bar.copy": "Spielcode kopieren", "bar.copied": "Kopiert!", "bar.daily": "Tagesspiel",
    "bar.undo": "Rückgängig", "bar.new": "Neues Spiel", "bar.settings": "Einstellungen",
    "bar.undo.title": "Letzten Zug rückgängig machen (Strg+Z)", "bar.label": "Spielleiste",
    "bar.hint": "Tipp", "bar.hint.title": "Einen guten nächsten Zug zeigen (nur aus den offenen Karten)",
    "bar.winnable": "Noch lösbar?", "bar.winnable.title": "Prüfen, ob sich diese Partie noch gewinnen lässt",
    "hint.move": "Tipp: {card} → {target}", "hint.none": "Kein Zug mehr möglich: mach Züge rückgängig oder beginne neu.",
    "winnable.yes": "Diese Partie lässt sich noch gewinnen.", "winnable.no": "Diese Partie lässt sich nicht mehr gewinnen: mach Züge rückgängig.",
    "winnable.unknown": "Das ließ sich auf die Schnelle nicht entscheiden.", "help.thinking": "Einen Moment …",
    "solved.in": "Lösbar in {n} Zügen",
    "rule.classic": "Klassisch", "rule.relaxed": "Gelockert",
    "table.label": "Spielfeld: 7 Spalten und 4 Zielstapel",
    "suit.S": "Pik", "suit.H": "Herz", "suit.D": "Karo", "suit.C": "Kreuz",
    "rank.1": "Ass", "rank.11": "Bube", "rank.12": "Dame", "rank.13": "König",
    "short.1": "A", "short.11": "B", "short.12": "D", "short.13": "K",
    "card.down": "verdeckte Karte", "column": "Spalte {n}", "column.empty": "Spalte {n}, leer",
    "foundation": "Zielstapel {suit}", "foundation.empty": "Zielstapel {suit}, leer",
    "foundations": "Zielstapel",
    "cursor.card": "{card}, Spalte {n}", "cursor.covered": "{count} Karten darauf",
    "cursor.picked": "{card} aufgenommen. Ziel wählen, Eingabe zum Ablegen, Escape zum Abbrechen.",
    "cursor.target": "Ziel: {target}", "cursor.cancel": "Abgebrochen.",
    "moved": "{card} nach {target}", "moved.undo": "Zug rückgängig gemacht.",
    "flipped": "{card} aufgedeckt.",
    "settings.title": "Einstellungen", "settings.doubleTap": "Doppelklick",
    "settings.doubleTap.help": "Zweimal tippen sucht einen Platz auf dem Spielfeld für die Karte und die Karten darauf.",
    "settings.dropHints": "Ablagehilfe", "settings.dropHints.help": "Zeigt beim Ziehen die möglichen Ablageplätze.",
    "settings.interactiveRules": "Interaktive Regeln", "settings.interactiveRules.help": "Erklärt die Regel, wenn ein Zug abgelehnt wird.",
    "settings.autoDrop": "Automatische Ablage", "settings.autoDrop.help": "Wählt beim Loslassen die Zielspalte automatisch.",
    "settings.fourColor": "Vierfarbiges Blatt", "settings.fourColor.help": "Karo blau, Kreuz grün: leichter zu unterscheiden.",
    "settings.saved.account": "Gespeichert in deinem Konto.", "settings.saved.local": "Gespeichert in diesem Browser.",
    "settings.close": "Fertig",
    "new.title": "Neues Spiel", "new.rule": "Regel", "new.classic.help": "Rot auf Schwarz, Schwarz auf Rot.",
    "new.relaxed.help": "Die Farbe spielt in den Spalten keine Rolle.", "new.code": "Oder einen Spielcode eingeben",
    "new.code.placeholder": "YU1-C-AAAAAAB oder YU2-C-…", "new.start": "Spiel starten", "new.cancel": "Abbrechen",
    "win.title": "Gewonnen!", "win.text": "Alle 52 Karten liegen auf den Zielstapeln.",
    "win.time": "Zeit", "win.moves": "Züge", "win.score": "Punkte", "win.again": "Neues Spiel",
    "win.rank": "Zum Ranking", "win.close": "Schließen",
    "keys.title": "Tastatur", "keys.arrows": "Karte wählen: ←/→ Spalte, ↑/↓ Karte in der Spalte, 1–7 springt zur Spalte",
    "keys.enter": "Eingabe oder Leertaste: Karte mit den Karten darauf aufnehmen; Ziel mit ←/→ (↑ für Zielstapel) wählen; Eingabe legt ab",
    "keys.escape": "Escape: Aufnahme abbrechen", "keys.f": "F: letzte Karte auf ihren Zielstapel",
    "keys.a": "A: Platz für die Karte suchen (wie Doppelklick)", "keys.undo": "Strg+Z oder U: rückgängig",
    "keys.new": "N: neues Spiel",
    "help.rules": "Regeln", "help.rules.text": "Jede offene Karte wandert mit allen Karten darauf – auch ungeordnet. Die unterste Karte muss auf eine Karte der Gegenfarbe passen, die genau einen Rang höher ist. In eine leere Spalte darf nur ein König. Gewonnen ist, wenn alle 52 Karten auf den Zielstapeln liegen.",
    "error.network": "Keine Verbindung zum Server. Bitte erneut versuchen.",
    "error.generic": "Das hat nicht geklappt.", "error.stale": "Das Spiel wurde anderswo weitergespielt – neu geladen.",
    "rule.close": "Schließen", "loading": "Lädt …",
    "daily.title": "Tagesspiel", "daily.lead": "Jeden Tag dieselbe Kartenverteilung für alle. Dein erster Versuch zählt für die Bestenliste, wenn du ihn vor 00:00 UTC gewinnst.",
    "daily.date": "{date} · Klassisch", "daily.play": "Tagesspiel spielen", "daily.resume": "Weiterspielen",
    "daily.players.one": "1 Spieler heute", "daily.players.other": "{n} Spieler heute",
    "daily.closes": "Gewertet wird bis 00:00 UTC – noch {time}",
    "daily.unavailable": "Das Tagesspiel ist noch nicht verfügbar. Schau bald wieder vorbei!",
    "daily.preparing": "Das heutige Tagesspiel wird gerade vorbereitet. Die Seite versucht es gleich von selbst noch einmal.",
    "daily.rank": "Dein Rang: {rank} von {players}", "daily.unranked": "Gewonnen! Dieser Versuch wird nicht gewertet.",
    "daily.guest": "Das heutige Tagesspiel ist für Konten: Mit einem kostenlosen Konto spielst du es mit und kommst auf die Bestenliste.",
    "daily.past": "Gestriges Tagesspiel üben", "daily.past.title": "Das Tagesspiel von gestern als Übung spielen (ohne Wertung)",
    "daily.board": "Ganze Bestenliste", "daily.top": "Bestenliste heute", "daily.top.empty": "Heute hat noch niemand gewonnen.",
    "daily.attempt.none": "Dein erstes Spiel heute ist dein gewerteter Versuch.",
    "daily.attempt.playing": "Dein gewerteter Versuch läuft.",
    "daily.attempt.closed": "Der Tag war vorbei, bevor dein gewerteter Versuch gewonnen war: Er zählt nicht für die Bestenliste. Du kannst ihn als Übung weiterspielen.",
    "daily.review.pending": "Gewonnen! Dein Ergebnis wird gerade geprüft und erscheint gleich auf der Bestenliste.",
    "daily.review.held": "In Prüfung: Dein Ergebnis erscheint auf der Bestenliste, sobald es vom Team geprüft wurde.",
    "daily.review.rejected": "Dein Ergebnis wurde bei der Prüfung abgelehnt und zählt nicht für die Bestenliste.",
    "daily.review.invalid": "Dein Ergebnis ließ sich aus seinen Zügen nicht nachspielen und zählt nicht für die Bestenliste.",
    "daily.practice": "Weitere Partien des heutigen Tagesspiels sind Übung und werden nicht gewertet.",
    "daily.again": "Nochmal spielen (Übung)", "daily.continue": "Übungspartie fortsetzen", "daily.playon": "Als Übung weiterspielen",
    "daily.warn.title": "Der Tag endet bald", "daily.warn.go": "Trotzdem spielen",
    "daily.warn.left": "Noch {time} bis 00:00 UTC. Danach zählt die Partie nur noch als Übung.",
    "close.label": "Endet in", "close.title": "Der gewertete Versuch zählt nur, wenn er vor 00:00 UTC gewonnen wird.",
    "close.warning": "Weniger als 15 Minuten übrig: Der gewertete Versuch zählt nur, wenn du vor 00:00 UTC gewinnst.",
    "close.over": "Der Tag ist vorbei: Diese Partie zählt nicht mehr für die Bestenliste. Du kannst sie als Übung weiterspielen.",
    "bar.ranked": "Gewertet", "bar.practice": "Übung", "bar.copy.code": "Spielcode {code} kopieren",
    "lb.title": "Bestenliste", "lb.date": "Datum", "lb.players.one": "1 Teilnehmer", "lb.players.other": "{n} Teilnehmer", "lb.rank": "Rang",
    "lb.player": "Spieler", "lb.time": "Zeit", "lb.moves": "Züge", "lb.score": "Punkte",
    "lb.empty": "Für diesen Tag gibt es noch keine gewonnenen Partien.",
    "lb.unavailable": "Die Bestenliste ist noch nicht verfügbar. Schau bald wieder vorbei!",
    "stats.title": "Statistik", "stats.played": "Gespielt", "stats.won": "Gewonnen", "stats.winrate": "Gewinnquote",
    "stats.streak": "Aktuelle Serie", "stats.longest": "Längste Serie", "stats.besttime": "Bestzeit",
    "stats.fewest": "Wenigste Züge", "stats.bestscore": "Höchste Punktzahl", "stats.avgtime": "Ø Zeit (gewonnen)",
    "stats.bestrank": "Bester Tagesrang", "stats.history": "Verlauf", "stats.chart.time": "Zeit (Minuten)",
    "stats.chart.won": "Gewonnen", "stats.chart.open": "Nicht beendet", "stats.chart.label": "Diagramm: Spielzeiten und Ergebnisse im Verlauf",
    "stats.perrule": "Nach Regel", "stats.daily": "Tagesspiele", "stats.days": "{n} Tage",
    "stats.login": "Du spielst als Gast: Hier stehen die Partien dieses Browsers. Mit einem Konto bleiben sie erhalten, und du kommst auf die Bestenliste.",
    "stats.unavailable": "Die ausführliche Statistik ist noch nicht verfügbar – hier sind deine Partien.",
    "stats.none": "Noch keine Partien – zeit für die erste!", "stats.of": "Statistik von {name}",
    "stats.notfound": "Diesen Spieler gibt es nicht.",
    "auth.login.title": "Anmelden", "auth.signup.title": "Konto anlegen", "auth.username": "Benutzername",
    "auth.password": "Passwort", "auth.login.submit": "Anmelden", "auth.signup.submit": "Registrieren",
    "auth.login.alt": "Noch kein Konto?", "auth.signup.alt": "Schon registriert?",
    "auth.signup.lead": "Deine als Gast gespielten Partien werden übernommen.",
    "auth.login.lead": "Mit Konto kommst du auf die Bestenliste und behältst deine Statistik.",
    "auth.failed": "Benutzername oder Passwort stimmt nicht.", "auth.loggedout": "Abgemeldet.",
    "footer.text": "Yukon Solitaire – ohne Anmeldung spielbar.",
  },
  en: {
    "nav.play": "Play", "nav.daily": "Daily deal", "nav.leaderboards": "Leaderboards",
    "nav.stats": "Statistics", "nav.login": "Log in", "nav.signup": "Sign up",
    "nav.logout": "Log out", "nav.guest": "Guest", "nav.main": "Main menu",
    "title.play": "Yukon Solitaire", "title.daily": "Daily deal – Yukon Solitaire",
    "title.leaderboards": "Leaderboards – Yukon Solitaire", "title.stats": "Statistics – Yukon Solitaire",
    "title.login": "Log in – Yukon Solitaire", "title.signup": "Sign up – Yukon Solitaire",
    "bar.time": "Time", "bar.moves": "Moves", "bar.score": "Score", "bar.code": "Game code",
    "bar.copy": "Copy game code", "bar.copied": "Copied!", "bar.daily": "Daily deal",
    "bar.undo": "Undo", "bar.new": "New game", "bar.settings": "Settings",
    "bar.undo.title": "Undo the last move (Ctrl+Z)", "bar.label": "Game bar",
    "bar.hint": "Hint", "bar.hint.title": "Show a good next move (from the face-up cards only)",
    "bar.winnable": "Still winnable?", "bar.winnable.title": "Check whether this game can still be won",
    "hint.move": "Hint: {card} → {target}", "hint.none": "No move left: undo some moves or start again.",
    "winnable.yes": "This game can still be won.", "winnable.no": "This game can no longer be won: undo some moves.",
    "winnable.unknown": "That could not be decided quickly.", "help.thinking": "One moment …",
    "solved.in": "Solvable in {n} moves",
    "rule.classic": "Classic", "rule.relaxed": "Relaxed",
    "table.label": "Table: 7 columns and 4 foundations",
    "suit.S": "Spades", "suit.H": "Hearts", "suit.D": "Diamonds", "suit.C": "Clubs",
    "rank.1": "Ace", "rank.11": "Jack", "rank.12": "Queen", "rank.13": "King",
    "short.1": "A", "short.11": "J", "short.12": "Q", "short.13": "K",
    "card.down": "face-down card", "column": "column {n}", "column.empty": "column {n}, empty",
    "foundation": "{suit} foundation", "foundation.empty": "{suit} foundation, empty",
    "foundations": "foundations",
    "cursor.card": "{card}, column {n}", "cursor.covered": "{count} cards on it",
    "cursor.picked": "Picked up {card}. Choose a target, Enter to drop, Escape to cancel.",
    "cursor.target": "Target: {target}", "cursor.cancel": "Cancelled.",
    "moved": "{card} to {target}", "moved.undo": "Move undone.", "flipped": "{card} turned face up.",
    "settings.title": "Settings", "settings.doubleTap": "Double-tap",
    "settings.doubleTap.help": "Tapping twice finds a place on the table for the card and the cards on it.",
    "settings.dropHints": "Drop hints", "settings.dropHints.help": "Highlights the legal targets while you drag.",
    "settings.interactiveRules": "Interactive rules", "settings.interactiveRules.help": "Explains the rule when a move is refused.",
    "settings.autoDrop": "Automatic drop", "settings.autoDrop.help": "Chooses the target column by itself when you let go.",
    "settings.fourColor": "Four-colour deck", "settings.fourColor.help": "Diamonds blue, clubs green: easier to tell apart.",
    "settings.saved.account": "Saved to your account.", "settings.saved.local": "Saved in this browser.",
    "settings.close": "Done",
    "new.title": "New game", "new.rule": "Rule", "new.classic.help": "Red on black, black on red.",
    "new.relaxed.help": "Colour does not matter in the columns.", "new.code": "Or enter a game code",
    "new.code.placeholder": "YU1-C-AAAAAAB or YU2-C-…", "new.start": "Start game", "new.cancel": "Cancel",
    "win.title": "You won!", "win.text": "All 52 cards are on the foundations.",
    "win.time": "Time", "win.moves": "Moves", "win.score": "Score", "win.again": "New game",
    "win.rank": "See your rank", "win.close": "Close",
    "keys.title": "Keyboard", "keys.arrows": "Select a card: ←/→ column, ↑/↓ card in the column, 1–7 jump to a column",
    "keys.enter": "Enter or Space: pick up the card with the cards on it; choose a target with ←/→ (↑ for the foundations); Enter drops",
    "keys.escape": "Escape: put the card back", "keys.f": "F: last card to its foundation",
    "keys.a": "A: find a place for the card (like double-tap)", "keys.undo": "Ctrl+Z or U: undo",
    "keys.new": "N: new game",
    "help.rules": "Rules", "help.rules.text": "Any face-up card moves together with every card on it – even unordered ones. The bottom card must fit on a card of the other colour that is exactly one rank higher. Only a King may go into an empty column. You win when all 52 cards are on the foundations.",
    "error.network": "Cannot reach the server. Please try again.",
    "error.generic": "That did not work.", "error.stale": "The game was played elsewhere – reloaded.",
    "rule.close": "Close", "loading": "Loading …",
    "daily.title": "Daily deal", "daily.lead": "The same deal for everyone, every day. Your first attempt counts for the leaderboard if you win it before 00:00 UTC.",
    "daily.date": "{date} · Classic", "daily.play": "Play today's deal", "daily.resume": "Resume",
    "daily.players.one": "1 player today", "daily.players.other": "{n} players today",
    "daily.closes": "Ranked until 00:00 UTC – {time} left",
    "daily.unavailable": "The daily deal is not available yet. Check back soon!",
    "daily.preparing": "Today's deal is being prepared. The page tries again by itself in a moment.",
    "daily.rank": "Your rank: {rank} of {players}", "daily.unranked": "You won! This attempt is not ranked.",
    "daily.guest": "Today's deal is for accounts: with a free account you play it too and get on the leaderboard.",
    "daily.past": "Practise yesterday's deal", "daily.past.title": "Play yesterday's daily deal as practice (not ranked)",
    "daily.board": "Full leaderboard", "daily.top": "Today's leaderboard", "daily.top.empty": "Nobody has won today yet.",
    "daily.attempt.none": "Your first game today is your ranked attempt.",
    "daily.attempt.playing": "Your ranked attempt is in progress.",
    "daily.attempt.closed": "The day ended before your ranked attempt was won: it does not count for the leaderboard. You can play it on as practice.",
    "daily.review.pending": "You won! Your result is being checked and appears on the board shortly.",
    "daily.review.held": "Under review: your result appears on the board once staff have checked it.",
    "daily.review.rejected": "Your result was rejected on review and does not count for the leaderboard.",
    "daily.review.invalid": "Your result could not be replayed from its moves and does not count for the leaderboard.",
    "daily.practice": "Further games of today's deal are practice and are not ranked.",
    "daily.again": "Play again (practice)", "daily.continue": "Continue practice game", "daily.playon": "Play on as practice",
    "daily.warn.title": "The day ends soon", "daily.warn.go": "Play anyway",
    "daily.warn.left": "{time} left until 00:00 UTC. After that the game counts as practice only.",
    "close.label": "Closes in", "close.title": "The ranked attempt counts only if won before 00:00 UTC.",
    "close.warning": "Less than 15 minutes left: the ranked attempt counts only if won before 00:00 UTC.",
    "close.over": "The day is over: this game no longer counts for the leaderboard; you can play on as practice.",
    "bar.ranked": "Ranked", "bar.practice": "Practice", "bar.copy.code": "Copy game code {code}",
    "lb.title": "Leaderboards", "lb.date": "Date", "lb.players.one": "1 player", "lb.players.other": "{n} players", "lb.rank": "Rank",
    "lb.player": "Player", "lb.time": "Time", "lb.moves": "Moves", "lb.score": "Score",
    "lb.empty": "No won games for this day yet.",
    "lb.unavailable": "Leaderboards are not available yet. Check back soon!",
    "stats.title": "Statistics", "stats.played": "Played", "stats.won": "Won", "stats.winrate": "Win rate",
    "stats.streak": "Current streak", "stats.longest": "Longest streak", "stats.besttime": "Best time",
    "stats.fewest": "Fewest moves", "stats.bestscore": "Highest score", "stats.avgtime": "Avg. time (won)",
    "stats.bestrank": "Best daily rank", "stats.history": "History", "stats.chart.time": "Time (minutes)",
    "stats.chart.won": "Won", "stats.chart.open": "Not finished", "stats.chart.label": "Chart: game times and results over time",
    "stats.perrule": "By rule", "stats.daily": "Daily deals", "stats.days": "{n} days",
    "stats.login": "You are playing as a guest: these are the games of this browser. With an account they are kept, and you get on the leaderboards.",
    "stats.unavailable": "Detailed statistics are not available yet – here are your games.",
    "stats.none": "No games yet – time for the first one!", "stats.of": "Statistics of {name}",
    "stats.notfound": "There is no such player.",
    "auth.login.title": "Log in", "auth.signup.title": "Create an account", "auth.username": "Username",
    "auth.password": "Password", "auth.login.submit": "Log in", "auth.signup.submit": "Sign up",
    "auth.login.alt": "No account yet?", "auth.signup.alt": "Already registered?",
    "auth.signup.lead": "The games you played as a guest are kept.",
    "auth.login.lead": "With an account you get on the leaderboards and keep your statistics.",
    "auth.failed": "Wrong username or password.", "auth.loggedout": "Logged out.",
    "footer.text": "Yukon Solitaire – play without an account.",
  },
};

export function pickLanguage(languages) {
  for (const tag of languages || []) {
    const base = String(tag).toLowerCase().slice(0, 2);
    if (base === "de" || base === "en") return base;
  }
  return "de";
}

export const lang = pickLanguage(
  navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language],
);

/** The text for `key`, with `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const text = STRINGS[lang][key] ?? STRINGS.de[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

const pluralRules = new Intl.PluralRules(lang);

/** The text for `key` with the count `n`: `key.one`, `key.other` (…) by the language's plural
 *  rules; `{n}` is the formatted number. */
export function tn(key, n, vars = {}) {
  const form = `${key}.${pluralRules.select(n)}`;
  const chosen = STRINGS[lang][form] !== undefined || STRINGS.de[form] !== undefined ? form : `${key}.other`;
  return t(chosen, { ...vars, n: formatNumber(n) });
}

/** Fill every element marked with data-i18n (text), data-i18n-label (aria-label),
 *  data-i18n-title and data-i18n-placeholder. */
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
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

export function formatNumber(n, digits = 0) {
  return new Intl.NumberFormat(lang === "en" ? "en-GB" : "de-DE", { maximumFractionDigits: digits }).format(n);
}

export function formatDate(iso) {
  const d = new Date(`${iso}T00:00:00Z`);
  return new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "de-DE", { dateStyle: "long", timeZone: "UTC" }).format(d);
}

document.documentElement.lang = lang;
translate();
document.documentElement.classList.add("i18n-ready");
