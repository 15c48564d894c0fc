"""Accessibility checks a browser is not needed for (issue 14, WCAG 2.1 AA), on the
permission matrix's world (tests/events/views/test_permissions.py):

- every page has its own title (2.4.2): each GET page of the matrix that staff
  (``head_judge``), a player or an anonymous visitor reaches with a 200 is rendered, and
  its ``<title>`` is neither the bare site name nor the title of another URL name;
- the sign-up and sign-in fields say their purpose (``autocomplete``, 1.3.5); a failed
  submit shows each error once, tied to its field, and a summary at the top (3.3.1);
- the result sheet's check and the penalty previews are swapped inside a region that
  stays on the page (``aria-live``, 4.1.3);
- English rulebook names on Spanish pages are marked ``lang="en"`` (3.1.2)."""

import re
from html import unescape

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from tests.events.views.test_permissions import MATRIX, QUERIES, TARGETS, world  # noqa: F401

PERSONAS = ("head_judge", "player", "anonymous")
# URL names that show the same page, so the same title: the page of an event not yet
# published answers every public page of it; a print page, the big screen and the page
# itself show one list; the two "password changed" pages say the same thing.
SAME_PAGE = [
    {
        "events:public-results",
        "events:public-seating",
        "events:public-seating-print",
        "events:public-standings",
    },
    {"events:public-standings", "events:public-standings-screen", "manage:print-standings"},
    {"events:public-seating-print", "manage:print-seating"},
    {"events:competition-screen", "leagues:competition"},
    {"password_change_done", "password_reset_complete"},
]
TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def _title(client, w, row, persona) -> str | None:
    """The page's title as ``persona`` sees it; None for an answer that is not an HTML
    page (a file, a feed, an htmx fragment)."""
    cache.clear()
    client.logout()
    if persona != "anonymous":
        client.force_login(w["users"][persona])
    url = reverse(row.name, kwargs=TARGETS[row.target](w))
    url += QUERIES.get(row.target, lambda w: "")(w)
    with transaction.atomic():
        response = client.get(url)
        transaction.set_rollback(True)
    assert response.status_code == 200, f"{row.id} as {persona}: {response.status_code}"
    if not response["Content-Type"].startswith("text/html"):
        return None
    found = TITLE.search(response.content.decode())
    return " ".join(unescape(found.group(1)).split()) if found else None


def test_every_page_has_its_own_title(client, world, db):  # noqa: F811
    rows = [
        (row, persona)
        for row in MATRIX
        for persona in PERSONAS
        if row.method == "get" and row.expected(persona) == 200 and persona not in row.bugs
    ]
    bare, names_of = [], {}
    for row, persona in rows:
        title = _title(client, world, row, persona)
        if title is None:
            continue
        if title == "Árbitro":
            bare.append(f"{row.id} as {persona}")
        names_of.setdefault(title, set()).add(row.name)
    assert len(names_of) > 20
    assert not bare, "bare titles:\n" + "\n".join(bare)
    shared = {
        title: sorted(names)
        for title, names in names_of.items()
        if len(names) > 1 and not any(names <= same for same in SAME_PAGE)
    }
    assert not shared, f"titles shared by several URL names: {shared}"


def _page(client, w, persona, name, target, method="get", data=None, **extra):
    client.force_login(w["users"][persona])
    url = reverse(name, kwargs=TARGETS[target](w)) + QUERIES.get(target, lambda w: "")(w)
    return getattr(client, method)(url, data, **extra).content.decode()


def test_sign_up_and_sign_in_fields_say_their_purpose(client, db):
    page = client.get(reverse("signup")).content.decode()
    for name, purpose in [
        ("username", "username"),
        ("email", "email"),
        ("password1", "new-password"),
        ("password2", "new-password"),
        ("name", "name"),
    ]:
        field = re.search(rf'<input[^>]* name="{name}"[^>]*>', page).group(0)
        assert f'autocomplete="{purpose}"' in field, field
    page = client.get(reverse("login")).content.decode()
    assert re.search(r'<input[^>]*name="username"[^>]*autocomplete="username"', page)
    assert re.search(r'<input[^>]*name="password"[^>]*autocomplete="current-password"', page)


