"""The notification pages (events/views_notify.py, docs/notifications.md): preferences,
the phone's push subscription, the players' service worker, an organisation's webhooks
and the delivery log; and the hooks of the actions that notify (a penalty decision, a
league report)."""

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from events.models import Delivery, NotificationPreference, PushSubscription, Webhook
from events.permissions import ROLE_PERMISSIONS, Role
from leagues import reporting
from penalties import services as penalty_services
from tests.conftest import add_players
from tests.factories import OrganisationFactory, OrganisationRoleFactory, UserFactory
from tests.leagues.views.test_report_cards import league  # noqa: F401 (fixture)
from tests.leagues.views.test_reporting import png

ENDPOINT = "https://push.example.net/send/abc123"
KEYS = {"p256dh": "B" + "x" * 86, "auth": "a" * 22}


def test_preferences_page_saves_the_ticks(client, db, settings):
    settings.VAPID_PUBLIC_KEY = "BPublicKeyForTheTest"
    user = UserFactory(email="ana@example.org")
    client.force_login(user)
    page = client.get(reverse("notification-preferences"))
    assert page.status_code == 200
    assert b'value="seating_published:email"' in page.content
    assert b'value="penalty_decision:push"' in page.content
    response = client.post(
        reverse("notification-preferences"),
        {"chosen": ["seating_published:email", "penalty_decision:push"]},
    )
    assert response.status_code == 302
    assert set(NotificationPreference.objects.values_list("kind", "channel")) == {
        ("seating_published", "email"),
        ("penalty_decision", "push"),
    }
    page = client.get(reverse("notification-preferences"))
    assert b'value="seating_published:email" checked' in page.content
    assert b'value="league_report:email" checked' not in page.content
    # Nothing ticked: everything is turned off.
    client.post(reverse("notification-preferences"), {})
    assert not NotificationPreference.objects.exists()


def test_a_channel_that_cannot_reach_the_person_is_not_offered(client, db, settings):
    """No e-mail address on the account, no Web Push keys on the site: those boxes are
    disabled and a forged tick is not kept (a new user could tick both)."""
    settings.VAPID_PUBLIC_KEY = ""
    client.force_login(UserFactory(email=""))
    page = client.get(reverse("notification-preferences")).content.decode()
    assert 'value="seating_published:email" disabled' in page
    assert 'value="seating_published:push" disabled' in page
    response = client.post(
        reverse("notification-preferences"),
        {"chosen": ["seating_published:email", "penalty_decision:push"]},
    )
    assert response.status_code == 302 and not NotificationPreference.objects.exists()


def test_an_unknown_choice_is_refused(client, db):
    client.force_login(UserFactory())
    response = client.post(reverse("notification-preferences"), {"chosen": ["x:webhook"]})
    assert response.status_code == 200 and not NotificationPreference.objects.exists()


def test_the_phone_posts_and_removes_its_subscription(client, db):
    user = UserFactory()
    client.force_login(user)
    url = reverse("push-subscribe")
    body = json.dumps({"endpoint": ENDPOINT, **KEYS})
    assert client.post(url, body, content_type="application/json").json() == {"ok": True}
    assert client.post(url, body, content_type="application/json").status_code == 200
    sub = PushSubscription.objects.get()
    assert (sub.user, sub.endpoint, sub.p256dh) == (user, ENDPOINT, KEYS["p256dh"])
    bad = json.dumps({"endpoint": "http://insecure.example/x", **KEYS})
    assert client.post(url, bad, content_type="application/json").status_code == 400
    assert client.post(url, "not json", content_type="application/json").status_code == 400
    gone = client.post(
        reverse("push-unsubscribe"), json.dumps({"endpoint": ENDPOINT}), "application/json"
    )
    assert gone.json() == {"ok": True, "removed": True}
    assert not PushSubscription.objects.exists()


