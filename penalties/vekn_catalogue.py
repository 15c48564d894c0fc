"""The catalogue of the VEKN judges' guide v2 ("JG" §2–§5): infraction and organisational
case definitions, their texts, and the product's interpretations (:data:`CHOICES`).

Plain data built from :mod:`penalties.vekn_terms`; :data:`penalties.vekn_guide.VEKN_V2`
registers it. Texts are English values marked for translation (:class:`Translatable`,
``locale/es``). User-facing page: ``docs/rules-vekn-penalties.md`` ("The catalogue",
"Organisational cases", "Our choices where the guide is silent or ambiguous").
"""

from __future__ import annotations

from penalties.vekn_terms import (
    Category,
    Condition,
    ConditionEffect,
    Escalation,
    EthicsReport,
    Infraction,
    Level,
    OrganisationalCase,
    Translatable,
)

_ = Translatable

# ---------------------------------------------------------------------------------------
# The catalogue of JG v2 (§2–§4)
# ---------------------------------------------------------------------------------------

_P = Category.PROCEDURAL_ERROR
_T = Category.TOURNAMENT_ERROR
_U = Category.UNSPORTSMANLIKE_CONDUCT
C, W, SA, DQ = Level.CAUTION, Level.WARNING, Level.STANDINGS_ADJUSTMENT, Level.DISQUALIFICATION

