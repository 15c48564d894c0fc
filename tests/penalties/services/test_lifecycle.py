"""One penalty stack with two rule engines (issue 13): every penalties adapter named in
the ruleset registry offers the functions of ``penalties.lifecycle.PenaltyAdapter`` with
compatible signatures, takes the caller's permissions without a default, and the shared
lifecycle (row lock with the stale-page token, results approved, void restoring a
disqualified registration, the duplicate-offence guard) behaves the same for each."""

import inspect
import typing
import uuid

import pytest
from django.core.exceptions import PermissionDenied

from events import rulesets
from events.errors import ConflictError, UserError
from events.models import AuditLog, Event, Registration
from events.permissions import ROLE_PERMISSIONS, Role
from penalties import lifecycle, time_extensions
from penalties.models import Level, Penalty
from tests.factories import EventFactory, RegistrationFactory

JUDGE = ROLE_PERMISSIONS[Role.JUDGE]
HEAD = ROLE_PERMISSIONS[Role.HEAD_JUDGE]
P = inspect.Parameter

ADAPTERS = {
    code: spec.adapter("penalties")
    for code, spec in rulesets.REGISTRY.items()
    if "penalties" in spec.adapters
}
DISQUALIFYING = {"vekn": "4.7", "myl": "3.3.4"}
"""Per ruleset, a section whose first offence is a disqualification (JG §4.7 bribery;
MyL conduct §3.3.4)."""
WARNING = {"vekn": "3.6", "myl": "2.1"}
"""Per ruleset, a section whose first offence is a caution or warning (no head judge)."""


def test_every_ruleset_with_a_penalties_adapter_has_cases_here():
    assert set(ADAPTERS) == set(DISQUALIFYING) == set(WARNING)


# --------------------------------------------------------------------------- the protocol
def members():
    return sorted(typing.get_protocol_members(lifecycle.PenaltyAdapter))


def incompatibilities(wanted, offered) -> list[str]:
    """How ``offered`` (an adapter's function) fails to accept every call ``wanted`` (the
    protocol's method) allows: a parameter missing, of another kind, at another position,
    required where the protocol has a default (or the reverse), or an extra required one."""
    want = list(inspect.signature(wanted).parameters.values())[1:]  # self
    have = inspect.signature(offered).parameters
    positional = [p.name for p in have.values() if p.kind is P.POSITIONAL_OR_KEYWORD]
    want_positional = [p.name for p in want if p.kind is P.POSITIONAL_OR_KEYWORD]
    problems = []
    for w in want:
        h = have.get(w.name)
        if h is None:
            problems.append(f"{w.name}: missing")
        elif h.kind is not w.kind:
            problems.append(f"{w.name}: {h.kind.description}, not {w.kind.description}")
        elif w.kind is P.POSITIONAL_OR_KEYWORD and positional.index(
            w.name
        ) != want_positional.index(w.name):
            problems.append(f"{w.name}: at position {positional.index(w.name)}")
        elif (w.default is P.empty) != (h.default is P.empty):
            problems.append(f"{w.name}: {'a default' if w.default is P.empty else 'required'}")
    names = {w.name for w in want}
    for h in have.values():
        if (
            h.name not in names
            and h.default is P.empty
            and h.kind not in (P.VAR_POSITIONAL, P.VAR_KEYWORD)
        ):
            problems.append(f"{h.name}: required, not in the protocol")
    return problems


def test_the_protocol_lists_what_the_pages_and_the_sync_call():
    called = {"log_penalty", "confirm", "change_level", "void", "apply_effects", "state_token"}
    assert called <= set(members())


@pytest.mark.parametrize("code", sorted(ADAPTERS))
def test_each_penalties_adapter_offers_the_protocol(code):
    adapter = ADAPTERS[code]
    problems = {}
    for name in members():
        offered = getattr(adapter, name, None)
        if not callable(offered):
            problems[name] = ["missing"]
            continue
        found = incompatibilities(getattr(lifecycle.PenaltyAdapter, name), offered)
        if found:
            problems[name] = found
    assert problems == {}, f"{adapter.__name__}: {problems}"


def test_the_signature_check_sees_a_dropped_or_defaulted_parameter():
    def no_perms(event, registration, code, conditions, *, client_id, actor=None):
        pass

    def all_perms(event, registration, code, conditions, *, client_id, perms=frozenset()):
        pass

    wanted = lifecycle.PenaltyAdapter.log_penalty
    assert "perms: missing" in incompatibilities(wanted, no_perms)
    assert "perms: a default" in incompatibilities(wanted, all_perms)


