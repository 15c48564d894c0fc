"""The squad pages and the report form's squad picker (leagues.views_squads,
leagues.views_match; docs/leagues.md "Squads")."""

import html

import pytest
from django.urls import reverse

from leagues import squads
from leagues.models import Footballer, ResultReport
from tests.factories import UserFactory
from tests.leagues.services.test_squads import cup, report  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def team_url(team="t1"):
    return reverse("leagues:team-squad", kwargs={"slug": "t24", "team": team})


def test_the_owner_pastes_a_squad_and_everyone_reads_it(client, cup, django_assert_max_num_queries):  # noqa: F811
    client.force_login(cup["user1"])
    page = client.get(team_url()).content.decode()
    assert 'name="lines"' in page
    response = client.post(team_url(), {"lines": "13 M. Ballack\n\n#7; K. Dós\nJ. Doe"})
    assert response.status_code == 302 and response["Location"] == team_url()
    assert list(Footballer.objects.values_list("number", "name")) == [
        (7, "K. Dós"),
        (13, "M. Ballack"),
        (None, "J. Doe"),
    ]
    client.logout()
    with django_assert_max_num_queries(6):
        page = client.get(reverse("leagues:squads", kwargs={"slug": "t24"})).content.decode()
    assert "M. Ballack" in page and "K. Dós" in page and "Edit the squad" not in page
    page = client.get(team_url()).content.decode()
    assert "M. Ballack" in page and 'name="lines"' not in page


def test_a_bad_paste_is_answered_400_with_what_was_typed(client, cup):  # noqa: F811
    client.force_login(cup["user1"])
    client.post(team_url(), {"lines": "13 M. Ballack"})
    response = client.post(team_url(), {"lines": "9 A. New\n13 B. Other"})
    assert response.status_code == 400
    text = html.unescape(response.content.decode())
    assert "Line 2: number 13 is already M. Ballack's." in text
    assert "9 A. New\n13 B. Other" in text  # the box keeps the paste
    assert Footballer.objects.count() == 1


def test_others_may_not_edit_and_the_lock_stops_the_owner(client, cup):  # noqa: F811
    client.force_login(cup["user2"])
    assert client.post(team_url(), {"lines": "7 X"}).status_code == 403
    client.force_login(cup["staff"])
    lock = reverse("leagues:squads-lock", kwargs={"slug": "t24"})
    assert client.post(lock, {"closed": "yes"}).status_code == 302
    assert squads.is_locked(cup["season"])
    assert "The squads are closed" in client.get(team_url()).content.decode()
    client.force_login(cup["user1"])
    assert 'name="lines"' not in client.get(team_url()).content.decode()
    assert client.post(team_url(), {"lines": "7 X"}).status_code == 403
    client.force_login(cup["staff"])
    assert client.post(team_url(), {"lines": "7 X"}).status_code == 302
    assert client.post(lock, {"closed": "maybe"}).status_code == 400


def test_a_footballer_is_renamed_or_removed(client, cup):  # noqa: F811
    client.force_login(cup["user1"])
    client.post(team_url(), {"lines": "13 N. Thirteen\n7 K. Dos"})
    f = Footballer.objects.get(number=13)
    target = reverse("leagues:squad-footballer", kwargs={"slug": "t24", "team": "t1", "pk": f.pk})
    data = {"name": "N. Renamed", "number": "13", "action": "save"}
    assert client.post(target, data).status_code == 302
    assert Footballer.objects.get(pk=f.pk).name == "N. Renamed"
    response = client.post(target, {**data, "number": "7"})
    assert response.status_code == 400
    assert "Another footballer of the squad" in response.content.decode()
    assert client.post(target, {**data, "number": "100"}).status_code == 400
    response = client.post(target, {**data, "action": "remove"})
    assert response.status_code == 302, html.unescape(response.content.decode())
    assert not Footballer.objects.filter(pk=f.pk).exists()
    # One with cards stays: k1's typed "M. Ballack" became his when he joined the squad.
    client.post(team_url(), {"lines": "10 M. Ballack"})
    ballack = Footballer.objects.get(number=10)
    assert ballack.cards.count() == 1
    target = reverse(
        "leagues:squad-footballer", kwargs={"slug": "t24", "team": "t1", "pk": ballack.pk}
    )
    response = client.post(target, {**data, "action": "remove"})
    assert response.status_code == 400 and "has cards this season" in response.content.decode()
    other = reverse("leagues:squad-footballer", kwargs={"slug": "t24", "team": "t2", "pk": f.pk})
    assert client.post(other, data).status_code == 404


def test_the_report_form_offers_the_squads_and_staff_see_unlisted_names(client, cup):  # noqa: F811
    squads.add_footballers(cup["t1"], cup["user1"], [(1, 13, "M. Ballack")])
    match_url = reverse("leagues:match", kwargs={"slug": "t24-cup", "code": "k2"})
    client.force_login(cup["user2"])
    page = client.get(match_url).content.decode()
    assert '<datalist id="squad-away"><option value="M. Ballack">13 · M. Ballack</option>' in page
    assert "data-squad-picker" in page and "write “#7”" in html.unescape(page)
    response = client.post(
        reverse("leagues:match-report", kwargs={"slug": "t24-cup", "code": "k2"}),
        {
            "home_goals": "0",
            "away_goals": "1",
            "posted_at": "2026-03-09T21:00",
            "cards": "away; #13; yellow\naway; Somebody Else; yellow",
        },
    )
    # (the form needs the screenshot: the report is made by the service below instead)
    assert response.status_code == 400
    report(cup, "k2", cup["user2"], cards=[
        {"team": "away", "footballer": "#13", "card": "yellow"},
        {"team": "away", "footballer": "Somebody Else", "card": "yellow"},
    ])  # fmt: skip
    assert ResultReport.objects.get().cards[0]["squad"]
    client.force_login(cup["staff"])
    page = html.unescape(client.get(match_url).content.decode())
    assert "not in the team's squad" in page and "Somebody Else · Team 1" in page
    home = client.get(reverse("leagues:staff-home", kwargs={"slug": "t24"})).content.decode()
    assert "1 name not in the squad" in home
    client.force_login(UserFactory(username="nosy"))
    assert "not in the team's squad" not in client.get(match_url).content.decode()
