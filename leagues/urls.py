"""League pages (CONTRACTS §7: the public addresses are stable). The parts live in
``urls_match`` (match page, players' reports, excuses), ``urls_staff`` (season staff and
tribunal) and ``urls_compliance`` (compliance table, reviews, draft order)."""

from django.urls import path

from leagues import urls_compliance, urls_match, urls_staff, views, views_finals

app_name = "leagues"
urlpatterns = [
    path("seasons/<slug:slug>/", views.season_page, name="season"),
    path("seasons/<slug:slug>/suspensions/", views.suspensions_page, name="suspensions"),
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
]
