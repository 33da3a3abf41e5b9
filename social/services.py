"""Following and clubs (docs/social.md): writes, each in one transaction."""

from __future__ import annotations

import unicodedata
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.text import slugify

from common.errors import ApplicationError, ErrorCode
from games.competition import clock
from games.models import Game
from stats.models import DailyResult
from stats.selectors import user_by_username

from .models import Club, ClubWeekEntry, Follow, Membership, Privacy

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
#: Paths beside the clubs' own (``clubs/join``, the page ``/clubs/join/<invite>``).
_RESERVED_SLUGS = frozenset({"join"})


def club_name_clean(name: str) -> tuple[str, str]:
    """The name as shown (NFKC, spaces at its ends and runs of them trimmed) and as its uniqueness
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


def _slug_for(name: str) -> str:
    base = (slugify(name) or "club")[:50]
    slug, n = base, 1
    while slug in _RESERVED_SLUGS or Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _lock_account(user: Any) -> None:
    """One account's club changes one after the other, so two at once cannot pass a limit together."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).exists()


def club_create(*, user: Any, name: str) -> Club:
    """A new club of ``user`` (its owner and first member); ``club_name_taken``, ``club_limit``."""
    shown, key = club_name_clean(name)
    try:
        with transaction.atomic():
            _lock_account(user)
            _limits_check(user, owning=True)
            if Club.objects.filter(name_key=key).exists():
                raise ApplicationError(ErrorCode.CLUB_NAME_TAKEN)
            club = Club.objects.create(name=shown, name_key=key, slug=_slug_for(shown), owner=user)
            Membership.objects.create(club=club, user=user)
    except IntegrityError:  # (the same name or slug made at the same moment)
        raise ApplicationError(ErrorCode.CLUB_NAME_TAKEN) from None
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
    ``invite_expired``, ``club_full``, ``club_limit``."""
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
    """The owner renames ``club`` and/or hands it over to one of its members."""
    _owner_check(user, club)
    with transaction.atomic():
        if name is not None:
            shown, key = club_name_clean(name)
            if Club.objects.filter(name_key=key).exclude(pk=club.pk).exists():
                raise ApplicationError(ErrorCode.CLUB_NAME_TAKEN)
            club.name, club.name_key = shown, key
        if owner is not None:
            heir = Membership.objects.filter(club=club, user__username__iexact=owner).select_related("user").first()
            if heir is None:
                raise ApplicationError(ErrorCode.NOT_FOUND)
            club.owner = heir.user
        try:
            with transaction.atomic():
                club.save(update_fields=["name", "name_key", "owner"])
        except IntegrityError:
            raise ApplicationError(ErrorCode.CLUB_NAME_TAKEN) from None
    return club


def club_delete(*, user: Any, club: Club) -> None:
    _owner_check(user, club)
    club.delete()


def member_remove(*, user: Any, club: Club, username: str) -> None:
    """A member leaves (``username`` is their own name), or the owner removes a member. An owner
    who leaves hands the club to its longest member, or deletes it when alone."""
    if username.casefold() == user.get_username().casefold():
        _leave(club, user)
        return
    _owner_check(user, club)
    removed, _ = Membership.objects.filter(club=club, user__username__iexact=username).exclude(user=user).delete()
    if removed:
        _weeks_rebuild_later([club.pk])


def _leave(club: Club, user: Any) -> None:
    _weeks_rebuild_later([club.pk])
    with transaction.atomic():
        Membership.objects.filter(club=club, user=user).delete()
        if club.owner_id == user.pk:
            heir = Membership.objects.filter(club=club).order_by("joined_at", "pk").first()
            if heir is None:
                club.delete()
            else:
                Club.objects.filter(pk=club.pk).update(owner=heir.user_id)


def account_clubs_leave(*, user: Any) -> None:
    """Before an account is deleted: it leaves every club, handing those it owns to their longest
    members (a club with nobody else goes)."""
    for club in Club.objects.filter(memberships__user=user).distinct():
        _leave(club, user)


def _weeks_rebuild_later(club_ids: list[int]) -> None:
    """After the commit: the clubs' standings of this week and the last without the ones who left."""
    from . import tasks

    this_week = week_monday(clock.today())
    for club_id in club_ids:
        for week in (this_week - timedelta(days=7), this_week):
            transaction.on_commit(partial(tasks.club_week_rebuild.delay, club_id, week.isoformat()), robust=True)


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
