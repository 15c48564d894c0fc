"""Mitos y Leyendas events through ``events.swiss_services``: presets, pairing, results,
penalties in the standings, drops, the top cut, the standings document and the event
file (docs/rules-myl.md, docs/contracts.md §1–§2)."""

import random
import uuid

import pytest
from django.db import connection

from events import services
from events import swiss_services as ss
from events.errors import ConflictError, UserError
from events.interchange import EventFileError, export_event, import_event, validate_event_file
from events.models import AuditLog, Event, Registration, Round, Seat
from events.presets import MYL_2026, VEKN_2026
from standings.services import event_standings, standings_document
from tests.factories import (
    EventFactory,
    OrganisationFactory,
    PersonFactory,
    RegistrationFactory,
)

RESULTS = [(2, 0), (2, 1), (1, 2), (0, 2), (1, 1)]


def make_event(players: int, **fields) -> tuple[Event, list[Registration]]:
    values = {
        "ruleset": "myl",
        "preset": "myl-2026",
        "round_minutes": 50,
        "preliminary_rounds": 4,
        "best_of": 3,
        "top_cut": 0,
        "final_mode": "none",
    }
    values.update(fields)
    event = EventFactory(**values)
    return event, [RegistrationFactory(event=event) for _ in range(players)]


def play(rnd: Round, rng: random.Random, results=RESULTS):
    for table in rnd.tables.filter(is_bye=False).order_by("number"):
        ss.save_match_result(table, rng.choice(results), version=table.version)


def play_swiss(event: Event, seed: int = 1):
    rng = random.Random(seed)
    for number in range(1, event.preliminary_rounds + 1):
        play(ss.pair_next_round(event, seed=number), rng)


def pairs(rnd: Round) -> list[list[int]]:
    return ss._round_tables(rnd)


# --------------------------------------------------------------------------- presets
def test_myl_preset_and_vekn_preset_unchanged():
    assert VEKN_2026.event_fields() == {
        "ruleset": "vekn",
        "preliminary_rounds": 3,
        "round_minutes": 120,
        "final_minutes": 120,
        "decklists_required": True,
        "final_mode": "final",
        "finalists_count": 5,
        "format": "constructed",
        "preset": "vekn-2026",
    }
    fields = MYL_2026.event_fields()
    assert fields["ruleset"] == "myl"
    assert (fields["best_of"], fields["top_cut"], fields["round_minutes"]) == (3, 0, 50)
    assert fields["decklists_required"] is False
    assert 40 <= fields["round_minutes"] <= 60  # conduct rules §5.5


def test_create_event_from_the_myl_preset(db):
    org = OrganisationFactory()
    event = services.create_event(
        org, preset="myl-2026", slug="myl-cup", name="MyL Cup", date="2026-12-01", top_cut=8
    )
    event.full_clean()  # the CheckConstraints (round time ≥ 120 only for VEKN) hold
    assert (event.ruleset, event.round_minutes, event.top_cut, event.best_of) == ("myl", 50, 8, 3)


# --------------------------------------------------------------------------- pairing
def test_round_one_pairs_everybody_with_a_stored_seed_and_an_audit(db):
    event, regs = make_event(16)
    version = Event.objects.get(pk=event.pk).public_version
    rnd = ss.pair_next_round(event, seed=42)
    assert rnd.seed == 42
    tables = pairs(rnd)
    assert len(tables) == 8 and all(len(t) == 2 for t in tables)
    assert sorted(p for t in tables for p in t) == sorted(r.id for r in regs)
    assert AuditLog.objects.filter(event=event, action="round.pair").count() == 1
    assert Event.objects.get(pk=event.pk).public_version > version
    # Same seed, same pairing (the round can be re-run).
    other, other_regs = make_event(16)
    again = ss.pair_next_round(other, seed=42)
    index = {r.id: i for i, r in enumerate(regs)}
    other_index = {r.id: i for i, r in enumerate(other_regs)}
    assert [[index[p] for p in t] for t in tables] == [
        [other_index[p] for p in t] for t in pairs(again)
    ]


