"""The catalogue of the Mitos y Leyendas conduct rulebook (§2.1–§3.4.3): one
:class:`~penalties.myl_terms.Infraction` per section, and the product's interpretations
(:data:`CHOICES`).

Plain data built from :mod:`penalties.myl_terms`; :data:`penalties.myl_rules.MYL_V1`
registers it. Texts are English values marked for translation (``locale/es``). Page for
users: ``docs/rules-myl-penalties.md`` ("Catalogue", "Our choices").
"""

from __future__ import annotations

from penalties.myl_terms import (
    DQ,
    GL,
    PB,
    SUS,
    Condition,
    Group,
    Infraction,
    Outcome,
    Severity,
    W,
)
from penalties.vekn_terms import Translatable

_ = Translatable  # catalogue texts: English values, translated by str() (see vekn_guide)

# ---------------------------------------------------------------------------------------
# The catalogue (§2.1–§3.4.3)
# ---------------------------------------------------------------------------------------

_LEVE, _MOD, _GRAVE, _MUY = Severity.LEVE, Severity.MODERADA, Severity.GRAVE, Severity.MUY_GRAVE
_GRAVE_Q_ES = "¿Es un caso grave?"
_INTENT_Q_ES = "¿Fue intencional?"


def _grave(question: str, outcome: Outcome, yes_means: str) -> Condition:
    return Condition("grave", question, _GRAVE_Q_ES, outcome, yes_means=yes_means)


def _intentional(question: str, outcome: Outcome) -> Condition:
    return Condition("intentional", question, _INTENT_Q_ES, outcome, yes_means=_("intentional"))


