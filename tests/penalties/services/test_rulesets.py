"""One penalty history per ruleset (issue 12, finding 2): a person who plays both games
carries Mitos y Leyendas penalties into a VEKN event (and VEKN ones into a MyL event).
Each ruleset's escalation counts only its own penalties; the other game's are context
at most ("also has N … penalties"), never input — and never a crash. The level lists of
a penalty page offer only the penalty's ruleset's levels."""

import datetime as dt
import re
import uuid

import pytest
from django.urls import reverse

from events import services as event_services
from events.errors import UserError
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import myl_services
from penalties import services as vekn
from penalties.models import Penalty
from tests.factories import (
    EventFactory,
    EventRoleFactory,
    PersonFactory,
    RegistrationFactory,
    UserFactory,
)
from tests.penalties.services.test_myl_services import myl_event, seat_round

HEAD = ROLE_PERMISSIONS[Role.HEAD_JUDGE]
MYL_DAY = dt.date(2026, 9, 17)
VEKN_DAY = dt.date(2026, 11, 28)


def _myl(event, reg, code, conditions=None, **kw):
    kw.setdefault("again", True)  # each call is a new offence
    return myl_services.log_penalty(
        event, reg, code, conditions or {}, client_id=uuid.uuid4(), perms=HEAD, **kw
    ).penalty


def _myl_history(person, kind):
    """``person``'s confirmed MyL penalty of ``kind`` (a game loss, a suspension, a
    permanent ban, a warning for 2.1) in a MyL event before the VEKN one."""
    event = myl_event(slug=f"myl-{kind}", date=MYL_DAY)
    regs = [RegistrationFactory(event=event, person=person)]
    regs += [RegistrationFactory(event=event) for _ in range(3)]
    seat_round(event, regs, 1)
    if kind == "game_loss":
        _myl(event, regs[0], "3.2.2")
        p = _myl(event, regs[0], "3.2.2")
    elif kind == "suspension":
        p = _myl(
            event,
            regs[0],
            "3.1.1",
            {"grave": True},
            starts_on="2026-09-18",
            ends_on="2026-10-31",
        )
    elif kind == "permanent_ban":
        p = _myl(event, regs[0], "3.1.5")
    else:
        p = _myl(event, regs[0], "2.1")
    assert (p.ruleset, p.level, p.status) == ("myl", kind, "confirmed")
    return p


@pytest.fixture
def judged(db):
    """A VEKN event (round 1 seated) with its head judge; ``person`` plays it."""
    event = EventFactory(slug="vekn-open", date=VEKN_DAY)
    head = UserFactory(username="vekn-head")
    EventRoleFactory(event=event, user=head, role=Role.HEAD_JUDGE)
    person = PersonFactory(name="Dual Player")
    # Registered before the MyL sanction (the registration stays; check-in is finding 1).
    reg = RegistrationFactory(event=event, person=person)
    for _ in range(4):
        RegistrationFactory(event=event)
    event_services.seat_next_round(event, seed=1)
    return {"event": event, "reg": reg, "person": person, "head": head}


KINDS = ["game_loss", "suspension", "permanent_ban"]
MYL_COUNT = {"game_loss": 2, "suspension": 1, "permanent_ban": 1}
"""How many MyL penalties ``_myl_history`` leaves (a game loss is a repeated warning)."""