def test_the_preferences_page_offers_the_phone_only_with_vapid_keys(client, db, settings):
    client.force_login(UserFactory())
    settings.VAPID_PUBLIC_KEY = ""
    assert b'id="push-enable"' not in client.get(reverse("notification-preferences")).content
    settings.VAPID_PUBLIC_KEY = "BPublicKey"
    page = client.get(reverse("notification-preferences"))
    assert b'id="push-enable"' in page.content and b'data-vapid="BPublicKey"' in page.content


def test_the_service_worker_is_javascript_and_not_cached(client, db):
    response = client.get(reverse("push-worker"))
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert b'addEventListener("push"' in response.content


def test_organisers_add_and_remove_webhooks_and_read_their_log(client, db):
    org, other = OrganisationFactory(slug="liga"), OrganisationFactory(slug="tienda")
    organiser = UserFactory(username="org")
    OrganisationRoleFactory(organisation=org, user=organiser, role=Role.ORGANISER)
    client.force_login(organiser)
    url = reverse("organisation-webhooks", kwargs={"org_slug": org.slug})
    refused = client.post(
        url, {"name": "D", "url": "http://x.example/h", "kinds": ["league_report"]}
    )
    assert refused.status_code == 400 and not Webhook.objects.exists()
    for inside in ("https://localhost/h", "https://169.254.169.254/latest", "https://[::1]/h"):
        refused = client.post(url, {"name": "D", "url": inside, "kinds": ["league_report"]})
        assert refused.status_code == 400 and not Webhook.objects.exists()
        assert "public https:// address" in refused.content.decode()
    response = client.post(
        url,
        {
            "name": "Discord",
            "url": "https://discord.example/api/webhooks/1/t",
            "kinds": ["league_report"],
        },
    )
    assert response.status_code == 302
    hook = Webhook.objects.get()
    assert (hook.organisation, hook.kinds, len(hook.secret) >= 40) == (org, ["league_report"], True)
    assert hook.secret.encode() in client.get(url).content
    mine = Delivery.objects.create(
        kind="league_report", channel="webhook", webhook=hook, organisation=org, subject="Mine"
    )
    other_hook = Webhook.objects.create(organisation=other, name="x", url="https://o/", secret="s")
    Delivery.objects.create(
        kind="league_report",
        channel="webhook",
        webhook=other_hook,
        organisation=other,
        subject="Theirs",
        status="failed",
        attempts=6,
        last_error="HTTP 500",
    )
    log = client.get(reverse("delivery-log"))
    assert b"Mine" in log.content and b"Theirs" not in log.content
    assert client.get(reverse("delivery-log") + "?organisation=tienda").status_code == 404
    remove = reverse(
        "organisation-webhook-remove", kwargs={"org_slug": org.slug, "webhook_id": hook.pk}
    )
    assert client.post(remove).status_code == 302
    assert not Webhook.objects.filter(pk=hook.pk).exists()
    assert not Delivery.objects.filter(pk=mine.pk).exists()


def test_a_superuser_reads_every_delivery(client, db):
    admin = UserFactory(username="root")
    admin.is_superuser = True
    admin.save()
    user = UserFactory(username="someone")
    Delivery.objects.create(kind="seating_published", channel="email", user=user, subject="Any")
    client.force_login(admin)
    assert b"Any" in client.get(reverse("delivery-log")).content


def test_the_delivery_log_reads_a_fixed_number_of_queries(
    client, db, django_assert_max_num_queries
):
    admin = UserFactory(username="root")
    admin.is_superuser = True
    admin.save()
    org = OrganisationFactory()
    hook = Webhook.objects.create(organisation=org, name="x", url="https://o/", secret="s")
    for i in range(30):
        Delivery.objects.create(
            kind="seating_published",
            channel="email",
            user=UserFactory(),
            organisation=org,
            subject=f"s{i}",
        )
        Delivery.objects.create(
            kind="seating_published",
            channel="webhook",
            webhook=hook,
            organisation=org,
            subject=f"w{i}",
        )
    client.force_login(admin)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("delivery-log")).status_code == 200