def test_odd_players_get_one_bye_each_and_no_rematch(db):
    event, regs = make_event(7, preliminary_rounds=4)
    rng = random.Random(3)
    met: set[frozenset] = set()
    byes: list[int] = []
    for number in range(1, 5):
        rnd = ss.pair_next_round(event, seed=number)
        bye_tables = list(rnd.tables.filter(is_bye=True))
        assert len(bye_tables) == 1
        assert bye_tables[0].number == rnd.tables.count()  # the bye is the last table
        byes.append(bye_tables[0].seats.get().registration_id)
        for table in pairs(rnd):
            if len(table) == 2:
                assert frozenset(table) not in met
                met.add(frozenset(table))
        play(rnd, rng)
    assert len(set(byes)) == 4
    rows = ss.myl_standings(event).standings.rows
    assert sum(r.byes for r in rows) == 4
    assert all(r.matches_played == 4 for r in rows)


def test_next_round_waits_for_every_result(db):
    event, _ = make_event(8)
    rnd = ss.pair_next_round(event, seed=1)
    with pytest.raises(UserError, match="Enter every result of round 1"):
        ss.pair_next_round(event)
    play(rnd, random.Random(1))
    assert ss.pair_next_round(event).number == 2


def test_all_swiss_rounds_paired(db):
    event, _ = make_event(8, preliminary_rounds=2)
    play_swiss(event)
    with pytest.raises(UserError, match="All Swiss rounds are paired"):
        ss.pair_next_round(event)


def test_impossible_pairing_names_the_way_out_and_rematches_can_be_allowed(db):
    event, regs = make_event(4, preliminary_rounds=4)
    rng = random.Random(5)
    for number in range(1, 4):  # 4 players: a full round robin in 3 rounds
        play(ss.pair_next_round(event, seed=number), rng)
    with pytest.raises(UserError) as caught:
        ss.pair_next_round(event, seed=4)
    assert caught.value.field == "rematches"
    assert "rematches allowed" in str(caught.value)
    names = {r.person.name for r in regs}
    assert any(name in str(caught.value) for name in names)  # players named, not ids
    assert not event.rounds.filter(number=4).exists()
    rnd = ss.pair_next_round(event, seed=4, allow_rematches=True)
    assert len(pairs(rnd)) == 2
    entry = AuditLog.objects.get(event=event, action="round.pair", target=str(rnd))
    assert entry.after["allow_rematches"] is True and entry.after["rematches"] == 2


def test_late_entry_and_dropped_players(db):
    event, regs = make_event(8)
    rng = random.Random(2)
    play(ss.pair_next_round(event, seed=1), rng)
    late = services.register(event, PersonFactory(), check_in=True)
    services.set_status(regs[0], Registration.Status.DROPPED)
    rnd = ss.pair_next_round(event, seed=2)
    paired = {p for t in pairs(rnd) for p in t}
    assert late.id in paired and regs[0].id not in paired
    assert late.first_round == 2
    rows = {r.player: r for r in ss.myl_standings(event).standings.rows}
    assert rows[regs[0].id].dropped and rows[regs[0].id].matches_played == 1
    assert rows[late.id].matches_played == 0  # the missed round is not a loss


def test_pair_again_while_no_result_is_entered(db):
    event, _ = make_event(8)
    rnd = ss.pair_next_round(event, seed=1)
    ss.repair_round(rnd, seed=99)
    rnd.refresh_from_db()
    assert rnd.seed == 99 and len(pairs(rnd)) == 4
    table = rnd.tables.first()
    ss.save_match_result(table, (2, 0), version=table.version)
    with pytest.raises(UserError, match="cannot be paired again"):
        ss.repair_round(rnd)


def test_a_vekn_event_is_not_paired_here(event):
    with pytest.raises(UserError):
        ss.pair_next_round(event)


