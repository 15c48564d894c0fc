"""Security and privacy (issue 7): the content security policy on every page type,
``check --deploy`` with the production settings, login throttling (django-axes), password
reset by e-mail, the player's own data download, no personal data on public pages, and
free text escaped everywhere it is shown."""

import io
import json
import os
import re
import secrets
import subprocess
import sys
import uuid
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from events import people, services
from events.permissions import ROLE_PERMISSIONS, Role
from leagues import reporting
from leagues import sanctions as league_sanctions
from leagues import services as league_services
from leagues.models import Competition, Match, ResultReport, SeasonRole, Team
from penalties import myl_reports
from penalties import services as penalty_services
from penalties.models import Sanction
from tests.conftest import add_players, play_round
from tests.factories import UserFactory
from tests.leagues.seasons import small_season

ROOT = Path(__file__).resolve().parents[2]
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
)
HEAD = ROLE_PERMISSIONS[Role.HEAD_JUDGE]
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
ESCAPED = {
    SCRIPT: "&lt;script&gt;alert(1)&lt;/script&gt;",
    IMG: "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;",
}
RAW = ("<script>alert(", "<img src=x onerror")
INLINE = [
    (re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I), "inline script"),
    (re.compile(r"<[a-z][^>]*\sstyle\s*=", re.I), "style attribute"),
    (re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I), "event handler attribute"),
    (re.compile(r"<style[\s>]", re.I), "inline style sheet"),
    (re.compile(r"javascript:", re.I), "javascript: address"),
]


def png():
    buffer = io.BytesIO()
    Image.new("RGB", (64, 40), (20, 120, 40)).save(buffer, "PNG")
    return SimpleUploadedFile("result.png", buffer.getvalue(), content_type="image/png")


