"""The API's rate limits: each scope's default rate and the variable that overrides it.

Plain Python (no Django), so the settings, the benchmarks and the fault tests read one list:
``THROTTLE_<SCOPE>`` sets a scope's rate in DRF syntax (``N/second|minute|hour|day``).
"""

from __future__ import annotations

import os

#: Per player (account or guest session) and per IP; hints and the winnable check run the solver.
DEFAULT_RATES: dict[str, str] = {
    "auth": "30/minute",
    "auth_ip": "60/minute",
    "login_username": "20/minute",
    # Mails the site sends (password reset, address confirmation): per e-mail address or account,
    # and per IP, so that nobody floods someone's mailbox.
    "mail": "5/hour",
    "mail_ip": "30/hour",
    "game_start": "120/minute",
    "game_start_ip": "600/minute",
    "moves": "1200/minute",
    "moves_ip": "6000/minute",
    # A player following hints at a human pace (one every 2 s, with a "still winnable?" now and
    # then) stays well inside: a fixed window of a minute lets 30 such hints and more through.
    "help": "60/minute",
    "help_ip": "300/minute",
    # Looking up a player by name (the profile page and its statistics): a person opens a few; a
    # script guessing which names exist opens hundreds.
    "lookup": "60/minute",
    "lookup_ip": "120/minute",
    # Following and unfollowing players (docs/social.md).
    "follow": "60/minute",
    "follow_ip": "120/minute",
    # New accounts per client address (docs/fair-play.md: accounts cost nothing, and a second one is a
    # scouting tool). Counts only accounts made (``common.throttles.AddressQuota``); "N/day" is
    # per UTC day.
    "signup_ip": "5/day",
}


def env_name(scope: str) -> str:
    return f"THROTTLE_{scope.upper()}"


def rates_from_env() -> dict[str, str]:
    """Every scope's rate: its environment variable, else the default."""
    return {scope: os.environ.get(env_name(scope), rate) for scope, rate in DEFAULT_RATES.items()}


def lifted_env() -> dict[str, str]:
    """Variables that lift every limit: for load and fault tests, where one machine plays many
    players from one address, far above a person's pace. Never for production."""
    return {env_name(scope): "1000000/minute" for scope in DEFAULT_RATES}