_INFRACTIONS: tuple[Infraction, ...] = (
    # -- §2 Procedural errors -----------------------------------------------------------
    Infraction(
        "2.1",
        "Missed Mandatory Effect",
        "Omisión de un efecto obligatorio",
        _P,
        C,
        definition=_(
            "A player does not show awareness of a mandatory effect of a card or game "
            "effect they control before it should visibly affect the game."
        ),
        corrective_action=_(
            "If the missed effect can still be applied without major "
            "disruption, the player applies it now; otherwise play goes on from the current "
            "state."
        ),
        conditions=(
            Condition(
                "advantage",
                "Was the missed effect detrimental to its controller, or did missing it give "
                "an advantage?",
                "¿El efecto omitido perjudicaba a quien lo controla, o su omisión le dio una "
                "ventaja?",
                ConditionEffect.BASELINE,
                W,
                yes_means=_("detrimental to its controller, or missing it gave an advantage"),
                no_means=_("neither detrimental to its controller nor an advantage"),
            ),
        ),
        reclassify_if_intentional="4.7",
    ),
    Infraction(
        "2.2",
        "Card Access Error",
        "Error en el acceso a cartas",
        _P,
        C,
        definition=_(
            "By accident, a player sees or draws cards they were not entitled to, or "
            "does not draw cards they had to draw (the opening hand included)."
        ),
        corrective_action=_(
            "Undo the information gained where possible: identified extra "
            "cards go back to their hidden area, which is shuffled; unidentified ones are taken "
            "at random from the hand and shuffled back. Missed draws are made. The head judge "
            "settles unusual fixes."
        ),
        reclassify_if_intentional="4.7",
    ),
    Infraction(
        "2.3",
        "Game Rule Violation",
        "Infracción de las reglas del juego",
        _P,
        W,
        definition=_(
            "A player breaks a game rule or carries out a game procedure wrongly, "
            "when no more specific infraction covers it."
        ),
        corrective_action=_(
            "Use the least disruptive fix: a simple roll-back of the last "
            "action; else a partial fix (unlock minions forgotten this turn, redo an illegal "
            "mandatory choice, move a misplaced card, treat a clearly declared card as the one "
            "played); else a forward fix removing the advantage gained; or leave the game as it "
            "is if fixing it would be too disruptive."
        ),
        conditions=(
            Condition(
                "simple_fix",
                "Can it be fixed by a simple roll-back, or by declaring the played card's "
                "effect correctly?",
                "¿Puede corregirse con un retroceso simple o declarando correctamente el "
                "efecto de la carta jugada?",
                ConditionEffect.BASELINE,
                C,
                yes_means=_("fixed by a simple roll-back or a correct declaration"),
                no_means=_("not fixable by a simple roll-back"),
            ),
        ),
        notes=(
            _(
                "Opponents who could reasonably have noticed the error may also receive 2.4 "
                "Failure to Maintain Game State (a separate penalty, not a linked one)."
            ),
        ),
    ),
    Infraction(
        "2.4",
        "Failure to Maintain Game State",
        "No mantener el estado de la partida",
        _P,
        SA,
        definition=_(
            "A player clearly noticed a visible, relevant and ongoing Game Rule "
            "Violation, could reasonably have spoken up, and stayed silent (missed mandatory "
            "effects excepted)."
        ),
        corrective_action=_("Nothing beyond fixing the Game Rule Violation itself (§2.3)."),
        escalation=Escalation.NEVER,
    ),
    # -- §3 Tournament errors -----------------------------------------------------------
    Infraction(
        "3.1.1",
        "Illegal Decklist",
        "Lista de mazo ilegal",
        _T,
        W,
        definition=_(
            "At an event with decklists, the registered list is illegal (card "
            "counts, banned cards, crypt grouping) or ambiguous enough to allow changing the "
            "deck, or must change because lost cards cannot be replaced."
        ),
        corrective_action=_(
            "Fix the list: remove illegal cards, clarify entries whose meaning "
            "is unambiguous, fill missing cards with basic, universally available cards, and "
            "have the head judge make the crypt legal; the list then matches the legal deck "
            "actually played. Found outside a game, the penalty normally takes effect at the "
            "start of the player's next round."
        ),
        conditions=(
            Condition(
                "irreconcilable",
                "Are both the deck and the decklist illegal, and impossible to reconcile "
                "without substantially changing the deck?",
                "¿Son ilegales tanto el mazo como la lista, y no pueden hacerse coincidir sin "
                "modificar sustancialmente el mazo?",
                ConditionEffect.BASELINE,
                SA,
                yes_means=_(
                    "deck and list both illegal and not reconcilable without substantial change"
                ),
                no_means=_("the list alone is at fault, or it can be reconciled"),
                consequence=_(
                    "The player has five minutes to adjust the decklist so that "
                    "the physical deck becomes legal."
                ),
            ),
        ),
        floor_judge_may_confirm=True,
        notes=(
            _(
                "If the head judge finds that a shorthand name clearly designates one card, "
                "the penalty may be reduced (a head-judge deviation)."
            ),
        ),
    ),
    Infraction(
        "3.1.2",
        "Illegal Main Deck (Legal Decklist)",
        "Mazo principal ilegal (lista de mazo legal)",
        _T,
        SA,
        definition=_(
            "With a legal decklist, the deck itself is illegal or does not match the "
            "list (stray cards from earlier games, missing cards)."
        ),
        corrective_action=_(
            "Make the deck match the list (or the list match the deck, if the "
            "judge finds the list was the source of the error) before the player's next round: "
            "retrieve stray cards, reveal and replace wrong cards. If the missing card came "
            "from another player's deck, both players are penalised."
        ),
        floor_judge_may_confirm=True,
    ),
    Infraction(
        "3.1.3",
        "Illegal Main Deck (No Decklists Used)",
        "Mazo principal ilegal (sin listas de mazo)",
        _T,
        SA,
        definition=_(
            "At an event without decklists, the deck is illegal: card count, cards "
            "not legal for the event, crypt grouping, improper proxies."
        ),
        corrective_action=_(
            "Remove illegal cards; refill a short deck by one neutral method "
            "chosen beforehand, with organiser proxies; remove random cards from an oversized "
            "deck; the head judge makes the crypt legal. All before the player's next round."
        ),
    ),
    Infraction(
        "3.2",
        "Outside Assistance",
        "Ayuda externa",
        _T,
        SA,
        definition=_(
            "After a game has started, someone gives or receives strategic, tactical "
            "or hidden-information help from outside that game, or consults notes prepared "
            "before the round."
        ),
        corrective_action=_(
            "Penalise each responsible person: whoever gave unsolicited help, "
            "and a player who asked for, accepted or knowingly used it. Spectators who are not "
            "participants may be removed from the venue."
        ),
        notes=(
            _(
                "The head judge may reduce or waive the penalty of a player who refused the "
                "help at once and called a judge (a head-judge deviation)."
            ),
        ),
    ),
    Infraction(
        "3.3",
        "Slow Play",
        "Juego lento",
        _T,
        C,
        definition=_(
            "A player takes clearly longer than reasonably needed for game actions or decisions."
        ),
        corrective_action=_(
            "Ask the player to speed up, without using the word "
            "'stalling'; give the table a time extension if the ruling took significant "
            "time (§1.2.4)."
        ),
        reclassify_if_intentional="4.6",
        notes=(
            _(
                "The English appendix lists Slow Play as Warning, but §3.3 (and the Spanish "
                "text) give Caution: we follow §3.3."
            ),
        ),
    ),
    Infraction(
        "3.4",
        "Limited Procedure Violation",
        "Infracción de un procedimiento Limitado",
        _T,
        C,
        definition=_(
            "A technical mistake during the draft of a limited event (passing "
            "direction, pick time, changing a pick) that gives no information."
        ),
        corrective_action=_(
            "Restore the draft flow and the booster or card; remind the pod "
            "of the procedure; a time extension only if the pod was meaningfully slowed."
        ),
        notes=(
            _(
                "If information was gained, use 2.2 Card Access Error or 3.2 Outside "
                "Assistance instead."
            ),
        ),
    ),
    Infraction(
        "3.5",
        "Public Information Miscommunication",
        "Comunicación incorrecta de información pública",
        _T,
        W,
        definition=_(
            "A player gives wrong, misleading or incomplete information about public "
            "game elements (pool, blood, bonuses, who has the Edge)."
        ),
        corrective_action=_(
            "If the wrong information directly caused an in-game action or "
            "non-action, the judge may roll back to that action (not to the statement)."
        ),
        conditions=(
            Condition(
                "significant",
                "Did this miscommunication significantly affect the game or the event's fairness?",
                "¿La comunicación incorrecta afectó de forma significativa a la partida o a "
                "la equidad del torneo?",
                ConditionEffect.ESCALATION,
                yes_means=_("significant impact on the game or event, so repeats escalate"),
                no_means=_("no significant impact, so repeats do not escalate"),
            ),
        ),
        escalation=Escalation.IF_SIGNIFICANT,
    ),
    Infraction(
        "3.6",
        "Obscuring Game State",
        "Presentación confusa de la información pública",
        _T,
        C,
        definition=_(
            "A player's physical layout hides or blurs public information (stacked "
            "cards, unclear locked, ready or torpor positions, attachments, counters)."
        ),
        corrective_action=_(
            "The player reorganises the play area at once into a clear, "
            "conventional layout; the judge may help with the player's consent."
        ),
    ),
    Infraction(
        "3.7",
        "Marked Cards",
        "Cartas marcadas",
        _T,
        W,
        definition=_(
            "Cards or sleeves (only the sleeves, if opaque) show physical differences "
            "that could let someone identify cards in the library, crypt or hand."
        ),
        corrective_action=_(
            "Replace the marked sleeves or cards as soon as possible (judge "
            "sleeves, or head-judge proxies for worn cards). A player who cannot bring the deck "
            "to a legal, unmarked state in reasonable time, with no sleeves available, is "
            "removed from the event."
        ),
        conditions=(
            Condition(
                "pattern",
                "Do the marks follow a significant pattern (card type, clan, discipline, "
                "key cards)?",
                "¿Las marcas siguen un patrón significativo (tipo de carta, clan, disciplina, "
                "cartas clave)?",
                ConditionEffect.BASELINE,
                SA,
                yes_means=_("the marks follow a significant pattern"),
                no_means=_("no significant pattern"),
            ),
            Condition(
                "deck_changed",
                "Did the deck have to be changed because marked cards could not be replaced?",
                "¿Hubo que modificar el mazo porque las cartas marcadas no podían sustituirse?",
                ConditionEffect.BASELINE,
                SA,
                required=False,
                yes_means=_("the deck had to be changed because cards could not be replaced"),
                no_means=_("the deck was not changed"),
                consequence=_(
                    "The decklist is updated to the new configuration; this may be "
                    "reverted if suitable replacements are found later."
                ),
            ),
        ),
        reclassify_if_intentional="4.7",
        notes=(
            _("Markings are presumed unintentional unless there is strong evidence otherwise."),
        ),
    ),
    Infraction(
        "3.8",
        "Insufficient Shuffling",
        "Barajado insuficiente",
        _T,
        W,
        definition=_(
            "By accident, a player presents a library or crypt (or part of one) that "
            "is not properly randomised."
        ),
        corrective_action=_(
            "Shuffle the affected portion thoroughly; the judge may require a full shuffle."
        ),
        reclassify_if_intentional="4.7",
    ),
    # -- §4 Unsportsmanlike conduct -----------------------------------------------------
    Infraction(
        "4.1",
        "Unsportsmanlike Conduct — Minor",
        "Conducta antideportiva — Leve",
        _U,
        W,
        definition=_(
            "Disruptive, disrespectful or emotional behaviour not aimed at a specific "
            "person (raised voice, rude remarks, offensive items, ignoring an official's "
            "instruction to step away)."
        ),
        corrective_action=_("The player stops the behaviour at once."),
    ),
    Infraction(
        "4.2",
        "Unsportsmanlike Conduct — Major",
        "Conducta antideportiva — Grave",
        _U,
        SA,
        definition=_(
            "Targeted, aggressive or coercive behaviour towards a person (slurs, "
            "intimidation, harassment, photos without consent); the impact matters more than "
            "the intent."
        ),
        corrective_action=_(
            "Stop the game and separate the people involved; the player "
            "corrects the behaviour at once; the guide recommends a written report of the "
            "incident to the VEKN Ethics Committee."
        ),
        conditions=(
            Condition(
                "malicious",
                "Was it malicious, is the player unrepentant, or has it happened again?",
                "¿Fue malintencionada, el jugador no muestra arrepentimiento o ha vuelto a "
                "ocurrir?",
                ConditionEffect.BASELINE,
                DQ,
                yes_means=_("malicious, unrepentant or repeated"),
                no_means=_("not malicious, unrepentant or repeated"),
                consequence=_(
                    "The person is removed from the venue and the behaviour must "
                    "be reported to the VEKN Ethics Committee."
                ),
            ),
        ),
        escalation=Escalation.REPEAT_UPGRADE,
        report_to_ethics_committee=EthicsReport.IF_ESCALATED,
        written_report=True,
    ),
    Infraction(
        "4.3",
        "Aggressive Behaviour",
        "Comportamiento agresivo",
        _U,
        DQ,
        definition=_(
            "Physically threatening, violent or damaging behaviour towards people, "
            "belongings or tournament property, or threats that make someone fear for their "
            "safety."
        ),
        corrective_action=_(
            "The organiser has the offender leave the venue at once. After a "
            "flipped table: halt the game, secure the area, rebuild the game state only if it "
            "can be done reliably (with a time extension), else end the game; document it all "
            "in the event report."
        ),
        report_to_ethics_committee=EthicsReport.BY_GRAVITY,
        written_report=True,
    ),
    Infraction(
        "4.4",
        "Bribery and Wagering",
        "Soborno y apuestas",
        _U,
        DQ,
        definition=_(
            "Offering, asking for or accepting an out-of-game incentive to influence "
            "a game's result, or betting on any part of the event."
        ),
        corrective_action=_("A written report goes to the VEKN Ethics Committee."),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.5",
        "Theft of Tournament Material",
        "Robo de material del torneo",
        _U,
        DQ,
        definition=_(
            "Taking, hiding or knowingly keeping cards, counters or other material "
            "of the event or of other participants."
        ),
        corrective_action=_(
            "The organiser has the offender leave the venue at once; "
            "depending on the gravity, a report goes to the VEKN Ethics Committee."
        ),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.BY_GRAVITY,
        written_report=True,
    ),
    Infraction(
        "4.6",
        "Stalling",
        "Pérdida de tiempo deliberada",
        _U,
        DQ,
        definition=_(
            "Deliberately slowing the game to take advantage of the round's time "
            "limit (look for a change of pace when ahead or near the end)."
        ),
        corrective_action=_(
            "The player leaves the venue if the organiser says so; the judges "
            "document the incident thoroughly."
        ),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.7",
        "Cheating",
        "Hacer trampas",
        _U,
        DQ,
        definition=_(
            "Knowingly breaking the rules or tournament policy to gain an advantage, "
            "lying to an official, or knowingly leaving a significant offence in one's game "
            "unreported."
        ),
        corrective_action=_(
            "The offender may be removed from the venue (the organiser "
            "decides); a written report goes to the VEKN Ethics Committee."
        ),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.8",
        "Fraud",
        "Fraude",
        _U,
        DQ,
        definition=_(
            "Deliberately misrepresenting rules, procedures, identity or results "
            "(a false name or VEKN ID, an altered result sheet)."
        ),
        corrective_action=_("A written report goes to the VEKN Ethics Committee."),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.9",
        "Collusion",
        "Colusión",
        _U,
        DQ,
        definition=_(
            "Players agree to fix or predetermine a game or match result outside "
            "open in-game negotiation (outside incentives, secret deals, random methods, deals "
            "about tournament outcomes)."
        ),
        corrective_action=_("A written report goes to the VEKN Ethics Committee."),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.10",
        "Health & Safety Disruption",
        "Alteración de la salud y la seguridad",
        _U,
        W,
        definition=_(
            "A player's physical condition or behaviour makes the event unsafe, "
            "unsanitary or seriously uncomfortable for others (hygiene, intoxication, health or "
            "safety risks)."
        ),
        corrective_action=_(
            "Ask the player privately to correct the issue (a break, "
            "freshening up). If it cannot be corrected quickly or is severe, the player is "
            "removed from the event with no further penalty. Handle medical conditions "
            "sensitively and without shaming."
        ),
        escalation=Escalation.REMOVAL,
    ),
    Infraction(
        "4.11",
        "Rage-Quitting",
        "Abandono airado de la partida",
        _U,
        DQ,
        definition=_(
            "Deliberately abandoning a running game in anger or frustration, "
            "without judge authorisation."
        ),
        corrective_action=_(
            "Remove the player from the game and the event, adjust the game "
            "state as for a player no longer present, and consider a time extension for the "
            "table."
        ),
        requires_intent=True,
        report_to_ethics_committee=EthicsReport.ALWAYS,
        written_report=True,
    ),
    Infraction(
        "4.12",
        "Failure to Play to Win",
        "No jugar para ganar",
        _U,
        W,
        definition=_(
            "A player deliberately does not pursue their best result (the game win, "
            "else the most VP, else half a VP by surviving), e.g. kingmaking, or honouring a "
            "deal that could not improve their chances when it was made."
        ),
        corrective_action=_(
            "Explain what playing to win requires; the guide gives no game-state fix."
        ),
        conditions=(
            Condition(
                "uncorrectable",
                "Is it a clear case of several deliberate self-harming actions that can no "
                "longer be corrected (explicit statements, deliberate game throwing)?",
                "¿El jugador ha realizado múltiples acciones que perjudican deliberadamente "
                "sus propias posibilidades y la situación ya no puede corregirse?",
                ConditionEffect.BASELINE,
                SA,
                yes_means=_("several deliberate self-harming actions, no longer correctable"),
                no_means=_("not such a clear or uncorrectable case"),
            ),
        ),
        requires_intent=True,
    ),
)


