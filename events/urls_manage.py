"""Staff pages of an event, under /events/<slug>/manage/."""

from django.urls import path

from events import views_deck_checks as dc
from events import views_deck_play as dp
from events import views_decks as dk
from events import views_judge_calls as jc
from events import views_manage as v
from events import views_offline as off
from events import views_players as pl
from events import views_print as pr
from events import views_self_service as ss
from events import views_swiss as sv
from events import views_vekn as vk
from penalties import views as pv
from penalties import views_myl as pmyl

app_name = "manage"
urlpatterns = [
    path("", v.dashboard, name="dashboard"),
    # The VEKN link (events/views_vekn.py, docs/vekn-link.md)
    path("vekn/", vk.vekn_page, name="vekn"),
    path("vekn/announce/", vk.vekn_announce, name="vekn-announce"),
    path("vekn/retry/", vk.vekn_retry, name="vekn-retry"),
    # Calls for a judge (events/views_judge_calls.py, docs/players.md)
    path("judge-calls/", jc.queue, name="judge-calls"),
    path("judge-calls/take/", jc.take, name="judge-call-take"),
    path("judge-calls/close/", jc.close, name="judge-call-close"),
    path("settings/", v.event_settings, name="settings"),
    path("players/", v.players, name="players"),
    path("players/add/", v.player_add, name="player-add"),
    path("players/<int:reg_id>/status/", v.player_status, name="player-status"),
    path("players/claims/<int:claim_id>/", v.claim_decide, name="claim-decide"),
    # Keeping the players (events/views_players.py, docs/organisers.md)
    path("players/<int:reg_id>/", pl.registration, name="registration"),
    path("players/<int:reg_id>/remove/", pl.registration_remove, name="registration-remove"),
    path("players/<int:reg_id>/merge/", pl.registration_merge, name="registration-merge"),
    path("players/list/", pl.player_list, name="player-list"),
    path("players/list/save/", pl.player_list_save, name="player-list-save"),
    # Decks (events/views_decks.py, docs/decks.md)
    path("players/<int:reg_id>/deck/", dk.deck_entry, name="deck-entry"),
    path("players/<int:reg_id>/deck/play/", dp.deck_play_set, name="deck-play-set"),
    path("decks/", dk.decks, name="decks"),
    path("decks/print/", dk.print_decks, name="print-decks"),
    path("players/check-in-all/", pl.check_in_all, name="check-in-all"),
    path("players/check-in-all/undo/", pl.check_in_all_undo, name="check-in-all-undo"),
    # The players' self-service (events/views_self_service.py, docs/players.md)
    path("players/registration/", ss.registration_settings, name="registration-settings"),
    path("players/check-in-code/", ss.check_in_code, name="check-in-code"),
    path("rounds/seat/", v.round_seat, name="round-seat"),
    path("rounds/<int:number>/", v.round_detail, name="round"),
    path("rounds/<int:number>/reseat/", v.round_reseat, name="round-reseat"),
    path("rounds/<int:number>/swap/", v.round_swap, name="round-swap"),
    path("rounds/<int:number>/publish/", v.round_publish, name="round-publish"),
    path("rounds/<int:number>/tables/<int:table_number>/", v.table_result, name="table"),
    path("rounds/<int:number>/tables/<int:table_number>/check/", v.table_check, name="table-check"),
    path("rounds/<int:number>/deck-checks/", dc.deck_checks, name="deck-checks"),
    path(
        "rounds/<int:number>/deck-checks/choose/", dc.deck_checks_choose, name="deck-checks-choose"
    ),
    path(
        "rounds/<int:number>/deck-checks/<int:pk>/outcome/",
        dc.deck_check_outcome,
        name="deck-check-outcome",
    ),
    path("standings/", v.standings, name="standings"),
    path("standings/toss/", v.toss, name="toss"),
    path("standings/publish/", v.publish_standings, name="publish-standings"),
    path("final/", v.final, name="final"),
    path("export/standings.csv", v.export_csv, name="export-csv"),
    path("export/archondata.txt", v.export_archondata, name="export-archondata"),
    path("audit/", v.audit_log, name="audit"),
    path("staff/", v.staff, name="staff"),
    # Printed pages (events/views_print.py, issue 14)
    path("print/", pr.print_index, name="print"),
    path("print/standings/", pr.print_standings, name="print-standings"),
    path("print/penalties/", pr.print_penalties, name="print-penalties"),
    path("rounds/<int:number>/print/seating/", pr.print_seating, name="print-seating"),
    path("rounds/<int:number>/print/names/", pr.print_names, name="print-names"),
    path("rounds/<int:number>/print/slips/", pr.print_slips, name="print-slips"),
    # The judge's offline tablet (events/views_offline.py, docs/offline.md)
    path("tablet/", off.tablet, name="tablet"),
    path("tablet/data.json", off.tablet_data, name="tablet-data"),
    path("tablet/sync/", off.tablet_sync, name="tablet-sync"),
    path("tablet/sw.js", off.tablet_worker, name="tablet-worker"),
    # Judging (penalties app)
    path(
        "rounds/<int:number>/tables/<int:table_number>/incident/",
        pv.table_incident,
        name="table-incident",
    ),
    path(
        "rounds/<int:number>/tables/<int:table_number>/extension/",
        pv.time_extension,
        name="table-extension",
    ),
    path("rounds/<int:number>/start/", pv.start_clock, name="round-start"),
    path("rounds/<int:number>/clock/", pv.round_clock, name="round-clock"),
    path("incidents/person/", pv.pick_person, name="incident-person"),
    path("incidents/non-competing/", pv.add_non_competing, name="incident-non-competing"),
    path("incidents/new/", pv.incident_new, name="incident-new"),
    path("penalties/", pv.penalty_list, name="penalties"),
    path("penalties/<int:pk>/", pv.penalty_detail, name="penalty"),
    path("penalties/<int:pk>/report/", pv.dq_report, name="dq-report"),
    path("results/approve/", pv.approve_results, name="approve-results"),
    path("cases/", pv.organisational_cases, name="cases"),
    path("export/penalties.csv", pv.export_penalties_csv, name="export-penalties-csv"),
    path("export/penalties.json", pv.export_penalties_json, name="export-penalties-json"),
    # Mitos y Leyendas conduct rules (penalties/views_myl.py)
    path(
        "penalties/<int:pk>/aggression-report/",
        pmyl.aggression_report,
        name="myl-aggression-report",
    ),
    path("appeals/", pmyl.appeals, name="myl-appeals"),
    # Mitos y Leyendas events (events/views_swiss.py)
    path("myl/pair/", sv.pair, name="myl-pair"),
    path("myl/rounds/<int:number>/repair/", sv.repair, name="myl-repair"),
    path(
        "myl/rounds/<int:number>/matches/<int:table_number>/",
        sv.match_result,
        name="myl-match",
    ),
    path("myl/top-cut/", sv.top_cut, name="myl-top-cut"),
]
