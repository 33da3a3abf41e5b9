"""Admin pages for games (docs/fair-play.md, "Staff review, never edit").

Nothing here reveals a deal that is still a secret, to staff either: no code of an open day's
deal (today's, a later day's, a spare's) in any list, search, filter, form or action, no engine
state, and no move of an open day's game (its flips would spell out the deal). Lookups on
``code`` and ``state`` are refused (``lookup_allowed``: a list filter given
``code__startswith=…`` would otherwise count the matches, and so read a code letter by letter).

Results are facts of play: games and move logs are read-only and cannot be deleted, staff
included. Staff decide only on ranked wins held for review, and that needs the permission
``games.review_game`` ("view" is not enough): in the review queue (:class:`HeldResultAdmin`: held
results with their reasons, a probing account's days, the accounts linked to them and their attempts
of that day (evidence: a link alone holds nothing since issue 46), a replay
link) or with the game list's actions. :func:`games.competition.attempt.attempts_approve` and
``attempts_reject`` record who and when.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any
from uuid import UUID

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import BooleanField, Case, Exists, OuterRef, Q, QuerySet, Value, When
from django.db.models.constants import LOOKUP_SEP
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games import jobs
from games.competition import attempt, clock, probes
from games.competition.attempt import HoldReason
from games.competition.links import linked_users
from games.competition.suspects import Pace, by_hand
from games.models import (
    ClairvoyanceReport,
    DailyDeal,
    DailySuspect,
    Game,
    HeldResult,
    IdempotencyRecord,
    ReviewChoices,
    StatusChoices,
)
from games.movelog import moves_read

#: Approving or rejecting a held result needs this (``Game.Meta.permissions``), not "change".
REVIEW_PERMISSION = "games.review_game"
REVIEW_ACTIONS = frozenset({"approve_held", "reject_held", "clairvoyance_test"})
HIDDEN_CODE = "(secret)"


def secret_games(today: date) -> Q:
    """The games whose code is still a secret on ``today``: of a daily deal whose day is not over,
    or with the code of a deal not published yet (today's, a later day's, a spare's)."""
    unpublished = DailyDeal.objects.filter(Q(date__gte=today) | Q(date__isnull=True), code=OuterRef("code"))
    return Q(daily__gte=today) | Q(Exists(unpublished))


def median_gaps_ms(game_ids: Iterable[Any]) -> dict[Any, float | None]:
    """Each game's pace: the median gap between consecutive entries of its move log that its
    player made one by one (a finish's left out, as the review does; None: fewer than two)."""
    logs = moves_read(game_ids)
    finished = dict(Game.objects.filter(pk__in=list(logs), finish_from__isnull=False).values_list("pk", "finish_from"))
    return {
        game_id: _median_gap([entry.at for entry in by_hand(entries, finished.get(game_id))])
        for game_id, entries in logs.items()
        if entries
    }


def _median_gap(times: list[Any]) -> float | None:
    return Pace.of(times).median_gap_ms if len(times) > 1 else None


def _duration(ms: int | float | None) -> str:
    if ms is None:
        return "–"
    seconds = ms / 1000
    return f"{int(seconds // 60)}:{seconds % 60:04.1f}"


def _pace(ms: float | None) -> str:
    return "–" if ms is None else f"{ms:.0f} ms median gap"


class ReadOnlyAdmin(admin.ModelAdmin):
    """Facts of play: nobody adds, changes or deletes them here (and "Delete selected" is gone
    with the delete permission); lookups on ``refused_lookups`` are refused (400)."""

    refused_lookups: frozenset[str] = frozenset()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if lookup.split(LOOKUP_SEP, 1)[0] in self.refused_lookups:
            return False
        return super().lookup_allowed(lookup, value, request)


class _GamesAdmin(ReadOnlyAdmin):
    """Games shown with their code only once it is no secret, and the review's two actions."""

    refused_lookups = frozenset({"code", "state", "guest_session_key"})
    actions = ["approve_held", "reject_held", "clairvoyance_test"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        secret = Case(
            When(secret_games(clock.today()), then=Value(True)), default=Value(False), output_field=BooleanField()
        )
        return super().get_queryset(request).select_related("owner").annotate(code_secret=secret)

    @admin.display(description="code")
    def shown_code(self, game: Game) -> str | SafeString:
        if getattr(game, "code_secret", True):
            return format_html('<span title="{}">{}</span>', "secret until its day is over", HIDDEN_CODE)
        return game.code

    def has_review_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(REVIEW_PERMISSION))

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # The actions are offered only with the permission; a forged POST of one is refused (403),
        # not just ignored as an action not on offer would be.
        if request.method == "POST" and REVIEW_ACTIONS & set(request.POST.getlist("action")):
            if not self.has_review_permission(request):
                raise PermissionDenied
        return super().changelist_view(request, extra_context)

    @admin.action(description="Approve the held ranked wins (they go on the board)", permissions=["review"])
    def approve_held(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._decide(request, list(queryset.values_list("pk", flat=True)), approve=True)

    @admin.action(description="Reject the ranked wins, held or on the board (they never count)", permissions=["review"])
    def reject_held(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._decide(request, list(queryset.values_list("pk", flat=True)), approve=False)

    @admin.action(
        description="Run the clairvoyance test on the ranked wins (held if it finds them so)", permissions=["review"]
    )
    def clairvoyance_test(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        if not self.has_review_permission(request):
            raise PermissionDenied
        wins = list(queryset.filter(ranked=True, status=StatusChoices.WON).values_list("pk", flat=True))
        for game_id in wins:
            jobs.clairvoyance_check(str(game_id))
        self.message_user(
            request, f"The clairvoyance test runs on {len(wins)} ranked win(s) in the worker.", messages.SUCCESS
        )

    def _decide(self, request: HttpRequest, selected: list[Any], *, approve: bool) -> None:
        if not self.has_review_permission(request):
            raise PermissionDenied
        decide = attempt.attempts_approve if approve else attempt.attempts_reject
        decided = decide(game_ids=selected, by=request.user)
        verb = "approved" if approve else "rejected"
        self.message_user(request, f"{len(decided)} held result(s) {verb}.", messages.SUCCESS)
        if len(decided) < len(selected):
            which = repr(ReviewChoices.HELD.label) if approve else "held, verified or approved"
            self.message_user(
                request, f"{len(selected) - len(decided)} not {which}: left as they were.", messages.WARNING
            )


@admin.register(Game)
class GameAdmin(_GamesAdmin):
    list_display = ["id", "owner", "rule", "shown_code", "daily", "ranked", "status", "review", "time_ms", "moves"]
    list_filter = ["review", "status", "rule", "ranked", "played_offline", "daily"]
    search_fields = ["id", "owner__username"]
    # Never the code, the engine state (face-down cards) or a guest's session key.
    fields = (
        "owner",
        "shown_code",
        "rule",
        "daily",
        "ranked",
        "closed_at",
        "status",
        "score",
        "moves",
        "created_at",
        "finished_at",
        "time_ms",
        "played_offline",
        "version",
        "review",
        "review_reason",
        "reviewed_by",
        "reviewed_at",
    )
    readonly_fields = fields


@admin.register(HeldResult)
class HeldResultAdmin(_GamesAdmin):
    """The review queue: the held ranked wins, oldest first, each with why it is held, the accounts
    linked to its account that day and their attempts (moves, pace, finished or not), and a replay
    link (the replay opens to staff once the day is over: before, it would show the secret deal)."""

    list_display = [
        "id",
        "owner",
        "daily",
        "review",
        "won_in",
        "moves",
        "review_reason",
        "probe_days",
        "linked_accounts",
        "replay",
    ]
    list_filter = ["review", "daily"]
    search_fields = ["owner__username"]
    ordering = ["finished_at"]
    list_per_page = 50
    fields = (
        "owner",
        "daily",
        "won_in",
        "moves",
        "finished_at",
        "review",
        "review_reason",
        "pace",
        "replay",
        "clairvoyance_decisions",
        "probe_days",
        "linked_attempts",
    )
    readonly_fields = fields
    change_form_template = "admin/games/heldresult/change_form.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        # Held results first; the results that count are here too, for staff to find and reject.
        reviewable = (ReviewChoices.HELD, ReviewChoices.VERIFIED, ReviewChoices.APPROVED)
        return super().get_queryset(request).filter(ranked=True, review__in=reviewable)

    def get_ordering(self, request: HttpRequest) -> list[Any]:
        held_first = Case(When(review=ReviewChoices.HELD, then=Value(0)), default=Value(1))
        return [held_first.asc(), "finished_at"]

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.has_perm("games.view_game")) or self.has_review_permission(request)

    def get_urls(self) -> list[URLPattern]:
        decide = path(
            "<path:object_id>/decide/", self.admin_site.admin_view(self.decide_view), name="games_heldresult_decide"
        )
        return [decide, *super().get_urls()]

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        extra = {**(extra_context or {}), "has_review_permission": self.has_review_permission(request)}
        return super().change_view(request, object_id, form_url, extra)

    def decide_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Approve or reject one held result (POST ``decision``): 403 without the permission."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_review_permission(request):
            raise PermissionDenied
        decision = request.POST.get("decision")
        if decision not in ("approve", "reject"):
            return HttpResponseBadRequest("decision: approve or reject")
        try:
            game_id = UUID(object_id)
        except ValueError:
            raise Http404 from None
        self._decide(request, [game_id], approve=decision == "approve")
        return HttpResponseRedirect(reverse("admin:games_heldresult_changelist"))

    @admin.display(description="won in", ordering="time_ms")
    def won_in(self, game: Game) -> str:
        return _duration(game.time_ms)

    @admin.display(description="pace")
    def pace(self, game: Game) -> str:
        return _pace(median_gaps_ms([game.pk]).get(game.pk))

    @admin.display(description="replay")
    def replay(self, game: Game) -> str | SafeString:
        return _replay_link(game)

    @admin.display(description="clairvoyance test")
    def clairvoyance_decisions(self, game: Game) -> str | SafeString:
        report = ClairvoyanceReport.objects.filter(game=game).first()
        if report is None:
            return "not run (not in its day's top results when reviewed: run it with the game list's action)"
        summary = f"{report.informed} of {report.looked_at} decisions informed, z = {report.z:.1f}"
        if game.daily is not None and not clock.code_public(game.daily):
            return f"{summary}; the decisions are shown after 00:00 UTC (they would show the secret deal)"
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{} / {}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    d["seq"],
                    d["played"],
                    d["best"],
                    d["played_wins"],
                    d["best_wins"],
                    f"{d['p']:.3f}",
                    "informed" if d["informed"] else "",
                )
                for d in report.decisions
            ),
        )
        head = "".join(f"<th>{n}</th>" for n in ("move no.", "played", "hint's best", "samples won", "p", ""))
        return format_html(
            "<p>{}</p><table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>", summary, SafeString(head), rows
        )

    @admin.display(description="probe days")
    def probe_days(self, game: Game) -> str:
        """A win held as a probing account's (``probe``): the days before it on which the account
        left its ranked attempt after a few moves, each with its moves (read for those wins only)."""
        if HoldReason.PROBE.value not in (game.hold_reasons or ()) or game.daily is None or game.owner_id is None:
            return "–"
        days = probes.probe_days(user_id=game.owner_id, day=game.daily)
        moves = dict(
            Game.objects.filter(owner_id=game.owner_id, ranked=True, daily__in=days).values_list("daily", "moves")
        )
        return ", ".join(f"{day.isoformat()} ({moves.get(day, '?')} moves)" for day in days) or "none any more"

    @admin.display(description="linked accounts")
    def linked_accounts(self, game: Game) -> str:
        attempts = _linked_attempts(game)
        names = sorted({attempt.owner.get_username() for attempt in attempts if attempt.owner is not None})
        return ", ".join(names) or "–"

    @admin.display(description="linked accounts' attempts that day")
    def linked_attempts(self, game: Game) -> str | SafeString:
        attempts = _linked_attempts(game)
        if not attempts:
            return "none: no other account shares a device or network with this one that day"
        paces = median_gaps_ms(attempt.pk for attempt in attempts)
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    attempt.owner.get_username() if attempt.owner is not None else "–",
                    f"{attempt.created_at:%H:%M:%S} UTC",
                    "ranked" if attempt.ranked else "practice",
                    attempt.moves,
                    _pace(paces.get(attempt.pk)),
                    _finished(attempt),
                    _replay_link(attempt),
                )
                for attempt in attempts
            ),
        )
        head = "".join(
            f"<th>{name}</th>" for name in ("account", "started", "attempt", "moves", "pace", "finished", "replay")
        )
        return format_html("<table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>", SafeString(head), rows)