@pytest.mark.parametrize(
    "function",
    [
        *(
            getattr(adapter, name)
            for adapter in ADAPTERS.values()
            for name in ("log_penalty", "confirm", "change_level", "void")
        ),
        time_extensions.add_extension,
    ],
    ids=lambda f: f"{f.__module__}.{f.__name__}",
)
def test_services_take_the_callers_permissions_without_a_default(function):
    perms = inspect.signature(function).parameters["perms"]
    assert perms.kind is P.KEYWORD_ONLY and perms.default is P.empty


# --------------------------------------------------------------------------- the shared parts
@pytest.fixture(params=sorted(ADAPTERS))
def judged(request, db):
    """An event of each ruleset with two checked-in players, and its penalties adapter."""
    code = request.param
    event = EventFactory(ruleset=code)
    regs = [RegistrationFactory(event=event) for _ in range(2)]
    return {"code": code, "event": event, "regs": regs, "adapter": ADAPTERS[code]}


def log(judged, section, *, reg=0, perms=HEAD, again=True, **kw):
    return judged["adapter"].log_penalty(
        judged["event"],
        judged["regs"][reg],
        section,
        {},
        client_id=kw.pop("client_id", uuid.uuid4()),
        perms=perms,
        again=again,
        **kw,
    )


def status_of(reg) -> str:
    reg.refresh_from_db()
    return reg.status


def test_a_stale_token_is_refused_and_changes_nothing(judged):
    adapter = judged["adapter"]
    p = log(judged, DISQUALIFYING[judged["code"]], perms=JUDGE).penalty
    assert p.status == Penalty.Status.PENDING
    token = adapter.state_token(p)
    for action in (
        lambda: adapter.confirm(p, None, expected=token + "x", perms=HEAD),
        lambda: adapter.void(p, "Wrong player", None, expected=token + "x", perms=HEAD),
        lambda: adapter.change_level(p, p.level, "", None, expected=token + "x", perms=HEAD),
    ):
        with pytest.raises(ConflictError, match="Someone changed this penalty"):
            action()
    p.refresh_from_db()
    assert p.status == Penalty.Status.PENDING
    assert status_of(judged["regs"][0]) == Registration.Status.CHECKED_IN
    adapter.confirm(p, None, expected=token, perms=HEAD)
    p.refresh_from_db()
    assert p.status == Penalty.Status.CONFIRMED
    with pytest.raises(ConflictError):
        adapter.void(
            p, "From the page loaded before the confirmation", None, expected=token, perms=HEAD
        )


def test_a_closed_event_refuses_every_change(judged):
    adapter = judged["adapter"]
    confirmed = log(judged, DISQUALIFYING[judged["code"]]).penalty
    pending = log(judged, DISQUALIFYING[judged["code"]], reg=1, perms=JUDGE).penalty
    Event.objects.filter(pk=judged["event"].pk).update(results_approved=True)
    for action in (
        lambda: adapter.confirm(pending, None, perms=HEAD),
        lambda: adapter.void(confirmed, "Wrong player", None, perms=HEAD),
        lambda: adapter.change_level(confirmed, confirmed.level, "", None, perms=HEAD),
        lambda: lifecycle.ensure_open(judged["event"]),
    ):
        with pytest.raises(UserError, match="results are approved"):
            action()
    with pytest.raises(UserError, match="results are approved"):
        log(judged, WARNING[judged["code"]], reg=1)
    assert Penalty.objects.count() == 2
    assert status_of(judged["regs"][0]) == Registration.Status.DISQUALIFIED
    assert not AuditLog.objects.filter(action__in=["penalty.void", "penalty.change"]).exists()


def test_void_restores_a_disqualified_registration_unless_another_dq_keeps_it(judged):
    adapter = judged["adapter"]
    section = DISQUALIFYING[judged["code"]]
    first = log(judged, section).penalty
    # The same player disqualified again by the head judge's deviation (a repeat of the
    # section would give MyL's suspension, which needs its dates).
    second = log(
        judged,
        WARNING[judged["code"]],
        level=Level.DISQUALIFICATION,
        deviation_reason="Threatened the opponent",
    ).penalty
    assert (first.level, second.level) == (Level.DISQUALIFICATION,) * 2
    reg = judged["regs"][0]
    assert status_of(reg) == Registration.Status.DISQUALIFIED
    adapter.void(first, "Logged twice", None, perms=HEAD)
    assert status_of(reg) == Registration.Status.DISQUALIFIED  # the second still counts
    second.refresh_from_db()
    adapter.void(second, "Wrong player", None, perms=HEAD)
    assert status_of(reg) == Registration.Status.CHECKED_IN
    entries = AuditLog.objects.filter(action="penalty.void").order_by("id")
    assert [e.target_id for e in entries] == [first.pk, second.pk]
    assert entries[1].before["status"] == "confirmed" and entries[1].after["status"] == "voided"
    with pytest.raises(UserError, match="Already voided"):
        adapter.void(second, "Twice", None, perms=HEAD)


