"""League URLs (staff part); joined into the ``leagues`` namespace by leagues/urls.py.

Season staff and tribunal pages (``seasons/<slug>/manage/…``) and the match-level sanction
endpoints posted from the match page (``competitions/<slug>/matches/<code>/…``)."""

from django.urls import path

from leagues import views_scheduling, views_staff

urlpatterns = [
    path("seasons/<slug:slug>/manage/", views_staff.staff_home, name="staff-home"),
    path(
        "seasons/<slug:slug>/manage/scheduling/",
        views_scheduling.staff_scheduling,
        name="staff-scheduling",
    ),
    path(
        "seasons/<slug:slug>/manage/deadlines/",
        views_staff.staff_deadlines,
        name="staff-deadlines",
    ),
    path(
        "seasons/<slug:slug>/manage/adjustments/",
        views_staff.staff_adjustments,
        name="staff-adjustments",
    ),
    path(
        "seasons/<slug:slug>/manage/teams/<str:team>/abandon/",
        views_staff.staff_abandon,
        name="staff-abandon",
    ),
    path("seasons/<slug:slug>/manage/audit/", views_staff.staff_audit, name="staff-audit"),
    path(
        "competitions/<slug:slug>/matches/<str:code>/walkover/",
        views_staff.match_walkover,
        name="match-walkover",
    ),
    path(
        "competitions/<slug:slug>/matches/<str:code>/void/",
        views_staff.match_void,
        name="match-void",
    ),
    path(
        "competitions/<slug:slug>/matches/<str:code>/tribunal/",
        views_staff.match_tribunal,
        name="match-tribunal",
    ),
    path(
        "competitions/<slug:slug>/matches/<str:code>/incident/",
        views_staff.match_incident,
        name="match-incident",
    ),
    path(
        "competitions/<slug:slug>/matches/<str:code>/must-stream/",
        views_staff.match_must_stream,
        name="match-must-stream",
    ),
    path(
        "competitions/<slug:slug>/matches/<str:code>/replay-unstreamed/",
        views_staff.match_replay_unstreamed,
        name="match-replay-unstreamed",
    ),
    path(
        "competitions/<slug:slug>/matches/<str:code>/stream-link/",
        views_staff.match_stream_link,
        name="match-stream-link",
    ),
]
