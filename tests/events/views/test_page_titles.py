"""Every page has its own title (WCAG 2.1 success criterion 2.4.2, issue 14): each GET
page of the permission matrix that staff (``head_judge``), a player or an anonymous
visitor reaches with a 200 is rendered, and its ``<title>`` is neither the bare site
name nor the title of another URL name."""

import re
from html import unescape

from django.core.cache import cache
from django.db import transaction
from django.urls import reverse

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
