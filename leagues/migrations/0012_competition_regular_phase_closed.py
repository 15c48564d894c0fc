""""Regular phase closed" in real columns (issue 13): ``Competition.regular_phase_closed_at``
and ``regular_phase_closed_by``, filled from the audit entries that recorded it until now
(action ``league.regular_phase_closed``, target ``<season>/<competition>``; the earliest
entry of a league wins). Reversible: going back empties the columns, the audit entries
stay."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

ACTION = "league.regular_phase_closed"


def closings_from_audit(apps, schema_editor):
    """Copy each league's closing (time and actor of its first audit entry) into the
    new columns."""
    AuditLog = apps.get_model("events", "AuditLog")
    Competition = apps.get_model("leagues", "Competition")
    first: dict[str, tuple] = {}
    for target, at, actor_id in (
        AuditLog.objects.filter(action=ACTION).order_by("at", "id").values_list(
            "target", "at", "actor_id"
        )
    ):
        first.setdefault(target, (at, actor_id))
    if not first:
        return
    for competition in Competition.objects.filter(kind="league").select_related("season"):
        closing = first.get(f"{competition.season.slug}/{competition.slug}")
        if closing is None:
            continue
        competition.regular_phase_closed_at, competition.regular_phase_closed_by_id = closing
        competition.save(
            update_fields=["regular_phase_closed_at", "regular_phase_closed_by"]
        )


def forget_closings(apps, schema_editor):
    """Going back: the audit entries still hold every closing."""
    Competition = apps.get_model("leagues", "Competition")
    Competition.objects.update(regular_phase_closed_at=None, regular_phase_closed_by=None)


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0001_initial"),
        ("leagues", "0011_free_text_limits"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="competition",
            name="regular_phase_closed_at",
            field=models.DateTimeField(
                blank=True,
                null=True,
                verbose_name="regular phase closed at",
                help_text="Set when staff close a league's regular phase (its final phases are drawn).",
            ),
        ),
        migrations.AddField(
            model_name="competition",
            name="regular_phase_closed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="regular phase closed by",
            ),
        ),
        migrations.RunPython(closings_from_audit, forget_closings),
    ]
