"""Which account a username names: the one lookup that the login (``accounts``) and the player
pages (``stats``) share, kept here so that neither app needs the other for it."""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model


def username_stored(username: str) -> str:
    """The stored name that a login's ``username`` means: the same name in any case and in the
    NFKC form of registration ("ｊｏｎａｓ" and "jonas" log in as "Jonas"). An exact match comes first
    (older accounts may differ only in case); a name nobody has comes back NFKC-normalised."""
    name = unicodedata.normalize("NFKC", username)
    names = list(get_user_model().objects.filter(username__iexact=name).values_list("username", flat=True)[:10])
    if username in names or name in names:
        return username if username in names else name
    return names[0] if len(names) == 1 else name
