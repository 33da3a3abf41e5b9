"""The account's verbs, by subject: each module owns one, and callers import a verb from the module
that owns it (nothing is re-exported here).

- :mod:`.registration` — the names a new account may take, and registering it.
- :mod:`.passwords` — a new password held to the validators, changing it, asking a reset link.
- :mod:`.sessions` — signing in, each session's row and last-seen time, ending the others.
- :mod:`.tokens` — API tokens: issued, listed, revoked.
- :mod:`.email` — the address: set, confirmed, removed, a change undone.
- :mod:`.settings` — the profile, play settings and language, and who is playing (``auth/me``).
- :mod:`.deletion` — deleting an account.

Below them: :mod:`accounts.links` (the signed text of the mailed links) and :mod:`accounts.jobs`
(the tasks they send, by name). Beside them :mod:`accounts.mail` (the mails); above both
:mod:`accounts.tasks`, the API and the pages.
"""
