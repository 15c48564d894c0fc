"""The schedule section of the match page, its htmx forms, the agreed time on My fixtures
and in the .ics feed, the staff's scheduling page (docs/leagues.md "Scheduling a
fixture")."""

from datetime import timedelta
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils import timezone

from leagues import scheduling
from leagues.models import TimeProposal
from tests.leagues.scheduling_fixtures import sched_fixture  # noqa: F401

H = timedelta(hours=1)
HX = {"HTTP_HX_REQUEST": "true"}


def urls(m):
    kw = {"slug": m.competition.slug, "code": m.code}
    return reverse("leagues:match", kwargs=kw), reverse("leagues:schedule-propose", kwargs=kw)


def local(value, f):
    return value.astimezone(ZoneInfo(f["season"].time_zone)).strftime("%Y-%m-%dT%H:%M")


def test_player_proposes_and_opponent_accepts(client, fixture):
    f = fixture
    page, propose = urls(f["match"])
    client.force_login(f["home"])
    t1 = (timezone.now() + 30 * H).replace(second=0, microsecond=0)
    t2 = t1 + 2 * H
    answer = client.post(propose, {"time_1": local(t1, f), "time_2": local(t2, f)}, **HX)
    assert answer.status_code == 200
    assert "waiting for your opponent" in answer.content.decode()
    assert 'id="schedule"' in answer.content.decode()
    assert TimeProposal.objects.filter(status="open").count() == 2
    client.force_login(f["away"])
    body = client.get(page).content.decode()
    assert "Accept this time" in body
    first = TimeProposal.objects.order_by("starts_at").first()
    accept = reverse(
        "leagues:schedule-accept",
        kwargs={"slug": f["match"].competition.slug, "code": f["match"].code, "pk": first.pk},
    )
    answer = client.post(accept, **HX)
    assert answer.status_code == 200 and "data-agreed-time" in answer.content.decode()
    assert scheduling.agreed_time(f["match"]).starts_at == t1
    # Both players' fixtures show it.
    for user in (f["home"], f["away"]):
        client.force_login(user)
        mine = client.get(reverse("leagues:my-fixtures")).content.decode()
        assert "agreed time" in mine
        ics = client.get(reverse("leagues:my-fixtures-ics")).content.decode()
        stamp = t1.astimezone(timezone.UTC).strftime("%Y%m%dT%H%M%SZ")
        assert f"DTSTART:{stamp}" in ics and "-agreed@" in ics


def test_without_htmx_redirects_to_the_section(client, fixture):
    f = fixture
    page, propose = urls(f["match"])
    client.force_login(f["home"])
    t1 = timezone.now() + 30 * H
    answer = client.post(propose, {"time_1": local(t1, f)})
    assert answer.status_code == 302 and answer["Location"].endswith("#schedule")


def test_refused_time_shown_nothing_saved(client, fixture):
    f = fixture
    _, propose = urls(f["match"])
    client.force_login(f["home"])
    late = f["match"].final_deadline + 5 * H
    answer = client.post(propose, {"time_1": local(late, f)}, **HX)
    assert answer.status_code == 400
    assert "before the fixture&#x27;s final deadline" in answer.content.decode()
    assert not TimeProposal.objects.exists()
    answer = client.post(propose, {}, **HX)
    assert answer.status_code == 400 and "at least one time" in answer.content.decode()


def test_other_users_refused(client, fixture):
    f = fixture
    page, propose = urls(f["match"])
    t1 = timezone.now() + 30 * H
    made = scheduling.propose(f["match"], f["home"], [t1])
    accept = reverse(
        "leagues:schedule-accept",
        kwargs={"slug": f["match"].competition.slug, "code": f["match"].code, "pk": made[0].pk},
    )
    client.force_login(f["outsider"])
    assert client.post(propose, {"time_1": local(t1 + H, f)}, **HX).status_code == 403
    assert client.post(accept, **HX).status_code == 403
    body = client.get(page).content.decode()
    assert "Accept this time" not in body and "Send the times" not in body
    client.logout()
    assert client.post(accept).status_code == 302  # to the login page
    assert scheduling.agreed_time(f["match"]) is None


def test_public_sees_only_the_agreed_time(client, fixture):
    f = fixture
    page, _ = urls(f["match"])
    t1 = timezone.now() + 30 * H
    made = scheduling.propose(f["match"], f["home"], [t1])
    assert "proposed these times" not in client.get(page).content.decode()
    scheduling.accept(f["match"], f["away"], made[0].pk)
    assert "data-agreed-time" in client.get(page).content.decode()


def test_staff_page_lists_flagged(client, fixture, django_assert_max_num_queries):
    f = fixture
    m = f["match"]
    m.initial_deadline = timezone.now() + 20 * H
    m.save()
    client.force_login(f["staff"])
    url = reverse("leagues:staff-scheduling", kwargs={"slug": f["season"].slug})
    with django_assert_max_num_queries(12):
        answer = client.get(url)
    assert answer.status_code == 200
    body = answer.content.decode()
    assert "at most 48 hours away" in body
    assert m.home.name in body and "no time proposed" in body
    client.force_login(f["home"])
    assert client.get(url).status_code == 404


def test_match_page_queries_bounded(client, fixture, django_assert_max_num_queries):
    f = fixture
    page, _ = urls(f["match"])
    scheduling.propose(f["match"], f["home"], [timezone.now() + 30 * H, timezone.now() + 40 * H])
    client.force_login(f["away"])
    with django_assert_max_num_queries(40):
        assert client.get(page).status_code == 200
