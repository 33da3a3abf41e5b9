"""Texts of the API's own error codes, in German (default) and English (SPEC section 8).

Rule refusals are explained by the engine (``games.engine.explain``, which knows no Django);
these are the rest. :data:`CODES` is every code an error answer may carry.
"""

from __future__ import annotations

from typing import Final

from django.utils import translation

from games.engine import REASONS

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "bad_request": ("Die Anfrage ist fehlerhaft.", "The request is malformed."),
    "bad_character": (
        "Die Anfrage enthält ein NUL-Zeichen (U+0000): das ist in keinem Text erlaubt.",
        "The request contains a NUL character (U+0000), which no text may contain.",
    ),
    "bad_move": (
        'Das ist kein gültiger Zug. Beispiel: {{"from": "t3", "card": "7H", "to": "t5"}}; '
        "Spalten t1..t7, Zielstapel fS fH fD fC (als Ziel: f), Ziel auto für den Doppelklick.",
        "That is not a valid move: {reason}.",
    ),
    "bad_code": (
        "Ungültiger Spielcode {text}: erwartet wird z. B. YU1-C-AAAAAAB.",
        "Invalid game code {text}: expected e.g. YU1-C-AAAAAAB.",
    ),
    "not_found": ("Nicht gefunden.", "Not found."),
    "bad_status": (
        "Unbekannter Status {text}: erlaubt sind {allowed}.",
        "Unknown status {text}: allowed are {allowed}.",
    ),
    "bad_format": (
        "Unbekanntes Format {text}: erlaubt sind {allowed}.",
        "Unknown format {text}: allowed are {allowed}.",
    ),
    "bad_date": (
        "Ungültiges Datum {text}: erwartet wird JJJJ-MM-TT, z. B. 2026-01-31.",
        "Invalid date {text}: expected YYYY-MM-DD, e.g. 2026-01-31.",
    ),
    "stale": (
        "Die Partie hat sich inzwischen geändert (Zug {moves}, nicht {seq}): bitte neu laden.",
        "The game has changed meanwhile (move {moves}, not {seq}): please reload it.",
    ),
    "idempotency_conflict": (
        "Dieser Idempotency-Key wurde schon für eine andere Anfrage verwendet.",
        "This Idempotency-Key was already used for a different request.",
    ),
    "bad_idempotency_key": (
        "Der Idempotency-Key muss aus 1 bis 255 sichtbaren ASCII-Zeichen bestehen.",
        "The Idempotency-Key must be 1 to 255 visible ASCII characters.",
    ),
    "daily_not_ready": (
        "Das heutige Tagesspiel wird gerade vorbereitet. Bitte versuche es in ein paar Sekunden erneut.",
        "Today's deal is being prepared. Please try again in a few seconds.",
    ),
    "daily_needs_account": (
        "Das heutige Tagesspiel ist für Konten: melde dich an oder registriere dich. "
        "Frühere Tagesspiele kannst du als Gast spielen.",
        "Today's deal is for accounts: log in or sign up. As a guest you can play any earlier daily deal.",
    ),
    "bad_credentials": (
        "Benutzername oder Passwort ist falsch.",
        "The username or password is wrong.",
    ),
    "username_taken": ("Dieser Benutzername ist schon vergeben.", "This username is already taken."),
    "bad_username": (
        "Ungültiger Benutzername: erlaubt sind 1 bis 150 Zeichen aus den Buchstaben A–Z und a–z, "
        "den Ziffern 0–9 und _ - .",
        "Invalid username: use 1 to 150 characters from the letters A–Z and a–z, the digits 0–9 and _ - .",
    ),
    "weak_password": ("Das Passwort ist zu schwach: {reason}", "The password is too weak: {reason}"),
    "not_authenticated": ("Bitte melde dich an.", "Please log in."),
    "authentication_failed": (
        "Die Anmeldung ist ungültig: das Token ist falsch oder widerrufen, oder das Konto ist gesperrt.",
        "The authentication is invalid: the token is wrong or revoked, or the account is disabled.",
    ),
    "permission_denied": ("Dafür fehlt die Berechtigung.", "You are not allowed to do this."),
    "method_not_allowed": (
        "Die Methode {method} ist hier nicht erlaubt (der Header Allow nennt die erlaubten).",
        "The method {method} is not allowed here (the Allow header lists those that are).",
    ),
    "not_acceptable": (
        "Die Antwort gibt es nur als JSON: der Header Accept schließt application/json aus.",
        "The answer is only available as JSON: the Accept header rules out application/json.",
    ),
    "unsupported_media_type": (
        "Der Inhalt muss JSON sein (Content-Type: application/json), nicht {media_type}.",
        "The body must be JSON (Content-Type: application/json), not {media_type}.",
    ),
    "throttled": (
        "Zu viele Anfragen: bitte in {wait} s erneut versuchen.",
        "Too many requests: please try again in {wait} s.",
    ),
    "csrf_failed": (
        "CSRF-Prüfung fehlgeschlagen: den Wert des Cookies csrftoken als Header X-CSRFToken mitsenden.",
        "CSRF check failed: send the value of the csrftoken cookie as the X-CSRFToken header.",
    ),
    "payload_too_large": ("Die Anfrage ist zu groß.", "The request is too large."),
    "service_unavailable": (
        "Der Dienst ist kurz nicht erreichbar. Bitte versuche es in ein paar Sekunden erneut.",
        "The service is briefly unavailable. Please try again in a few seconds.",
    ),
    "replay_broken": (
        "Diese Partie lässt sich aus ihrem Zugprotokoll nicht nachspielen.",
        "This game cannot be replayed from its move log.",
    ),
    "no_help_for_daily": (
        "Für die Tagespartie gibt es keine Hilfe, solange der Tag läuft: sie wird gewertet.",
        "There is no help for the daily deal while its day lasts: it is ranked.",
    ),
    "server_error": (
        "Ein interner Fehler ist aufgetreten. Bitte versuche es erneut.",
        "An internal error occurred. Please try again.",
    ),
}


#: Every code of an error answer (``{"error": code, "detail": text}``): the API's own, and the
#: rules' refusals (422, explained by the engine).
CODES: Final[frozenset[str]] = frozenset(MESSAGES) | REASONS


def current_language() -> str:
    """``"en"`` when the request prefers English, else ``"de"`` (LocaleMiddleware decides)."""
    return "en" if (translation.get_language() or "de").lower().startswith("en") else "de"


def message(code: str, lang: str | None = None, **params: object) -> str:
    """The text of ``code`` in ``lang`` (default: the active language), with ``params`` filled in."""
    german, english = MESSAGES.get(code, MESSAGES["bad_request"])
    template = english if (lang or current_language()) == "en" else german
    return template.format(**params) if params else template
