"""Public pages (docs/contracts.md §7: these addresses are stable)."""

from django.urls import path

from events import (
    views,
    views_deck_play,
    views_decks,
    views_judge_calls,
    views_print,
    views_screen,
    views_self_report,
    views_self_service,
    views_swiss,
)

app_name = "events"
urlpatterns = [
    path("events/<slug:slug>/", views.event_page, name="public-event"),
    path("events/<slug:slug>/standings/", views.standings_page, name="public-standings"),
    path(
        "events/<slug:slug>/standings/screen/",
        views_screen.standings_screen,
        name="public-standings-screen",
    ),
    path(
        "events/<slug:slug>/standings/screen/live/",
        views_screen.standings_screen_live,
        name="public-standings-screen-live",
    ),
    path(
        "competitions/<slug:slug>/screen/",
        views_screen.competition_screen,
        name="competition-screen",
    ),
    path(
        "competitions/<slug:slug>/screen/live/",
        views_screen.competition_screen_live,
        name="competition-screen-live",
    ),
    path("events/<slug:slug>/seating/", views.seating_page, name="public-seating"),
    path(
        "events/<slug:slug>/seating/print/",
        views_print.public_seating_print,
        name="public-seating-print",
    ),
    path("events/<slug:slug>/results/", views.results_page, name="public-results"),
    path("events/<slug:slug>/my-match/", views_swiss.my_match, name="my-match"),
    # The players' self-service (events/views_self_service.py, docs/players.md)
    path("events/<slug:slug>/register/", views_self_service.register, name="self-register"),
    path(
        "events/<slug:slug>/check-in/<str:token>/",
        views_self_service.check_in,
        name="check-in",
    ),
    path("events/<slug:slug>/drop/", views_self_service.drop, name="self-drop"),
    path("events/<slug:slug>/my-seat/", views_self_service.my_seat, name="my-seat"),
    path("events/<slug:slug>/call-judge/", views_judge_calls.call_judge, name="call-judge"),
    # A table's result reported by its players (events/views_self_report.py, docs/players.md)
    path("events/<slug:slug>/report/", views_self_report.report, name="report"),
    path("events/<slug:slug>/report/confirm/", views_self_report.confirm, name="report-confirm"),
    path("events/<slug:slug>/report/dispute/", views_self_report.dispute, name="report-dispute"),
    # Decks (events/views_decks.py, docs/decks.md)
    path("events/<slug:slug>/my-deck/", views_decks.my_deck, name="my-deck"),
    path("events/<slug:slug>/my-deck/check/", views_decks.deck_check, name="deck-check"),
    path("events/<slug:slug>/my-deck/play/", views_deck_play.my_deck_play, name="my-deck-play"),
    path("events/<slug:slug>/decks/", views_decks.public_decks, name="public-decks"),
]
