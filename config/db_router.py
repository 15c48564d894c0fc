"""Reads of anonymous public pages from a PostgreSQL streaming replica (optional).

With ``DATABASE_REPLICA_URL`` set (``config/settings/prod.py``), ``DATABASES`` has a
``replica`` entry, this router is installed and :class:`ReplicaMiddleware` runs after the
authentication middleware. A request may read from the replica only when all hold:

- it is a GET or HEAD of one of :data:`REPLICA_VIEWS` (the public standings, seating,
  results, big-screen and league pages and their read APIs — what hundreds of visitors
  refresh on an event day);
- the visitor is anonymous (a signed-in organiser who has just published or corrected
  something reads their own writes from the primary; anonymous pages are the cached
  ones anyway);
- the model belongs to one of :data:`REPLICA_APPS` (never sessions, users, login
  throttling: those always come from the primary);
- no transaction is open on the primary and nothing has been written in this request.

Everything else — every write, every staff page, anything inside ``transaction.atomic``,
any read after a write — goes to the primary (``default``). Migrations run on the primary
only; the replica receives them through streaming replication.

The replica may lag the primary by a moment. The public pages' cache keys come from the
event's ``public_version`` read in the same request, so a lagging replica at worst serves
the previous version of a page for that moment, never a mix that stays cached.
"""

from contextvars import ContextVar

from django.db import DEFAULT_DB_ALIAS, connections

REPLICA = "replica"

REPLICA_VIEWS = frozenset(
    {
        "events:public-event",
        "events:public-standings",
        "events:public-seating",
        "events:public-results",
        "events:public-standings-screen",
        "events:public-standings-screen-live",
        "events:competition-screen",
        "events:competition-screen-live",
        "api-standings",
        "leagues:season",
        "leagues:competition",
        "leagues:compliance",
        "leagues:draft",
        "api-competition-table",
        "api-season-compliance",
    }
)
"""URL names whose anonymous GET/HEAD requests may read from the replica."""

REPLICA_APPS = frozenset({"events", "standings", "leagues"})
"""Apps whose models may be read from the replica."""

_use_replica: ContextVar[bool] = ContextVar("arbitro_use_replica", default=False)
_wrote: ContextVar[bool] = ContextVar("arbitro_wrote", default=False)


class ReplicaRouter:
    """Sends the reads allowed by :class:`ReplicaMiddleware` to ``replica``, everything
    else to ``default``."""

    def db_for_read(self, model, **hints):
        if (
            _use_replica.get()
            and not _wrote.get()
            and model._meta.app_label in REPLICA_APPS
            and not connections[DEFAULT_DB_ALIAS].in_atomic_block
        ):
            return REPLICA
        return DEFAULT_DB_ALIAS

    def db_for_write(self, model, **hints):
        _wrote.set(True)
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        # The replica is a copy of the primary: objects from either may be related.
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT_DB_ALIAS


class ReplicaMiddleware:
    """Marks the requests that may read from the replica (see the module's docstring).
    Must come after ``AuthenticationMiddleware``."""

    SAFE_METHODS = ("GET", "HEAD")

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        replica = _use_replica.set(False)
        wrote = _wrote.set(False)
        try:
            return self.get_response(request)
        finally:
            _use_replica.reset(replica)
            _wrote.reset(wrote)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = getattr(request, "resolver_match", None)
        if (
            request.method in self.SAFE_METHODS
            and match is not None
            and match.view_name in REPLICA_VIEWS
            and not request.user.is_authenticated
        ):
            _use_replica.set(True)
        return None