class _InlineCodeFinder(HTMLParser):
    """Collects what the content security policy would block in a rendered page: inline
    scripts and style sheets, style attributes, event handler attributes and
    ``javascript:`` addresses (attribute values are parsed, so escaped text is not code)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        if tag == "script" and not names.get("src"):
            self.found.append("inline script")
        if tag == "style":
            self.found.append("inline style sheet")
        for name, value in attrs:
            if name == "style":
                self.found.append(f"style attribute on <{tag}>")
            elif name.startswith("on"):
                self.found.append(f"{name} handler on <{tag}>")
            elif name in ("href", "src", "action", "formaction") and (
                value or ""
            ).strip().lower().startswith("javascript:"):
                self.found.append(f"javascript: address on <{tag}>")


def assert_no_inline_code(html: str, where: str) -> None:
    finder = _InlineCodeFinder()
    finder.feed(html)
    assert finder.found == [], f"{where}: {finder.found}"


# --------------------------------------------------------------------------- fixtures
@pytest.fixture
def world(played_event, staff):
    """A played VEKN event with published standings and seating, a player account (with an
    e-mail) linked to one of its players with penalties, and a league season where the same
    account plays team t4."""
    event = played_event
    services.set_standings_published(event, True)
    for rnd in event.rounds.all():
        services.set_seating_published(rnd, True)
    player = UserFactory(username="pat", email="pat.private@example.org")
    reg = event.registrations.select_related("person").first()
    reg.person.user = player
    reg.person.save()
    rnd = event.rounds.get(number=1)
    table = rnd.seats.get(registration=reg).table
    logged = penalty_services.log_penalty(
        event,
        reg,
        "3.3",
        {},
        client_id=uuid.uuid4(),
        perms=HEAD,
        table=table,
        description="Slow play at the final turn (private note)",
    ).penalty
    voided = penalty_services.log_penalty(
        event, reg, "3.6", {}, client_id=uuid.uuid4(), perms=HEAD, table=table
    ).penalty
    penalty_services.void(voided, "Logged on the wrong player (private reason)", perms=HEAD)
    Sanction.objects.create(
        person=reg.person,
        kind=Sanction.Kind.SUSPENSION,
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate() + timedelta(days=30),
        penalty=logged,
        reason="Suspended for conduct (private sanction)",
        ruleset="vekn",
        organisation=event.organisation,
    )
    users = {f"user{i}": UserFactory(username=f"user{i}") for i in range(1, 5)}
    season = league_services.import_season(small_season())
    Team.objects.filter(season=season, code="t4").update(user=player)
    league_staff = UserFactory(username="league-staff")
    SeasonRole.objects.create(season=season, user=league_staff, role=SeasonRole.Role.STAFF)
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=season, user=tribunal, role=SeasonRole.Role.TRIBUNAL)
    walkover = Match.objects.get(competition__slug="t24-primera-a", code="m2")
    ResultReport.objects.create(
        match=walkover,
        team=Team.objects.get(season=season, code="t4"),
        reported_by=player,
        home_goals=0,
        away_goals=1,
        posted_at=timezone.now() - timedelta(days=1),
        screenshot="screenshots/t24/m2.png",
        status=ResultReport.Status.REJECTED,
        dispute_reason="",
        resolution="walkover stands",
    )
    return {
        "event": event,
        "staff": staff,
        "player": player,
        "reg": reg,
        "penalty": logged,
        "voided": voided,
        "season": season,
        "league_staff": league_staff,
        "tribunal": tribunal,
        "league_users": users,
    }


def page_urls(w) -> dict[str, list[str]]:
    """Every page type, by who can see it."""
    e = w["event"].slug
    public = [
        reverse("home"),
        reverse("login"),
        reverse("signup"),
        reverse("password_reset"),
        reverse("password_reset_done"),
        reverse("password_reset_complete"),
        reverse("password_reset_confirm", kwargs={"uidb64": "MQ", "token": "bad-token"}),
        reverse("events:public-event", kwargs={"slug": e}),
        reverse("events:public-standings", kwargs={"slug": e}),
        reverse("events:public-seating", kwargs={"slug": e}),
        reverse("events:public-results", kwargs={"slug": e}),
        reverse("leagues:season", kwargs={"slug": "t24"}),
        reverse("leagues:competition", kwargs={"slug": "t24-primera-a"}),
        reverse("leagues:competition", kwargs={"slug": "t24-cup"}),
        reverse("leagues:match", kwargs={"slug": "t24-primera-a", "code": "m1"}),
        reverse("leagues:compliance", kwargs={"slug": "t24"}),
        reverse("leagues:draft", kwargs={"slug": "t24"}),
        "/no-such-page/",
        reverse("admin:login"),
    ]
    player = [
        reverse("my-page"),
        reverse("my-sanctions"),
        reverse("leagues:my-fixtures"),
        reverse("leagues:match", kwargs={"slug": "t24-primera-a", "code": "m2"}),
    ]
    organiser = [
        reverse("manage:dashboard", kwargs={"slug": e}),
        reverse("manage:settings", kwargs={"slug": e}),
        reverse("manage:players", kwargs={"slug": e}),
        reverse("manage:round", kwargs={"slug": e, "number": 1}),
        reverse("manage:table", kwargs={"slug": e, "number": 1, "table_number": 1}),
        reverse("manage:standings", kwargs={"slug": e}),
        reverse("manage:final", kwargs={"slug": e}),
        reverse("manage:audit", kwargs={"slug": e}),
        reverse("manage:staff", kwargs={"slug": e}),
        reverse("manage:incident-person", kwargs={"slug": e}),
        reverse("manage:incident-new", kwargs={"slug": e}) + f"?reg={w['reg'].pk}",
        reverse("manage:penalties", kwargs={"slug": e}),
        reverse("manage:penalty", kwargs={"slug": e, "pk": w["penalty"].pk}),
        reverse("manage:penalty", kwargs={"slug": e, "pk": w["voided"].pk}),
        reverse("manage:cases", kwargs={"slug": e}),
    ]
    league_staff = [
        reverse("leagues:staff-home", kwargs={"slug": "t24"}),
        reverse("leagues:staff-deadlines", kwargs={"slug": "t24"}),
        reverse("leagues:staff-adjustments", kwargs={"slug": "t24"}),
        reverse("leagues:staff-audit", kwargs={"slug": "t24"}),
        reverse("leagues:staff-reviews", kwargs={"slug": "t24"}),
        reverse("leagues:staff-draft", kwargs={"slug": "t24"}),
        reverse("leagues:match", kwargs={"slug": "t24-primera-a", "code": "m3"}),
    ]
    return {
        "anonymous": public,
        "player": player,
        "organiser": organiser,
        "league_staff": league_staff,
    }


def _login(client, who, w):
    client.logout()
    user = {
        "anonymous": None,
        "player": w["player"],
        "organiser": w["staff"]["organiser"],
        "league_staff": w["league_staff"],
    }[who]
    if user is not None:
        client.force_login(user)


# --------------------------------------------------------------------------- CSP
def test_every_page_type_sends_the_content_security_policy(client, world):
    seen = 0
    for who, urls in page_urls(world).items():
        _login(client, who, world)
        for url in urls:
            response = client.get(url)
            assert response.status_code in (200, 404), f"{url} as {who}"
            if url != "/no-such-page/":
                assert response.status_code == 200, f"{url} as {who}: {response.status_code}"
            assert response["Content-Security-Policy"] == POLICY, f"{url} as {who}"
            if "text/html" in response.get("Content-Type", ""):
                html = response.content.decode()
                assert_no_inline_code(html, f"{url} as {who}")
            seen += 1
    assert seen >= 40
    # Documents and htmx requests too.
    client.force_login(world["player"])
    assert client.get(reverse("my-data"))["Content-Security-Policy"] == POLICY
    client.force_login(world["staff"]["organiser"])
    players = reverse("manage:players", kwargs={"slug": world["event"].slug})
    assert client.get(players, HTTP_HX_REQUEST="true")["Content-Security-Policy"] == POLICY


def test_templates_have_no_inline_scripts_styles_or_handlers():
    """The policy forbids them: every template is checked, not only the pages rendered."""
    offenders = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text("utf-8")
        for pattern, what in INLINE:
            for match in pattern.finditer(text):
                offenders.append(f"{path.relative_to(ROOT)}: {what}: {match.group(0)[:80]}")
    assert offenders == []


def test_python_code_sets_no_style_attributes():
    offenders = []
    for app in ("events", "penalties", "leagues", "standings", "config"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if re.search(r"""["']style["']\s*:|\sstyle=\\?["']""", line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_htmx_does_not_inject_or_copy_styles(client, db):
    html = client.get(reverse("home")).content.decode()
    config = re.search(r'<meta name="htmx-config" content=\'([^\']*)\'>', html)
    settings_ = json.loads(config.group(1))
    assert settings_["includeIndicatorStyles"] is False
    # Settling a swap never copies a style attribute (the CSP refuses inline styles).
    assert "style" not in settings_["attributesToSettle"]
    assert re.search(r'<script src="/static/js/app\.js" defer>', html)


# --------------------------------------------------------------------------- deploy
def test_check_deploy_is_clean_with_production_settings(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "SECURE_", "EMAIL_", "AXES_", "DATABASE_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        SECRET_KEY=secrets.token_urlsafe(64),
        DATABASE_URL=f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        ALLOWED_HOSTS="arbitro.example.org",
        CSRF_TRUSTED_ORIGINS="https://arbitro.example.org",
        PYTHONWARNINGS="ignore",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output, output
    assert "WARNING" not in output and "ERROR" not in output, output


def test_production_settings_are_hardened(monkeypatch):
    import importlib

    monkeypatch.setenv("SECRET_KEY", secrets.token_urlsafe(64))
    monkeypatch.setenv("EMAIL_HOST", "smtp.example.org")
    monkeypatch.setenv("EMAIL_USE_TLS", "true")
    monkeypatch.setenv("EMAIL_HOST_USER", "arbitro")
    monkeypatch.setenv("EMAIL_HOST_PASSWORD", "secret")
    monkeypatch.setenv("DEFAULT_FROM_EMAIL", "Árbitro <arbitro@example.org>")
    monkeypatch.delenv("EMAIL_BACKEND", raising=False)
    monkeypatch.delenv("EMAIL_PORT", raising=False)
    for name in ("config.settings.prod", "config.settings.base"):
        sys.modules.pop(name, None)
    try:
        prod = importlib.import_module("config.settings.prod")
        assert prod.SESSION_COOKIE_SECURE and prod.CSRF_COOKIE_SECURE
        assert prod.SECURE_SSL_REDIRECT and prod.SECURE_HSTS_SECONDS >= 31536000
        assert prod.SECURE_CSP["script-src"] == ["'self'"]
        assert "axes.middleware.AxesMiddleware" == prod.MIDDLEWARE[-1]
        # The address throttle, then axes, refuse before any password is checked.
        assert prod.AUTHENTICATION_BACKENDS[:2] == [
            "events.security.AddressThrottleBackend",
            "axes.backends.AxesStandaloneBackend",
        ]
        assert prod.MAILERS == {
            "default": {
                "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "OPTIONS": {
                    "host": "smtp.example.org",
                    "username": "arbitro",
                    "password": "secret",
                    "use_tls": True,
                    "use_ssl": False,
                    "timeout": 10,
                },
            }
        }
        assert prod.DEFAULT_FROM_EMAIL == "Árbitro <arbitro@example.org>"
    finally:
        for name in ("config.settings.prod", "config.settings.base"):
            sys.modules.pop(name, None)


def test_tls_and_ssl_together_are_refused(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from config.env import SMTP_BACKEND, env_mailers

    monkeypatch.setenv("EMAIL_USE_TLS", "true")
    monkeypatch.setenv("EMAIL_USE_SSL", "true")
    with pytest.raises(ImproperlyConfigured, match="EMAIL_USE_TLS"):
        env_mailers(SMTP_BACKEND)
    monkeypatch.setenv("EMAIL_USE_SSL", "false")
    monkeypatch.setenv("EMAIL_PORT", "2525")
    assert env_mailers(SMTP_BACKEND)["default"]["OPTIONS"]["port"] == 2525
    # The console backend (development) takes no SMTP options.
    monkeypatch.delenv("EMAIL_BACKEND", raising=False)
    console = env_mailers("django.core.mail.backends.console.EmailBackend")
    assert console["default"]["OPTIONS"] == {}


# --------------------------------------------------------------------------- axes
def _sign_in(client, username, password, address="127.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


@override_settings(AXES_ENABLED=True)
def test_login_is_locked_after_five_failures_for_that_username_and_address(client, db):
    from axes.models import AccessAttempt

    UserFactory(username="alice")  # password "pw"
    for _ in range(4):
        response = _sign_in(client, "alice", "wrong")
        assert response.status_code == 200  # the form again, with its error
    response = _sign_in(client, "alice", "wrong")
    assert response.status_code == 429
    html = response.content.decode()
    assert "Too many sign-in attempts" in html and "15 minutes" in html
    assert response["Content-Security-Policy"] == POLICY
    # Locked: even the right password is refused from this address...
    response = _sign_in(client, "alice", "pw")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    # ...but not from another address (username + address), nor for another username.
    assert _sign_in(client, "alice", "pw", address="10.1.2.3").status_code == 302
    client.logout()
    UserFactory(username="bob")
    assert _sign_in(client, "bob", "pw").status_code == 302
    client.logout()
    # After the cool-off (15 minutes) the account opens again.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert _sign_in(client, "alice", "pw").status_code == 302


@override_settings(AXES_ENABLED=True)
def test_a_successful_sign_in_resets_the_failure_count(client, db):
    UserFactory(username="alice")
    for _ in range(4):
        assert _sign_in(client, "alice", "wrong").status_code == 200
    assert _sign_in(client, "alice", "pw").status_code == 302
    client.logout()
    # Four more failures do not lock: the count started again at the success.
    for _ in range(4):
        assert _sign_in(client, "alice", "wrong").status_code == 200
    assert _sign_in(client, "alice", "pw").status_code == 302


@override_settings(AXES_ENABLED=True, LANGUAGE_CODE="es")
def test_the_lockout_page_speaks_the_visitors_language(client, db):
    UserFactory(username="alice")
    for _ in range(5):
        response = client.post(
            reverse("login"),
            {"username": "alice", "password": "wrong"},
            HTTP_ACCEPT_LANGUAGE="es",
        )
    assert response.status_code == 429
    assert response.content.decode().count("<h1>") == 1
    assert 'lang="es"' in response.content.decode()


@override_settings(AXES_ENABLED=True, LOGIN_ADDRESS_FAILURE_LIMIT=8)
def test_one_address_trying_many_usernames_is_locked_across_usernames(client, db):
    """Issue 12: the lockout counted per username and address only, so one address could
    try a few passwords on every username. Now the address itself is locked after
    LOGIN_ADDRESS_FAILURE_LIMIT failures whatever the usernames; other addresses are not."""
    for name in ("ana", "bea", "carla", "dora", "elsa", "fran", "gina", "hugo"):
        UserFactory(username=name)
    for name in ("ana", "bea", "carla", "dora"):  # two failures each: axes locks nobody
        for _ in range(2):
            assert _sign_in(client, name, "wrong").status_code == 200
    response = _sign_in(client, "elsa", "pw")  # the right password, but the address is locked
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    html = response.content.decode()
    assert "Too many sign-ins failed from this network" in html
    assert "elsa" not in html
    # Another address signs in as usual; the locked one waits for the cool-off.
    assert _sign_in(client, "elsa", "pw", address="10.9.8.7").status_code == 302
    client.logout()
    from django.core.cache import cache

    cache.clear()  # the window (AXES_COOLOFF_TIME) has passed
    assert _sign_in(client, "elsa", "pw").status_code == 302


@override_settings(AXES_ENABLED=True)
def test_the_address_limit_leaves_a_venue_room_for_typos(client, db):
    """[choice] The address limit (30 by default) is well above axes' 5: players sharing
    the venue's Wi-Fi address each mistyping a password once do not lock each other out."""
    from django.conf import settings

    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT >= 6 * settings.AXES_FAILURE_LIMIT
    for n in range(12):
        UserFactory(username=f"player{n}")
        assert _sign_in(client, f"player{n}", "typo").status_code == 200
    assert _sign_in(client, "player0", "pw").status_code == 302


