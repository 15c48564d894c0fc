"""Django's own messages that its Spanish (``es``; Django ships no ``es_CL``) words as in
Spain — "Introduzca…", "Escoja…", "clave" —, marked here so that ``make messages`` keeps
them in our catalogue (``locale/es``), whose Chilean wording ("Ingrese…", "Seleccione…",
"contraseña") then wins over Django's: ``LOCALE_PATHS`` come first (docs/i18n.md).

The ``msgid`` must be Django's exactly (Django 6.1, ``django/conf/locale/es`` and
``django/contrib/auth/locale/es``); nothing reads this tuple at run time.
"""

from django.utils.translation import gettext_noop

DJANGO_MESSAGES = (
    gettext_noop("Enter a valid value."),
    gettext_noop("Enter a valid URL."),
    gettext_noop("Enter a valid integer."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Enter only digits separated by commas."),
    gettext_noop("Enter a number."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Enter a valid date."),
    gettext_noop("Enter a valid time."),
    gettext_noop("Enter a valid date/time."),
    gettext_noop("Enter a valid duration."),
    gettext_noop("Enter a list of values."),
    gettext_noop("Enter a complete value."),
    gettext_noop("Enter a valid UUID."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Select a valid choice. That choice is not one of the available choices."),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both "
        "fields may be case-sensitive."
    ),
)
"""Django's msgids re-worded in Chilean Spanish in ``locale/es`` (never read)."""
