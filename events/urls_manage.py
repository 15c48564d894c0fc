"""Staff pages of an event, under /events/<slug>/manage/."""

from django.urls import path

from events import views_manage as v

app_name = "manage"
urlpatterns = [
    path("", v.dashboard, name="dashboard"),
    path("settings/", v.event_settings, name="settings"),
    path("players/", v.players, name="players"),
    path("players/add/", v.player_add, name="player-add"),
    path("players/<int:reg_id>/status/", v.player_status, name="player-status"),
    path("rounds/seat/", v.round_seat, name="round-seat"),
    path("rounds/<int:number>/", v.round_detail, name="round"),
    path("rounds/<int:number>/reseat/", v.round_reseat, name="round-reseat"),
    path("rounds/<int:number>/swap/", v.round_swap, name="round-swap"),
    path("rounds/<int:number>/publish/", v.round_publish, name="round-publish"),
    path("rounds/<int:number>/tables/<int:table_number>/", v.table_result, name="table"),
    path("rounds/<int:number>/tables/<int:table_number>/check/", v.table_check, name="table-check"),
    path("standings/", v.standings, name="standings"),
    path("standings/toss/", v.toss, name="toss"),
    path("standings/publish/", v.publish_standings, name="publish-standings"),
    path("final/", v.final, name="final"),
    path("export/standings.csv", v.export_csv, name="export-csv"),
    path("export/archondata.txt", v.export_archondata, name="export-archondata"),
    path("audit/", v.audit_log, name="audit"),
    path("staff/", v.staff, name="staff"),
]
