"""Creating a season from the site (issue 14): the services of leagues.season_setup and
the pages of leagues.views_setup — who may, the preview with its per-line problems, all or
nothing, a form sent twice, the roll-over of a finished season."""

from datetime import date
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import PermissionDenied
from django.core.management import call_command

from events.errors import UserError
from events.models import AuditLog
from leagues import season_setup
from leagues.forms_setup import SeasonSetupForm, parse_team_lines
from leagues.models import Competition, Match, Season, SeasonRole, Team
from leagues.phases import season_next_divisions
from leagues.services import import_season
from tests.leagues.seasons import sixteen
from tests.leagues.services import test_season_walkthrough as walkthrough

pytestmark = pytest.mark.django_db

URL = "/leagues/new/"


@pytest.fixture
def admin_user():
    """A league administrator through a group holding ``leagues.add_season``."""
    user = get_user_model().objects.create_user("leagueadmin", "admin@example.org", "pw-long-1")
    group = Group.objects.create(name="League administrators")
    group.permissions.add(Permission.objects.get(codename="add_season"))
    user.groups.add(group)
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def owners():
    return [
        get_user_model().objects.create_user(f"owner{i}", f"owner{i}@example.org", "pw-long-1")
        for i in range(1, 17)
    ]


def lines(start, stop, owner="owner"):
    return "\n".join(f"Team {i}; {owner}{i}" for i in range(start, stop))


def form_data(**extra):
    data = {
        "name": "Temporada 25",
        "slug": "t25",
        "time_zone": "America/Santiago",
        "primera_a_name": "Primera A",
        "primera_a_start": "2026-03-02",
        "primera_a_teams": lines(1, 9),
        "primera_b_name": "Primera B",
        "primera_b_start": "",
        "primera_b_teams": lines(9, 17),
        "staff": "leagueadmin",
        "tribunal": "owner16@example.org",
    }
    return data | extra


def setup_of(**extra):
    form = SeasonSetupForm(form_data(**extra))
    assert form.is_valid(), form.errors
    return form.setup()


# --------------------------------------------------------------------------- who may
def test_who_is_a_league_administrator(admin_user, owners):
    superuser = get_user_model().objects.create_superuser("root", "r@example.org", "pw-long-1")
    assert season_setup.is_league_admin(admin_user)
    assert season_setup.is_league_admin(superuser)
    assert not season_setup.is_league_admin(owners[0])
    staff = owners[1]
    season = import_season(sixteen())
    SeasonRole.objects.create(season=season, user=staff, role="staff")
    assert not season_setup.is_league_admin(staff)  # a season's staff is not enough
    with pytest.raises(PermissionDenied):
        season_setup.create_season(staff, setup_of())
    with pytest.raises(PermissionDenied):
        season_setup.preview_season(owners[0], setup_of())


# --------------------------------------------------------------------------- services
def test_a_season_of_sixteen_teams_is_created_through_the_season_file_path(admin_user, owners):
    season = season_setup.create_season(admin_user, setup_of())
    assert season.slug == "t25" and season.time_zone == "America/Santiago"
    teams = list(season.teams.order_by("id"))
    assert len(teams) == 16 and [t.code for t in teams[:2]] == ["t1", "t2"]
    assert all(t.user is not None and t.handle == t.user.username for t in teams)
    a = Competition.objects.get(slug="t25-primera-a")
    b = Competition.objects.get(slug="t25-primera-b")
    assert (a.kind, a.title_decider, b.title_decider) == ("league", False, True)
    assert a.start == date(2026, 3, 2) and b.start is None
    # Eight teams, double round robin: 14 matchdays of 4 matches (the fixture rules).
    assert a.matches.count() == b.matches.count() == 56
    assert not a.matches.filter(initial_deadline__isnull=True).exists()
    assert not b.matches.filter(initial_deadline__isnull=False).exists()
    roles = set(season.roles.values_list("user__username", "role"))
    assert roles == {("leagueadmin", "staff"), ("owner16", "tribunal")}
    actions = list(AuditLog.objects.filter(target=season.slug).values_list("action", flat=True))
    assert set(actions) == {"season.import", "season.create"}


