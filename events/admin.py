"""Django admin of the events kernel: only the national authorities (``AuthorityRole``),
which a platform administrator (superuser) grants here and nowhere else (issue 12).
Staff roles of events are given on the events' staff pages."""

from django.contrib import admin

from events.models import AuthorityRole


@admin.register(AuthorityRole)
class AuthorityRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "ruleset", "granted_by", "granted_at"]
    list_filter = ["ruleset"]
    search_fields = ["user__username", "user__first_name", "user__last_name"]
    autocomplete_fields = ["user"]
    readonly_fields = ["granted_by", "granted_at"]
    fields = ["user", "ruleset", "granted_by", "granted_at"]

    # Superusers only, whatever model permissions a staff account was given.
    def has_module_permission(self, request):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_add_permission(self, request):
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    def save_model(self, request, obj, form, change):
        if not change:
            obj.granted_by = request.user
        super().save_model(request, obj, form, change)
