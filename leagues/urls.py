"""League pages (docs/contracts.md §7: the public addresses are stable). The parts live in
``urls_match`` (match page, players' reports, excuses), ``urls_staff`` (season staff and
tribunal) and ``urls_compliance`` (compliance table, reviews, draft order)."""

from django.urls import path

from leagues import (
    urls_compliance,
    urls_match,
    urls_setup,
    urls_staff,
    views,
    views_finals,
    views_squads,
)

app_name = "leagues"
urlpatterns = [
    path("seasons/<slug:slug>/", views.season_page, name="season"),
    path("seasons/<slug:slug>/suspensions/", views.suspensions_page, name="suspensions"),
    path("seasons/<slug:slug>/squads/", views_squads.season_squads, name="squads"),
    path("seasons/<slug:slug>/manage/squads/", views_squads.squad_lock, name="squads-lock"),
    path("seasons/<slug:slug>/squads/<str:team>/", views_squads.team_squad, name="team-squad"),
    path(
        "seasons/<slug:slug>/squads/<str:team>/<int:pk>/",
        views_squads.squad_footballer,
        name="squad-footballer",
    ),
    path("competitions/<slug:slug>/", views.competition_page, name="competition"),
    path("competitions/<slug:slug>/decide-tie/", views.decide_tie, name="competition-decide-tie"),
    path(
        "competitions/<slug:slug>/close-regular-phase/",
        views.close_regular_phase,
        name="competition-close-regular-phase",
    ),
    path(
        "competitions/<slug:slug>/advance-stage/",
        views_finals.advance_stage,
        name="competition-advance-stage",
    ),
    path(
        "competitions/<slug:slug>/close-group-stage/",
        views_finals.close_group_stage,
        name="competition-close-group-stage",
    ),
    path(
        "competitions/<slug:slug>/bracket/slot/",
        views_finals.bracket_slot,
        name="competition-bracket-slot",
    ),
    path(
        "competitions/<slug:slug>/bracket/award/",
        views_finals.bracket_award,
        name="competition-bracket-award",
    ),
    path(
        "competitions/<slug:slug>/bracket/pause/",
        views_finals.bracket_pause,
        name="competition-bracket-pause",
    ),
    path(
        "competitions/<slug:slug>/bracket/third-home/",
        views_finals.bracket_third_home,
        name="competition-bracket-third-home",
    ),
    path(
        "competitions/<slug:slug>/bracket/final-four/",
        views_finals.bracket_final_four,
        name="competition-bracket-final-four",
    ),
    path(
        "competitions/<slug:slug>/relegation/",
        views_finals.relegation,
        name="competition-relegation",
    ),
    path(
        "seasons/<slug:slug>/manage/nucommunity/",
        views_finals.staff_nucommunity,
        name="staff-nucommunity",
    ),
    path(
        "seasons/<slug:slug>/manage/cup-bonus/",
        views_finals.staff_cup_bonus,
        name="staff-cup-bonus",
    ),
    path(
        "seasons/<slug:slug>/manage/brackets/",
        views_finals.staff_brackets,
        name="staff-brackets",
    ),
    path("seasons/<slug:slug>/cup-bonus/", views_finals.cup_bonus_page, name="cup-bonus"),
    path(
        "seasons/<slug:slug>/manage/champagne/",
        views_finals.staff_champagne,
        name="staff-champagne",
    ),
    path("players/me/fixtures/", views.my_fixtures, name="my-fixtures"),
    path("players/me/fixtures.ics", views.my_fixtures_ics, name="my-fixtures-ics"),
    path("players/feed/<str:token>/fixtures.ics", views.fixtures_feed, name="fixtures-feed"),
    *urls_match.urlpatterns,
    *urls_staff.urlpatterns,
    *urls_compliance.urlpatterns,
    *urls_setup.urlpatterns,
]
