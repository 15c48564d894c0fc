"""English formats for the same (Chilean) events (docs/i18n.md "Numbers and dates");
Django's own ``en`` formats give everything not set here.

Decimal point (``2.5`` VP), thousands with a comma where a page asks for grouping,
day before month as the Spanish pages (``2 December 2026``, ``02/12/2026``: the
events are in Chile), 24-hour clock (``14:30``).
"""

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = "j F Y H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