# --------------------------------------------------------------------------- results
@pytest.mark.parametrize(
    ("best_of", "games", "ok"),
    [
        (3, (2, 0), True),
        (3, (2, 1), True),
        (3, (1, 1), True),  # a draw at time
        (3, (0, 0), True),  # an intentional draw
        (3, (3, 0), False),
        (3, (2, 2), False),
        (3, (2, None), False),
        (1, (1, 0), True),
        (1, (0, 0), True),
        (1, (2, 0), False),
        (1, (1, 1), False),
    ],
)
def test_games_are_validated(db, best_of, games, ok):
    event, _ = make_event(2, best_of=best_of)
    table = ss.pair_next_round(event, seed=1).tables.get()
    if ok:
        ss.save_match_result(table, games, version=table.version)
        assert [s.games_won for s in table.seats.order_by("position")] == list(games)
    else:
        with pytest.raises(UserError):
            ss.save_match_result(table, games, version=table.version)
        assert not Seat.objects.filter(table=table, games_won__isnull=False).exists()


def test_saving_is_audited_invalidates_the_cache_and_detects_conflicts(db, django_user_model):
    event, _ = make_event(4)
    rnd = ss.pair_next_round(event, seed=1)
    table = rnd.tables.get(number=1)
    judge = django_user_model.objects.create_user("judge-a", password="x")
    version = Event.objects.get(pk=event.pk).public_version
    outcome = ss.save_match_result(table, (2, 1), version=table.version, actor=judge)
    assert Event.objects.get(pk=event.pk).public_version > version
    entry = AuditLog.objects.get(event=event, action="result.save")
    assert (entry.before, entry.after, entry.actor) == (
        {"games": [None, None]},
        {"games": [2, 1]},
        judge,
    )
    with pytest.raises(ConflictError, match="judge-a saved this match"):
        ss.save_match_result(table, (0, 2), version=outcome.version - 1)
    assert [s.games_won for s in table.seats.order_by("position")] == [2, 1]
    ss.save_match_result(table, (None, None), version=outcome.version)  # cleared
    assert not Seat.objects.filter(table=table, games_won__isnull=False).exists()


def test_the_same_match_result_sent_twice_by_the_same_person_is_saved_once(db, django_user_model):
    event, _ = make_event(4)
    table = ss.pair_next_round(event, seed=1).tables.get(number=1)
    judge = django_user_model.objects.create_user("judge-b", password="x")
    other = django_user_model.objects.create_user("judge-c", password="x")
    loaded = table.version
    first = ss.save_match_result(table, (2, 1), version=loaded, actor=judge)
    again = ss.save_match_result(table, (2, 1), version=loaded, actor=judge)
    assert (again.version, again.games) == (first.version, (2, 1))
    assert AuditLog.objects.filter(event=event, action="result.save").count() == 1
    with pytest.raises(ConflictError):
        ss.save_match_result(table, (2, 1), version=loaded, actor=other)
    with pytest.raises(ConflictError):
        ss.save_match_result(table, (2, 0), version=loaded, actor=judge)


def test_a_bye_has_no_result(db):
    event, _ = make_event(3)
    rnd = ss.pair_next_round(event, seed=1)
    bye = rnd.tables.get(is_bye=True)
    with pytest.raises(UserError, match="bye"):
        ss.save_match_result(bye, (2, 0), version=bye.version)


def test_only_a_judge_corrects_once_the_next_round_is_paired(db):
    event, _ = make_event(4)
    rng = random.Random(1)
    first = ss.pair_next_round(event, seed=1)
    play(first, rng, [(2, 0)])
    ss.pair_next_round(event, seed=2)
    table = first.tables.get(number=1)
    winner = table.seats.get(position=1).registration_id
    with pytest.raises(UserError, match="only a judge"):
        ss.save_match_result(table, (0, 2), version=table.version)
    ss.save_match_result(table, (0, 2), version=table.version, may_correct=True)
    rows = {r.player: r for r in ss.myl_standings(event).standings.rows}
    assert rows[winner].match_points == 0


def test_approved_results_are_locked(db):
    event, _ = make_event(2)
    table = ss.pair_next_round(event, seed=1).tables.get()
    Event.objects.filter(pk=event.pk).update(results_approved=True)
    with pytest.raises(UserError, match="approved"):
        ss.save_match_result(table, (2, 0), version=table.version)