def test_the_duplicate_offence_guard_runs_in_each_log_penalty(judged):
    section = WARNING[judged["code"]]
    log(judged, section, again=False)
    with pytest.raises(lifecycle.DuplicateOffence) as refused:
        log(judged, section, again=False)
    assert refused.value.earlier == Penalty.objects.get()
    assert log(judged, section, again=True).created
    assert Penalty.objects.count() == 2


def test_a_replayed_submission_returns_the_saved_penalty(judged):
    client_id = uuid.uuid4()
    first = log(judged, WARNING[judged["code"]], client_id=client_id)
    again = log(judged, WARNING[judged["code"]], client_id=client_id)
    assert first.created and not again.created and again.penalty.pk == first.penalty.pk
    other = EventFactory(ruleset=judged["code"])
    with pytest.raises(UserError, match="belongs to another event"):
        judged["adapter"].log_penalty(
            other,
            RegistrationFactory(event=other),
            WARNING[judged["code"]],
            {},
            client_id=client_id,
            perms=HEAD,
        )


def test_an_engine_refuses_a_penalty_of_another_ruleset(db):
    """The MyL engine's lock refuses a VEKN penalty (``Engine.owns``)."""
    by_code = {code: adapter.ENGINE for code, adapter in ADAPTERS.items()}
    owning = [code for code, engine in by_code.items() if engine.owns is not None]
    assert owning
    for code in owning:
        other = next(c for c in sorted(ADAPTERS) if c != code)
        event = EventFactory(ruleset=other)
        reg = RegistrationFactory(event=event)
        p = (
            ADAPTERS[other]
            .log_penalty(
                event, reg, WARNING[other], {}, client_id=uuid.uuid4(), perms=HEAD, again=True
            )
            .penalty
        )
        with pytest.raises(UserError):
            lifecycle.lock(p, engine=by_code[code])


def test_a_level_of_another_ruleset_is_refused(judged):
    adapter = judged["adapter"]
    p = log(judged, WARNING[judged["code"]]).penalty
    others = set().union(*(a.ENGINE.levels for a in ADAPTERS.values())) - set(adapter.ENGINE.levels)
    assert others
    for level in sorted(others):
        with pytest.raises(UserError, match="Unknown level"):
            adapter.change_level(p, level, "Another game's level", None, perms=HEAD)
    p.refresh_from_db()
    assert p.level == p.guide_level
    assert not AuditLog.objects.filter(action="penalty.change").exists()


def test_confirm_void_and_change_refuse_a_caller_without_the_head_judges_permission(judged):
    """Each service checks its own permission: a floor judge's permissions (no
    ``confirm_penalties``) are refused by the service itself, whatever page calls it."""
    adapter = judged["adapter"]
    pending = log(judged, DISQUALIFYING[judged["code"]], perms=JUDGE).penalty
    token = adapter.state_token(pending)
    for action in (
        lambda: adapter.confirm(pending, None, perms=JUDGE),
        lambda: adapter.void(pending, "Wrong player", None, perms=JUDGE),
        lambda: adapter.change_level(pending, pending.level, "", None, perms=JUDGE),
    ):
        with pytest.raises(PermissionDenied):
            action()
    pending.refresh_from_db()
    assert pending.status == Penalty.Status.PENDING
    assert adapter.state_token(pending) == token
    assert not AuditLog.objects.filter(
        action__in=["penalty.confirm", "penalty.void", "penalty.change"]
    ).exists()


def test_a_change_to_the_same_level_and_reason_is_refused_and_not_recorded(judged):
    """A change of nothing is not written to the history (it was, "caution → caution")."""
    adapter = judged["adapter"]
    p = log(judged, WARNING[judged["code"]]).penalty
    with pytest.raises(UserError, match="Nothing changed"):
        adapter.change_level(p, p.level, "", None, perms=HEAD)
    assert not AuditLog.objects.filter(action="penalty.change").exists()
    # A real change still goes through, and then the same one again is refused.
    other = next(code for code, _ in lifecycle_levels(adapter) if code != p.level)
    adapter.change_level(p, other, "Judge's call", None, perms=HEAD)
    p.refresh_from_db()
    with pytest.raises(UserError, match="Nothing changed"):
        adapter.change_level(p, other, "Judge's call", None, perms=HEAD)
    assert AuditLog.objects.filter(action="penalty.change").count() == 1


def lifecycle_levels(adapter):
    """The levels of the adapter's ruleset, lightest first, as (code, label)."""
    return [(str(level), str(level)) for level in adapter.ENGINE.levels]
