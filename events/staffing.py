"""Who runs what (events kernel): organisations created from the site, their organisers,
and the staff of one event. Every change runs in one transaction, locks the row two
organisers could change at once and writes the audit log. The policy — who may create
an organisation, the limits against abuse, why the last organiser stays — is
docs/organisations.md.

Audit entries: ``organisation.create``, ``organisation.organiser_add`` and
``organisation.organiser_remove`` are about the organisation (``entries_about(org)``, its
history); ``staff.add`` and ``staff.remove`` are about the event role, on the event.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from events.audit import audit, entries_about
from events.errors import UserError
from events.limits import clean_public_name
from events.models import AuditLog, AuthorityRole, Event, EventRole, Organisation, OrganisationRole
from events.permissions import ROLE_PERMISSIONS, Permission, Role

MAX_FOUNDED_ORGANISATIONS = 3
"""How many organisations one account may create from the site **[choice]**; a platform
administrator creates any number, and more in the admin (docs/organisations.md "Who may
create an organisation")."""

ADMIN_ONLY_KINDS = frozenset({Organisation.Kind.VEKN_COUNTRY, Organisation.Kind.LEAGUE})
"""Kinds only a platform administrator creates: a country's association and a league
speak for a whole community; anyone may claim to be a store or a club."""

RESERVED_SLUGS = frozenset({"new"})
"""Addresses an organisation cannot take (``/organisations/new/`` is the creation form)."""

LOOKUPS_PER_HOUR = 30
"""Accounts one person may look up by username or e-mail in an hour (adding organisers
and staff): the form tells whether an account exists, so it must not become a way to
test thousands of e-mail addresses."""


# --------------------------------------------------------------------------- accounts
def find_account(identifier: str, actor=None):
    """The active account whose username is ``identifier``, else (when it has an ``@``)
    whose e-mail it is, compared without case. ``UserError`` (``field="username"``) when
    none or several accounts match, or when ``actor`` looked up more than
    :data:`LOOKUPS_PER_HOUR` accounts in the last hour."""
    identifier = (identifier or "").strip()
    if actor is not None and getattr(actor, "pk", None) and not actor.is_superuser:
        key = f"staffing:lookups:{actor.pk}"
        cache.add(key, 0, timeout=3600)
        try:
            hits = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=3600)
            hits = 1
        if hits > LOOKUPS_PER_HOUR:
            raise UserError(
                _("Too many accounts looked up: try again in an hour."), field="username"
            )
    users = get_user_model().objects.filter(is_active=True)
    user = users.filter(username=identifier).first()
    if user is not None:
        return user
    if "@" not in identifier:
        raise UserError(_("No account has this username."), field="username")
    matches = list(users.filter(email__iexact=identifier)[:2])
    if not matches:
        raise UserError(_("No account has this e-mail address."), field="username")
    if len(matches) > 1:
        raise UserError(
            _("Several accounts use this e-mail address: give the username."), field="username"
        )
    return matches[0]


def _refuse_authority(user, rulesets=None) -> None:
    """``UserError`` when ``user`` is a national authority (of one of ``rulesets``, or of
    any): only a platform administrator makes the authority part of an event's or an
    organisation's staff (it would no longer review those events; issue 12)."""
    roles = AuthorityRole.objects.filter(user=user)
    if rulesets is not None:
        roles = roles.filter(ruleset__in=rulesets)
    if roles.exists() and rulesets is not None:
        raise UserError(
            _(
                "This account is the national authority of this event's rules: only a "
                "platform administrator can make it part of an event's staff."
            ),
            field="username",
        )
    if roles.exists():
        raise UserError(
            _(
                "This account is a national authority: only a platform administrator can "
                "make it an organiser of an organisation."
            ),
            field="username",
        )


# --------------------------------------------------------------------------- organisations
def creatable_kinds(user) -> list[tuple[str, str]]:
    """The organisation kinds ``user`` may create: every kind for a platform
    administrator, else those not in :data:`ADMIN_ONLY_KINDS`."""
    return [
        (value, label)
        for value, label in Organisation.Kind.choices
        if user.is_superuser or value not in ADMIN_ONLY_KINDS
    ]