def test_a_player_enters_their_own_result_once(db):
    from events import services

    event, _ = make_event(2)
    rnd = ss.pair_next_round(event, seed=1)
    table = rnd.tables.get()
    second = table.seats.get(position=2).registration
    first = table.seats.get(position=1).registration
    # Not before the pairings are published (issue 12).
    with pytest.raises(UserError, match="no match yet"):
        ss.player_save_result(second, 2, 1, version=table.version)
    assert ss.current_match(event, second) is None
    services.set_seating_published(rnd, True)
    assert ss.current_match(event, second).table == table
    ss.player_save_result(second, 2, 1, version=table.version)  # "I won 2, they won 1"
    assert [s.games_won for s in table.seats.order_by("position")] == [1, 2]
    table.refresh_from_db()
    with pytest.raises(UserError, match="already entered"):
        ss.player_save_result(first, 2, 0, version=table.version)
    assert AuditLog.objects.get(action="result.save").comment == "entered by a player"


# --------------------------------------------------------------------------- penalties
def _penalty(event, reg, rnd, level, timing="during_game"):
    from penalties.models import Penalty

    return Penalty.objects.create(
        event=event,
        registration=reg,
        person=reg.person,
        client_id=uuid.uuid4(),
        ruleset="myl",
        infraction="1.1",
        guide_level=level,
        level=level,
        baseline=level,
        round=rnd,
        round_number=rnd.number,
        timing=timing,
        status=Penalty.Status.CONFIRMED,
    )


def test_a_game_loss_loses_that_rounds_match(db):
    event, _ = make_event(2)
    rnd = ss.pair_next_round(event, seed=1)
    table = rnd.tables.get()
    a, b = (s.registration for s in table.seats.order_by("position"))
    ss.save_match_result(table, (2, 0), version=table.version)
    _penalty(event, a, rnd, "game_loss")
    result = ss.myl_standings(event)
    rows = {r.player: r for r in result.standings.rows}
    assert (rows[a.id].match_points, rows[b.id].match_points) == (0, 3)
    assert (rows[a.id].games_won, rows[b.id].games_won) == (1, 2)  # 2–0 becomes 1–2
    assert result.matches[rnd.id][0].winner == b.id


def test_a_game_loss_on_a_bye_goes_to_the_next_match(db):
    event, _ = make_event(3)
    first = ss.pair_next_round(event, seed=1)
    bye_reg = first.tables.get(is_bye=True).seats.get().registration
    play(first, random.Random(1))
    _penalty(event, bye_reg, first, "game_loss")
    second = ss.pair_next_round(event, seed=2)
    rows = {r.player: r for r in ss.myl_standings(event).standings.rows}
    assert rows[bye_reg.id].byes == 1 and rows[bye_reg.id].losses == 1  # next match, unplayed
    match = next(m for m in ss.myl_standings(event).matches[second.id] if bye_reg.id in m.players)
    assert match.complete and match.winner != bye_reg.id


def test_disqualification_mid_match_gives_the_opponent_the_win(db):
    event, regs = make_event(4)
    rng = random.Random(4)
    first = ss.pair_next_round(event, seed=1)
    play(first, rng, [(2, 0)])
    second = ss.pair_next_round(event, seed=2)
    table = second.tables.get(number=1)
    cheat, opponent = (s.registration for s in table.seats.order_by("position"))
    _penalty(event, cheat, second, "disqualification")
    Registration.objects.filter(pk=cheat.pk).update(status=Registration.Status.DISQUALIFIED)
    result = ss.myl_standings(event)
    assert cheat.id not in {r.player for r in result.standings.rows}
    rows = {r.player: r for r in result.standings.rows}
    assert rows[opponent.id].wins >= 1
    assert result.round_complete(second) is False  # the other match is still played
    # Their past opponent still counts them for OMW: nobody's list lost an entry.
    first_opponent = next(o for t in pairs(first) if cheat.id in t for o in t if o != cheat.id)
    assert rows[first_opponent].matches_played == 1


