"""League pages (CONTRACTS §7: the public addresses are stable)."""

from django.urls import path

from leagues import views

app_name = "leagues"
urlpatterns = [
    path("seasons/<slug:slug>/", views.season_page, name="season"),
    path("competitions/<slug:slug>/", views.competition_page, name="competition"),
    path("players/me/fixtures/", views.my_fixtures, name="my-fixtures"),
    path("players/me/fixtures.ics", views.my_fixtures_ics, name="my-fixtures-ics"),
]
