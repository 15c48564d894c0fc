from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")

    def ready(self):
        from django.contrib.auth.signals import user_login_failed

        from events.security import count_failed_sign_in

        user_login_failed.connect(count_failed_sign_in, dispatch_uid="arbitro-sign-in-address")