# --------------------------------------------------------------------------- services
@pytest.mark.parametrize("kind", KINDS)
def test_vekn_preview_log_and_void_ignore_a_myl_penalty(judged, kind):
    myl = _myl_history(judged["person"], kind)
    event, reg = judged["event"], judged["reg"]
    a = vekn.preview(event, reg, "3.3", {})
    assert (str(a.level), a.offence, a.context) == ("caution", 1, ())
    first = vekn.log_penalty(event, reg, "3.3", {}, client_id=uuid.uuid4(), perms=HEAD).penalty
    second = vekn.log_penalty(
        event, reg, "3.3", {}, client_id=uuid.uuid4(), perms=HEAD, again=True
    ).penalty
    assert (first.level, second.offence) == ("caution", 2)
    vekn.void(first, "Wrong player", judged["head"], perms=HEAD)  # reassesses the rest
    second.refresh_from_db()
    assert (second.offence, second.level, second.status) == (1, "caution", "confirmed")
    # The MyL penalty is untouched and is no VEKN "earlier event".
    myl.refresh_from_db()
    assert myl.status == "confirmed"
    assert vekn.earlier_events(event, judged["person"]) == []


def test_a_myl_warning_is_no_vekn_pre_existing_warning(judged):
    """MyL's 2.1 (Conducta antideportiva leve) is not VEKN's 2.1: it must not give the
    VEKN 2.1 its "pre-existing warning" context; a VEKN one of an earlier event does."""
    _myl_history(judged["person"], "warning")
    event, reg = judged["event"], judged["reg"]
    assert vekn.preview(event, reg, "2.1", {"advantage": False}).context == ()
    old = EventFactory(slug="vekn-old", date=dt.date(2026, 6, 1))
    old_reg = RegistrationFactory(event=old, person=judged["person"])
    vekn.log_penalty(old, old_reg, "2.1", {"advantage": True}, client_id=uuid.uuid4(), perms=HEAD)
    assert vekn.preview(event, reg, "2.1", {"advantage": False}).context == (
        "pre-existing warning",
    )
    assert [p.event.slug for p in vekn.earlier_events(event, judged["person"])] == ["vekn-old"]


def test_other_rulesets_penalties_are_counted_as_context_only(judged):
    _myl_history(judged["person"], "game_loss")
    event, person = judged["event"], judged["person"]
    assert vekn.other_ruleset_penalties(event, person) == {"myl": 2}
    # A caution, a voided or a linked penalty is not counted; this event's own ones neither.
    p = vekn.log_penalty(
        event, judged["reg"], "3.3", {}, client_id=uuid.uuid4(), perms=HEAD
    ).penalty
    myl_services.void(
        Penalty.objects.get(level="game_loss"), "Wrong person", judged["head"], perms=HEAD
    )
    assert p.level == "caution"
    assert vekn.other_ruleset_penalties(event, person) == {"myl": 1}
    assert myl_services.other_ruleset_penalties(event, person) == {}


def test_a_vekn_penalty_cannot_be_changed_to_a_myl_level(judged):
    event, reg = judged["event"], judged["reg"]
    p = vekn.log_penalty(event, reg, "3.3", {}, client_id=uuid.uuid4(), perms=HEAD).penalty
    for level in ("game_loss", "suspension", "permanent_ban"):
        with pytest.raises(UserError, match="Unknown level"):
            vekn.change_level(p, level, "typo", judged["head"], perms=HEAD)
    p.refresh_from_db()
    assert p.level == "caution"


def test_a_vekn_deviation_to_a_myl_level_is_refused(judged):
    event, reg = judged["event"], judged["reg"]
    with pytest.raises(UserError, match="Unknown level"):
        vekn.log_penalty(
            event,
            reg,
            "3.3",
            {},
            client_id=uuid.uuid4(),
            perms=HEAD,
            level="game_loss",
            deviation_reason="typo",
        )
    assert not Penalty.objects.filter(event=event).exists()


def test_a_myl_event_ignores_a_vekn_disqualification(db):
    """The other way round: a VEKN DQ of an earlier event is no MyL repeat."""
    person = PersonFactory()
    old = EventFactory(slug="vekn-dq", date=dt.date(2026, 6, 1))
    old_reg = RegistrationFactory(event=old, person=person)
    vekn.log_penalty(old, old_reg, "4.7", {}, client_id=uuid.uuid4(), perms=HEAD)
    event = myl_event(slug="myl-after", date=MYL_DAY)
    regs = [RegistrationFactory(event=event, person=person), RegistrationFactory(event=event)]
    seat_round(event, regs, 1)
    assert myl_services.earlier_events(event, person) == []
    assert myl_services.other_ruleset_penalties(event, person) == {"vekn": 1}
    assert _myl(event, regs[0], "2.1").offence == 1