def test_failed_sign_up_errors_shown_once_tied_to_their_fields(client, db):
    with translation.override("en"):
        page = client.post(
            reverse("signup"),
            {"username": "x", "name": "", "password1": "a-long-pass-1", "password2": "other"},
            HTTP_ACCEPT_LANGUAGE="en",
        ).content.decode()
    summary = re.search(r'<div class="error-summary" role="alert"[^>]*>(.*?)</div>', page, re.S)
    assert summary, page
    assert '<a href="#id_name">' in summary.group(1)
    assert '<a href="#id_password2">' in summary.group(1)
    assert page.count("This field is required.") == 1
    name = re.search(r'<input[^>]* name="name"[^>]*>', page).group(0)
    assert 'aria-invalid="true"' in name
    assert 'aria-describedby="id_name_error"' in name
    assert 'id="id_name_error"' in page


def test_failed_event_form_has_an_error_summary(client, world, db):  # noqa: F811
    page = _page(client, world, "organiser", "event-create", "org_a", "post", {"name": ""})
    assert 'class="error-summary"' in page
    assert '<a href="#id_name">' in page


LIVE = re.compile(r'<div class="live-region" aria-live="polite">\s*<div id="(\w+)">')


@pytest.mark.parametrize(
    ("name", "target", "region"),
    [
        ("manage:table", "vekn_table", "check"),
        ("manage:incident-new", "vekn_preview", "preview"),
        ("manage:incident-new", "myl_preview", "preview"),
    ],
)
def test_live_checks_are_swapped_inside_a_stable_live_region(
    client,
    world,  # noqa: F811
    db,
    name,
    target,
    region,
):
    page = _page(client, world, "head_judge", name, target)
    assert [m.group(1) for m in LIVE.finditer(page)] == [region]


@pytest.mark.parametrize(
    "partial",
    [
        "manage/result.html#check",
        "penalties/incident.html#preview",
        "penalties/myl/incident.html#preview",
    ],
)
def test_the_swapped_part_is_not_itself_a_live_region(partial):
    """htmx replaces the part (``outerHTML``): a region replaced is not announced."""
    html = render_to_string(partial, {})
    assert 'id="' + partial.split("#")[1] + '"' in html
    assert "aria-live" not in html


def test_english_rulebook_names_are_marked_on_spanish_pages(client, world, db):  # noqa: F811
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = _page(client, world, "head_judge", "manage:incident-new", "myl_preview")
    assert re.search(r'<span lang="en">[^<]+</span>', page)


ABBRS = [("GW", "Partidas ganadas"), ("VP", "Puntos de victoria"), ("TP", "Puntos de torneo")]


@pytest.mark.parametrize(
    ("name", "target", "abbrs"),
    [
        ("manage:standings", "vekn", ABBRS),
        ("manage:print-slips", "vekn_round", ABBRS[:2]),
    ],
)
def test_scoring_abbreviations_are_english_words_on_spanish_pages(
    client,
    world,  # noqa: F811
    db,
    name,
    target,
    abbrs,
):
    """GW, VP and TP are the rulebook's English abbreviations in Spanish too (WCAG 3.1.2,
    issue 14): marked ``lang="en"``, inside an ``abbr`` whose title is in Spanish."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = _page(client, world, "head_judge", name, target)
    assert '<html lang="es"' in page
    for short, title in abbrs:
        assert f'<abbr title="{title}"><span lang="en">{short}</span></abbr>' in page, short
    assert not re.search(r"<th[^>]*>(GW|VP|TP)</th>", page)


def test_the_big_screen_marks_the_abbreviations(client, world, db):  # noqa: F811
    """The big screen's standings headers: the same marks, in Spanish."""
    from events import services

    services.set_standings_published(world["vekn"], True)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    cache.clear()
    url = reverse("events:public-standings-screen-live", kwargs={"slug": world["vekn"].slug})
    page = client.get(url).content.decode()
    for short, title in ABBRS:
        assert f'<abbr title="{title}"><span lang="en">{short}</span></abbr>' in page, short
