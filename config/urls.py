from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from config import api_docs
from config.views import healthz
from events import api as events_api
from events import (
    api_circuits,
    views,
    views_circuits,
    views_manage,
    views_notify,
    views_orgs,
    views_rankings,
)
from leagues import api as leagues_api
from penalties import api as penalties_api
from penalties import views as penalties_views
from penalties import views_authority

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", views.signup, name="signup"),
    # Password reset by e-mail (Django's views, throttled: events.views.PasswordResetView;
    # templates in templates/registration/).
    path(
        "accounts/password-reset/",
        views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    # A signed-in user changes their password (Django's views; sign-in required).
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("players/me/", views.my_page, name="my-page"),
    path("players/me/data.json", views.my_data, name="my-data"),
    # Notifications (events/views_notify.py, docs/notifications.md)
    path(
        "players/me/notifications/",
        views_notify.preferences,
        name="notification-preferences",
    ),
    path("players/me/notifications/push/", views_notify.push_subscribe, name="push-subscribe"),
    path(
        "players/me/notifications/push/remove/",
        views_notify.push_unsubscribe,
        name="push-unsubscribe",
    ),
    path("players/me/notifications/sw.js", views_notify.push_worker, name="push-worker"),
    path("notifications/deliveries/", views_notify.delivery_log, name="delivery-log"),
    path(
        "organisations/<slug:org_slug>/webhooks/",
        views_notify.webhooks,
        name="organisation-webhooks",
    ),
    path(
        "organisations/<slug:org_slug>/webhooks/<int:webhook_id>/remove/",
        views_notify.webhook_remove,
        name="organisation-webhook-remove",
    ),
    path("players/me/sanctions/", penalties_views.my_sanctions, name="my-sanctions"),
    # The national authority's sanctions (Organised Play manager, national coordinator).
    path("authority/sanctions/", views_authority.sanctions, name="authority-sanctions"),
    # Organisations and their organisers (events/views_orgs.py, docs/organisations.md)
    path("organisations/", views_orgs.organisations, name="organisations"),
    path("organisations/new/", views_orgs.organisation_create, name="organisation-create"),
    path("organisations/<slug:org_slug>/", views_orgs.organisation, name="organisation"),
    path(
        "organisations/<slug:org_slug>/organisers/add/",
        views_orgs.organiser_add,
        name="organisation-organiser-add",
    ),
    path(
        "organisations/<slug:org_slug>/roles/<int:role_id>/remove/",
        views_orgs.organisation_role_remove,
        name="organisation-role-remove",
    ),
    path(
        "organisations/<slug:org_slug>/events/new/",
        views_manage.event_create,
        name="event-create",
    ),
    path("events/<slug:slug>/manage/", include("events.urls_manage")),
    path("", include("events.urls_public")),
    path("", include("leagues.urls")),
    # The public API, described (config/api_docs.py, config/openapi.yaml; docs/contracts.md).
    path("api/v1/openapi.json", api_docs.openapi_json, name="api-openapi"),
    path("api/v1/docs/", api_docs.docs_page, name="api-docs"),
    path("api/", RedirectView.as_view(pattern_name="api-docs"), name="api"),
    path("api/v1/events/<slug:slug>/standings", events_api.standings, name="api-standings"),
    path("api/v1/rankings", events_api.rankings, name="api-rankings"),
    path("rankings/", views_rankings.rankings_page, name="rankings"),
    path(
        "rankings/players/<int:person_id>/",
        views_rankings.player_page,
        name="rankings-player",
    ),
    # Circuits (events/views_circuits.py, docs/ratings.md "Circuits")
    path("circuits/", views_circuits.circuit_list, name="circuits"),
    path("circuits/<int:circuit_id>/", views_circuits.circuit_page, name="circuit"),
    path(
        "organisations/<slug:org_slug>/circuits/",
        views_circuits.organisation_circuits,
        name="organisation-circuits",
    ),
    path(
        "organisations/<slug:org_slug>/circuits/new/",
        views_circuits.circuit_create,
        name="circuit-create",
    ),
    path(
        "organisations/<slug:org_slug>/circuits/<int:circuit_id>/",
        views_circuits.circuit_edit,
        name="circuit-edit",
    ),
    path("api/v1/circuits", api_circuits.circuits, name="api-circuits"),
    path("api/v1/circuits/<int:circuit_id>", api_circuits.circuit, name="api-circuit"),
    path("api/v1/vekn/check-table", events_api.check_table, name="api-check-table"),
    path("api/v1/vekn/check-deck", events_api.check_deck, name="api-check-deck"),
    path("api/v1/rulesets/<str:ruleset>/penalty", penalties_api.penalty, name="api-penalty"),
    path(
        "api/v1/competitions/<slug:slug>/table",
        leagues_api.competition_table,
        name="api-competition-table",
    ),
    path(
        "api/v1/seasons/<slug:slug>/compliance",
        leagues_api.season_compliance,
        name="api-season-compliance",
    ),
    path(
        "api/v1/seasons/<slug:slug>/draft-order",
        leagues_api.season_draft_order,
        name="api-season-draft-order",
    ),
    path(
        "api/v1/competitions/<slug:slug>/bracket",
        leagues_api.competition_bracket,
        name="api-competition-bracket",
    ),
    path(
        "api/v1/seasons/<slug:slug>/suspensions",
        leagues_api.season_suspensions,
        name="api-season-suspensions",
    ),
    path("admin/", admin.site.urls),
]

# Errors under /api/ are JSON (config/views.py); elsewhere Django's templates.
handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