# --------------------------------------------------------------------------- pages
def _options(html: str, name: str = "level") -> list[str]:
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, f"no <select name={name}>"
    return [v for v in re.findall(r'<option value="([^"]*)"', select.group(1)) if v]


@pytest.mark.parametrize("kind", KINDS)
def test_vekn_pages_for_a_player_with_a_myl_penalty(client, judged, kind):
    _myl_history(judged["person"], kind)
    event, reg = judged["event"], judged["reg"]
    client.force_login(judged["head"])
    url = reverse("manage:incident-new", kwargs={"slug": event.slug})
    form = client.get(url, {"reg": reg.pk, "code": "3.3"})
    assert form.status_code == 200
    html = form.content.decode()
    assert "Caution" in html
    assert _options(html) == ["caution", "warning", "standings_adjustment", "disqualification"]
    # The other game's penalties: one context line, never an earlier-event step.
    n = MYL_COUNT[kind]
    assert f"Also has {n} Mitos y Leyendas penalt" in html
    preview = client.post(
        url, {"reg": reg.pk, "code": "3.3", "client_id": str(uuid.uuid4())}, HTTP_HX_REQUEST="true"
    )
    assert preview.status_code == 200 and "Caution" in preview.content.decode()
    data = {"reg": reg.pk, "code": "3.3", "client_id": str(uuid.uuid4()), "confirm": "1"}
    saved = client.post(url, data)
    assert saved.status_code == 302
    p = Penalty.objects.get(event=event)
    detail_url = reverse("manage:penalty", kwargs={"slug": event.slug, "pk": p.pk})
    detail = client.get(detail_url)
    assert detail.status_code == 200
    assert _options(detail.content.decode()) == [
        "caution",
        "warning",
        "standings_adjustment",
        "disqualification",
    ]
    voided = client.post(
        detail_url, {"action": "void", "reason": "Wrong player", "state": vekn.state_token(p)}
    )
    assert voided.status_code == 302
    p.refresh_from_db()
    assert p.status == "voided"


def test_vekn_change_list_and_a_posted_myl_level(client, judged):
    event, reg = judged["event"], judged["reg"]
    p = vekn.log_penalty(event, reg, "3.3", {}, client_id=uuid.uuid4(), perms=HEAD).penalty
    client.force_login(judged["head"])
    url = reverse("manage:penalty", kwargs={"slug": event.slug, "pk": p.pk})
    html = client.get(url).content.decode()
    options = _options(html)
    assert "game_loss" not in options and "suspension" not in options
    assert "permanent_ban" not in options
    answer = client.post(
        url, {"action": "change", "level": "game_loss", "reason": "typo"}, follow=True
    )
    assert answer.status_code == 200 and "Unknown level" in answer.content.decode()
    p.refresh_from_db()
    assert p.level == "caution"


def test_myl_change_list_offers_only_myl_levels(client, db):
    event = myl_event(slug="myl-levels", date=MYL_DAY)
    head = UserFactory(username="myl-head")
    EventRoleFactory(event=event, user=head, role=Role.HEAD_JUDGE)
    regs = [RegistrationFactory(event=event) for _ in range(2)]
    seat_round(event, regs, 1)
    p = _myl(event, regs[0], "2.1")
    client.force_login(head)
    html = client.get(reverse("manage:penalty", kwargs={"slug": event.slug, "pk": p.pk}))
    assert _options(html.content.decode()) == [
        "warning",
        "game_loss",
        "disqualification",
        "suspension",
        "permanent_ban",
    ]