# ---------------------------------------------------------------------------------------
# Organisational cases (JG §5; docs/rules-vekn-penalties.md "Organisational cases")
# ---------------------------------------------------------------------------------------

_ORGANISATIONAL: tuple[OrganisationalCase, ...] = (
    OrganisationalCase(
        "5.1",
        "Unexpected Drop",
        "Abandono inesperado",
        _("A player leaves the event unexpectedly and cannot continue."),
        (
            _("During seating of a 5-player table: it becomes a 4-player table."),
            _(
                "During seating of a 4-player table: reseat to form legal tables of 4 or 5 "
                "(Tournament Rules §3.1.2)."
            ),
            _(
                "At large events without the multi-judge system, a 4-player table that loses "
                "a player after the other tables have started gets a staff member as proxy "
                "player, with a deck drawn at random from the staff decks."
            ),
            _(
                "If legal tables can no longer be formed, the event becomes unsanctioned at "
                "once; between rounds it may be restored (e.g. a judge joins as a player)."
            ),
            _(
                "Before the first round, if legal tables cannot be formed: unsanctioned, and no "
                "official VEKN or publisher prizes."
            ),
            _(
                "Unsanctioned during the event: prizes may still be given; the report is sent "
                "as usual, noting what happened; no effect on ratings."
            ),
        ),
        (
            _(
                "A substitute (proxy) player scores nothing and is left out of the table's "
                "ranking: GW and TP are computed among the competing players only."
            ),
        ),
    ),
    OrganisationalCase(
        "5.1.1",
        "Substitute Player",
        "Jugador sustituto",
        _(
            "A staff member temporarily fills a vacant seat so the table keeps a legal size; "
            "they are not a participant."
        ),
        (
            _(
                "The substitute plays to win in good faith, at a steady pace, without favouring "
                "anyone or using outside knowledge, and follows the judges' instructions."
            ),
            _(
                "Their deck is legal, reasonably competitive, and drawn at random from decks "
                "prepared by the organisers or judges."
            ),
            _(
                "They earn no VP, GW or TP; they can oust and be ousted, and VP from those "
                "interactions go to the other players as usual."
            ),
        ),
        (_("A substitute scores nothing and is left out of the table's ranking."),),
        note=_(
            "This subsection is only in the Spanish translation; the English guide "
            "mentions the proxy player inside §5.1."
        ),
    ),
    OrganisationalCase(
        "5.2",
        "Venue Interference",
        "Interferencia del recinto",
        _("The venue imposes constraints that force shorter rounds."),
        (
            _("Adjust round times as the venue requires."),
            _(
                "The event becomes unsanctioned if a round is shorter than 2 hours and at "
                "least one of its tables ended because time was called."
            ),
            _("A round under 2 hours where no table reached time keeps the event sanctioned."),
            _(
                "Note the venue problems in the event report; prizes may be given if the event "
                "can be completed."
            ),
        ),
    ),
    OrganisationalCase(
        "5.3",
        "Force Majeure and Emergency Termination",
        "Fuerza mayor y finalización de emergencia",
        _(
            "An unexpected external event (evacuation, power failure, weather, hostile third "
            "parties) makes continuing unsafe or impossible."
        ),
        (
            _("The head judge halts all games and secures everyone's safety first."),
            _(
                "If play cannot resume: games in progress end with no further VP; standings, "
                "prizes and qualifications are those after the last fully completed round "
                "(incomplete rounds are ignored entirely)."
            ),
            _("Interrupted during the final: the event is incomplete and no winner is declared."),
            _("No round completed: the event is void."),
            _(
                "If it can resume: restart the round (recommended), or resume it only if every "
                "table agrees and no competitive information was compromised."
            ),
            _(
                "Hostile venue staff are a force majeure case; relocation is allowed only if "
                "every player can move, no information was compromised and the new space is "
                "adequate."
            ),
            _(
                "The head judge sends VEKN a full written report: what happened, how it was "
                "decided, the standings at termination, safety issues."
            ),
        ),
    ),
    OrganisationalCase(
        "5.4",
        "Organizer's / Judge's Recommended Supplies",
        "Material recomendado para organizadores y jueces",
        _("Supplies that let judges fix common problems quickly and fairly."),
        (
            _("Identical opaque sleeves for at least two complete decks."),
            _("Judge-issued proxy vampires and innocuous spare library cards."),
            _(
                "Pens, paper, blank decklists; printed or offline rules, this guide and the ban "
                "list."
            ),
            _(
                "A timer, access to the tournament software, blood and pool counters, neutral "
                "markers."
            ),
        ),
    ),
)


