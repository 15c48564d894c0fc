"""The big-screen standings view for the venue's projector (issue 7).

``/events/<slug>/standings/screen/`` is a public page in large type; its live part (the
current round, its seating while it is being played, the standings) is a fragment,
``…/screen/live/``, that the page fetches again every 30 seconds with htmx.

It shows only what the public pages show to an anonymous visitor — the standings once
published, the seating of a round once published — *whoever* is signed in: the laptop
driving the projector is often an organiser's, and unpublished standings must not reach
the wall. So the fragment is the same for everyone and is always served from the public
page cache (``events.cache``: keyed by the event's ``public_version`` and the language, so
a publication or a result change shows at the next poll).
"""

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from events import cache as page_cache
from events import round_clock, rulesets, services
from events import swiss_services as ss
from events.models import Event
from events.views import _public_page
from events.views_swiss import _standing_rows
from leagues import services as league_services
from leagues.models import Competition
from standings.services import event_standings

POLL_SECONDS = 30
"""How often the screen fetches the live fragment again (setting ``SCREEN_POLL_SECONDS``)."""


SERVER_NOW = "__arbitro-server-now__"
"""Stands for the server's time (``events.round_clock.epoch_ms``) in the cached screen page:
:func:`stamp_now` puts each response's own in its place, so ``static/js/clock.js`` knows
the offset between the server's clock and the projector's even from a page cached
minutes ago (the clock itself carries its end time, which a cached page keeps true)."""


SERVER_TIME_HEADER = round_clock.SERVER_TIME_HEADER
"""The live fragment's header with the server's time in ms (``static/js/clock.js`` reads it
after each poll)."""


def stamp_now(page: str | bytes) -> str | bytes:
    """``page`` with the server's time now, in ms, in place of :data:`SERVER_NOW`."""
    now = str(round_clock.epoch_ms(timezone.now()))
    if isinstance(page, bytes):
        return page.replace(SERVER_NOW.encode(), now.encode())
    return page.replace(SERVER_NOW, now)


def poll_seconds() -> int:
    return getattr(settings, "SCREEN_POLL_SECONDS", POLL_SECONDS)


COLUMNS = 2
"""Standings columns side by side on a 1920 px projector (they stack on narrow screens):
two, so that a whole name of 40 characters and more fits (on up to 2 lines) next to the
rank, the points and the note."""
MIN_ROWS = 8
"""At least this many rows per column (a small event needs no second column)."""
ROWS_PER_COLUMN = 10
"""At most this many rows per column: a page of standings (2 × 10 players) fits a
1920×1080 projector with the seating's note and the round's line above it even when every
name takes 2 lines (``static/css/app.css``). A bigger event gets several pages that the
screen shows in turn (``static/js/screen.js``)."""
PAGE_SECONDS = 12
"""How long each page stays on the screen (setting ``SCREEN_PAGE_SECONDS``)."""


def page_seconds() -> int:
    return getattr(settings, "SCREEN_PAGE_SECONDS", PAGE_SECONDS)