def test_dropping_during_a_round_loses_the_unplayed_match(db):
    event, _ = make_event(4)
    rnd = ss.pair_next_round(event, seed=1)
    table = rnd.tables.get(number=1)
    leaver, stayer = (s.registration for s in table.seats.order_by("position"))
    services.set_status(leaver, Registration.Status.DROPPED)
    result = ss.myl_standings(event)
    match = result.matches[rnd.id][0]
    assert match.complete and match.winner == stayer.id
    rows = {r.player: r for r in result.standings.rows}
    assert rows[stayer.id].match_points == 3 and rows[leaver.id].dropped


def test_a_player_disqualified_between_rounds_loses_the_unplayed_match(db):
    event, _ = make_event(4)
    rnd = ss.pair_next_round(event, seed=1)
    table = rnd.tables.get(number=1)
    gone, stayer = (s.registration for s in table.seats.order_by("position"))
    _penalty(event, gone, rnd, "disqualification", timing="between_rounds")
    Registration.objects.filter(pk=gone.pk).update(status=Registration.Status.DISQUALIFIED)
    match = ss.myl_standings(event).matches[rnd.id][0]
    assert match.complete and match.winner == stayer.id
    # An entered score stands.
    ss.save_match_result(table, (2, 1), version=table.version)
    match = ss.myl_standings(event).matches[rnd.id][0]
    assert match.winner == gone.id


# --------------------------------------------------------------------------- top cut
def test_top_eight_to_a_champion(db):
    event, _ = make_event(16, top_cut=8)
    with pytest.raises(UserError, match="Swiss round"):
        ss.pair_top_cut(event)
    play_swiss(event)
    swiss = ss.myl_standings(event)
    seeds = [r.player for r in swiss.standings.rows[:8]]
    quarter = ss.pair_top_cut(event)
    assert quarter.is_top_cut and quarter.finalists == seeds
    expected = [[seeds[a - 1], seeds[b - 1]] for a, b in [(1, 8), (4, 5), (2, 7), (3, 6)]]
    assert pairs(quarter) == expected
    with pytest.raises(UserError, match="Swiss results are locked"):
        first = event.rounds.get(number=1).tables.filter(is_bye=False).first()
        ss.save_match_result(first, (0, 0), version=first.version, may_correct=True)
    table = quarter.tables.get(number=1)
    with pytest.raises(UserError, match="draw"):
        ss.save_match_result(table, (1, 1), version=table.version)
    with pytest.raises(UserError, match="Enter the winner"):
        ss.pair_top_cut(event)
    play(quarter, random.Random(0), [(2, 1)])  # higher seeds win
    semi = ss.pair_top_cut(event)
    assert pairs(semi) == [[seeds[0], seeds[3]], [seeds[1], seeds[2]]]
    play(semi, random.Random(0), [(0, 2)])  # lower seeds win
    final = ss.pair_top_cut(event)
    assert pairs(final) == [[seeds[2], seeds[3]]]
    assert ss.round_label(quarter) == "Quarter-finals" and ss.round_label(final) == "Top-cut final"
    play(final, random.Random(0), [(1, 2)])
    result = ss.myl_standings(event)
    assert result.champion == seeds[3]
    ranks = [(r.player, r.rank) for r in result.standings.rows[:4]]
    assert ranks == [(seeds[3], 1), (seeds[2], 2), (seeds[0], 3), (seeds[1], 4)]
    with pytest.raises(UserError, match="champion"):
        ss.pair_top_cut(event)
    doc = standings_document(event_standings(event))
    assert doc["final_played"] is True
    assert doc["top_cut"]["champion"] == result.code(seeds[3])
    assert len(doc["top_cut"]["bracket"]) == 7


def test_the_toss_is_frozen_once_the_top_cut_starts(db):
    """The service itself refuses (web form, API and import all go through it)."""
    event, regs = make_event(8, top_cut=4, preliminary_rounds=2)
    play_swiss(event)
    ids = [r.id for r in regs[:2]]
    services.record_toss(event, ids)
    ss.pair_top_cut(event)
    with pytest.raises(UserError, match="The top cut has started"):
        services.record_toss(event, ids)
    with pytest.raises(UserError, match="The top cut has started"):
        services.random_toss(event, ids)


