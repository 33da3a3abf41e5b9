"""Following and clubs (docs/social.md): writes, each in one transaction."""

from __future__ import annotations

import secrets
import unicodedata
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.db.models import Count, F
from django.utils.text import slugify

from common.errors import ApplicationError, ErrorCode
from games.competition import clock
from games.models import Game
from stats.models import DailyResult
from stats.selectors import user_by_username

from . import jobs
from .models import Club, ClubRemoval, ClubWeekEntry, Follow, Membership, Privacy

#: The most players one account follows: a friends' board stays one short read.
MAX_FOLLOWED = 500


def follow_add(*, user: Any, username: str) -> tuple[Any, bool]:
    """``user`` follows the player called ``username`` (``not_found`` if there is none,
    ``follow_self``, ``follow_limit`` past :data:`MAX_FOLLOWED`). Following again changes nothing:
    the followed account and whether this call added the link."""
    target = user_by_username(username=username)
    if target.pk == user.pk:
        raise ApplicationError(ErrorCode.FOLLOW_SELF)
    with transaction.atomic():
        # One account's follows one after the other, so two at once cannot pass the limit together.
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        links = Follow.objects.filter(follower=user)
        if links.filter(followed=target).exists():
            return target, False
        if links.count() >= MAX_FOLLOWED:
            raise ApplicationError(ErrorCode.FOLLOW_LIMIT, limit=MAX_FOLLOWED)
        Follow.objects.create(follower=user, followed=target)
    return target, True


def follow_remove(*, user: Any, username: str) -> Any:
    """``user`` no longer follows ``username`` (not following it is no error: the end is the same)."""
    target = user_by_username(username=username)
    Follow.objects.filter(follower=user, followed=target).delete()
    return target


# -- clubs ------------------------------------------------------------------------------------------

MAX_CLUBS_OWNED = 5
MAX_CLUBS_JOINED = 20
MAX_MEMBERS = 500
#: How long an invite link lets people in (the owner renews it, or revokes every link at once).
INVITE_MAX_AGE = timedelta(days=7)
_INVITE_SALT = "social.club-invite"
#: The letters of a slug's random tail (no 0/o, 1/l: it is read aloud and typed too).
_SLUG_LETTERS = "abcdefghijkmnpqrstuvwxyz23456789"


def club_name_clean(name: str) -> tuple[str, str]:
    """The name as shown (NFKC, spaces at its ends and runs of them trimmed) and as a comparison
    sees it (case folded); ``bad_club_name`` unless it has 3 to 40 characters."""
    shown = " ".join(unicodedata.normalize("NFKC", name).split())
    if not 3 <= len(shown) <= 40 or not shown.isprintable():
        raise ApplicationError(ErrorCode.BAD_CLUB_NAME)
    return shown, shown.casefold()


def _limits_check(user: Any, *, owning: bool) -> None:
    joined = Membership.objects.filter(user=user).count()
    owned = Club.objects.filter(owner=user).count() if owning else 0
    if joined >= MAX_CLUBS_JOINED or owned >= MAX_CLUBS_OWNED:
        raise ApplicationError(ErrorCode.CLUB_LIMIT, owned=MAX_CLUBS_OWNED, joined=MAX_CLUBS_JOINED)


def _slug_new(name: str) -> str:
    """A new club's slug: its name made readable, and a random tail, so that nobody can tell from
    a slug (or from a club made under a name) whether another club of that name exists."""
    base = (slugify(name) or "club")[:40]
    while True:
        slug = f"{base}-{''.join(secrets.choice(_SLUG_LETTERS) for _ in range(8))}"
        if not Club.objects.filter(slug=slug).exists():  # (40 bits: a clash is one in a trillion)
            return slug


def _name_free_check(user: Any, key: str, *, club: Club | None = None) -> None:
    """``club_name_taken`` if ``user`` is a member of another club of that name: a club's name is
    not unique on the site (its uniqueness told everyone that a private club of that name exists,
    issue 50), only among the clubs each player sees, so that their list tells them apart."""
    others = Club.objects.filter(name_key=key, pk__in=Membership.objects.filter(user=user).values("club_id"))
    if club is not None:
        others = others.exclude(pk=club.pk)
    if others.exists():
        raise ApplicationError(ErrorCode.CLUB_NAME_TAKEN)


