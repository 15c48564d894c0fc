from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from events import deck_rules


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")

    def ready(self):
        # Signal receivers connect once the app registry is ready (Django's AppConfig.ready).
        from django.contrib.auth.signals import user_login_failed  # noqa: PLC0415 deferred: models load after apps

        from events.security import count_failed_sign_in  # noqa: PLC0415 deferred: imports models

        user_login_failed.connect(count_failed_sign_in, dispatch_uid="arbitro-sign-in-address")
        # Approved results go to the VEKN (docs/vekn-link.md); the receiver is in the
        # event-day layer, above the penalties that send the signal.
        from events import signals, vekn_push  # noqa: PLC0415 deferred: imports models

        signals.results_approved.connect(
            vekn_push.on_results_approved, dispatch_uid="arbitro-vekn-results"
        )
        # The card data an operator stored (docs/decks.md "Card data"); the index itself
        # is built on first use.
        deck_rules.set_card_data_dir(getattr(settings, "CARD_DATA_DIR", None))
