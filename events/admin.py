"""Django admin of the events kernel, for platform administrators (superusers) only:
organisations and their organisers, event staff roles, and the national authorities
(``AuthorityRole``), which are granted here and nowhere else. Organisers appoint their
events' judges and scorekeepers on the events' staff pages."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from events import vekn_sync
from events.models import AuthorityRole, EventRole, Organisation, OrganisationRole, VeknConflict


class SuperuserOnly(admin.ModelAdmin):
    """Superusers only, whatever model permissions a staff account was given."""

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


@admin.register(AuthorityRole)
class AuthorityRoleAdmin(SuperuserOnly):
    list_display = ["user", "ruleset", "granted_by", "granted_at"]
    list_filter = ["ruleset"]
    search_fields = ["user__username", "user__first_name", "user__last_name"]
    autocomplete_fields = ["user"]
    readonly_fields = ["granted_by", "granted_at"]
    fields = ["user", "ruleset", "granted_by", "granted_at"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.granted_by = request.user
        super().save_model(request, obj, form, change)


class OrganisationRoleInline(admin.TabularInline):
    model = OrganisationRole
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Organisation)
class OrganisationAdmin(SuperuserOnly):
    # Who created it from the site, to find spam (docs/organisations.md).
    list_display = ["name", "slug", "kind", "created_by", "created_at"]
    list_filter = ["kind"]
    search_fields = ["name", "slug", "created_by__username"]
    readonly_fields = ["created_by", "created_at"]
    list_select_related = ["created_by"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [OrganisationRoleInline]


@admin.register(EventRole)
class EventRoleAdmin(SuperuserOnly):
    list_display = ["event", "user", "role"]
    list_filter = ["role"]
    search_fields = ["event__slug", "event__name", "user__username"]
    autocomplete_fields = ["user"]
    list_select_related = ["event", "user"]
    raw_id_fields = ["event"]


@admin.register(VeknConflict)
class VeknConflictAdmin(SuperuserOnly):
    """Differences between a person edited here and the VEKN registry (docs/vekn-link.md
    "The member registry"): staff take the VEKN's names or keep the local ones."""

    list_display = [
        "person",
        "local_first_name",
        "local_last_name",
        "vekn_first_name",
        "vekn_last_name",
        "status",
        "created_at",
    ]
    list_filter = ["status"]
    actions = ["take_vekn", "keep_local"]

    @admin.action(description=_("Take the VEKN's names"))
    def take_vekn(self, request, queryset):
        self._resolve(request, queryset, True)

    @admin.action(description=_("Keep the local names"))
    def keep_local(self, request, queryset):
        self._resolve(request, queryset, False)

    def _resolve(self, request, queryset, take):
        for conflict in queryset.filter(status=VeknConflict.Status.OPEN):
            vekn_sync.resolve_conflict(conflict.pk, take, request.user)
