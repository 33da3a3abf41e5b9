"""Admin pages for games. The engine state (face-down cards) is never shown, nor today's daily code.

Results are facts of play: a game's times, moves, score, status and ranking, and its move log,
are read-only for everyone, staff included. Staff decide only on ranked wins held for review
(approve or reject, recorded with who and when).
"""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from .models import Game, IdempotencyRecord, MoveLog, ReviewChoices
from .presenters import public_code
from .review import ranked_win_decide


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "owner", "rule", "shown_code", "daily", "ranked", "status", "review", "time_ms", "moves"]
    list_filter = ["review", "status", "rule", "ranked", "daily"]
    search_fields = ["id", "owner__username"]
    exclude = ["state", "code", "guest_session_key"]
    readonly_fields = [
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
        "version",
        "review",
        "review_reason",
        "reviewed_by",
        "reviewed_at",
    ]
    actions = ["approve_held", "reject_held"]

    @admin.display(description="code")
    def shown_code(self, game: Game) -> str:
        return public_code(game, timezone.now()) or "(today's daily deal)"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Approve the held ranked wins (they go on the board)")
    def approve_held(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        self._decide(request, queryset, approve=True)

    @admin.action(description="Reject the held ranked wins (they never count)")
    def reject_held(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        self._decide(request, queryset, approve=False)

    def _decide(self, request: HttpRequest, queryset: QuerySet[Game], *, approve: bool) -> None:
        selected = list(queryset.values_list("pk", flat=True))
        decided = ranked_win_decide(game_ids=selected, approve=approve, by=request.user)
        verb = "approved" if approve else "rejected"
        self.message_user(request, f"{len(decided)} held result(s) {verb}.", messages.SUCCESS)
        if len(decided) < len(selected):
            held = ReviewChoices.HELD.label
            self.message_user(
                request, f"{len(selected) - len(decided)} not {held!r}: left as they were.", messages.WARNING
            )


@admin.register(MoveLog)
class MoveLogAdmin(admin.ModelAdmin):
    list_display = ["game", "seq", "move", "points", "flipped", "created_at"]
    raw_id_fields = ["game"]
    readonly_fields = ["game", "seq", "move", "points", "flipped", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["scope", "key", "game", "response_status", "created_at"]
    exclude = ["response_body"]
    raw_id_fields = ["game"]