_INFRACTIONS: tuple[Infraction, ...] = (
    # -- §2 General tournament rules ----------------------------------------------------
    Infraction(
        "2.1",
        "Minor Unsportsmanlike Conduct",
        "Respeto y Deportividad",
        Group.GENERAL,
        _LEVE,
        _(
            "Discourtesy or disrespect towards opponents, judges or organisers: insults, "
            "mocking an opponent after a win, arguing disrespectfully with judges."
        ),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "si la conducta persiste",
        corrective_action=_("The player stops the behaviour."),
    ),
    Infraction(
        "2.2",
        "Failure to Respect the Rules or Judges' Decisions",
        "Cumplimiento del Reglamento y Decisiones Arbitrales",
        Group.GENERAL,
        _MOD,
        _(
            "Refusing to follow a judge's or organiser's decision, objecting improperly, or "
            "holding up play to argue about a ruling."
        ),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "en caso de conducta persistente",
        corrective_action=_("The ruling stands; play resumes."),
    ),
    Infraction(
        "2.3",
        "Untidy Play Area",
        "Mantenimiento del Área de Juego",
        Group.GENERAL,
        _LEVE,
        _(
            "Leaving litter on the table or handling tournament material (cards, playmats, "
            "counters, furniture) carelessly."
        ),
        Outcome(W),
        repeat_term="en caso de reincidencia, se podrá imponer una penalización adicional",
        corrective_action=_("The player tidies the play area."),
        notes=(
            _(
                "On a repeat the text says an additional penalty *may* be imposed without "
                "naming it: the severity table proposes it (Game Loss for a minor infraction "
                "that persists); a Warning stays available."
            ),
        ),
    ),
    Infraction(
        "2.4",
        "Inappropriate Personal Presentation",
        "Presentación Personal y Comportamiento",
        Group.GENERAL,
        _LEVE,
        _(
            "Coming to the event in unsuitable clothing (e.g. with offensive messages) or with "
            "unacceptable personal hygiene."
        ),
        Outcome(W),
        conditions=(
            _grave(
                "Is it a serious case, one where the player should be excluded from the event?",
                Outcome(DQ),
                _("serious case: the player is excluded from the event"),
            ),
        ),
        corrective_action=_(
            "Ask the player, privately, to correct the issue (cover or "
            "change the clothing, freshen up)."
        ),
    ),
    Infraction(
        "2.5",
        "Unauthorised Use of Electronic Devices",
        "Uso de Dispositivos Electrónicos",
        Group.GENERAL,
        _MOD,
        _(
            "Using a phone, tablet or other device during a game without the judge's "
            "permission (medical devices and other justified needs excepted), e.g. to look up "
            "a card."
        ),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "en caso de abuso o reincidencia",
        corrective_action=_("The device is put away."),
        notes=(_("3.2.6 covers consulting notes or digital material during a game."),),
    ),
    # -- §3.1 Further unsportsmanlike conduct -------------------------------------------
    Infraction(
        "3.1.1",
        "Disruptive Behaviour towards Tournament Staff",
        "Comportamiento disruptivo hacia el personal del torneo",
        Group.UNSPORTSMANLIKE,
        _MOD,
        _("Verbal or physical mistreatment of judges, organisers or event staff."),
        Outcome(W),
        conditions=(
            _grave(
                "Is it a serious case (e.g. physical mistreatment, or grave or sustained "
                "verbal abuse)?",
                Outcome(SUS, also=(DQ,)),
                _("serious case: disqualification and suspension"),
            ),
        ),
        corrective_action=_("Stop the behaviour; separate the people involved if needed."),
        notes=(
            _(
                "Physical aggression: §4.2 (immediate disqualification, possible permanent "
                "ban) and the violence protocol of §5.8, with an incident report."
            ),
        ),
    ),
    Infraction(
        "3.1.2",
        "Offensive Language or Behaviour",
        "Uso inapropiado de lenguaje o comportamiento ofensivo",
        Group.UNSPORTSMANLIKE,
        _LEVE,
        _(
            "Insults, discriminatory language or threats, in person or on social media linked "
            "to the event or the community; aggression, harassment or misinformation aimed at "
            "community members, judges or organisers."
        ),
        Outcome(W),
        conditions=(
            _grave(
                "Is it a serious case (e.g. threats, discrimination, harassment or aggression)?",
                Outcome(GL, (DQ, PB)),
                _("serious case: game loss, disqualification or permanent ban"),
            ),
        ),
        corrective_action=_("Stop the behaviour (and remove the posts, if online)."),
        notes=(
            _(
                "§4.2 on violence: minor verbal aggression → warning and monitoring; threats or "
                "repeated harassment → game loss or immediate disqualification."
            ),
        ),
    ),
    Infraction(
        "3.1.3",
        "Spreading False Information",
        "Difusión de información falsa sobre el torneo o la empresa",
        Group.UNSPORTSMANLIKE,
        _GRAVE,
        _(
            "Publishing misleading information about the event, its judges, its organisers or "
            "the company."
        ),
        Outcome(W),
        (Outcome(SUS),),
        "en casos reiterados",
        corrective_action=_("The person corrects or withdraws what was published."),
    ),
    Infraction(
        "3.1.4",
        "Breach of Inclusion and Respect",
        "Incumplimiento de normas de inclusión y respeto",
        Group.UNSPORTSMANLIKE,
        _MOD,
        _("Acts that discriminate against, exclude or harass other players."),
        Outcome(W),
        (Outcome(DQ),),
        "si la conducta persiste",
        corrective_action=_("Stop the behaviour."),
    ),
    Infraction(
        "3.1.5",
        "Identity or Document Fraud",
        "Falsificación de identidad o documentos",
        Group.UNSPORTSMANLIKE,
        _MUY,
        _("Presenting false credentials or impersonating another player."),
        Outcome(PB, also=(DQ,)),
        corrective_action=_("Immediate disqualification; the person is banned from events."),
    ),
    Infraction(
        "3.1.6",
        "Repeated Interference with Judges and Organisers",
        "Interrupciones reiteradas a la labor de jueces y organizadores",
        Group.UNSPORTSMANLIKE,
        _MOD,
        _(
            "Disregarding the decisions of judges and organisers or arguing aggressively with "
            "them, so that they cannot do their work."
        ),
        Outcome(W),
        (Outcome(DQ),),
        "si la conducta persiste",
        corrective_action=_("Stop the behaviour; the decision stands."),
    ),
    # -- §3.2 Conduct related to the game -----------------------------------------------
    Infraction(
        "3.2.1",
        "Result Manipulation",
        "Manipulación del resultado de un encuentro",
        Group.GAME,
        _MOD,
        _(
            "Fixing a match result outside play: agreed intentional draws, asking the opponent "
            "to concede, deciding the winner by a random method."
        ),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "en caso de reincidencia",
        corrective_action=_("The match is played out normally."),
        notes=(
            _(
                "§5.7: attempted fraud or bribery to change a result is reported to the "
                "organiser at once, who decides further penalties."
            ),
        ),
    ),
    Infraction(
        "3.2.2",
        "Intentional Slow Play (Stalling)",
        "Juego lento intencional (stalling)",
        Group.GAME,
        _MOD,
        _("Deliberately playing very slowly to force a result against the opponent."),
        Outcome(W),
        (Outcome(GL),),
        "en caso de reincidencia",
        corrective_action=_("Ask the player to keep a normal pace."),
        notes=(
            _(
                "§5.5 also allows a loss of turn or less playing time between the warning and "
                "the game loss; these are not §4.1 penalties, so the judge records them as a "
                "change with a reason."
            ),
        ),
    ),
    Infraction(
        "3.2.3",
        "Deliberately Marked Cards",
        "Marcar cartas deliberadamente",
        Group.GAME,
        _MOD,
        _(
            "Using sleeves or worn cards that can identify cards and so give the player an "
            "advantage."
        ),
        Outcome(W),
        (Outcome(GL),),
        "en caso de reincidencia",
        corrective_action=_(
            "Correct the problem at once (sleeves, cards, deck or decklist) before play continues."
        ),
        notes=(
            _(
                "The heading says 'deliberately' yet the text starts at a warning; 3.2.4 "
                "(intentional → disqualification) also covers the intentional use of marked "
                "cards: the judge chooses the section."
            ),
        ),
    ),
    Infraction(
        "3.2.4",
        "Card Manipulation and Information Theft",
        "Manipulación de cartas y robo de información",
        Group.GAME,
        _MOD,
        _(
            "Looking at the opponent's deck without permission, handling a deck improperly, or "
            "playing marked, altered or off-format cards, on purpose or through carelessness."
        ),
        Outcome(W),
        conditions=(
            _intentional(
                "Was it intentional?",
                Outcome(DQ),
            ),
        ),
        corrective_action=_(
            "Correct the problem at once (sleeves, cards, deck or decklist) before play continues."
        ),
    ),
    Infraction(
        "3.2.5",
        "Leaving the Event without Notice",
        "Abandono del Torneo",
        Group.GAME,
        _LEVE,
        _("Dropping from the event without telling the head judge before the next round."),
        Outcome(W),
        (Outcome(GL, (DQ, SUS)), Outcome(DQ, (GL, SUS)), Outcome(SUS, (GL, DQ))),
        "en caso de reincidencia, sanción progresiva hasta la suspensión",
        corrective_action=_("The player is dropped from the event."),
        notes=(
            _(
                "Players may leave at any time, provided they tell the head judge before the "
                "next round."
            ),
        ),
    ),
    Infraction(
        "3.2.6",
        "Improper Use of Notes or Devices",
        "Uso indebido de notas y dispositivos electrónicos",
        Group.GAME,
        _MOD,
        _("Consulting outside notes, on paper or digital, during a game."),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "en caso de abuso",
        corrective_action=_("The notes or device are put away."),
        notes=(
            _(
                "The rulebook's example for this section repeats 3.2.5's (leaving without "
                "notice), apparently by mistake."
            ),
        ),
    ),
    # -- §3.3 Deck use and handling ------------------------------------------------------
    Infraction(
        "3.3.1",
        "Banned or Off-Format Cards",
        "Uso de cartas prohibidas o no permitidas en el formato",
        Group.DECK,
        _MOD,
        _("Playing cards that are banned or not allowed in the event's format."),
        Outcome(W),
        conditions=(
            _intentional("Was it intentional?", Outcome(DQ)),
            Condition(
                "late_stage",
                "Was it only found at a very advanced stage of the event?",
                "¿Se tomó conocimiento en una etapa muy avanzada del torneo?",
                Outcome(DQ),
                required=False,
                yes_means=_("found at a very advanced stage of the event"),
            ),
        ),
        corrective_action=_(
            "Correct the problem at once (sleeves, cards, deck or decklist) before "
            "play continues: the cards are removed and replaced."
        ),
    ),
    Infraction(
        "3.3.2",
        "Deck Registration Problems",
        "Problemas en la inscripción del mazo",
        Group.DECK,
        _MOD,
        _("The deck's registration (decklist) is wrong, incomplete or does not match the deck."),
        Outcome(W),
        (Outcome(GL),),
        "en caso de reincidencia",
        corrective_action=_(
            "Correct the problem at once (sleeves, cards, deck or decklist) before play continues."
        ),
    ),
    Infraction(
        "3.3.3",
        "Unauthorised Proxies",
        "Uso de proxies o cartas sin autorización",
        Group.DECK,
        _MOD,
        _("Playing proxies or substitute cards without authorisation."),
        Outcome(W),
        (Outcome(GL, (DQ,)),),
        "si se reincide",
        corrective_action=_("The proxies are replaced by the real cards."),
        notes=(
            _(
                "Custom cards or proxies used as starting gold (oro inicial) are allowed as an "
                "exception, provided they infringe no intellectual property."
            ),
        ),
    ),
    Infraction(
        "3.3.4",
        "Counterfeit Cards",
        "Uso de cartas falsas o que vulneren la propiedad intelectual de terceros",
        Group.DECK,
        _GRAVE,
        _("Playing fake cards, or cards that infringe third parties' intellectual property."),
        Outcome(DQ),
        (Outcome(SUS, also=(DQ,)),),
        "si el acto es reiterado",
        corrective_action=_("Immediate disqualification."),
    ),
    # -- §3.4 Conduct outside the event --------------------------------------------------
    Infraction(
        "3.4.1",
        "Selling or Distributing Counterfeit Material",
        "Venta y distribución de material falsificado",
        Group.OUTSIDE,
        _MUY,
        _("Selling or distributing counterfeit material."),
        Outcome(SUS),
        conditions=(
            _grave(
                "Is it a serious case (e.g. large-scale or organised sales)?",
                Outcome(PB),
                _("serious case: permanent ban"),
            ),
        ),
    ),
    Infraction(
        "3.4.2",
        "Disclosure of Confidential Information",
        "Difusión de información confidencial",
        Group.OUTSIDE,
        _MUY,
        _("Disclosing confidential information (of the event, the judges or the company)."),
        Outcome(SUS),
    ),
    Infraction(
        "3.4.3",
        "Conflict of Interest with the Organising Company",
        "Conflicto de intereses con la empresa organizadora",
        Group.OUTSIDE,
        _GRAVE,
        _(
            "Taking part while having a conflict of interest with the company that organises "
            "the event."
        ),
        Outcome(DQ, (SUS,)),
        notes=(
            _(
                "The text adds a 'possible' temporary suspension: offered as an alternative, in "
                "addition to the disqualification."
            ),
        ),
    ),
)


