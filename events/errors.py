"""The two kinds of error (pattern: Tabbycat ``DrawUserError`` / ``DrawFatalError``).

``UserError``: something the user can fix; its message is translated and shown on the page
(HTTP 400 in the API). ``ConflictError``: someone else changed the object meanwhile (409).
Anything else is a bug: logged, never shown.
"""


class UserError(Exception):
    """A problem the user can fix; ``str(error)`` is a translated message for them."""

    def __init__(self, message, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self):
        return str(self.message)


class ConflictError(UserError):
    """Another person changed the same object since this form was loaded."""