CHOICES: tuple[str, ...] = (
    _(
        "Slow Play (3.3) starts at Caution as §3.3 and the Spanish text say; the English "
        "appendix's 'Warning' is taken as a misprint."
    ),
    _(
        "Failure to Play to Win (4.12): the 'uncorrectable' question covers the English "
        "'particularly clear or disruptive cases' and the Spanish 'several deliberate "
        "self-harming actions that can no longer be corrected'."
    ),
    _(
        "Marked Cards (3.7): 'deck_changed' may be left out (it means no); every other condition "
        "must be answered. Answers to conditions an infraction does not have are rejected."
    ),
    _(
        "Unsportsmanlike Conduct — Major (4.2): any repeat in the same event is a "
        "Disqualification (§4.2 Upgrade), whatever the 'malicious' answer; a repeat across "
        "events is left to that answer, with the earlier events shown as context."
    ),
    _(
        "Health & Safety Disruption (4.10) never climbs the ladder: every offence is a Warning; "
        "from the second in the event the person is also removed (a withdrawal, no further "
        "penalty), and the first offers removal as an alternative."
    ),
    _(
        "Earlier events: any recorded penalty (Warning or above) for the same infraction gives "
        "the single 'pre-existing warning' context; earlier cautions are not recorded and give "
        "none."
    ),
    _(
        "Linked infractions are one person's; on equal severity the earlier incident is the one "
        "issued."
    ),
    _("A Disqualification lists 'warning' in 'also' (§1.1.4: it always includes a Warning)."),
    _(
        "Ethics Committee: 4.2 is referred when escalated (the guide also recommends a written "
        "report for every 4.2); 4.3 and 4.5 by gravity (head judge); 4.4, 4.6–4.9 and 4.11 "
        "always; a DQ by accumulation never; a head-judge deviation to DQ is left to the head "
        "judge."
    ),
    _(
        "A floor judge may confirm the Standings Adjustments of 3.1.1 and 3.1.2 (the 'clear "
        "decklist errors' of §1.2.2); every other SA and every DQ waits for the head judge."
    ),
    _(
        "Standings Adjustment 'between rounds' with round N means after round N; when the game "
        "it should hit does not exist, it falls on the next game played, else the last one."
    ),
    _(
        "Time extensions are whole minutes rounded down (never more than the time lost); "
        "within a range the suggestion is the time lost."
    ),
)
"""The product's interpretations of the guide (**[choice]**), shown on the ruleset's
page (:class:`Translatable`: ``str(choice)`` reads in the active language)."""
