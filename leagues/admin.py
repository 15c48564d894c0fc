"""Django admin of leagues, for site administrators: appoint a season's league staff and
tribunal, link teams to accounts, look at reports. Results, walkovers, the points ledger
and the compliance flows change through the league pages (services that validate and
audit), so those are read-only here."""

from django.contrib import admin

from leagues.models import (
    Adjustment,
    Competition,
    CupBonus,
    Excuse,
    Match,
    ResultReport,
    Season,
    SeasonRole,
    Team,
)


class SeasonRoleInline(admin.TabularInline):
    model = SeasonRole
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "time_zone", "created_at"]
    search_fields = ["name", "slug"]
    readonly_fields = ["slug", "draft_base"]
    inlines = [SeasonRoleInline]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "handle", "user", "season", "status"]
    list_filter = ["season", "status"]
    search_fields = ["name", "code", "handle", "user__username"]
    autocomplete_fields = ["user"]
    readonly_fields = ["season", "code", "handle", "status"]


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "kind", "season", "counts_for_compliance", "title_decider"]
    list_filter = ["season", "kind"]
    readonly_fields = ["season", "slug", "kind"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never changed here: the league pages change these through audited services."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["code", "competition", "round", "home", "away", "status", "reported_at"]
    list_filter = ["competition", "status"]
    search_fields = ["code", "home__name", "away__name"]
    list_select_related = ["competition", "home", "away"]


@admin.register(ResultReport)
class ResultReportAdmin(ReadOnlyAdmin):
    list_display = ["match", "team", "home_goals", "away_goals", "posted_at", "status"]
    list_filter = ["status"]
    list_select_related = ["match__competition", "team"]


@admin.register(Adjustment)
class AdjustmentAdmin(ReadOnlyAdmin):
    list_display = ["competition", "team", "points", "reason", "created_at"]
    list_select_related = ["competition", "team"]


@admin.register(Excuse)
class ExcuseAdmin(ReadOnlyAdmin):
    list_display = ["match", "team", "date_from", "date_to", "opponent_answer", "staff_answer"]
    list_select_related = ["match__competition", "team"]


@admin.register(CupBonus)
class CupBonusAdmin(ReadOnlyAdmin):
    """Cup bonus points (§IV.2): entered by league staff on the season's pages."""

    list_display = ["season", "team", "points", "reason"]
    list_select_related = ["season", "team"]
