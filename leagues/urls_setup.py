"""League URLs (new seasons, issue 14); joined into the ``leagues`` namespace by
leagues/urls.py."""

from django.urls import path

from leagues import views_setup

urlpatterns = [
    path("leagues/new/", views_setup.season_new, name="season-new"),
    path(
        "seasons/<slug:slug>/manage/next-season/",
        views_setup.season_next,
        name="season-next",
    ),
]
