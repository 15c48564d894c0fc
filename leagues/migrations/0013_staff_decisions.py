"""Staff decisions on final phases in real rows (issue 13): ``leagues.StaffDecision`` (one
row per competition, kind and key, unique) instead of the JSON field
``Competition.staff_choices``. Each competition's dict becomes rows: one per entry of the
keyed kinds (slots ``"<tie>.<side>"``, awards, award_voided and third_homes by tie id; a
present but empty dict is one row with key "" and value ``{}``), one row with key "" for
every other kind. Reversible: going back rebuilds the dict from the rows."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

KEYED = ("slots", "awards", "award_voided", "third_homes")


def rows_of(choices: dict) -> list[tuple[str, str, object]]:
    """``[(kind, key, value)]`` for one competition's ``staff_choices`` dict (the same
    split as ``leagues.models.choices_to_decisions`` at the time of writing)."""
    rows = []
    for kind, value in (choices or {}).items():
        if kind in KEYED and value:
            rows.extend((kind, str(key), entry) for key, entry in value.items())
        elif kind in KEYED:
            rows.append((kind, "", {}))
        else:
            rows.append((kind, "", value))
    return rows


def choices_of(rows) -> dict:
    """The ``staff_choices`` dict of ``(kind, key, value)`` rows (inverse of
    :func:`rows_of`)."""
    choices: dict = {}
    for kind, key, value in rows:
        if kind in KEYED:
            entries = choices.setdefault(kind, {})
            if key:
                entries[key] = value
        else:
            choices[kind] = value
    return choices


def choices_to_rows(apps, schema_editor):
    """Write every competition's ``staff_choices`` as ``StaffDecision`` rows."""
    Competition = apps.get_model("leagues", "Competition")
    StaffDecision = apps.get_model("leagues", "StaffDecision")
    StaffDecision.objects.bulk_create(
        StaffDecision(competition_id=pk, kind=kind, key=key, value=value)
        for pk, choices in Competition.objects.values_list("pk", "staff_choices")
        for kind, key, value in rows_of(choices)
    )


def rows_to_choices(apps, schema_editor):
    """Rebuild each competition's ``staff_choices`` from its rows."""
    Competition = apps.get_model("leagues", "Competition")
    StaffDecision = apps.get_model("leagues", "StaffDecision")
    rows: dict[int, list] = {}
    for pk, kind, key, value in StaffDecision.objects.order_by("id").values_list(
        "competition_id", "kind", "key", "value"
    ):
        rows.setdefault(pk, []).append((kind, key, value))
    for pk, held in rows.items():
        Competition.objects.filter(pk=pk).update(staff_choices=choices_of(held))


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0012_competition_regular_phase_closed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="StaffDecision",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("slots", "Slots"),
                            ("awards", "Awards"),
                            ("award_voided", "Award Voided"),
                            ("third_homes", "Third Homes"),
                            ("final_four", "Final Four"),
                            ("relegation", "Relegation"),
                            ("cup", "Cup"),
                            ("knockouts", "Knockouts"),
                            ("cup_groups", "Cup Groups"),
                            ("compliance_rounds", "Compliance Rounds"),
                        ],
                        max_length=24,
                    ),
                ),
                ("key", models.CharField(blank=True, default="", max_length=80)),
                ("value", models.JSONField(blank=True, null=True)),
                ("decided_at", models.DateTimeField(auto_now=True)),
                (
                    "competition",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="staff_decisions",
                        to="leagues.competition",
                    ),
                ),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["competition", "kind", "key"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("competition", "kind", "key"), name="one_staff_decision_per_slot"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("kind__in", ("slots", "awards", "award_voided", "third_homes")),
                            ("key", ""),
                            _connector="OR",
                        ),
                        name="staff_decision_key_only_for_keyed_kinds",
                    ),
                ],
            },
        ),
        migrations.RunPython(choices_to_rows, rows_to_choices),
        migrations.RemoveField(
            model_name="competition",
            name="staff_choices",
        ),
    ]
