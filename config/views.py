"""Site-wide views that belong to no app: the liveness probe and the error handlers
(``config.urls``: ``handler400`` … ``handler500``). Under ``/api/`` an error is the API's
``{"error": message}`` JSON (docs/contracts.md), not an HTML page a bot cannot read; a
body above ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is 413 there. Elsewhere Django's own handlers
render ``templates/4xx.html`` / ``500.html``."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@require_safe
@never_cache
def healthz(request):
    """Liveness probe for load balancers and the load test's baseline: a trivial Django view
    (the whole middleware stack, no database, no template)."""
    return HttpResponse("ok", content_type="text/plain")


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def bad_request(request, exception):
    """400 (413 for a body too large under ``/api/``)."""
    if _is_api(request):
        if isinstance(exception, RequestDataTooBig):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return JsonResponse(
                {"error": f"the request body is larger than {limit} bytes"}, status=413
            )
        return JsonResponse({"error": "bad request"}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request, exception):
    """403."""
    if _is_api(request):
        return JsonResponse({"error": "permission denied"}, status=403)
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception):
    """404."""
    if _is_api(request):
        return JsonResponse({"error": "not found"}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """500."""
    if _is_api(request):
        return JsonResponse({"error": "server error"}, status=500)
    return defaults.server_error(request)
