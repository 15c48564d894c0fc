"""League URLs (compliance part); joined into the ``leagues`` namespace by leagues/urls.py."""

from django.urls import path

from leagues import views_compliance

urlpatterns = [
    path("seasons/<slug:slug>/compliance/", views_compliance.compliance_page, name="compliance"),
    path("seasons/<slug:slug>/draft/", views_compliance.draft_page, name="draft"),
    path(
        "seasons/<slug:slug>/manage/reviews/", views_compliance.staff_reviews, name="staff-reviews"
    ),
    path("seasons/<slug:slug>/manage/draft/", views_compliance.staff_draft, name="staff-draft"),
]