# --------------------------------------------------------------------------- password reset
def test_the_login_page_links_to_the_password_reset(client, db):
    html = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in html and "Forgot your password?" in html


def test_password_reset_by_email(client, db):
    user = UserFactory(username="carla", email="carla@example.org")
    response = client.post(reverse("password_reset"), {"email": "carla@example.org"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["carla@example.org"]
    assert "Árbitro" in message.subject
    assert "carla" in message.body
    link = re.search(r"https?://[^/\s]+(/accounts/reset/[^\s]+/)", message.body).group(1)
    response = client.get(link)
    assert response.status_code == 302  # to the token-less address, token in the session
    form_url = response["Location"]
    page = client.get(form_url)
    assert page.status_code == 200 and b"new_password1" in page.content
    response = client.post(
        form_url,
        {"new_password1": "a brand new passphrase", "new_password2": "a brand new passphrase"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password("a brand new passphrase")
    # The link works once.
    again = client.get(link, follow=True)
    assert b"not valid" in again.content


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, db):
    UserFactory(username="carla", email="carla@example.org")
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


@override_settings(PASSWORD_RESET_LIMIT_PER_EMAIL=3, PASSWORD_RESET_LIMIT_PER_ADDRESS=10)
def test_password_reset_e_mails_are_limited_per_address_asked_for(client, db):
    """Issue 12: no limit on password-reset e-mails. Now 3 per e-mail address an hour; the
    fourth request gets the form again with a clear message and sends nothing."""
    UserFactory(username="carla", email="carla@example.org")
    for _ in range(3):
        response = client.post(reverse("password_reset"), {"email": "carla@example.org"})
        assert response.status_code == 302
    assert len(mail.outbox) == 3
    response = client.post(reverse("password_reset"), {"email": "CARLA@example.org"})
    assert response.status_code == 429
    assert "Too many password-reset e-mails" in response.content.decode()
    assert len(mail.outbox) == 3
    # Another address is not held up by carla's.
    UserFactory(username="dana", email="dana@example.org")
    assert client.post(reverse("password_reset"), {"email": "dana@example.org"}).status_code == 302
    assert len(mail.outbox) == 4


@override_settings(PASSWORD_RESET_LIMIT_PER_EMAIL=3, PASSWORD_RESET_LIMIT_PER_ADDRESS=10)
def test_password_reset_limit_does_not_tell_whether_an_account_exists(client, db):
    """The limit counts the address asked for whether or not an account has it: a known
    and an unknown address get the same answers, request after request."""
    UserFactory(username="carla", email="carla@example.org")

    def answers(email):
        return [
            client.post(reverse("password_reset"), {"email": email}).status_code for _ in range(4)
        ]

    assert answers("carla@example.org") == answers("nobody@example.org") == [302, 302, 302, 429]


@override_settings(PASSWORD_RESET_LIMIT_PER_EMAIL=3, PASSWORD_RESET_LIMIT_PER_ADDRESS=5)
def test_password_reset_e_mails_are_limited_per_client_address(client, db):
    """One client asking for many addresses is stopped too (REMOTE_ADDR here; behind
    proxies events.security.client_ip)."""
    for n in range(6):
        UserFactory(username=f"user_{n}", email=f"u{n}@example.org")
    statuses = [
        client.post(reverse("password_reset"), {"email": f"u{n}@example.org"}).status_code
        for n in range(6)
    ]
    assert statuses == [302] * 5 + [429]
    assert len(mail.outbox) == 5
    elsewhere = client.post(
        reverse("password_reset"), {"email": "u5@example.org"}, REMOTE_ADDR="10.1.1.1"
    )
    assert elsewhere.status_code == 302 and len(mail.outbox) == 6


def test_a_signed_in_user_changes_their_password(client, db):
    user = UserFactory(username="carla")  # password "pw"
    client.force_login(user)
    home = client.get(reverse("home")).content.decode()
    assert reverse("password_change") in home  # linked from the top bar
    page = client.get(reverse("password_change"))
    assert page.status_code == 200 and b"old_password" in page.content
    wrong = client.post(
        reverse("password_change"),
        {
            "old_password": "not-it",
            "new_password1": "a brand new passphrase",
            "new_password2": "a brand new passphrase",
        },
    )
    assert wrong.status_code == 200
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "pw",
            "new_password1": "a brand new passphrase",
            "new_password2": "a brand new passphrase",
        },
    )
    assert response["Location"] == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password("a brand new passphrase")
    # Still signed in on this device.
    assert client.get(reverse("password_change_done")).status_code == 200
    assert client.get(reverse("my-page")).status_code == 200


@override_settings(LANGUAGE_CODE="es")
def test_the_change_password_page_speaks_spanish(client, db):
    client.force_login(UserFactory(username="carla"))
    html = client.get(reverse("password_change"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'lang="es"' in html and "Contraseña" in html


def test_the_change_password_page_needs_sign_in(client, db):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_signup_takes_an_optional_email(client, db):
    response = client.post(
        reverse("signup"),
        {
            "username": "dana",
            "email": "dana@example.org",
            "name": "Dana",
            "vekn_number": "",
            "password1": "a-long-passphrase-1",
            "password2": "a-long-passphrase-1",
        },
    )
    assert response.status_code == 302
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.get(username="dana").email == "dana@example.org"


# --------------------------------------------------------------------------- data download
def test_my_data_needs_sign_in(client, db):
    response = client.get(reverse("my-data"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_player_downloads_their_own_data(client, world):
    client.force_login(world["player"])
    response = client.get(reverse("my-data"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]
    data = json.loads(response.content)
    assert data["account"]["username"] == "pat"
    assert data["account"]["email"] == "pat.private@example.org"
    assert data["person"]["name"] == world["reg"].person.name
    assert [r["event"] for r in data["registrations"]] == [world["event"].slug]
    by_status = {p["status"]: p for p in data["penalties"]}
    assert by_status["voided"]["void_reason"] == "Logged on the wrong player (private reason)"
    assert by_status["confirmed"]["description"] == "Slow play at the final turn (private note)"
    assert data["sanctions"][0]["reason"] == "Suspended for conduct (private sanction)"
    assert data["sanctions"][0]["penalty"] == str(world["penalty"].client_id)
    assert data["sanctions"][0]["ruleset"] == "vekn"
    assert data["sanctions"][0]["confirmed_at"] is None
    (team,) = data["league_teams"]
    assert (team["season"], team["code"]) == ("t24", "t4")
    assert team["adjustments"][0]["reason"] == "walkover m2"
    (report,) = data["league_match_reports"]
    assert report["match"] == "m2" and report["resolution"] == "walkover stands"
    assert report["reported_by_me"] is True
    # Only this player's data: no other account, no judge.
    text = response.content.decode()
    for other in ("organiser", "head_judge", "user1", "league-staff"):
        assert f'"{other}"' not in text


def test_my_data_runs_bounded_queries(client, world):
    client.force_login(world["player"])
    with CaptureQueriesContext(connection) as small:
        client.get(reverse("my-data"))
    # More history: more penalties, another event, another season's team.
    event = world["event"]
    reg = world["reg"]
    for _ in range(5):
        penalty_services.log_penalty(
            event,
            reg,
            "3.3",
            {},
            client_id=uuid.uuid4(),
            perms=HEAD,
            round=event.rounds.first(),
            again=True,
        )
    from tests.factories import EventFactory, RegistrationFactory

    RegistrationFactory(event=EventFactory(slug="another"), person=reg.person)
    season = small_season()
    season["slug"] = "t25"
    for competition in season["competitions"]:
        competition["slug"] = competition["slug"].replace("t24", "t25")
    league_services.import_season(season)
    Team.objects.filter(season__slug="t25", code="t1").update(user=world["player"])
    with CaptureQueriesContext(connection) as large:
        response = client.get(reverse("my-data"))
    assert len(json.loads(response.content)["penalties"]) == 7
    assert len(large) == len(small) <= 20


# --------------------------------------------------------------------------- privacy
def test_public_pages_show_no_email_nor_sanction_records(client, world):
    secrets_shown = [
        "pat.private@example.org",
        "(private note)",
        "(private reason)",
        "(private sanction)",
    ]
    urls = [
        reverse("home"),
        reverse("events:public-event", kwargs={"slug": world["event"].slug}),
        reverse("events:public-standings", kwargs={"slug": world["event"].slug}),
        reverse("events:public-seating", kwargs={"slug": world["event"].slug}),
        reverse("events:public-results", kwargs={"slug": world["event"].slug}),
        reverse("api-standings", kwargs={"slug": world["event"].slug}),
        reverse("leagues:season", kwargs={"slug": "t24"}),
        reverse("leagues:competition", kwargs={"slug": "t24-primera-a"}),
        reverse("leagues:match", kwargs={"slug": "t24-primera-a", "code": "m2"}),
        reverse("leagues:compliance", kwargs={"slug": "t24"}),
        reverse("leagues:draft", kwargs={"slug": "t24"}),
        reverse("leagues:suspensions", kwargs={"slug": "t24"}),
        reverse("api-competition-table", kwargs={"slug": "t24-primera-a"}),
    ]
    # Anonymous visitors and another signed-in player see the same public pages.
    for who in (None, UserFactory(username="curious")):
        client.logout()
        if who:
            client.force_login(who)
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            body = response.content.decode()
            for secret in secrets_shown:
                assert secret not in body, f"{secret} on {url}"
    # The player's name is public (they play under it).
    standings = client.get(reverse("events:public-standings", kwargs={"slug": world["event"].slug}))
    assert world["reg"].person.name in standings.content.decode()


# --------------------------------------------------------------------------- escaping
def _assert_escaped(pages: dict[str, str], payload: str, where: str) -> None:
    escaped = ESCAPED[payload]
    for url, html in pages.items():
        for raw in RAW:
            assert raw not in html, f"{where}: raw payload on {url}"
    assert any(escaped in html for html in pages.values()), f"{where}: not shown escaped"


def _get(client, urls) -> dict[str, str]:
    pages = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, f"{url}: {response.status_code}"
        pages[url] = response.content.decode()
    return pages


def test_script_payloads_in_free_text_are_escaped_everywhere(client, event, staff):
    organiser = staff["organiser"]
    # Event name (through the service that the settings form uses).
    services.update_event(event, organiser, name=f"Cup {SCRIPT}")
    # Player names: through the staff form, and through the service.
    client.force_login(organiser)
    response = client.post(
        reverse("manage:player-add", kwargs={"slug": event.slug}),
        {"name": f"Ann {IMG}", "vekn_number": ""},
    )
    assert response.status_code == 302
    person = people.find_or_create_person(f"Bea {SCRIPT}")
    script_reg = services.register(event, person, check_in=True)
    add_players(event, 10)
    event.registrations.update(status="checked_in")
    rnd = services.seat_next_round(event, seed=1)
    services.set_seating_published(rnd, True)
    play_round(rnd)
    services.set_standings_published(event, True)
    # Penalty description, deviation reason and void reason.
    table = rnd.seats.get(registration=script_reg).table
    described = penalty_services.log_penalty(
        event,
        script_reg,
        "3.3",
        {},
        client_id=uuid.uuid4(),
        perms=HEAD,
        table=table,
        description=f"Said {SCRIPT}",
        level="warning",
        deviation_reason=f"Because {IMG}",
    ).penalty
    voided = penalty_services.log_penalty(
        event, script_reg, "3.6", {}, client_id=uuid.uuid4(), perms=HEAD, table=table
    ).penalty
    penalty_services.void(voided, f"Wrong {SCRIPT}", perms=HEAD)
    player = UserFactory(username="bea")
    person.user = player
    person.save()

    slug = event.slug
    public = _get(
        client,
        [
            reverse("home"),
            reverse("events:public-event", kwargs={"slug": slug}),
            reverse("events:public-standings", kwargs={"slug": slug}),
            reverse("events:public-seating", kwargs={"slug": slug}),
            reverse("events:public-results", kwargs={"slug": slug}),
        ],
    )
    client.logout()
    public.update(
        {
            f"anon {url}": html
            for url, html in _get(
                client,
                [
                    reverse("home"),
                    reverse("events:public-standings", kwargs={"slug": slug}),
                    reverse("events:public-seating", kwargs={"slug": slug}),
                    reverse("events:public-standings-screen", kwargs={"slug": slug}),
                    reverse("events:public-standings-screen-live", kwargs={"slug": slug}),
                ],
            ).items()
        }
    )
    # The big screen: the event's name and the players' names, escaped.
    screen = public[f"anon {reverse('events:public-standings-screen', kwargs={'slug': slug})}"]
    assert ESCAPED[SCRIPT] in screen and ESCAPED[IMG] in screen
    client.force_login(organiser)
    manage = _get(
        client,
        [
            reverse("manage:dashboard", kwargs={"slug": slug}),
            reverse("manage:players", kwargs={"slug": slug}),
            reverse("manage:round", kwargs={"slug": slug, "number": 1}),
            reverse("manage:standings", kwargs={"slug": slug}),
            reverse("manage:penalties", kwargs={"slug": slug}),
            reverse("manage:penalty", kwargs={"slug": slug, "pk": described.pk}),
            reverse("manage:penalty", kwargs={"slug": slug, "pk": voided.pk}),
            reverse("manage:incident-person", kwargs={"slug": slug}),
            reverse("manage:audit", kwargs={"slug": slug}),
        ],
    )
    client.force_login(player)
    own = _get(client, [reverse("my-page"), reverse("my-sanctions")])
    every = {**public, **manage, **own}
    _assert_escaped(every, SCRIPT, "event name")
    _assert_escaped({**public}, SCRIPT, "player name (service) on public pages")
    _assert_escaped({**public}, IMG, "player name (form) on public pages")
    _assert_escaped(
        {k: v for k, v in manage.items() if f"/{described.pk}/" in k}, SCRIPT, "description"
    )
    _assert_escaped(
        {k: v for k, v in manage.items() if f"/{described.pk}/" in k}, IMG, "deviation reason"
    )
    _assert_escaped(own, SCRIPT, "void reason on the player's sanctions")
    for html in every.values():
        assert_no_inline_code(html, "payload page")


def test_script_payloads_in_league_free_text_are_escaped(client, db):
    users = {f"user{i}": UserFactory(username=f"user{i}") for i in range(1, 5)}
    season = league_services.import_season(small_season())
    staff = UserFactory(username="staff")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=season, user=tribunal, role=SeasonRole.Role.TRIBUNAL)
    match = Match.objects.select_related("competition__season", "home", "away").get(
        competition__slug="t24-primera-a", code="m3"
    )  # t1 (user1) v t3 (user3), unplayed
    now = timezone.now()
    match.initial_deadline = now + timedelta(days=2)
    match.final_deadline = now + timedelta(days=5)
    match.save()
    # Dispute reason (service), excuse reason (service), adjustment reason (service).
    report = reporting.report_result(
        match,
        users["user1"],
        home_goals=2,
        away_goals=1,
        posted_at=now - timedelta(minutes=30),
        screenshot=png(),
    )
    reporting.dispute_report(report, users["user3"], f"Wrong {IMG}")
    today = timezone.localdate()
    reporting.request_excuse(
        match,
        users["user1"],
        date_from=today,
        date_to=today + timedelta(days=2),
        reason=f"Trip {SCRIPT}",
        evidence=png(),
    )
    competition = Competition.objects.get(slug="t24-primera-a")
    league_sanctions.add_adjustment(
        competition, Team.objects.get(season=season, code="t2"), -1, f"Late {IMG}", tribunal
    )
    # Team names through the season file are covered by tests/leagues/views/test_pages.py.
    match_url = reverse("leagues:match", kwargs={"slug": "t24-primera-a", "code": "m3"})
    pages = {}
    for who in (None, users["user1"], users["user3"], staff, tribunal):
        client.logout()
        if who:
            client.force_login(who)
        pages.update({f"{who} {k}": v for k, v in _get(client, [match_url]).items()})
    client.force_login(staff)
    pages.update(
        _get(
            client,
            [
                reverse("leagues:competition", kwargs={"slug": "t24-primera-a"}),
                reverse("leagues:staff-adjustments", kwargs={"slug": "t24"}),
                reverse("leagues:staff-home", kwargs={"slug": "t24"}),
                reverse("leagues:staff-audit", kwargs={"slug": "t24"}),
            ],
        )
    )
    _assert_escaped(pages, IMG, "dispute reason / adjustment reason")
    _assert_escaped(pages, SCRIPT, "excuse reason")
    staff_adjustments = pages[reverse("leagues:staff-adjustments", kwargs={"slug": "t24"})]
    assert ESCAPED[IMG] in staff_adjustments
    for html in pages.values():
        assert_no_inline_code(html, "league payload page")


# Each free-text field gets its own payload, so that every field is checked on its own
# (one field shown escaped does not hide another left out).
def _payload(tag: str) -> str:
    return f'<script>alert("{tag}")</script>'


def _escaped(tag: str) -> str:
    return f"&lt;script&gt;alert(&quot;{tag}&quot;)&lt;/script&gt;"


def _check_fields(pages: dict[str, str], shown_on: dict[str, list[str]]) -> None:
    """No page has a live payload; each field's payload is shown escaped on every page
    listed for it (keys of ``pages`` ending with one of the listed suffixes)."""
    for url, html in pages.items():
        for raw in RAW:
            assert raw not in html, f"raw payload on {url}"
        assert_no_inline_code(html, url)
    for tag, where in shown_on.items():
        for suffix in where:
            matching = [url for url in pages if url == suffix] or [
                url for url in pages if url.endswith(suffix)
            ]
            assert matching, f"no page {suffix}"
            for url in matching:
                assert _escaped(tag) in pages[url], f"{tag}: not shown escaped on {url}"


def test_every_league_free_text_field_is_escaped_where_it_is_shown(client, db):
    """Team names and footballers' names through the season file; the dispute, excuse,
    adjustment, correction, deadline and void reasons through the services the forms use."""
    users = {f"user{i}": UserFactory(username=f"user{i}") for i in range(1, 5)}
    data = small_season()
    data["teams"][0]["name"] = f"One {_payload('team')}"
    for competition in data["competitions"]:
        for m in competition.get("matches", []):
            for card in m.get("cards", []):
                card["footballer"] = f"N. {_payload('footballer')}"
    season = league_services.import_season(data)
    staff = UserFactory(username="staff")
    SeasonRole.objects.create(season=season, user=staff, role=SeasonRole.Role.STAFF)
    tribunal = UserFactory(username="tribunal")
    SeasonRole.objects.create(season=season, user=tribunal, role=SeasonRole.Role.TRIBUNAL)
    competition = Competition.objects.get(slug="t24-primera-a")
    now = timezone.now()
    m3 = Match.objects.get(competition=competition, code="m3")  # t1 v t3, unplayed
    Match.objects.filter(pk=m3.pk).update(
        initial_deadline=now + timedelta(days=2), final_deadline=now + timedelta(days=5)
    )
    m3.refresh_from_db()
    report = reporting.report_result(
        m3,
        users["user1"],
        home_goals=2,
        away_goals=1,
        posted_at=now - timedelta(minutes=30),
        screenshot=png(),
        cards=[{"team": "t1", "footballer": f"N. {_payload('booked')}", "card": "yellow"}],
    )
    reporting.dispute_report(report, users["user3"], _payload("dispute"))
    today = timezone.localdate()
    reporting.request_excuse(
        m3,
        users["user1"],
        date_from=today,
        date_to=today + timedelta(days=2),
        reason=_payload("excuse"),
        evidence=png(),
    )
    league_sanctions.add_adjustment(
        competition, Team.objects.get(season=season, code="t2"), -1, _payload("ledger"), tribunal
    )
    m1 = Match.objects.get(competition=competition, code="m1")
    reporting.correct_result(
        m1, staff, home_goals=3, away_goals=1, reported_at=m1.reported_at, reason=_payload("fix")
    )
    champagne = Competition.objects.get(slug="t24-champagne")
    moved = Match.objects.get(competition=champagne, code="g1")
    voided = Match.objects.get(competition=champagne, code="g2")
    league_sanctions.move_deadlines(
        champagne,
        staff,
        initial=now + timedelta(days=3),
        final=now + timedelta(days=6),
        match=moved,
        reason=_payload("deadline"),
    )
    league_sanctions.void_match(voided, tribunal, _payload("void"))

    def match_url(m):
        return reverse("leagues:match", kwargs={"slug": m.competition.slug, "code": m.code})

    public = [
        reverse("home"),
        reverse("leagues:season", kwargs={"slug": "t24"}),
        reverse("leagues:competition", kwargs={"slug": "t24-primera-a"}),
        reverse("leagues:compliance", kwargs={"slug": "t24"}),
        reverse("leagues:draft", kwargs={"slug": "t24"}),
        reverse("leagues:suspensions", kwargs={"slug": "t24"}),
        match_url(m1),
        match_url(m3),
        match_url(voided),
    ]
    pages = {f"anonymous {url}": html for url, html in _get(client, public).items()}
    for who in (users["user1"], users["user3"]):
        client.force_login(who)
        pages.update({f"{who} {u}": h for u, h in _get(client, [match_url(m3)]).items()})
    client.force_login(users["user1"])
    pages.update({f"user1 {u}": h for u, h in _get(client, [reverse("my-page")]).items()})
    client.force_login(staff)
    staff_pages = [
        match_url(m1),
        match_url(m3),
        match_url(moved),
        match_url(voided),
        reverse("leagues:staff-adjustments", kwargs={"slug": "t24"}),
        reverse("leagues:staff-home", kwargs={"slug": "t24"}),
        reverse("leagues:staff-audit", kwargs={"slug": "t24"}),
    ]
    pages.update({f"staff {u}": h for u, h in _get(client, staff_pages).items()})
    _check_fields(
        pages,
        {
            "team": [
                reverse("leagues:competition", kwargs={"slug": "t24-primera-a"}),
                reverse("leagues:compliance", kwargs={"slug": "t24"}),
                match_url(m1),
                match_url(m3),
            ],
            # a booking in a report (the season file's are checked for raw output only)
            "booked": [f"user3 {match_url(m3)}", f"staff {match_url(m3)}"],
            "dispute": [f"user3 {match_url(m3)}", f"staff {match_url(m3)}"],
            "excuse": [f"user1 {match_url(m3)}", f"staff {match_url(m3)}"],
            "ledger": [reverse("leagues:staff-adjustments", kwargs={"slug": "t24"})],
            "fix": [f"staff {reverse('leagues:staff-audit', kwargs={'slug': 't24'})}"],
            "deadline": [f"staff {reverse('leagues:staff-audit', kwargs={'slug': 't24'})}"],
            "void": [f"staff {reverse('leagues:staff-audit', kwargs={'slug': 't24'})}"],
        },
    )


def test_every_myl_free_text_field_is_escaped_where_it_is_shown(client, db, monkeypatch):
    """Mitos y Leyendas: a penalty's description, the §5.8 aggression report (what
    happened, witnesses, authorities), the player's written appeal and its decision."""
    import datetime as dt

    from events.models import AuthorityRole, EventRole
    from penalties import myl_services
    from penalties.models import Appeal, Penalty
    from tests.factories import PersonFactory, RegistrationFactory
    from tests.penalties.services.test_myl_services import myl_event, seat_round

    event = myl_event(slug="myl-escape")
    head = UserFactory(username="myl-head")
    EventRole.objects.create(event=event, user=head, role=Role.HEAD_JUDGE)
    op = UserFactory(username="myl-op")
    AuthorityRole.objects.create(user=op, ruleset="myl")
    player = UserFactory(username="myl-player")
    regs = [RegistrationFactory(event=event, person=PersonFactory(name="Ana", user=player))]
    regs += [RegistrationFactory(event=event) for _ in range(3)]
    seat_round(event, regs, 1)

    def log(reg, code, conditions=None, **kw):
        kw.setdefault("perms", ROLE_PERMISSIONS[Role.HEAD_JUDGE])  # the head judge logs
        penalty = myl_services.log_penalty(
            event, reg, code, conditions or {}, client_id=uuid.uuid4(), actor=head, **kw
        ).penalty
        Penalty.objects.filter(pk=penalty.pk).update(
            created_at=dt.datetime(2026, 9, 17, 15, 0, tzinfo=dt.UTC)
        )
        penalty.refresh_from_db()
        return penalty

    aggression = log(regs[1], "3.1.2", {"grave": True}, description=_payload("description"))
    myl_reports.write_aggression_report(
        aggression,
        kind="both",
        description=_payload("happened"),
        witnesses=_payload("witnesses"),
        authorities_called=True,
        authorities_detail=_payload("authorities"),
        actor=head,
    )
    monkeypatch.setattr(myl_services, "today", lambda event=None: dt.date(2026, 9, 18))
    appealed = log(regs[0], "3.2.2")
    myl_services.submit_written_appeal(appealed, _payload("appeal"), player)

    def manage(name, **kw):
        return reverse(name, kwargs={"slug": event.slug, **kw})

    client.force_login(op)
    pending = {f"pending {u}": h for u, h in _get(client, [manage("manage:myl-appeals")]).items()}
    myl_services.decide_written_appeal(
        Appeal.objects.get(penalty=appealed), "confirmed", _payload("decision"), actor=op
    )

    report = manage("manage:myl-aggression-report", pk=aggression.pk)
    client.force_login(head)
    pages = _get(
        client,
        [
            manage("manage:penalties"),
            manage("manage:penalty", pk=aggression.pk),
            report,
            report + "?print=1",
            manage("manage:penalty", pk=appealed.pk),
        ],
    )
    client.force_login(op)
    pages.update(pending)
    pages.update(_get(client, [manage("manage:myl-appeals")]))
    client.force_login(player)
    pages.update({f"player {u}": h for u, h in _get(client, [reverse("my-sanctions")]).items()})
    _check_fields(
        pages,
        {
            "description": [manage("manage:penalty", pk=aggression.pk)],
            "happened": [report, report + "?print=1"],
            "witnesses": [report, report + "?print=1"],
            "authorities": [report, report + "?print=1"],
            "appeal": [
                f"pending {manage('manage:myl-appeals')}",
                manage("manage:penalty", pk=appealed.pk),
            ],
            "decision": [manage("manage:myl-appeals"), reverse("my-sanctions")],
        },
    )


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (0, "203.0.113.7", "10.0.0.2"),  # no proxy: the header is the client's word only
        (1, "203.0.113.7", "203.0.113.7"),  # nginx replaced the header
        (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),  # a spoofed entry on the left
        (2, "198.51.100.1, 203.0.113.7, 10.0.0.5", "203.0.113.7"),  # balancer + nginx
        (2, "203.0.113.7", "10.0.0.2"),  # did not come through both proxies
        (1, "", "10.0.0.2"),
    ],
)
def test_the_throttling_reads_the_address_the_trusted_proxies_saw(
    settings, rf, count, forwarded, expected
):
    from axes.helpers import get_client_ip_address

    settings.TRUSTED_PROXY_COUNT = count
    request = rf.post("/accounts/login/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    assert get_client_ip_address(request) == expected