def test_the_preview_names_each_bad_line(admin_user, owners):
    text = "\n".join(
        [
            "Team 1; owner1",
            "team  1; owner2",  # the same name, other case and spaces
            "Team 3; owner1",  # owner1 already has a team
            "Team 4",  # no owner
            "",
            "Team 6; nobody@example.org",  # an e-mail of no account
            "Team 7; newplayer",  # no account yet: a note, not a problem
        ]
    )
    preview = season_setup.preview_season(
        admin_user, setup_of(primera_a_teams=text, primera_b_teams="", tribunal="ghost")
    )
    assert not preview.ok and preview.data is None
    rows = {r["line"]: r for r in preview.teams[0]["rows"]}
    assert rows[1]["problems"] == [] and rows[1]["account"] == "owner1"
    assert "already on Primera A, line 1" in rows[2]["problems"][0]
    assert "already has a team" in rows[3]["problems"][0]
    assert "semicolon" in rows[4]["problems"][0]
    assert 5 not in rows
    assert "No account has the e-mail" in rows[6]["problems"][0]
    assert rows[7]["problems"] == [] and rows[7]["note"]
    assert [r["problem"] for r in preview.roles if r["who"] == "ghost"][0]
    problems = preview.all_problems()
    assert any("line 2" in p for p in problems)


def test_nothing_is_saved_on_any_problem(admin_user, owners):
    before = (Season.objects.count(), Team.objects.count(), Match.objects.count())
    for bad in (
        {"slug": "bad slug!"},
        {"name": ""},
        {"time_zone": "Mars/Olympus"},
        {"primera_a_teams": "Team 1; owner1", "primera_b_teams": ""},  # one team
        {"primera_a_teams": "", "primera_b_teams": ""},
        {"primera_b_teams": lines(9, 17) + "\nTeam 1; owner17"},  # duplicate name
        {"staff": "ghost"},
    ):
        form = SeasonSetupForm(form_data(**bad))
        if not form.is_valid():
            continue
        with pytest.raises(UserError):
            season_setup.create_season(admin_user, form.setup())
    assert (Season.objects.count(), Team.objects.count(), Match.objects.count()) == before
    assert not AuditLog.objects.filter(action="season.create").exists()


def test_a_taken_address_is_refused(admin_user, owners):
    import_season(sixteen())  # season "t24", competition "t24-primera-b"
    with pytest.raises(UserError, match="exists"):
        season_setup.create_season(admin_user, setup_of(slug="t24"))
    Competition.objects.filter(slug="t24-primera-b").update(slug="t26-primera-a")
    with pytest.raises(UserError, match="taken by a competition"):
        season_setup.create_season(admin_user, setup_of(slug="t26"))


def test_team_lines_are_read_with_their_numbers():
    teams, problems = parse_team_lines("A; x\n\nB\tY\nC;\n;d\nE; two words\nF;g;h")
    assert [(t.line, t.name, t.owner) for t in teams] == [(1, "A", "x"), (3, "B", "Y")]
    assert [line for line, _ in problems] == [4, 5, 6, 7]


# --------------------------------------------------------------------------- roll over
NEXT = {
    "primera_a": [{"team": f"t{i}", "name": f"Team {i}"} for i in (3, 1, 2)],
    "primera_b": [{"team": f"t{i}", "name": f"Team {i}"} for i in (4, 5)],
    "moves": [{"team": "t3", "name": "Team 3", "to": "primera_a", "reason": "champion_b"}],
    "stays": [],
    "pending": [],
}


