"""The penalty engines' texts in Spanish (issue 7): explanations, definitions and corrective
actions read in the active language, English stays exactly as before, and the public API
and the generated MyL page stay English. No database."""

import json
from pathlib import Path

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import translation

from penalties import api, myl_rules, vekn_guide
from penalties.vekn_guide import VEKN_V2, PriorPenalty, assess

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules-myl-penalties.md"


def vekn(code, conditions=None, history=(), prior_events=(), *, lang):
    with translation.override(lang):
        return assess(VEKN_V2, code, conditions or {}, history, prior_events)


def myl(code, conditions=None, history=(), prior_events=(), *, lang):
    with translation.override(lang):
        return myl_rules.assess(code, conditions or {}, history, prior_events)


# -- VEKN (JG): Spanish level names map crosswise: Advertencia = Caution, Amonestación = Warning


def test_vekn_caution_in_spanish():
    a = vekn("3.3", lang="es")
    assert a.level == "caution"
    text = a.explanation
    assert text.startswith("3.3 Juego lento (Error de torneo): infracción n.º 1")
    assert "Sanción base: Advertencia." in text
    assert "Acción correctiva: Se pide al jugador que acelere" in text
    for english in ("Baseline", "Caution", "Corrective action", "offence"):
        assert english not in text


def test_vekn_escalation_to_warning_in_spanish():
    history = [PriorPenalty("3.3", "caution"), PriorPenalty("3.3", "caution")]
    a = vekn("3.3", history=history, lang="es")
    assert a.level == "warning"
    assert (
        "Escalada desde Advertencia: Advertencia → Advertencia → Amonestación → Amonestación → "
        "Ajuste en la clasificación → Ajuste en la clasificación → Descalificación. "
        "La infracción n.º 3 da Amonestación." in a.explanation
    )


def test_vekn_escalation_unchanged_in_english():
    history = [PriorPenalty("3.3", "caution"), PriorPenalty("3.3", "caution")]
    assert vekn("3.3", history=history, lang="en").explanation == (
        "3.3 Slow Play (Tournament Error): offence 3 of this infraction by this person in this "
        "event. Baseline: Caution. Ladder from Caution: Caution → Caution → Warning → Warning → "
        "Standings Adjustment → Standings Adjustment → Disqualification. Offence 3 gives "
        "Warning. Corrective action: Ask the player to speed up, without using the word "
        "'stalling'; give the table a time extension if the ruling took significant time "
        "(§1.2.4)."
    )


def test_vekn_standings_adjustment_in_spanish():
    a = vekn("2.4", lang="es")
    assert a.level == "standings_adjustment"
    assert "2.4 No mantener el estado de la partida (Error de procedimiento)" in a.explanation
    assert (
        "Las reincidencias en esta infracción nunca escalan (§2.4): cada infracción da "
        "Ajuste en la clasificación." in a.explanation
    )
    assert (
        "La sanción (Ajuste en la clasificación) se aplica cuando el juez principal la "
        "confirma (§1.2.2)." in a.explanation
    )


def test_vekn_conditional_baseline_and_prior_events_in_spanish():
    a = vekn(
        "3.7",
        {"pattern": True},
        prior_events=[PriorPenalty("3.7", "warning")],
        lang="es",
    )
    assert a.level == "standings_adjustment"
    assert "Sanción base: Ajuste en la clasificación (las marcas siguen un patrón" in a.explanation
    assert "Torneos anteriores: una amonestación previa por esta infracción" in a.explanation
    assert a.context == ("pre-existing warning",)  # a stable code-like value, never translated


def test_vekn_disqualification_in_spanish():
    a = vekn("4.7", lang="es")
    assert a.level == "disqualification"
    text = a.explanation
    assert "La Descalificación es el último escalón (§1.2.1)" in text
    assert "Una Descalificación siempre incluye una Amonestación" in text
    assert "Notifica esta sanción al Comité de Ética de la VEKN." in text
    assert a.also == ("warning",)


def test_vekn_dq_by_accumulation_and_deviation_in_spanish():
    history = [PriorPenalty("3.1.2", "standings_adjustment")] * 2
    a = vekn("3.1.2", history=history, lang="es")
    assert a.level == "disqualification" and a.by_accumulation
    assert "Esta Descalificación se debe solo a la acumulación" in a.explanation
    with translation.override("es"):
        d = vekn_guide.deviate(vekn("3.3", lang="en"), "warning", None)
    assert d.explanation.startswith(
        "Desviación del juez principal: la guía da Advertencia; se impuso Amonestación en su "
        "lugar (sin motivo registrado)"
    )


def test_vekn_adjustment_target_and_time_extension_in_spanish():
    issue = vekn_guide.AdjustmentIssue(vekn_guide.Timing.DURING_GAME, 2)
    with translation.override("es"):
        target = vekn_guide.adjustment_target(issue, [1, 2])
        extension = vekn_guide.suggest_time_extension(vekn_guide.ExtensionRequest(2))
    assert target.explanation == "Impuesto durante la partida de la ronda 2: −1 VP en esa partida."
    assert extension.explanation.startswith("Tiempo del juez: 2 min: una intervención normal")
    assert extension.explanation.endswith("Sugerido: +2 min.")