# --------------------------------------------------------------------------- the hooks
@pytest.fixture
def penalised(event):
    regs = add_players(event, 8)
    from events import services

    services.seat_next_round(event, seed=1)
    player = UserFactory(username="penalised", email="pen@example.org")
    regs[0].person.user = player
    regs[0].person.save(update_fields=["user"])
    NotificationPreference.objects.create(user=player, kind="penalty_decision", channel="email")
    return event, regs[0], player


def test_confirming_a_penalty_emails_the_player_and_no_webhook(
    penalised, django_capture_on_commit_callbacks
):
    import uuid

    event, reg, player = penalised
    Webhook.objects.create(
        organisation=event.organisation,
        name="d",
        url="https://d.example/",
        secret="s",
        kinds=["penalty_decision"],
    )
    judge = ROLE_PERMISSIONS[Role.JUDGE]
    head = ROLE_PERMISSIONS[Role.HEAD_JUDGE]
    logged = penalty_services.log_penalty(
        event,
        reg,
        "2.4",
        {},
        client_id=uuid.uuid4(),
        perms=judge,
        table=reg.seats.first().table,
        again=True,
    )
    assert logged.penalty.status == "pending" and not mail.outbox
    with django_capture_on_commit_callbacks(execute=True):
        penalty_services.confirm(logged.penalty, None, perms=head)
    assert [m.to for m in mail.outbox] == [["pen@example.org"]]
    assert mail.outbox[0].subject == f"{event.name}: a penalty concerning you was confirmed"
    assert "/players/me/sanctions/" in mail.outbox[0].body
    assert list(Delivery.objects.values_list("channel", "status")) == [("email", "sent")]


def test_a_league_report_tells_the_opponent_and_the_leagues_channel(
    league,  # noqa: F811
    httpserver,
    django_capture_on_commit_callbacks,
):
    org = OrganisationFactory(slug="anfpes")
    season = league["season"]
    season.organisation = org
    season.save(update_fields=["organisation"])
    away = league["away"]
    away.email = "away@example.org"
    away.save()
    NotificationPreference.objects.create(user=away, kind="league_report", channel="email")
    NotificationPreference.objects.create(
        user=league["home"], kind="league_report", channel="email"
    )
    httpserver.expect_request("/discord", method="POST").respond_with_data("", status=204)
    Webhook.objects.create(
        organisation=org,
        name="Discord",
        url=httpserver.url_for("/discord"),
        secret="k",
        kinds=["league_report"],
    )
    with django_capture_on_commit_callbacks(execute=True):
        reporting.report_result(
            league["match"],
            league["home"],
            home_goals=2,
            away_goals=1,
            posted_at=timezone.now() - timedelta(minutes=20),
            screenshot=png(),
        )
    # The opponent only, not the reporter.
    assert [m.to for m in mail.outbox] == [["away@example.org"]]
    assert "confirm the result 2–1" in mail.outbox[0].subject
    assert len(httpserver.log) == 1
    body = json.loads(httpserver.log[0][0].get_data())
    assert body["kind"] == "league_report" and "reported 2–1" in body["content"]
    assert set(Delivery.objects.values_list("organisation__slug", "channel", "status")) == {
        ("anfpes", "email", "sent"),
        ("anfpes", "webhook", "sent"),
    }


def test_a_failed_notice_never_undoes_the_report(
    league,  # noqa: F811
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    def broken(*args, **kwargs):
        raise RuntimeError("queue down")

    monkeypatch.setattr("django.tasks.backends.immediate.ImmediateBackend.enqueue", broken)
    with django_capture_on_commit_callbacks(execute=True):
        report = reporting.report_result(
            league["match"],
            league["home"],
            home_goals=1,
            away_goals=0,
            posted_at=timezone.now() - timedelta(minutes=5),
            screenshot=png(),
        )
    report.refresh_from_db()
    assert report.status == "pending" and not Delivery.objects.exists()