def test_roll_over_prefills_next_seasons_divisions(admin_user, monkeypatch, client):
    season = import_season(sixteen())
    SeasonRole.objects.create(season=season, user=admin_user, role="tribunal")
    monkeypatch.setattr(season_setup, "season_next_divisions", lambda s: NEXT)
    initial = season_setup.rollover_initial(admin_user, season)
    assert initial["primera_a_teams"] == "Team 3; user3\nTeam 1; user1\nTeam 2; user2"
    assert initial["primera_b_teams"] == "Team 4; user4\nTeam 5; user5"
    assert initial["tribunal"] == "leagueadmin" and initial["previous"] == "t24"
    client.force_login(admin_user)
    page = client.get(f"/seasons/{season.slug}/manage/next-season/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Team 3; user3" in html and 'id="moves"' in html and 'value="t24"' in html


def test_roll_over_waits_for_the_divisions(admin_user, monkeypatch, client):
    season = import_season(sixteen())
    pending = {**NEXT, "primera_a": None, "primera_b": None, "pending": ["Liguilla open"]}
    monkeypatch.setattr(season_setup, "season_next_divisions", lambda s: pending)
    with pytest.raises(UserError, match="Liguilla open"):
        season_setup.rollover_initial(admin_user, season)
    client.force_login(admin_user)
    page = client.get(f"/seasons/{season.slug}/manage/next-season/")
    assert page.status_code == 409 and "Liguilla open" in page.content.decode()
    # A season without Primera A and B and post-season: not known at all.
    monkeypatch.setattr(season_setup, "season_next_divisions", lambda s: None)
    assert client.get(f"/seasons/{season.slug}/manage/next-season/").status_code == 409


def test_roll_over_records_the_previous_season(admin_user, owners):
    season_setup.create_season(admin_user, setup_of(previous="t24"))
    entry = AuditLog.objects.get(action="season.create")
    assert entry.after["previous"] == "t24"


# --------------------------------------------------------------------------- pages
def test_anonymous_and_non_administrators(client, owners):
    assert client.get(URL).status_code == 302
    season = import_season(sixteen())
    SeasonRole.objects.create(season=season, user=owners[0], role="staff")
    client.force_login(owners[0])
    assert client.get(URL).status_code == 403
    assert client.post(URL, form_data(step="create")).status_code == 403
    assert client.get(f"/seasons/{season.slug}/manage/next-season/").status_code == 403
    assert not Season.objects.filter(slug="t25").exists()


def test_the_pages_preview_then_create(admin_user, owners, client):
    client.force_login(admin_user)
    page = client.get(URL)
    assert page.status_code == 200 and ">leagueadmin</textarea>" in page.content.decode()
    preview = client.post(URL, form_data(step="preview"))
    html = preview.content.decode()
    assert preview.status_code == 200 and "Ready" in html and "56 matches" in html
    assert not Season.objects.filter(slug="t25").exists()
    htmx = client.post(URL, form_data(step="preview"), headers={"HX-Request": "true"})
    assert htmx.content.decode().lstrip().startswith('<section class="card" id="preview"')
    done = client.post(
        URL, form_data(step="create", client_id="8d6f2c1e-0c1a-4a39-9d7b-1d2f3e4a5b6c")
    )
    assert done.status_code == 302 and done["Location"] == "/seasons/t25/manage/"
    assert Season.objects.get(slug="t25").teams.count() == 16
    # The same form sent again (a double click): already saved, nothing added.
    again = client.post(
        URL,
        form_data(step="create", client_id="8d6f2c1e-0c1a-4a39-9d7b-1d2f3e4a5b6c"),
        follow=True,
    )
    assert "Already saved" in again.content.decode()
    assert Season.objects.filter(slug="t25").count() == 1
    assert AuditLog.objects.filter(action="season.create").count() == 1
    # Without the submission id (an old page): the address is taken, nothing added.
    twice = client.post(URL, form_data(step="create"))
    assert twice.status_code == 400 and "exists" in twice.content.decode()
    assert Team.objects.filter(season__slug="t25").count() == 16


def test_bad_input_is_answered_with_the_form_kept(admin_user, owners, client):
    client.force_login(admin_user)
    bad = form_data(step="create", primera_a_teams=lines(1, 9) + "\nTeam 2; owner99")
    page = client.post(URL, bad)
    html = page.content.decode()
    assert page.status_code == 400
    assert "already on Primera A, line 2" in html and "owner99" in html
    assert not Season.objects.exists()
    page = client.post(URL, form_data(step="create", primera_a_start="not a date"))
    assert page.status_code == 400 and "YYYY-MM-DD" in page.content.decode()
    page = client.post(URL, form_data(step="create", name=""))
    assert page.status_code == 400 and not Season.objects.exists()


def test_a_played_out_season_rolls_over_into_the_next(client, settings, tmp_path):
    """The demo's T23 played to its Liguilla (the walkthrough's steps), then rolled over:
    the form holds next season's divisions and creates them."""
    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo", stdout=StringIO())
    organiser = get_user_model().objects.get(username="organiser")
    walkthrough.test_the_t23_post_season_and_next_divisions(client, organiser)
    season = Season.objects.get(slug="anfpes-t23")
    nxt = season_next_divisions(season)
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw-long-1")
    client.force_login(root)
    assert 'id="start-next-season"' in client.get("/seasons/anfpes-t23/").content.decode()
    page = client.get("/seasons/anfpes-t23/manage/next-season/")
    assert page.status_code == 200
    initial = season_setup.rollover_initial(root, season)
    data = form_data(
        name="ANFPES Temporada 24 bis",
        slug="anfpes-t24-bis",
        primera_a_start="2027-03-01",
        primera_b_start="2027-03-01",
        primera_a_teams=initial["primera_a_teams"],
        primera_b_teams=initial["primera_b_teams"],
        staff=initial["staff"],
        tribunal=initial["tribunal"],
        previous=initial["previous"],
        step="create",
    )
    assert client.post(URL, data).status_code == 302
    new = Season.objects.get(slug="anfpes-t24-bis")
    names = {t.code: t.name for t in season.teams.all()}
    a = Competition.objects.get(slug="anfpes-t24-bis-primera-a")
    b = Competition.objects.get(slug="anfpes-t24-bis-primera-b")
    assert [e.team.name for e in a.entries.order_by("position")] == [
        names[t["team"]] for t in nxt["primera_a"]
    ]
    assert [e.team.name for e in b.entries.order_by("position")] == [
        names[t["team"]] for t in nxt["primera_b"]
    ]
    promoted = {names[m["team"]] for m in nxt["moves"] if m["to"] == "primera_a"}
    assert promoted <= {e.team.name for e in a.entries.all()}
    # The players keep their accounts.
    old = {t.name: t.user_id for t in season.teams.all()}
    assert all(old[t.name] == t.user_id for t in new.teams.all())
    assert AuditLog.objects.get(action="season.create").after["previous"] == "anfpes-t23"


def test_owners_by_e_mail_and_the_preview_in_bounded_queries(
    admin_user, owners, client, django_assert_max_num_queries
):
    text = "\n".join(f"Team {i}; OWNER{i}@example.org" for i in range(1, 17))
    client.force_login(admin_user)
    with django_assert_max_num_queries(12):
        page = client.post(URL, form_data(primera_a_teams=text, primera_b_teams=""))
    assert page.status_code == 200 and "Ready" in page.content.decode()
    season = season_setup.create_season(
        admin_user, setup_of(primera_a_teams=text, primera_b_teams="")
    )
    assert sorted(season.teams.values_list("handle", flat=True)) == sorted(
        f"owner{i}" for i in range(1, 17)
    )


@pytest.mark.parametrize("start", ["9999-12-31", "1000-01-01"])
def test_a_first_day_outside_the_date_window_is_a_form_error(admin_user, owners, client, start):
    """Year 9999 overflowed the matchday deadlines (a 500 found by a new user)."""
    client.force_login(admin_user)
    for step in ("preview", "create"):
        page = client.post(URL, form_data(step=step, primera_a_start=start))
        assert page.status_code == 400
        assert "Give a date between the years 2000 and 2100." in page.content.decode()
    assert not Season.objects.filter(slug="t25").exists()