def _linked_attempts(game: Game) -> list[Game]:
    """The attempts at ``game``'s deal of that day by the accounts linked to its account."""
    others = linked_users(game=game, before_own_start=False)
    if not others or game.daily is None:
        return []
    return list(
        Game.objects.filter(owner_id__in=others, daily=game.daily)
        .select_related("owner")
        .order_by("owner__username", "created_at")
    )


def _finished(game: Game) -> str:
    if game.status == StatusChoices.WON and game.finished_at is not None:
        return f"won at {game.finished_at:%H:%M:%S} UTC in {_duration(game.time_ms)}"
    if game.closed_at is not None:
        return "not finished: closed at the day's end"
    return "not finished"


def _replay_link(game: Game) -> str | SafeString:
    if game.daily is not None and not clock.code_public(game.daily):
        return format_html('<span title="{}">after 00:00 UTC</span>', "before, the replay would show the secret deal")
    return format_html('<a href="{}">replay</a>', reverse("replay", args=[game.pk]))


@admin.register(DailySuspect)
class DailySuspectAdmin(ReadOnlyAdmin):
    """The day's suspects (docs/fair-play.md): accounts whose attempt of a day's deal was played at
    a machine's pace, linked to another account or not, with the attempt that marked them."""

    list_display = ["day", "user", "game", "moves", "median_gap_ms", "created_at"]
    list_filter = ["day"]
    search_fields = ["user__username"]
    list_select_related = ["user", "game"]
    fields = ("day", "user", "game", "moves", "median_gap_ms", "created_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        secret = Game.objects.filter(secret_games(clock.today()))
        return super().get_queryset(request).exclude(game__in=secret)


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["scope", "key", "game", "response_status", "created_at"]
    exclude = ["response_body"]
    readonly_fields = ["scope", "key", "game", "fingerprint", "response_status", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if lookup.split(LOOKUP_SEP, 1)[0] == "response_body":
            return False
        return super().lookup_allowed(lookup, value, request)