def test_a_toss_naming_one_player_twice_is_refused(db):
    """``player=26&player=26`` is not an order of two players (it stored a position for
    one player alone)."""
    event, regs = make_event(8, top_cut=4, preliminary_rounds=2)
    play_swiss(event)
    with pytest.raises(UserError, match="two or more players"):
        services.record_toss(event, [regs[0].id, regs[0].id])
    assert not event.registrations.filter(toss_position__isnull=False).exists()


def test_top_four_skips_dropped_players(db):
    event, _ = make_event(8, top_cut=4, preliminary_rounds=3)
    play_swiss(event)
    order = [r.player for r in ss.myl_standings(event).standings.rows]
    services.set_status(Registration.objects.get(pk=order[0]), Registration.Status.DROPPED)
    semi = ss.pair_top_cut(event)
    assert pairs(semi) == [[order[1], order[4]], [order[2], order[3]]]


def test_a_seed_disqualified_during_the_top_cut(db):
    event, _ = make_event(8, top_cut=4, preliminary_rounds=3)
    play_swiss(event)
    semi = ss.pair_top_cut(event)
    table = semi.tables.get(number=1)
    seed_1, seed_4 = (s.registration for s in table.seats.order_by("position"))
    _penalty(event, seed_1, semi, "disqualification", timing="between_rounds")
    Registration.objects.filter(pk=seed_1.pk).update(status=Registration.Status.DISQUALIFIED)
    other = semi.tables.get(number=2)  # table 1 is decided by the disqualification
    ss.save_match_result(other, (2, 0), version=other.version)
    final = ss.pair_top_cut(event)
    assert seed_4.id in pairs(final)[0]  # the opponent went through
    last = final.tables.get()
    wins = (2, 0) if pairs(final)[0][0] == seed_4.id else (0, 2)
    ss.save_match_result(last, wins, version=last.version)
    result = ss.myl_standings(event)
    assert result.note  # the ranks keep the Swiss order: the seeds no longer match
    assert result.champion == seed_4.id
    assert ss.standings_document(result)["top_cut"]["champion"] == seed_4.code


def test_no_top_cut_configured(db):
    event, _ = make_event(4, preliminary_rounds=2)
    play_swiss(event)
    with pytest.raises(UserError, match="no top cut"):
        ss.pair_top_cut(event)


# --------------------------------------------------------------------------- standings
def test_standings_document_carries_the_myl_columns(db):
    event, _ = make_event(6, preliminary_rounds=2)
    play_swiss(event)
    doc = standings_document(event_standings(event))
    assert doc["ruleset"] == "myl" and doc["event"] == event.slug
    row = doc["standings"][0]
    assert {"rank", "player", "name", "match_points", "omw", "gw_pct", "ogw"} <= set(row)
    assert "prelim_gw" not in row
    for key in ("omw", "gw_pct", "ogw"):
        assert isinstance(row[key], float) and 33.33 <= row[key] <= 100
        assert round(row[key], 2) == row[key]
    assert doc["penalties"] == []


@pytest.mark.parametrize("players", [16, 64])
def test_standings_load_in_four_queries(db, django_assert_num_queries, players):
    event, _ = make_event(players, top_cut=8)
    play_swiss(event)
    with django_assert_num_queries(4):
        ss.myl_standings(event)