CHOICES: tuple[str, ...] = (
    _(
        "First instance: the first penalty the section names; repeat (persiste, reincidencia, "
        "reiterado, abuso): the first penalty it names for that case; the other penalties the "
        "text allows for the case are offered as alternatives."
    ),
    _(
        "Two penalties named at once (3.1.1 grave, 3.1.5, a repeated 3.3.4): the level is the "
        "more severe, the other is listed with it ('also')."
    ),
    _(
        "A penalty the text only calls possible (3.4.3's temporary suspension; the possible "
        "permanent ban for physical aggression, §4.2) is an alternative, not part of 'also'."
    ),
    _(
        "A repeat is an earlier penalty for the same section by the same person, in this event "
        "or an earlier one, whatever its level; entries recorded as linked do not count. "
        "'Abuso' (2.5, 3.2.6) is read as a repeat."
    ),
    _(
        "Sections silent about repeats (2.3, 2.4, 3.1.1, 3.1.2, 3.1.5, 3.2.4, 3.3.1, 3.4.1, "
        "3.4.2, 3.4.3) take the §4.2 escalated penalty of their severity, never below the "
        "first instance; the first-instance penalty and any initial penalty of that severity "
        "in between are alternatives; a first-instance disqualification stays in 'also'."
    ),
    _(
        "Each section's severity (leve, moderada, grave, muy grave) is ours: §4.2 gives only "
        "examples; we pick the row whose examples and penalties fit the section best."
    ),
    _(
        "'grave' (2.4, 3.1.1, 3.1.2, 3.4.1) and 'intentional' (3.2.4, 3.3.1) must be "
        "answered; 3.3.1's 'found at a very advanced stage' is an optional 'late_stage' "
        "question (missing means no)."
    ),
    _(
        "When a condition answered yes and a repeat both apply, the more severe outcome wins; "
        "on equal levels, the condition's."
    ),
    _(
        "3.2.5 'progressive up to suspension': offence 2 → game loss, 3 → disqualification, "
        "4 and later → suspension."
    ),
    _(
        "2.4 'excluded from the event' is a disqualification; 'suspensión permanente' (3.1.5, "
        "3.4.1) is a permanent ban."
    ),
    _(
        "No suspension length is proposed: the rulebook gives none, so the judge or organiser "
        "sets it."
    ),
    _(
        "'Corrección inmediata' is a corrective action, not a penalty; §5.5's loss of turn or "
        "reduced time for stalling are not §4.1 penalties (a note on 3.2.2)."
    ),
    _(
        "Appeal deadline (§5.10): 5 business days after the penalty day (that day not "
        "counted; the fifth business day is the last day to file), skipping weekends and the "
        "public holidays of the configured country — Chile by default, optionally a region; "
        "no country means weekends only."
    ),
    _("The rulebook is undated: this catalogue is version v1."),
)
"""The product's interpretations of the rulebook (**[choice]**), for the ruleset's page."""