def create_organisation(*, name: str, slug: str, kind: str, founder) -> tuple[Organisation, bool]:
    """Create an organisation with ``founder`` as its first organiser (audited):
    ``(organisation, True)``; ``(organisation, False)`` when ``founder`` already created
    this very one (the same address and name: a second submission of the form).

    ``UserError`` for a kind ``founder`` may not create (:func:`creatable_kinds`), a
    reserved or taken address, a name another organisation has (compared without case:
    no store may pass for a country's association), or a founder who already created
    :data:`MAX_FOUNDED_ORGANISATIONS` (platform administrators excepted)."""
    name, slug = clean_public_name(name, field="name"), slug.strip().lower()
    if kind not in dict(creatable_kinds(founder)):
        raise UserError(_("Only a platform administrator can create this kind."), field="kind")
    if slug in RESERVED_SLUGS:
        raise UserError(_("This address is reserved: choose another."), field="slug")
    with transaction.atomic():
        # One founder at a time: two tabs of the same form cannot pass the limit together.
        get_user_model().objects.select_for_update().filter(pk=founder.pk).first()
        existing = Organisation.objects.filter(slug=slug).first()
        if existing is not None:
            if existing.created_by_id == founder.pk and existing.name == name:
                return existing, False
            raise UserError(
                _("An organisation with the address “%(s)s” already exists.") % {"s": slug},
                field="slug",
            )
        if Organisation.objects.filter(name__iexact=name).exists():
            raise UserError(
                _("An organisation with this name already exists: ask its organisers."),
                field="name",
            )
        founded = Organisation.objects.filter(created_by=founder).count()
        if not founder.is_superuser and founded >= MAX_FOUNDED_ORGANISATIONS:
            raise UserError(
                _(
                    "You have created %(n)s organisations, the most one account may: ask a "
                    "platform administrator for another."
                )
                % {"n": founded}
            )
        try:
            with transaction.atomic():
                org = Organisation.objects.create(
                    name=name, slug=slug, kind=kind, created_by=founder
                )
        except IntegrityError:
            raise UserError(
                _("An organisation with the address “%(s)s” already exists.") % {"s": slug},
                field="slug",
            ) from None
        OrganisationRole.objects.create(organisation=org, user=founder, role=Role.ORGANISER)
        audit(
            None,
            founder,
            "organisation.create",
            org.name,
            after={"slug": org.slug, "kind": org.kind, "organiser": founder.username},
            about=org,
        )
    return org, True


def organisations_of(user) -> QuerySet[Organisation]:
    """The organisations ``user`` holds a role in (superusers: all), each annotated with
    ``organisers`` and ``event_count``; one query."""
    if not getattr(user, "is_authenticated", False):
        return Organisation.objects.none()
    orgs = Organisation.objects.all()
    if not user.is_superuser:
        orgs = orgs.filter(pk__in=OrganisationRole.objects.filter(user=user).values("organisation"))
    return orgs.annotate(
        organisers=Count("roles", filter=Q(roles__role=Role.ORGANISER), distinct=True),
        event_count=Count("events", distinct=True),
    ).order_by("name")


def is_organiser(user, org: Organisation) -> bool:
    """Whether ``user`` is an organiser of ``org`` or a platform administrator."""
    return bool(
        getattr(user, "is_authenticated", False)
        and (
            user.is_superuser
            or OrganisationRole.objects.filter(
                organisation=org, user=user, role=Role.ORGANISER
            ).exists()
        )
    )


def organisation_roles(org: Organisation) -> list[OrganisationRole]:
    """The roles held on ``org``, organisers first, with their accounts; one query."""
    return sorted(
        OrganisationRole.objects.filter(organisation=org).select_related("user"),
        key=lambda r: (r.role != Role.ORGANISER, r.user.username.casefold(), r.role),
    )


def organisation_history(org: Organisation, limit: int = 50) -> QuerySet[AuditLog]:
    """The last ``limit`` audit entries about ``org`` (its creation, organisers added and
    removed), newest first, with their actors."""
    return entries_about(org).select_related("actor")[:limit]


def add_organiser(org: Organisation, user, actor) -> bool:
    """Make ``user`` an organiser of ``org`` (audited); ``False`` when they already are
    one (a second submission). ``UserError`` when ``user`` is a national authority:
    only a platform administrator puts it on an organisation's staff (issue 12)."""
    _refuse_authority(user)
    with transaction.atomic():
        org = Organisation.objects.select_for_update().get(pk=org.pk)
        _role, created = OrganisationRole.objects.get_or_create(
            organisation=org, user=user, role=Role.ORGANISER
        )
        if created:
            audit(
                None,
                actor,
                "organisation.organiser_add",
                user.username,
                after={"account": user.username, "role": Role.ORGANISER},
                about=org,
            )
    return created