def _columns(rows: list) -> list[list]:
    """``rows`` in up to :data:`COLUMNS` columns of equal length (the last one shorter)."""
    size = max(MIN_ROWS, -(-len(rows) // COLUMNS))
    return [rows[i : i + size] for i in range(0, len(rows), size)]


def _chunks(items: list, size: int) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _pages(tables: list, rows: list, published: bool, tables_per_page: int) -> list[dict]:
    """What the screen shows in turn, each page the size of the screen: the seating of
    the round being played (if any), ``tables_per_page`` tables a page (the ruleset's
    ``screen_tables_per_page``: 2 rows of four 5-player tables for VEKN, 4 rows of four
    2-player matches for Mitos y Leyendas, every name whole on up to 2 lines), then the
    standings (once published), in columns."""
    pages = [{"kind": "seating", "tables": chunk} for chunk in _chunks(tables, tables_per_page)]
    if published:
        # the note column ("Winner", "Finalist", "dropped") only on a page with a note:
        # elsewhere its width goes to the names
        pages += [
            {
                "kind": "standings",
                "columns": _columns(chunk),
                "notes": any(r.get("note") or r.get("dropped") for r in chunk),
            }
            for chunk in _chunks(rows, COLUMNS * ROWS_PER_COLUMN)
        ] or [{"kind": "standings", "columns": []}]
    return pages


def _vekn_rows(event) -> list[dict]:

    result = event_standings(event)
    rows = []
    for row, info in result.rows():
        note = ""
        if row.winner:
            note = "winner"
        elif row.finalist and result.prelims_done:
            note = "finalist"
        rows.append(
            {
                "rank": row.rank,
                "name": info.name,
                "gw": row.prelim_gw,
                "vp": row.prelim_vp,
                "tp": row.prelim_tp,
                "final_vp": row.final_vp,
                "note": note,
                "dropped": info.status == "dropped",
            }
        )
    return rows


def _myl_rows(event) -> list[dict]:

    return _standing_rows(ss.myl_standings(event))


def _live_context(event: Event) -> dict:
    """What the screen shows: only published things (never the staff view)."""
    spec = rulesets.of(event)
    rnd = event.rounds.filter(seating_published=True).order_by("-number").first()
    tables = services.round_overview(rnd) if rnd else []
    playing = False
    if rnd is not None:
        if spec.pairs_matches:
            playing = any(
                s.games_won is None and not t["table"].is_bye for t in tables for s in t["seats"]
            )
        else:
            playing = any(not (t["check"].complete) for t in tables)
    label = ""
    if rnd is not None:
        label = rulesets.round_label(rnd, len(tables), event=event)
    rows = []
    if event.standings_published:
        rows = _myl_rows(event) if spec.pairs_matches else _vekn_rows(event)
    # the clocks as of the build: the page keeps their end (or, paused, their time left)
    # and clock.js counts from it; a start, pause, resume or extension makes it stale
    clock = round_clock.clock(rnd.timing(), timezone.now()) if rnd is not None else None
    if clock is not None and clock.state == round_clock.NOT_STARTED:
        clock = None
    return {
        "round_clock": clock,
        "event": event,
        "round": rnd,
        "label": label,
        "playing": playing,
        "published": event.standings_published,
        "pages": _pages(
            tables if playing else [],
            rows,
            event.standings_published,
            spec.screen_tables_per_page,
        ),
        "page_seconds": page_seconds(),
        "pairs_matches": spec.pairs_matches,
    }


def _live_html(event: Event) -> str:
    key = page_cache.page_key(event, "screen-live", get_language() or "")
    return page_cache.get_or_build(
        key,
        lambda: page_cache.compact(
            render_to_string("events/screen_live.html", _live_context(event))
        ),
    )


def standings_screen(request, slug):
    """The full page: the site's frame (language switch) around the live fragment."""
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)

    def build():
        return render_to_string(
            "events/screen.html",
            {
                "event": event,
                # rendered by our own template, escaped there
                "live": mark_safe(_live_html(event)),  # noqa: S308
                "poll_seconds": poll_seconds(),
                "clock_now": SERVER_NOW,
            },
            request=request,
        )

    response = _public_page(request, event, "screen", build)
    response.content = stamp_now(response.content)
    return response


def standings_screen_live(request, slug):
    """The fragment the page polls: identical for every visitor, always cached."""
    event = get_object_or_404(Event, slug=slug)
    response = HttpResponse(_live_html(event))
    response["Cache-Control"] = "no-cache"
    # the server's time for clock.js's offset (the fragment itself is the cached bytes)
    response[SERVER_TIME_HEADER] = str(round_clock.epoch_ms(timezone.now()))
    return response


# --------------------------------------------------------------------------- leagues
def _competition(slug):

    competition = get_object_or_404(Competition.objects.select_related("season"), slug=slug)
    if competition.kind == Competition.Kind.KNOCKOUT:
        raise Http404("A knockout has a bracket, not a table")
    return competition


def _competition_live_html(competition) -> str:
    """The table(s) of a league or group stage in large type. Not cached: a season has no
    version counter to key a cache on yet (``leagues/views.py``); 4 queries."""

    doc = league_services.competition_table(competition)
    groups = list(doc["groups"].items()) if "groups" in doc else [("", doc)]
    return render_to_string(
        "events/screen_competition_live.html",
        {
            "competition": competition,
            "groups": [{"name": name, "rows": group["rows"]} for name, group in groups],
        },
    )


def competition_screen(request, slug):
    """A league competition's table on the venue's (or the stream's) big screen."""
    competition = _competition(slug)
    return render(
        request,
        "events/screen_competition.html",
        {
            "competition": competition,
            "season": competition.season,
            "live": mark_safe(_competition_live_html(competition)),  # noqa: S308
            "poll_seconds": poll_seconds(),
        },
    )


def competition_screen_live(request, slug):
    response = HttpResponse(_competition_live_html(_competition(slug)))
    response["Cache-Control"] = "no-cache"
    return response
