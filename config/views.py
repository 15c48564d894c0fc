"""Site-wide views that belong to no app."""

from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@require_safe
@never_cache
def healthz(request):
    """Liveness probe for load balancers and the load test's baseline: a trivial Django view
    (the whole middleware stack, no database, no template)."""
    return HttpResponse("ok", content_type="text/plain")
