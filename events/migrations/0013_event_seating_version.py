from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0012_offline_result_submission"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="seating_version",
            field=models.PositiveIntegerField(
                default=1,
                editable=False,
                help_text=(
                    "Bumped on every change the public seating page may show (not on results); "
                    "part of its cache key."
                ),
                verbose_name="seating page version",
            ),
        ),
    ]