def test_vekn_catalogue_texts_are_plain_strings_that_translate_on_display():
    inf = VEKN_V2.catalogue["3.3"]
    assert isinstance(inf.definition, str)
    assert inf.definition == (
        "A player takes clearly longer than reasonably needed for game actions or decisions."
    )
    template = Template("{{ inf.definition }}|{{ inf.corrective_action }}|{{ effect }}")
    context = Context({"inf": inf, "effect": vekn_guide.LEVELS["caution"].effect})
    with translation.override("es"):
        rendered = template.render(context)
        choice = str(VEKN_V2.choices[0])
    assert rendered.startswith("Un jugador tarda claramente más de lo razonable")
    assert "Solo verbal" in rendered
    assert choice.startswith("El Juego lento (3.3) empieza en Advertencia")
    with translation.override("en"):
        assert template.render(context).startswith("A player takes clearly longer")


def test_context_entries_keep_english_values_and_display_in_spanish():
    a = vekn("3.7", {"pattern": False}, prior_events=[PriorPenalty("3.7", "warning")], lang="es")
    assert a.context == ("pre-existing warning",) and a.as_json()["context"] == [
        "pre-existing warning"
    ]
    m = myl("2.1", history=[{"infraction": "2.1", "level": "warning"}], lang="es")
    assert m.context == ("1 earlier penalty for §2.1 in this event",)
    template = Template('{{ context|join:", " }}')
    with translation.override("es"):
        assert template.render(Context({"context": a.context})) == "amonestación previa"
        assert template.render(Context({"context": m.context})) == (
            "1 sanción anterior por el §2.1 en este torneo"
        )


# -- Mitos y Leyendas: the rulebook's own terms (Advertencia, Pérdida de juego, …)


def test_myl_game_loss_on_a_repeat_in_spanish():
    a = myl("2.1", history=[{"infraction": "2.1", "level": "warning"}], lang="es")
    assert a.level == "game_loss"
    text = a.explanation
    assert text.startswith(
        "2.1 Respeto y Deportividad (infracción leve, §4.2): infracción n.º 2 de esta sección "
        "por esta persona (1 sanción anterior en este torneo, 0 en torneos anteriores"
    )
    assert "Primera instancia: Advertencia (§2.1)." in text
    assert (
        "La sección dice «si la conducta persiste»: la reincidencia da Pérdida de juego "
        "(o Descalificación del torneo)." in text
    )
    assert "Propuesta: Pérdida de juego." in text
    assert "En su lugar, el juez puede aplicar: Descalificación del torneo." in text
    assert "juez principal" in text and "5 días hábiles" in text
    for english in ("Warning", "Game Loss", "Proposed", "offence", "repeat"):
        assert english not in text


def test_myl_repeat_unchanged_in_english():
    a = myl("2.1", history=[{"infraction": "2.1", "level": "warning"}], lang="en")
    assert a.explanation == (
        "2.1 Minor Unsportsmanlike Conduct (minor infraction, §4.2): offence 2 of this section "
        "by this person (1 earlier penalty in this event, 0 in earlier events; both count, "
        "§4.3). First instance: Warning (§2.1). The section says “si la conducta persiste”: a "
        "repeat gives Game Loss (or Disqualification). Proposed: Game Loss. The judge may give "
        "instead: Disqualification. Corrective action: The player stops the behaviour. The "
        "judge weighs intent, impact, repetition and cooperation (§4.3) and confirms or "
        "changes the penalty with a reason. Every penalty is recorded (§4.4). The player may "
        "ask the head judge to review it at once (final for the event, §4.5) and appeal in "
        "writing to the national Organised Play manager within 5 business days (§5.10)."
    )


def test_myl_severity_table_repeat_in_spanish():
    a = myl("3.4.2", history=[{"infraction": "3.4.2", "level": "suspension"}], lang="es")
    assert a.level == "permanent_ban"
    assert (
        "la tabla del §4.2 da Prohibición permanente al escalar para una infracción muy grave"
        in a.explanation
    )
    assert "La prohibición permanente impide a la persona" in a.explanation


# -- What stays English: the public API (docs/contracts.md §4) and the generated MyL page


@pytest.mark.parametrize(
    ("ruleset", "body", "start"),
    [
        (
            "vekn",
            {"infraction": "3.3", "history": [{"infraction": "3.3", "level": "caution"}]},
            "3.3 Slow Play (Tournament Error): offence 2",
        ),
        (
            "myl",
            {"infraction": "2.1", "prior_events": [{"infraction": "2.1", "level": "warning"}]},
            "2.1 Minor Unsportsmanlike Conduct (minor infraction, §4.2): offence 2",
        ),
    ],
)
def test_api_answers_in_english_whatever_the_language(ruleset, body, start):
    request = RequestFactory().post(
        f"/api/v1/rulesets/{ruleset}/penalty",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    with translation.override("es"):  # as LocaleMiddleware would for a Spanish client
        response = api.penalty(request, ruleset)
        assert translation.get_language() == "es"  # the override is restored afterwards
    payload = json.loads(response.content)
    assert response.status_code == 200
    assert payload["explanation"].startswith(start)
    assert "Advertencia" not in payload["explanation"]


def test_generated_myl_page_stays_english():
    with translation.override("es"):
        page = myl_rules.render_markdown()
    assert page == DOCS.read_text(encoding="utf-8")
    assert "| `warning` | Warning | Advertencia | For minor infractions" in page
