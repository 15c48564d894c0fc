"""Spanish formats as Chile writes them (docs/i18n.md "Numbers and dates"); Django's own
``es`` formats give everything not set here.

Decimal comma (``2,5`` VP), thousands with a dot (``1.500``; only where a page asks for
grouping: ``USE_THOUSAND_SEPARATOR`` stays off, so years, ids and scores never group),
day before month (``02/12/2026``), 24-hour clock (``14:30``).
"""

DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
NUMBER_GROUPING = 3
DATE_FORMAT = r"j \d\e F \d\e Y"
SHORT_DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = r"j \d\e F \d\e Y H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