# --------------------------------------------------------------------------- event file
def test_event_file_round_trip_with_byes_drops_and_top_cut(db):
    event, regs = make_event(9, top_cut=4, preliminary_rounds=3, best_of=1)
    rng = random.Random(8)
    for number in range(1, 4):
        play(ss.pair_next_round(event, seed=number), rng, [(1, 0), (0, 1), (0, 0)])
    ss.pair_top_cut(event)
    services.set_status(regs[-1], Registration.Status.DROPPED)
    doc = export_event(event)
    assert doc["ruleset"] == "myl" and doc["best_of"] == 1 and doc["top_cut"] == 4
    bye = doc["rounds"][0]["tables"][-1]
    assert len(bye) == 1 and bye[0]["bye"] is True
    match = doc["rounds"][0]["tables"][0]
    assert {"player", "games_won"} <= set(match[0]) and "vp" not in match[0]
    assert doc["rounds"][3]["top_cut"] is True
    assert all("games_won" not in s for t in doc["rounds"][3]["tables"] for s in t)
    doc["slug"] = "copy"
    copy = import_event(doc)
    again = export_event(copy)
    again["slug"] = event.slug
    doc["slug"] = event.slug
    assert again == doc
    original = standings_document(event_standings(event))
    copied = standings_document(event_standings(copy))
    copied["event"] = original["event"]
    assert copied == original
    assert copy.rounds.get(is_top_cut=True).finalists == [
        copy.registrations.get(code=c).id
        for c in [
            event.registrations.get(pk=p).code for p in event.rounds.get(is_top_cut=True).finalists
        ]
    ]


def test_invalid_myl_file_lists_every_problem(db):
    doc = {
        "format": "arbitro.event/1",
        "ruleset": "myl",
        "slug": "bad",
        "name": "Bad",
        "date": "2026-11-28",
        "best_of": 3,
        "players": [{"id": f"p{i}", "name": f"P{i}"} for i in range(1, 6)],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    [{"player": "p1", "games_won": 3}, {"player": "p2", "games_won": 0}],
                    [{"player": "p3", "games_won": 2}, {"player": "p4", "games_won": 2}],
                    [{"player": "p5", "vp": 1}],
                ],
            },
            {
                "number": 2,
                "top_cut": True,
                "tables": [[{"player": "p1", "games_won": 1}, {"player": "p2", "games_won": 1}]],
            },
        ],
    }
    with pytest.raises(EventFileError) as caught:
        validate_event_file(doc)
    text = "\n".join(caught.value.problems)
    assert "round 1, table 1, seat 1: games_won must be a whole number from 0 to 2" in text
    assert "round 1, table 2: both players cannot win 2 games" in text
    assert "round 1, table 3, seat 1: a myl seat has games_won, not vp" in text
    assert "round 2, table 1: a top-cut match cannot be a draw" in text
    assert "top_cut: the file has top-cut rounds" in text


# --------------------------------------------------------------------------- two at once
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_two_people_at_once():
    """Two judges save the same match, two organisers pair the same round: one wins,
    the other is told (PostgreSQL row locks; SQLite serialises writers)."""
    from tests.penalties.services.test_concurrency import run_together

    event, _ = make_event(8)
    first, second = run_together(
        lambda: ss.pair_next_round(event, seed=1), lambda: ss.pair_next_round(event, seed=2)
    )
    paired = [r for r in (first, second) if isinstance(r, Round)]
    refused = [r for r in (first, second) if isinstance(r, UserError)]
    assert len(paired) == 1 and len(refused) == 1, (first, second)
    assert event.rounds.count() == 1
    table = paired[0].tables.get(number=1)
    results = run_together(
        lambda: ss.save_match_result(table, (2, 0), version=0),
        lambda: ss.save_match_result(table, (0, 2), version=0),
    )
    assert sum(isinstance(r, ConflictError) for r in results) == 1, results
    saved = next(r for r in results if isinstance(r, ss.MatchOutcome))
    assert [s.games_won for s in table.seats.order_by("position")] == list(saved.games)


def test_the_tie_breaker_order_is_an_event_setting(db):
    """docs/rules-myl.md: the tie-breakers are an ordered, configurable list."""
    event, _regs = make_event(8)
    play_swiss(event)
    default = ss.myl_standings(event)
    assert default.data.tie_breakers == ("match_points", "omw", "gw_pct", "ogw")
    Event.objects.filter(pk=event.pk).update(tie_breaker_order="gw_pct,ogw,omw")
    event.refresh_from_db()
    custom = ss.myl_standings(event)
    assert custom.data.tie_breakers == ("match_points", "gw_pct", "ogw", "omw")
    # Within each match-points group the order now follows game-win %.
    rows = custom.standings.rows
    for a, b in zip(rows, rows[1:], strict=False):
        if a.match_points == b.match_points:
            assert a.gw_pct >= b.gw_pct