def _lock_account(user: Any) -> None:
    """One account's club changes one after the other, so two at once cannot pass a limit together."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).exists()


def club_create(*, user: Any, name: str) -> Club:
    """A new club of ``user`` (its owner and first member); ``club_name_taken`` (only among the
    user's own clubs), ``club_limit``."""
    shown, key = club_name_clean(name)
    with transaction.atomic():
        _lock_account(user)
        _limits_check(user, owning=True)
        _name_free_check(user, key)
        club = Club.objects.create(name=shown, name_key=key, slug=_slug_new(shown), owner=user)
        Membership.objects.create(club=club, user=user)
        # The owner's results of this week count at once, as a joining member's do (issue 49).
        _weeks_rebuild_later([club.pk])
    return club


def invite_make(*, club: Club) -> str:
    """A signed invite to ``club``, valid for :data:`INVITE_MAX_AGE` unless revoked before."""
    return signing.TimestampSigner(salt=_INVITE_SALT).sign_object({"c": club.pk, "g": club.invite_generation})


def invite_revoke(*, user: Any, club: Club) -> Club:
    """Every invite given out so far stops working; the answer's link is a new one."""
    _owner_check(user, club)
    Club.objects.filter(pk=club.pk).update(invite_generation=F("invite_generation") + 1)
    club.refresh_from_db()
    return club


def club_join(*, user: Any, invite: str) -> Club:
    """``user`` joins the club of ``invite`` (a member already: nothing changes);
    ``invite_expired``, ``club_removed`` (the owner removed them and has not let them back in),
    ``club_full``, ``club_limit``."""
    try:
        data = signing.TimestampSigner(salt=_INVITE_SALT).unsign_object(invite, max_age=INVITE_MAX_AGE)
        club_id, generation = int(data["c"]), int(data["g"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise ApplicationError(ErrorCode.INVITE_EXPIRED) from None
    with transaction.atomic():
        _lock_account(user)
        club = Club.objects.select_for_update().filter(pk=club_id).first()  # (members one after the other)
        if club is None or club.invite_generation != generation:
            raise ApplicationError(ErrorCode.INVITE_EXPIRED)
        if Membership.objects.filter(club=club, user=user).exists():
            return club
        if ClubRemoval.objects.filter(club=club, user=user).exists():
            raise ApplicationError(ErrorCode.CLUB_REMOVED)
        _limits_check(user, owning=False)
        if Membership.objects.filter(club=club).count() >= MAX_MEMBERS:
            raise ApplicationError(ErrorCode.CLUB_FULL, limit=MAX_MEMBERS)
        Membership.objects.create(club=club, user=user)
        _weeks_rebuild_later([club.pk])
    return club


def _owner_check(user: Any, club: Club) -> None:
    if club.owner_id != user.pk:
        raise ApplicationError(ErrorCode.NOT_CLUB_OWNER)


def club_change(*, user: Any, club: Club, name: str | None = None, owner: str | None = None) -> Club:
    """The owner renames ``club`` and/or hands it over to one of its members, who must own fewer
    than :data:`MAX_CLUBS_OWNED` clubs (``club_owner_limit``); the new owner is not asked first
    (docs/social.md: owning adds powers and no duty, and they can hand it on or leave)."""
    _owner_check(user, club)
    with transaction.atomic():
        if name is not None:
            shown, key = club_name_clean(name)
            _name_free_check(user, key, club=club)
            club.name, club.name_key = shown, key
        if owner is not None:
            heir = Membership.objects.filter(club=club, user__username__iexact=owner).select_related("user").first()
            if heir is None:
                raise ApplicationError(ErrorCode.NOT_FOUND)
            if heir.user_id != club.owner_id:
                _lock_account(heir.user)  # (two hand-overs to one player at once cannot pass the limit)
                if Club.objects.filter(owner=heir.user).count() >= MAX_CLUBS_OWNED:
                    raise ApplicationError(
                        ErrorCode.CLUB_OWNER_LIMIT, name=heir.user.get_username(), limit=MAX_CLUBS_OWNED
                    )
            club.owner = heir.user
        club.save(update_fields=["name", "name_key", "owner"])
    return club


def club_delete(*, user: Any, club: Club) -> None:
    _owner_check(user, club)
    club.delete()


def member_remove(*, user: Any, club: Club, username: str) -> None:
    """A member leaves (``username`` is their own name), or the owner removes a member. An owner
    who leaves hands the club to its longest member who may own one more (``club_no_heir`` if
    none may), or deletes it when alone. A removed member stays out, whatever link they have,
    until the owner lets them in again (:func:`removal_lift`)."""
    if username.casefold() == user.get_username().casefold():
        _leave(club, user)
        return
    _owner_check(user, club)
    with transaction.atomic():
        member = (
            Membership.objects.filter(club=club, user__username__iexact=username)
            .exclude(user=user)
            .select_related("user")
            .first()
        )
        if member is None:
            return
        member.delete()
        ClubRemoval.objects.get_or_create(club=club, user=member.user)
        _member_gone(club.pk, member.user_id)


def removal_lift(*, user: Any, club: Club, username: str) -> None:
    """The owner lets a player they removed join again with an invite (not removed: nothing changes)."""
    _owner_check(user, club)
    ClubRemoval.objects.filter(club=club, user__username__iexact=username).delete()


def _heir(club: Club, leaving: Any) -> Any | None:
    """The member longest in ``club`` (but ``leaving``) who owns fewer than :data:`MAX_CLUBS_OWNED`
    clubs, their account locked; None if no member may own one more."""
    candidates = (
        Membership.objects.filter(club=club)
        .exclude(user_id=leaving.pk)
        .annotate(owned=Count("user__clubs_owned"))
        .filter(owned__lt=MAX_CLUBS_OWNED)
        .order_by("joined_at", "pk")
        .select_related("user")
    )
    for member in candidates[:5]:
        _lock_account(member.user)  # (then counted again: a club handed to them meanwhile counts)
        if Club.objects.filter(owner=member.user).count() < MAX_CLUBS_OWNED:
            return member.user
    return None


def _leave(club: Club, user: Any, *, account_deleted: bool = False) -> None:
    with transaction.atomic():
        if club.owner_id == user.pk:
            if not Membership.objects.filter(club=club).exclude(user=user).exists():
                club.delete()  # (left by its last member)
                return
            heir = _heir(club, user)
            if heir is None:
                if not account_deleted:
                    raise ApplicationError(ErrorCode.CLUB_NO_HEIR, limit=MAX_CLUBS_OWNED)
                club.delete()  # (an account that goes cannot keep it, and nobody may take it)
                return
            Club.objects.filter(pk=club.pk).update(owner=heir)
        Membership.objects.filter(club=club, user=user).delete()
        _member_gone(club.pk, user.pk)


def account_clubs_leave(*, user: Any) -> None:
    """Before an account is deleted: it leaves every club, handing those it owns to their longest
    members who may own one more (a club with nobody else, or nobody who may, goes)."""
    for club in Club.objects.filter(memberships__user=user).distinct():
        _leave(club, user, account_deleted=True)


def _member_gone(club_id: int, user_id: int) -> None:
    """A member left or was removed: they leave nothing behind on the club's boards. Their lines go
    from every week's standing of the club now, and each of those weeks (and this week and the
    last) is recomputed without them after the commit: later members never see who left."""
    weeks = set(ClubWeekEntry.objects.filter(club_id=club_id, user_id=user_id).values_list("week", flat=True))
    ClubWeekEntry.objects.filter(club_id=club_id, user_id=user_id).delete()
    _weeks_rebuild_later([club_id], weeks=weeks)


def _weeks_rebuild_later(club_ids: list[int], *, weeks: set[date] | None = None) -> None:
    """After the commit: the clubs' standings of this week, the last and ``weeks`` recomputed from
    their members now."""
    this_week = week_monday(clock.today())
    for club_id in club_ids:
        for week in sorted({this_week - timedelta(days=7), this_week, *(weeks or ())}):
            jobs.club_week_rebuild(club_id, week)


# -- a club's week ----------------------------------------------------------------------------------


def week_monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def week_points(days: list[list[tuple[int, tuple[int, int, datetime]]]]) -> dict[int, tuple[int, int, int]]:
    """Each account's ``(points, days, time_ms)`` over a week: ``days`` holds, for each day, the
    members' results as ``(account, (time_ms, moves, finished_at))``. A day's place p among its n
    results earns n - p + 1 points (first of 14: 14, last: 1; equal results share the place)."""
    totals: dict[int, tuple[int, int, int]] = {}
    for results in days:
        ranked = sorted(results, key=lambda item: item[1])
        n = len(ranked)
        place = 0
        for position, (account, key) in enumerate(ranked, start=1):
            if position == 1 or key != ranked[position - 2][1]:
                place = position
            points, played, time_ms = totals.get(account, (0, 0, 0))
            totals[account] = (points + n - place + 1, played + 1, time_ms + key[0])
    return totals


def club_week_rebuild(*, club_id: int, week: date) -> None:
    """Recompute ``club``'s standing of the ISO week starting ``week`` (a Monday) from its members'
    counted results, in one transaction: a task that runs twice writes the same lines."""
    monday = week_monday(week)
    members = Membership.objects.filter(club_id=club_id).values("user_id")
    rows = DailyResult.objects.filter(
        user_id__in=members, day__gte=monday, day__lt=monday + timedelta(days=7)
    ).values_list("day", "user_id", "time_ms", "moves", "finished_at")
    days: dict[date, list[tuple[int, tuple[int, int, datetime]]]] = {}
    for day, user_id, time_ms, moves, finished_at in rows:
        days.setdefault(day, []).append((user_id, (time_ms, moves, finished_at)))
    totals = week_points(list(days.values()))
    order = sorted(totals.items(), key=lambda item: (-item[1][0], item[1][2], item[0]))
    entries: list[ClubWeekEntry] = []
    for position, (user_id, (points, played, time_ms)) in enumerate(order, start=1):
        tied = entries and (entries[-1].points, entries[-1].time_ms) == (points, time_ms)
        rank = entries[-1].rank if tied else position
        entries.append(
            ClubWeekEntry(
                club_id=club_id, week=monday, user_id=user_id, rank=rank, points=points, days=played, time_ms=time_ms
            )
        )
    with transaction.atomic():
        if not Club.objects.select_for_update().filter(pk=club_id).exists():
            return  # (deleted meanwhile)
        ClubWeekEntry.objects.filter(club_id=club_id, week=monday).delete()
        ClubWeekEntry.objects.bulk_create(entries)


def club_weeks_of_game(*, game_id: str) -> list[tuple[int, date]]:
    """The clubs and week whose standing a ranked result of ``game_id`` is part of."""
    game = Game.objects.filter(pk=game_id, ranked=True).values("owner_id", "daily").first()
    if game is None or game["owner_id"] is None or game["daily"] is None:
        return []
    clubs = Membership.objects.filter(user_id=game["owner_id"]).values_list("club_id", flat=True)
    return [(club_id, week_monday(game["daily"])) for club_id in clubs]


def club_weeks_active(*, since: date) -> list[tuple[int, date]]:
    """The clubs with a member's counted result since ``since``, with the weeks of those results:
    what the safety-net rebuild recomputes."""
    pairs = (
        Membership.objects.filter(user__daily_results__day__gte=since)
        .values_list("club_id", "user__daily_results__day")
        .distinct()
    )
    return sorted({(club_id, week_monday(day)) for club_id, day in pairs})


def profile_hidden_set(*, user: Any, hidden: bool) -> bool:
    """Show ``user``'s profile to everyone, or only to the players ``user`` follows."""
    Privacy.objects.update_or_create(user=user, defaults={"profile_hidden": hidden})
    return hidden
