"""Circuit pages (docs/ratings.md "Circuits"): the public list and standings of each
circuit, with qualification badges, and the organiser's pages to create and change an
organisation's circuits (its organisers only: ``events.access.organisation_organiser_required``,
others get 404). The JSON is ``events.api_circuits``."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from events.access import organisation_organiser_required
from events.circuit_models import Scoring
from events.errors import UserError
from events.forms_circuits import CircuitForm
from events.models import Circuit, Organisation
from standings import circuit_services


class _Row:
    """A standings line for the template, with ``person``: the person id to link to the
    player's rated events, or ``None`` (a registration without a person)."""

    def __init__(self, line):
        self._line = line
        self.person = line.player if isinstance(line.player, int) else None

    def __getattr__(self, name):
        return getattr(self._line, name)


def circuit_list(request):
    """``/circuits/`` (optional ``?organisation=<slug>``): every circuit, most recent
    first."""
    slug = request.GET.get("organisation") or ""
    organisation = Organisation.objects.filter(slug=slug).first() if slug else None
    return render(
        request,
        "events/circuits.html",
        {
            "circuits": circuit_services.circuits_of(organisation),
            "organisation": organisation,
        },
    )


def circuit_page(request, circuit_id):
    """``/circuits/<id>/``: the circuit's standings, its counted events and rules; the
    qualifying places carry a badge."""
    circuit = get_object_or_404(Circuit.objects.select_related("organisation"), pk=circuit_id)
    result = circuit_services.circuit_standings(circuit)
    lines = [_Row(line) for line in result.lines]
    return render(
        request,
        "events/circuit.html",
        {
            "circuit": circuit,
            "result": result,
            "ranked": [row for row in lines if row.rank is not None],
            "unranked": [row for row in lines if row.rank is None],
            "by_score": circuit.scoring == Scoring.SCORE,
        },
    )


@organisation_organiser_required
def organisation_circuits(request, org):
    """``/organisations/<slug>/circuits/``: the organisation's circuits, for its
    organisers."""
    return render(
        request,
        "organisations/circuits.html",
        {"organisation": org, "circuits": circuit_services.circuits_of(org)},
    )


def _edit(request, org, circuit=None):
    events = circuit_services.candidate_events(org)
    form = CircuitForm(request.POST or None, instance=circuit, events=events)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                saved = circuit_services.save_circuit(
                    org,
                    request.user,
                    name=data["name"],
                    starts_on=data["starts_on"],
                    ends_on=data["ends_on"],
                    scoring=data["scoring"],
                    best=data["best"],
                    min_events=data["min_events"],
                    places=data["places"],
                    events=data["events"],
                    circuit=circuit,
                )
            except UserError as exc:
                form.add_error(exc.field, exc.message)
            else:
                messages.success(request, _("Circuit saved."))
                return redirect("circuit", circuit_id=saved.pk)
        status = 400
    return render(
        request,
        "organisations/circuit_form.html",
        {"organisation": org, "circuit": circuit, "form": form},
        status=status,
    )


@organisation_organiser_required
def circuit_create(request, org):
    """``/organisations/<slug>/circuits/new/``: a new circuit of the organisation."""
    return _edit(request, org)


@organisation_organiser_required
def circuit_edit(request, org, circuit_id):
    """``/organisations/<slug>/circuits/<id>/``: change one of the organisation's circuits
    (another organisation's circuit: 404)."""
    circuit = get_object_or_404(Circuit, pk=circuit_id, organisation=org)
    return _edit(request, org, circuit)