def remove_organisation_role(org: Organisation, role_id: int, actor) -> OrganisationRole | None:
    """Remove the role ``role_id`` of ``org`` (audited) and return it; ``None`` when it
    was already removed (a second submission: the organisation's history has its
    removal). ``Http404`` for an id that never was a role of ``org``. ``UserError`` when
    it is the last organiser: an organisation always keeps one, or nobody could run its
    events or appoint anyone again. The organisation's row is locked, so two organisers
    removing each other at once cannot both succeed."""
    with transaction.atomic():
        org = Organisation.objects.select_for_update().get(pk=org.pk)
        role = (
            OrganisationRole.objects.filter(pk=role_id, organisation=org)
            .select_related("user")
            .first()
        )
        if role is None:
            removed = entries_about(org).filter(
                action="organisation.organiser_remove", after__role_id=role_id
            )
            if removed.exists():
                return None
            raise Http404("No such role")
        if (
            role.role == Role.ORGANISER
            and OrganisationRole.objects.filter(organisation=org, role=Role.ORGANISER).count() <= 1
        ):
            raise UserError(
                _(
                    "%(name)s is the organisation's last organiser: add another organiser "
                    "before removing them."
                )
                % {"name": role.user.username}
            )
        audit(
            None,
            actor,
            "organisation.organiser_remove",
            role.user.username,
            before={"account": role.user.username, "role": role.role},
            after={"role_id": role.pk},
            about=org,
        )
        role.delete()
    return role


# --------------------------------------------------------------------------- event staff
def appoint_staff(event: Event, user, role: str, actor=None) -> bool:
    """Give ``user`` the staff ``role`` on ``event`` (audited); ``False`` when they
    already hold it. ``UserError`` for an unknown role, or when ``user`` is the national
    authority of the event's ruleset (``AuthorityRole``): an event's organiser never makes
    the authority that reviews the event part of its staff — which would keep it from
    confirming the event's sanctions and deciding its appeals (docs/rules-myl-penalties.md
    "Sanctions beyond the event"); a platform administrator may, in the admin."""
    if role not in Role.values:
        raise UserError(_("Unknown role."), field="role")
    _refuse_authority(user, [event.ruleset])
    with transaction.atomic():
        held, created = EventRole.objects.get_or_create(event=event, user=user, role=role)
        if created:
            audit(event, actor, "staff.add", user.username, after={"role": role}, about=held)
    return created


def role_help() -> list[tuple[str, list[str]]]:
    """What each staff role may do, in words: ``[(role label, [permission labels])]`` in
    the order of ``events.permissions.Role`` (``ROLE_PERMISSIONS``)."""
    return [
        (str(role.label), [str(p.label) for p in Permission if p in ROLE_PERMISSIONS[role]])
        for role in Role
    ]


def event_staff(event: Event) -> tuple[list[EventRole], list[OrganisationRole]]:
    """The roles held on ``event`` itself and those held on its organisation (they act on
    every event of it), with their accounts; two queries."""
    own = list(
        EventRole.objects.filter(event=event).select_related("user").order_by("user__username")
    )
    through = list(
        OrganisationRole.objects.filter(organisation_id=event.organisation_id)
        .select_related("user")
        .order_by("user__username")
    )
    return own, through


def remove_staff(event: Event, role_id: int, actor) -> EventRole | None:
    """Remove the event role ``role_id`` of ``event`` (audited) and return it; ``None``
    when it was already removed (a second submission). ``Http404`` for an id that never was
    a role of ``event``. ``UserError`` when it is the event's last
    organiser and its organisation has none: someone must keep appointing its staff."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        role = EventRole.objects.filter(pk=role_id, event=event).select_related("user").first()
        if role is None:
            if AuditLog.objects.filter(
                event=event,
                action="staff.remove",
                target_type=EventRole._meta.label_lower,
                target_id=role_id,
            ).exists():
                return None
            raise Http404("No such role")
        if (
            role.role == Role.ORGANISER
            and not EventRole.objects.filter(event=event, role=Role.ORGANISER)
            .exclude(pk=role.pk)
            .exists()
            and not OrganisationRole.objects.filter(
                organisation_id=event.organisation_id, role=Role.ORGANISER
            ).exists()
        ):
            raise UserError(
                _(
                    "%(name)s is the event's last organiser: appoint another organiser "
                    "before removing them."
                )
                % {"name": role.user.username}
            )
        audit(event, actor, "staff.remove", role.user.username, {"role": role.role}, about=role)
        role.delete()
    return role
