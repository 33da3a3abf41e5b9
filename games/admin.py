"""Admin pages for games. The engine state (face-down cards) is never shown, nor today's daily code."""

from django.contrib import admin
from django.utils import timezone

from .models import Game, IdempotencyRecord, MoveLog
from .presenters import public_code


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "owner", "rule", "shown_code", "daily", "status", "score", "moves", "created_at"]
    list_filter = ["status", "rule", "daily"]
    search_fields = ["id", "owner__username"]
    exclude = ["state", "code", "guest_session_key"]
    readonly_fields = [
        "owner",
        "shown_code",
        "rule",
        "daily",
        "status",
        "score",
        "moves",
        "created_at",
        "finished_at",
        "version",
    ]

    @admin.display(description="code")
    def shown_code(self, game: Game) -> str:
        return public_code(game, timezone.now()) or "(today's daily deal)"

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(MoveLog)
class MoveLogAdmin(admin.ModelAdmin):
    list_display = ["game", "seq", "move", "points", "flipped", "created_at"]
    raw_id_fields = ["game"]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["scope", "key", "game", "response_status", "created_at"]
    exclude = ["response_body"]
    raw_id_fields = ["game"]
