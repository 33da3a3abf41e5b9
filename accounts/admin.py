from django.contrib import admin
from django.http import HttpRequest

from .models import ApiToken, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "double_click", "drop_hints", "interactive_rules", "auto_drop"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Staff see and revoke (delete) tokens; keys exist only in the answer that made them."""

    list_display = ["prefix", "user", "name", "created_at", "last_used_at"]
    search_fields = ["user__username", "prefix"]
    readonly_fields = ["user", "prefix", "name", "created_at", "last_used_at"]
    exclude = ["digest"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
