"""The circuits' JSON (docs/ratings.md "Circuit API"): ``GET /api/v1/circuits`` (optional
``?organisation=<slug>``) and ``GET /api/v1/circuits/<id>``. Public, no authentication."""

from django.http import JsonResponse
from django.views.decorators.http import require_GET

from events.models import Circuit, Organisation
from standings import circuit_services


@require_GET
def circuits(request):
    """``GET /api/v1/circuits`` → ``{"circuits": [summary, …]}``, most recent first; an
    unknown ``organisation`` → 400 ``{"error": …}``. Two queries."""
    slug = request.GET.get("organisation") or ""
    organisation = None
    if slug:
        organisation = Organisation.objects.filter(slug=slug).first()
        if organisation is None:
            return JsonResponse({"error": "organisation: no such organisation"}, status=400)
    return JsonResponse(circuit_services.circuits_document(organisation))


@require_GET
def circuit(request, circuit_id):
    """``GET /api/v1/circuits/<id>`` → the circuit standings document
    (``standings.circuit_services.circuit_document``); unknown → 404 ``{"error": …}``.
    Six queries whatever the number of events."""
    found = Circuit.objects.select_related("organisation").filter(pk=circuit_id).first()
    if found is None:
        return JsonResponse({"error": "no such circuit"}, status=404)
    return JsonResponse(circuit_services.circuit_document(found))
