"""Compliance reviews ("guadañazo") and the next season's draft order: the services of
docs/leagues.md "Compliance table" (reviews) and "Draft order", ANFPES T24 §III.4 and §IV.3, §IV.8.

Like :mod:`leagues.services`, the only ORM adapter for these rules
(:mod:`leagues.rules.compliance`, :mod:`leagues.rules.draft`): every change runs in one
transaction with the season row locked, checks the actor's permission
(:func:`leagues.access.require`) and writes the audit log (target ``<season slug>/…``).
Errors the user can fix are :class:`events.errors.UserError` with a translated message.

Choices (**[choice]**):

- A review can be held once per kind, at a time no later than now (staff may give the
  earlier time it was announced in the chat). Who it reaps is computed from the stored
  results by the rules, so a result later entered with an earlier posting time changes
  it; the audit log keeps who it reaped when it was held.
- The base order is the list staff entered (``Season.draft_base``); until they enter one,
  the teams in file order stand in for it and the document says so
  (``base_order_entered: false``). Teams left out of the base order are not in the draft
  (listed under ``left_out``); expelled teams never are.
- The draft order uses the compliance table as of now: reaped users (by the reviews held)
  with their exact ratio.
- The draw by lot among two or more suspended teams: the newest :class:`DraftLot` counts
  while its entrants are exactly the suspended teams of the base order. Otherwise the
  order is pending a draw (``draw_required: true``, ``lot: null``) and the suspended
  teams are shown in base order with the rule ``suspended_lot`` and the detail "awaiting
  the draw". A new draw is refused while the newest one still covers exactly those teams
  (no re-rolls). Seeds are strings (a fresh one is 64 random bits from :mod:`secrets`
  written in decimal), and the draw is ``leagues.rules.draft.draw_lots(entrants, seed)``
  with the string itself, so anyone can re-run it from the record.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events.audit import audit
from events.errors import UserError
from events.limits import check_date_window
from leagues.access import LeaguePermission, require
from leagues.models import DraftLot, Match, Review, Season, Team
from leagues.rules import compliance as compliance_rules
from leagues.rules import draft as draft_rules
from leagues.services import REVIEW_KINDS, compliance_inputs, season_compliance_table

__all__ = [
    "draft_order_document",
    "draw_draft_lots",
    "hold_review",
    "reviews_overview",
    "set_draft_base",
]


# --------------------------------------------------------------------------- reviews
def _reaped_list(result: compliance_rules.ReviewResult, inputs) -> list[dict]:
    teams = {t.handle: t for t in inputs.teams}
    names = {t.code: t.name for t in inputs.teams}

    def fixture(fixture_id: str) -> dict:
        info = inputs.info.get(fixture_id, {})
        return {
            "id": fixture_id,
            "round": info.get("round"),
            "home": names.get(info.get("home"), info.get("home")),
            "away": names.get(info.get("away"), info.get("away")),
        }

    return [
        {
            "user": user,
            "team": teams[user].code if user in teams else None,
            "name": teams[user].name if user in teams else None,
            "fixtures": [fixture(f) for f in result.causes.get(user, ())],
        }
        for user in result.reaped
    ]


def reviews_overview(season: Season, now: datetime | None = None) -> dict:
    """The reviews of ``season`` for the staff page (docs/leagues.md "Compliance table", ANFPES T24
    §IV.3), in 3 queries: ``{"held": [{"kind", "at", "held_by", "reaped"}], "pending": [{"kind",
    "reaped"}]}`` where ``reaped`` is ``[{"user", "team", "name", "fixtures": [{"id",
    "round", "home", "away"}]}]`` (the unplayed fixtures that reap the user, with team
    names). ``pending`` is a preview: who each review
    not held yet would reap if it were held at ``now`` (default: now), and for the
    season-end review ``still_to_play`` (:func:`fixtures_still_to_play`, one more query)."""
    now = now or timezone.now()
    inputs = compliance_inputs(season)
    held_rows = {r.kind: r for r in season.reviews.select_related("held_by")}
    held, pending = [], []
    for kind in REVIEW_KINDS:
        row = held_rows.get(kind)
        at = row.at if row else now
        result = compliance_rules.review(inputs.fixtures, inputs.rule_review(kind, at))
        if row:
            held.append(
                {
                    "kind": kind,
                    "at": row.at,
                    "held_by": row.held_by,
                    "reaped": _reaped_list(result, inputs),
                }
            )
        else:
            pending.append(
                {
                    "kind": kind,
                    "reaped": _reaped_list(result, inputs),
                    "still_to_play": (
                        fixtures_still_to_play(season, now) if kind == "season_end" else 0
                    ),
                }
            )
    return {"held": held, "pending": pending}


def fixtures_still_to_play(season: Season, at: datetime) -> int:
    """How many fixtures of ``season`` (every competition, final phases included) are still
    to be played at ``at``: scheduled, with a final deadline after ``at`` or none. The
    season has not ended while there are any (issue 14). One query."""
    return (
        Match.objects.filter(competition__season=season, status=Match.Status.SCHEDULED)
        .filter(Q(final_deadline__isnull=True) | Q(final_deadline__gt=at))
        .count()
    )


def hold_review(
    season: Season, kind: str, actor, at: datetime | None = None, *, early: bool = False
) -> Review:
    """Hold the review ``kind`` (``first_half``, ``second_half`` or ``season_end``) of
    ``season`` at ``at`` (default now; aware, not in the future). From then on the users it
    reaps are ``reaped`` in the compliance table and go to the end of the draft (ANFPES
    T24 §IV.3, §IV.8; docs/leagues.md "Compliance table"). Once per kind.

    Needs ``MANAGE_COMPLIANCE`` (``PermissionDenied``); raises :class:`UserError` for an
    unknown kind, a time in the future or a review already held. The season-end review
    held before the season ends (:func:`fixtures_still_to_play`) needs ``early`` — the
    staff's second confirmation — else ``UserError`` (issue 14) **[choice]**. Audit
    ``review.hold`` with who it reaped and why.
    """
    require(actor, season, LeaguePermission.MANAGE_COMPLIANCE)
    if kind not in REVIEW_KINDS:
        raise UserError(_("Unknown review."))
    now = timezone.now()
    at = at or now
    check_date_window(at, field="at")
    if timezone.is_naive(at):
        at = timezone.make_aware(at, ZoneInfo(season.time_zone))
    if at > now:
        raise UserError(_("A review cannot be held in the future."))
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).first()
        if Review.objects.filter(season=season, kind=kind).exists():
            raise UserError(_("This review has already been held."))
        running = fixtures_still_to_play(season, at) if kind == "season_end" else 0
        if running and not early:
            raise UserError(
                ngettext(
                    "The season has not ended: %(n)d fixture is still to be played. Tick "
                    "“hold it before the season ends” to hold the end-of-season review now.",
                    "The season has not ended: %(n)d fixtures are still to be played. Tick "
                    "“hold it before the season ends” to hold the end-of-season review now.",
                    running,
                )
                % {"n": running},
                field="early",
            )
        inputs = compliance_inputs(season)
        result = compliance_rules.review(inputs.fixtures, inputs.rule_review(kind, at))
        try:
            with transaction.atomic():
                review = Review.objects.create(
                    season=season,
                    kind=kind,
                    at=at,
                    held_by=actor if getattr(actor, "is_authenticated", False) else None,
                )
        except IntegrityError:
            raise UserError(_("This review has already been held.")) from None
        audit(
            None,
            actor,
            "review.hold",
            f"{season.slug}/review/{kind}",
            after={
                "kind": kind,
                "at": at.isoformat(),
                "reaped": list(result.reaped),
                "causes": {u: list(ids) for u, ids in result.causes.items()},
            },
        )
    return review


# --------------------------------------------------------------------------- draft
def _base(season: Season, teams: list[Team]) -> tuple[list[str], bool]:
    """The base order (team codes) minus expelled and unknown teams, and whether staff
    entered it (else: the teams in file order)."""
    by_code = {t.code: t for t in teams}
    entered = bool(season.draft_base)
    codes = season.draft_base if entered else [t.code for t in teams]
    return [c for c in codes if c in by_code and by_code[c].status != "expelled"], entered


def set_draft_base(season: Season, team_codes, actor) -> list[str]:
    """Save the draft's base order (ANFPES T24 §III.4, §IV.8; docs/leagues.md "Draft order"): team
    codes, first pick first.

    Every code must be a team of the season, listed once, and not expelled (ANFPES T24
    §III.4: an expelled team is out of the draft); blank entries are ignored; at least one
    team. Needs ``MANAGE_DRAFT``; raises :class:`UserError` listing the problems. Audit
    ``draft.base`` with the old and new orders. Returns the saved list.
    """
    require(actor, season, LeaguePermission.MANAGE_DRAFT)
    codes = [str(c).strip() for c in team_codes if str(c).strip()]
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        teams = {t.code: t for t in locked.teams.all()}
        problems = []
        if not codes:
            problems.append(_("Enter at least one team."))
        unknown = [c for c in codes if c not in teams]
        if unknown:
            problems.append(
                _("Not teams of this season: %(codes)s.") % {"codes": ", ".join(unknown)}
            )
        repeated = sorted({c for c in codes if codes.count(c) > 1})
        if repeated:
            problems.append(_("Listed more than once: %(codes)s.") % {"codes": ", ".join(repeated)})
        expelled = [c for c in codes if c in teams and teams[c].status == "expelled"]
        if expelled:
            problems.append(
                _("Expelled teams are not in the draft: %(codes)s.")
                % {"codes": ", ".join(expelled)}
            )
        if problems:
            raise UserError(" ".join(str(p) for p in problems))
        before = list(locked.draft_base)
        locked.draft_base = codes
        locked.save(update_fields=["draft_base"])
        season.draft_base = codes
        audit(None, actor, "draft.base", f"{season.slug}/draft", before=before, after=codes)
    return codes


def draw_draft_lots(season: Season, actor, seed=None) -> DraftLot:
    """Draw by lot the order of the suspended teams at the end of the draft (ANFPES T24
    §III.4, docs/leagues.md "Draft order") and record it (:class:`DraftLot`): the entrants in base
    order, the seed and the order, so anyone can re-run
    ``leagues.rules.draft.draw_lots(entrants, seed)``.

    ``seed``: any integer or text, used as text; ``None`` draws a fresh one with
    :mod:`secrets`. Needs ``MANAGE_DRAFT``; raises :class:`UserError` with fewer than two
    suspended teams in the base order, or when the newest draw already covers exactly
    them (no re-rolls). Audit ``draft.lot``.
    """
    require(actor, season, LeaguePermission.MANAGE_DRAFT)
    seed = str(secrets.randbits(64)) if seed is None or str(seed).strip() == "" else str(seed)
    seed = seed.strip()
    if len(seed) > 100:
        raise UserError(_("The seed is too long (100 characters at most)."))
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        teams = list(locked.teams.all())
        status = {t.code: t.status for t in teams}
        base, _entered = _base(locked, teams)
        entrants = [c for c in base if status[c] == "suspended"]
        if len(entrants) < 2:
            raise UserError(_("A draw is needed only with two or more suspended teams."))
        newest = locked.draft_lots.order_by("-drawn_at", "-id").first()
        if newest is not None and set(newest.entrants) == set(entrants):
            raise UserError(_("The draw for these teams has already been made."))
        lot = draft_rules.draw_lots(entrants, seed)
        row = DraftLot.objects.create(
            season=locked,
            entrants=list(lot.entrants),
            seed=seed,
            order=list(lot.order),
            drawn_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        audit(
            None,
            actor,
            "draft.lot",
            f"{season.slug}/draft",
            after={"entrants": row.entrants, "seed": seed, "order": row.order},
        )
    return row


def draft_order_document(season: Season, as_of: datetime | None = None) -> dict:
    """The draft order of the next season (docs/contracts.md §6 ``draft-order``, ANFPES T24 §III.4,
    §IV.8; docs/leagues.md "Draft order") by :func:`leagues.rules.draft.draft_order`, in 3 queries.

    Shape: ``{"season", "as_of", "order": [{"position", "team", "name", "rule", "detail",
    "base_position", "percentage"}], "lot": {"seed", "entrants", "order", "drawn_at",
    "verified"} | null, "draw_required", "base_order_entered", "left_out", "rules"}``.
    ``rule`` is a code of :data:`leagues.rules.draft.RULES` (``rules`` repeats them with
    their English text); ``detail`` a short English note; ``base_position`` the team's
    place in the base order; ``percentage`` its compliance for a reaped team. The choices
    (module docstring): reaped users as of ``as_of`` (default now), the newest draw while
    it covers exactly the suspended teams, else ``draw_required``.
    """
    as_of = as_of or timezone.now()
    tz = ZoneInfo(season.time_zone)
    inputs = compliance_inputs(season)
    table = season_compliance_table(season, as_of, inputs)
    teams = inputs.teams
    by_code = {t.code: t for t in teams}
    base, entered = _base(season, teams)
    in_base = set(base)
    code_of = {t.handle: t.code for t in teams}
    reaped = {
        code_of[row.user]: row.ratio
        for row in table.rows
        if row.reaped and code_of.get(row.user) in in_base
    }
    percentage = {code_of[r.user]: r.percentage for r in table.rows if r.user in code_of}
    suspended = [c for c in base if by_code[c].status == "suspended"]
    newest = season.draft_lots.order_by("-drawn_at", "-id").first()
    lot = None
    draw_required = False
    lot_result = None
    if len(suspended) >= 2:
        if newest is not None and set(newest.entrants) == set(suspended):
            lot = newest
            lot_result = list(newest.order)
        else:
            draw_required = True
            lot_result = list(suspended)  # shown in base order until the draw
    result = draft_rules.draft_order(
        base, reaped=reaped, suspended=suspended, lot_result=lot_result
    )
    order = []
    for slot in result.slots:
        detail = slot.detail
        if draw_required and slot.rule == "suspended_lot":
            detail = "awaiting the draw"
        pct = percentage.get(slot.team) if slot.rule == "reaped" else None
        order.append(
            {
                **slot.as_dict(),
                "name": by_code[slot.team].name,
                "detail": detail,
                "base_position": base.index(slot.team) + 1,
                "percentage": None if pct is None else float(pct),
            }
        )
    lot_doc = None
    if lot is not None:
        record = draft_rules.LotDraw(tuple(lot.entrants), tuple(lot.order), lot.seed)
        lot_doc = {
            "seed": lot.seed,
            "entrants": list(lot.entrants),
            "order": list(lot.order),
            "drawn_at": timezone.localtime(lot.drawn_at, tz).isoformat(),
            "verified": record.verify(),
        }
    return {
        "season": season.slug,
        "as_of": timezone.localtime(as_of, tz).isoformat(),
        "order": order,
        "lot": lot_doc,
        "draw_required": draw_required,
        "base_order_entered": entered,
        "left_out": [t.code for t in teams if t.code not in in_base and t.status != "expelled"],
        "rules": dict(draft_rules.RULES),
    }
