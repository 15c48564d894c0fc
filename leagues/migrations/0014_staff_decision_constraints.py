"""Staff decisions read by kind (issue 13, ``leagues/staff_decisions.py``): the rows
that only stood for the old dict's shape go — an empty keyed kind (key "", value ``{}``),
a decision without a value (``None`` read as "not decided"), a slot key naming no side —
and the constraints keep them out: a known kind, a key exactly for the keyed kinds, a
slot key ending in ``.first``/``.second``, a value. Going back keeps the rows."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import Q

KEYED = ("slots", "awards", "award_voided", "third_homes")


def drop_shape_rows(apps, schema_editor):
    """Delete the rows the new constraints refuse (none of them decides anything)."""
    StaffDecision = apps.get_model("leagues", "StaffDecision")
    StaffDecision.objects.filter(
        Q(kind__in=KEYED, key="")
        | Q(value__isnull=True)
        | (Q(kind="slots") & ~Q(key__endswith=".first") & ~Q(key__endswith=".second"))
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0013_staff_decisions"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(drop_shape_rows, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="staffdecision",
            name="staff_decision_key_only_for_keyed_kinds",
        ),
        migrations.AddConstraint(
            model_name="staffdecision",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "kind__in",
                        (
                            "slots",
                            "awards",
                            "award_voided",
                            "third_homes",
                            "final_four",
                            "relegation",
                            "cup",
                            "knockouts",
                            "cup_groups",
                            "compliance_rounds",
                        ),
                    )
                ),
                name="staff_decision_known_kind",
            ),
        ),
        migrations.AddConstraint(
            model_name="staffdecision",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("kind__in", ("slots", "awards", "award_voided", "third_homes")),
                        models.Q(("key", ""), _negated=True),
                    ),
                    models.Q(
                        models.Q(
                            ("kind__in", ("slots", "awards", "award_voided", "third_homes")),
                            _negated=True,
                        ),
                        ("key", ""),
                    ),
                    _connector="OR",
                ),
                name="staff_decision_key_iff_keyed_kind",
            ),
        ),
        migrations.AddConstraint(
            model_name="staffdecision",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("kind", "slots"), _negated=True),
                    ("key__endswith", ".first"),
                    ("key__endswith", ".second"),
                    _connector="OR",
                ),
                name="staff_decision_slot_key_names_a_side",
            ),
        ),
        migrations.AddConstraint(
            model_name="staffdecision",
            constraint=models.CheckConstraint(
                condition=models.Q(("value__isnull", False)), name="staff_decision_has_a_value"
            ),
        ),
    ]
