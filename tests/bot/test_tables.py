"""The table service on its own: real SQLite, a recording scheduler, no Discord."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.storage.models import ActionKind as StoredKind
from bot.storage.models import (
    ActionRecord,
    Deadline,
    GameOutcome,
    OutboxEntry,
    OutboxKind,
    TableStatus,
    Timeouts,
)
from bot.storage.ratings import replay
from bot.storage.sqlite import SqliteRepository
from bot.tables import RECENT_EVENTS, Notice, Refusal, Snapshot, TableService
from games.ai import Level
from games.complots import ActionKind, ComplotsOptions, ComplotsState
from games.complots.models import Act, Pass
from tests.games.complots.helpers import AM, CA, CO, A, D, rigged

TIMEOUTS = Timeouts(turn=60, reaction=20, choice=30)
USERS = [101, 102, 103, 104]


class RecordingScheduler:
    def __init__(self) -> None:
        self.armed: dict[int, Deadline] = {}

    def arm(self, deadline: Deadline) -> None:
        self.armed[deadline.table_id] = deadline

    def disarm(self, table_id: int) -> None:
        self.armed.pop(table_id, None)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    repo = SqliteRepository(tmp_path / "t.sqlite3")
    await repo.open()
    yield TableService(repo, RecordingScheduler(), seeds=lambda: 1234)
    await repo.close()


async def lobby(service: TableService, first_player: int = 0, channel: int = 2) -> int:
    """A complots lobby created by USERS[0]."""
    snap = await service.create_table(
        guild_id=1,
        channel_id=channel,
        game="complots",
        creator_id=USERS[0],
        creator_name="u0",
        options=ComplotsOptions(first_player=first_player),
        timeouts=TIMEOUTS,
    )
    return snap.table.id


async def started(service: TableService, first_player: int = 0) -> int:
    table = await lobby(service, first_player)
    for i, user in enumerate(USERS[1:], start=1):
        await service.join(table, user, f"u{i}")
    await service.start(table, USERS[0], moderator=False)
    return table


async def test_passes_keep_the_window_and_its_deadline(service: TableService) -> None:
    table = await started(service)
    await service.act(table, 0, USERS[0], Act(action=ActionKind.TAX))
    deadline = service._deadlines[table]
    assert deadline.version == 1
    await service.act(table, 1, USERS[1], Pass())
    assert service._deadlines[table] == deadline, "a pass does not restart the window's timer"
    # USERS[2] clicks a button rendered at version 1 (before USERS[1]'s pass): still good.
    await service.act(table, 1, USERS[2], Pass())
    snap = await service.snapshot(table)
    assert snap.version == 3


async def test_versions_from_another_window_or_the_future_are_stale(
    service: TableService,
) -> None:
    table = await started(service)
    await service.act(table, 0, USERS[0], Act(action=ActionKind.INCOME))
    with pytest.raises(Refusal) as old:
        await service.act(table, 0, USERS[1], Act(action=ActionKind.INCOME))
    assert old.value.key == "stale"
    with pytest.raises(Refusal) as future:
        await service.act(table, 5, USERS[1], Act(action=ActionKind.INCOME))
    assert future.value.key == "stale"
    with pytest.raises(Refusal) as wrong_turn:
        await service.act(table, 1, USERS[2], Act(action=ActionKind.INCOME))
    assert wrong_turn.value.key == "not_prompted"
    assert (await service.snapshot(table)).version == 1, "nothing changed"


async def test_a_stale_deadline_does_nothing(service: TableService) -> None:
    table = await started(service)
    old = service._deadlines[table]
    await service.act(table, 0, USERS[0], Act(action=ActionKind.INCOME))
    await service.fire(old)
    assert (await service.snapshot(table)).version == 1


async def play_to_the_end(service: TableService, table: int, rng: random.Random) -> int:
    """Random legal choices until the game is over; returns the winner's user id."""
    game = service.game("complots")
    while True:
        snap = await service.snapshot(table)
        result = game.result(snap.state)
        if result is not None:
            return snap.seats[result.winners[0]].user_id
        prompt = rng.choice(game.prompts(snap.state))
        user = snap.seats[prompt.player].user_id
        assert snap.version is not None
        await service.act(table, snap.version, user, rng.choice(prompt.choices))


async def test_rematch_keeps_the_clockwise_order_and_the_winner_starts(
    service: TableService,
) -> None:
    table = await started(service)
    await service.remove_player(table, 3, USERS[0])
    winner = await play_to_the_end(service, table, random.Random(2))
    assert (await service.snapshot(table)).table.status is TableStatus.FINISHED
    with pytest.raises(Refusal) as removed:
        await service.rematch(table, USERS[3], "u3")
    assert removed.value.key == "not_seated"

    rematch = await service.rematch(table, USERS[1], "u1")
    assert [s.user_id for s in rematch.seats] == [USERS[1], USERS[2], USERS[0]], "rotated"
    options = ComplotsOptions.model_validate_json(rematch.table.options_json)
    assert options.first_player is not None
    assert rematch.seats[options.first_player].user_id == winner, "the last winner starts"


async def test_lobby_limits(service: TableService) -> None:
    snap = await service.create_table(
        guild_id=1,
        channel_id=3,
        game="complots",
        creator_id=1,
        creator_name="u1",
        options=ComplotsOptions(),
        timeouts=TIMEOUTS,
    )
    table = snap.table.id
    with pytest.raises(Refusal) as alone:
        await service.start(table, 1, moderator=False)
    assert alone.value.key == "too_few_players"
    for user in range(2, 9):
        await service.join(table, user, f"u{user}")
    with pytest.raises(Refusal) as full:
        await service.join(table, 9, "u9")
    assert full.value.key == "table_full"
    assert len((await service.snapshot(table)).seats) == 8


@asynccontextmanager
async def another_process(tmp_path: Path, table: int) -> AsyncIterator[TableService]:
    """A second service on the same database file (as with sharding), its copy of
    ``table`` cached now."""
    repo = SqliteRepository(tmp_path / "t.sqlite3")
    await repo.open()
    try:
        other = TableService(repo, RecordingScheduler())
        await other.snapshot(table)
        yield other
    finally:
        await repo.close()


async def test_two_services_on_one_database_never_lose_or_double_a_step(
    service: TableService, tmp_path: Path
) -> None:
    """Two processes (as with sharding): each acts on its cached copy; the
    compare-and-set makes the one behind reload and judge the click again."""
    table = await started(service)
    async with another_process(tmp_path, table) as other:  # its copy: version 0
        await service.act(table, 0, USERS[0], Act(action=ActionKind.INCOME))
        # A click rendered at version 1 reaches the process whose copy is at 0.
        await other.act(table, 1, USERS[1], Act(action=ActionKind.INCOME))
        with pytest.raises(Refusal) as again:
            await service.act(table, 1, USERS[1], Act(action=ActionKind.INCOME))
        assert again.value.key == "stale", "the same click through the other process: once"
        snap = await other.snapshot(table)
        assert snap.version == 2 and isinstance(snap.state, ComplotsState)
        assert [p.coins for p in snap.state.players] == [3, 3, 2, 2]


# --- computer players ----------------------------------------------------------------


async def lobby_with_computers(service: TableService, *levels: Level, channel: int = 2) -> int:
    table = await lobby(service, channel=channel)
    for level in levels:
        await service.add_computer(table, USERS[0], level, moderator=False)
    return table


async def test_the_creator_seats_and_removes_named_computer_players(
    service: TableService,
) -> None:
    table = await lobby_with_computers(service, Level.NORMAL, Level.EASY)
    await service.join(table, USERS[1], "u1")
    seats = (await service.snapshot(table)).seats
    assert [(s.name, s.computer) for s in seats] == [
        ("u0", None),
        ("🤖 Ada", "normal"),
        ("🤖 Babbage", "easy"),
        ("u1", None),
    ]
    assert all(s.user_id < 0 for s in seats if s.is_computer), "no Discord user has that id"

    for refused, key in (
        (service.add_computer(table, USERS[1], Level.EASY, moderator=False), "creator_only"),
        (service.remove_computer(table, USERS[1], moderator=False), "creator_only"),
        (service.set_takeover(table, USERS[1], False, moderator=False), "creator_only"),
    ):
        with pytest.raises(Refusal) as refusal:
            await refused
        assert refusal.value.key == key
    await service.add_computer(table, USERS[1], Level.EASY, moderator=True)

    await service.remove_computer(table, USERS[0], moderator=False)
    await service.remove_computer(table, USERS[0], moderator=False)
    seats = (await service.snapshot(table)).seats
    assert [s.name for s in seats] == ["u0", "🤖 Ada", "u1"], "the last computer goes first"
    await service.add_computer(table, USERS[0], Level.EASY, moderator=False)
    seats = (await service.snapshot(table)).seats
    assert seats[-1].name == "🤖 Babbage" and len({s.user_id for s in seats}) == 4

    await service.remove_computer(table, USERS[0], moderator=False)
    await service.remove_computer(table, USERS[0], moderator=False)
    with pytest.raises(Refusal) as none_left:
        await service.remove_computer(table, USERS[0], moderator=False)
    assert none_left.value.key == "no_computer"


async def test_computer_seats_fill_a_table_to_its_limit_and_not_beyond(
    service: TableService,
) -> None:
    table = await lobby_with_computers(service, *[Level.EASY] * 7)
    with pytest.raises(Refusal) as full:
        await service.add_computer(table, USERS[0], Level.EASY, moderator=False)
    assert full.value.key == "table_full"
    await service.start(table, USERS[0], moderator=False)
    with pytest.raises(Refusal) as started_already:
        await service.add_computer(table, USERS[0], Level.EASY, moderator=False)
    assert started_already.value.key == "not_lobby"


async def test_computers_play_only_their_own_seats_to_the_end(service: TableService) -> None:
    table = await lobby_with_computers(service, Level.NORMAL, Level.EASY, Level.RANDOM)
    await service.start(table, USERS[0], moderator=False)
    await play_with_computers(service, table, random.Random(5))
    actions = await service.repo.actions(table)
    by_computer = [a for a in actions if a.kind is StoredKind.COMPUTER]
    assert by_computer and all(a.seat != 0 and (a.user_id or 0) < 0 for a in by_computer)
    assert {a.seat for a in by_computer} == {1, 2, 3}


async def play_with_computers(service: TableService, table: int, rng: random.Random) -> None:
    """Computers move whenever asked; the person (seat 0) plays randomly."""
    game = service.game("complots")
    while True:
        snap = await service.snapshot(table)
        if game.result(snap.state) is not None:
            break
        if service.computers_awaited(snap):
            assert 0 not in service.computers_awaited(snap), "never for the person"
            assert await service.play_computer(table)
            continue
        prompt = game.prompt_for(snap.state, 0)
        assert prompt is not None, "only the person can be left to answer"
        assert not await service.play_computer(table), "no computer is asked"
        await service.act(table, snap.version or 0, USERS[0], rng.choice(prompt.choices))


async def test_a_computer_takes_over_an_away_player_until_it_comes_back(
    tmp_path: Path,
) -> None:
    repo = SqliteRepository(tmp_path / "t.sqlite3")
    await repo.open()
    service = TableService(repo, RecordingScheduler(), seeds=lambda: 1234, away_after=2)
    notices: list[list[Notice]] = []

    class Recorder:
        async def table_changed(self, snapshot: Snapshot) -> None:
            notices.append(snapshot.notices)

    service.listeners.append(Recorder())
    try:
        table = await started(service)
        for expected_strikes in (1, 2):
            snap = await service.snapshot(table)
            assert service.computers_awaited(snap) == []
            await service.fire(service._deadlines[table])  # seat 0's turn times out
            await drive_to_turn_of(service, table, seat=0)
            assert (await service.snapshot(table)).seats[0].away_strikes == expected_strikes
        assert any(n == [Notice("table.taken_over", 0)] for n in notices)
        snap = await service.snapshot(table)
        assert service.computers_awaited(snap) == [0], "seat 0 is away: a computer plays it"
        assert await service.play_computer(table)
        actions = await service.repo.actions(table)
        assert actions[-1].kind is StoredKind.COMPUTER and actions[-1].seat == 0

        notices.clear()
        await service.come_back(table, USERS[0])
        assert notices == [[Notice("table.back", 0)]]
        snap = await service.snapshot(table)
        assert snap.seats[0].away_strikes == 0
        assert service.computer_level(snap, snap.seats[0]) is None, "its own seat again"
        await service.come_back(table, USERS[0])
        assert len(notices) == 1, "coming back twice says nothing more"
    finally:
        await repo.close()


async def drive_to_turn_of(service: TableService, table: int, seat: int) -> None:
    """Time out whatever windows open until ``seat`` has a turn again."""
    game = service.game("complots")
    for _ in range(50):
        snap = await service.snapshot(table)
        prompts = game.prompts(snap.state)
        if any(p.player == seat and p.kind.value == "turn" for p in prompts):
            return
        if service.computers_awaited(snap):
            await service.play_computer(table)
        else:
            await service.fire(service._deadlines[table])
    raise AssertionError("seat never got its turn back")


async def test_without_takeover_an_away_player_is_only_marked(service: TableService) -> None:
    table = await lobby_with_computers(service, Level.RANDOM)
    await service.set_takeover(table, USERS[0], False, moderator=False)
    await service.start(table, USERS[0], moderator=False)
    snap = await service.snapshot(table)
    assert not snap.table.takeover
    away = snap.seats[0].model_copy(update={"away_strikes": service.away_after})
    assert service.computer_level(snap, away) is None
    assert service.computer_level(snap, snap.seats[1]) is Level.RANDOM


async def test_a_rematch_keeps_computers_and_the_takeover_choice(service: TableService) -> None:
    table = await lobby_with_computers(service, Level.EASY, Level.NORMAL)
    await service.set_takeover(table, USERS[0], False, moderator=False)
    await service.start(table, USERS[0], moderator=False)
    snap = await service.snapshot(table)
    await play_with_computers(service, table, random.Random(8))
    assert (await service.snapshot(table)).table.status is TableStatus.FINISHED
    rematch = await service.rematch(table, USERS[0], "u0")
    assert [(s.name, s.computer) for s in rematch.seats] == [
        (s.name, s.computer) for s in snap.seats
    ]
    assert not rematch.table.takeover


async def test_a_finished_game_is_recorded_by_its_last_step(service: TableService) -> None:
    table = await started(service)
    winner = await play_to_the_end(service, table, random.Random(11))
    snap = await service.snapshot(table)
    record = await service.repo.game_record(table)
    assert record is not None and record.outcome is GameOutcome.FINISHED
    assert snap.state is not None and record.steps == snap.state.step > 0
    assert [(s.user_id, s.name, s.winner) for s in record.seats] == [
        (s.user_id, s.name, s.user_id == winner) for s in snap.seats
    ]
    assert record.started_at is not None and record.started_at <= record.ended_at
    assert (record.game, record.guild_id, record.options_json) == (
        "complots",
        snap.table.guild_id,
        snap.table.options_json,
    )


async def test_stored_ratings_are_the_records_replayed(service: TableService) -> None:
    rng = random.Random(21)
    table = await started(service)
    for _ in range(4):
        winner = await play_to_the_end(service, table, rng)
        table = (await service.rematch(table, winner, "winner")).table.id
        await service.start(table, winner, moderator=False)
    records = list(reversed(await service.repo.recent_records(1, game="complots")))
    assert len(records) == 4
    skills = await service.repo.skills(1, "complots")
    assert skills == replay(records) and set(skills) == set(USERS)
    board = await service.repo.leaderboard(1, "complots", limit=3)
    assert [s.skill.ordinal for s in board] == sorted(
        (skill.ordinal for skill in skills.values()), reverse=True
    )[:3]
    assert [s.rank for s in board] == [1, 2, 3]
    last = min(skills, key=lambda user: skills[user].ordinal)
    standing = await service.repo.standing(1, "complots", last)
    assert standing is not None and standing.rank == len(USERS)
    assert await service.repo.standing(1, "mascarade", last) is None
    results = await service.repo.results_of(1, USERS[0])
    assert [r.table_id for r in results] == [r.table_id for r in records]
    assert sum(r.winner for r in results) == skills[USERS[0]].wins


async def test_a_game_a_moderator_ends_is_recorded_without_winners(
    service: TableService,
) -> None:
    table = await started(service)
    await service.end(table, 900)
    record = await service.repo.game_record(table)
    assert record is not None and record.outcome is GameOutcome.ENDED
    assert len(record.seats) == len(USERS) and not any(s.winner for s in record.seats)
    in_lobby = await lobby(service, channel=5)
    await service.end(in_lobby, 900)
    assert await service.repo.game_record(in_lobby) is None, "no game was played"


async def test_the_creator_chooses_the_table_language_in_the_lobby(
    service: TableService,
) -> None:
    table = await lobby(service)
    await service.join(table, USERS[1], "u1", "fr")
    for refused, key in (
        (service.set_language(table, USERS[1], "it", moderator=False), "creator_only"),
        (service.set_language(table, USERS[0], "de", moderator=False), "not_allowed"),
    ):
        with pytest.raises(Refusal) as refusal:
            await refused
        assert refusal.value.key == key
    assert (await service.snapshot(table)).table.language == "en", "refusals change nothing"
    chosen = await service.set_language(table, USERS[0], "it", moderator=False)
    assert chosen.table.language == "it"
    await service.set_language(table, USERS[1], "fr", moderator=True)
    await service.start(table, USERS[0], moderator=False)
    with pytest.raises(Refusal) as running:
        await service.set_language(table, USERS[0], "en", moderator=False)
    assert running.value.key == "not_lobby"
    assert (await service.snapshot(table)).table.language == "fr"


async def test_the_creator_chooses_the_computers_level_in_the_lobby(
    service: TableService,
) -> None:
    table = await lobby(service)
    await service.join(table, USERS[1], "u1")
    for refused, key in (
        (service.set_computer_level(table, USERS[1], "easy", moderator=False), "creator_only"),
        (service.set_computer_level(table, USERS[0], "random", moderator=False), "not_allowed"),
    ):
        with pytest.raises(Refusal) as refusal:
            await refused
        assert refusal.value.key == key
    assert (await service.snapshot(table)).table.computer_level == "normal"
    await service.set_computer_level(table, USERS[0], "easy", moderator=False)
    added = await service.add_computer(table, USERS[0], moderator=False)
    assert added.seats[-1].computer == "easy", "added at the table's level"
    chosen = await service.add_computer(table, USERS[0], Level.NORMAL, moderator=False)
    assert chosen.seats[-1].computer == "normal", "or at the level asked"
    await service.start(table, USERS[0], moderator=False)
    with pytest.raises(Refusal) as running:
        await service.set_computer_level(table, USERS[0], "normal", moderator=False)
    assert running.value.key == "not_lobby"


async def test_a_seat_follows_its_players_language(service: TableService) -> None:
    table = await lobby(service)
    await service.join(table, USERS[1], "u1", "fr")
    await service.follow_locale(table, USERS[1], "it")
    await service.follow_locale(table, USERS[2], "it")  # not seated: nothing
    assert [s.locale for s in (await service.repo.seats(table))] == [None, "it"]
    assert [s.locale for s in (await service.snapshot(table)).seats] == [None, "it"]


async def test_a_rematch_keeps_the_table_language_and_each_players_locale(
    service: TableService,
) -> None:
    snap = await service.create_table(
        guild_id=1,
        channel_id=2,
        game="complots",
        creator_id=USERS[0],
        creator_name="u0",
        options=ComplotsOptions(),
        timeouts=TIMEOUTS,
        language="it",
        creator_locale="it",
    )
    table = snap.table.id
    await service.join(table, USERS[1], "u1", "fr")
    await service.set_computer_level(table, USERS[0], "easy", moderator=False)
    await service.start(table, USERS[0], moderator=False)
    await play_to_the_end(service, table, random.Random(3))
    rematch = await service.rematch(table, USERS[1], "u1")
    assert rematch.table.language == "it"
    assert rematch.table.computer_level == "easy", "and the computers' level"
    assert [(s.user_id, s.locale) for s in rematch.seats] == [(USERS[1], "fr"), (USERS[0], "it")]


# --- a moderator's end and removal -------------------------------------------------------

MODERATOR = 900


async def test_ending_a_running_game_logs_end_by_the_moderator_without_a_gap(
    service: TableService,
) -> None:
    table = await started(service)
    await service.act(table, 0, USERS[0], Act(action=ActionKind.INCOME))
    before = await service.snapshot(table)
    assert isinstance(service.scheduler, RecordingScheduler) and table in service.scheduler.armed

    ended = await service.end(table, MODERATOR)
    assert ended.table.status is TableStatus.CANCELLED
    actions = await service.repo.actions(table)
    assert [a.version for a in actions] == list(range(len(actions))) == [0, 1, 2], "no gap"
    assert (actions[-1].kind, actions[-1].user_id, actions[-1].seat) == (
        StoredKind.END,
        MODERATOR,
        None,
    )
    assert ended.version == 2 and ended.state == before.state, "a version, not a step"
    assert table not in service.scheduler.armed and table not in service._deadlines
    with pytest.raises(Refusal) as again:
        await service.end(table, MODERATOR)
    assert again.value.key == "not_open"
    with pytest.raises(Refusal):
        await service.act(table, 2, USERS[1], Act(action=ActionKind.INCOME))
    assert len(await service.repo.actions(table)) == 3


async def test_ending_a_lobby_logs_end_as_its_only_action(service: TableService) -> None:
    table = await lobby(service)
    ended = await service.end(table, MODERATOR)
    assert ended.table.status is TableStatus.CANCELLED and ended.state is None
    [end] = await service.repo.actions(table)
    assert (end.version, end.kind, end.user_id) == (0, StoredKind.END, MODERATOR)


async def test_an_end_racing_a_step_of_another_process_is_judged_again(
    service: TableService, tmp_path: Path
) -> None:
    """The process that ends the table has a copy one step behind: its END loses the
    compare-and-set, reloads, and lands after the step, not over it."""
    table = await started(service)
    async with another_process(tmp_path, table) as other:  # its copy: version 0
        await service.act(table, 0, USERS[0], Act(action=ActionKind.INCOME))
        ended = await other.end(table, MODERATOR)
        assert ended.version == 2
        actions = await other.repo.actions(table)
        assert [(a.version, a.kind) for a in actions] == [
            (0, StoredKind.START),
            (1, StoredKind.CHOICE),
            (2, StoredKind.END),
        ]
        state = await other.repo.load_state(table)
        assert state is not None and state.version == 2
        assert isinstance(ended.state, ComplotsState) and ended.state.players[0].coins == 3


async def test_a_removed_seat_is_marked_by_the_forfeit_commit_itself(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is written after the commit: a crash right after it (here, any later
    seat write fails) still leaves the forfeited seat marked removed."""
    table = await started(service)

    async def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("crash after the commit")

    monkeypatch.setattr(service.repo, "update_seat", crash)
    snap = await service.remove_player(table, 2, MODERATOR)
    assert [s.removed for s in snap.seats] == [False, False, True, False]
    assert [s.removed for s in await service.repo.seats(table)] == [False, False, True, False]
    forfeit = (await service.repo.actions(table))[-1]
    assert (forfeit.version, forfeit.kind, forfeit.seat, forfeit.user_id) == (
        1,
        StoredKind.FORFEIT,
        2,
        MODERATOR,
    )
    with pytest.raises(Refusal) as twice:
        await service.remove_player(table, 2, MODERATOR)
    assert twice.value.key == "no_such_seat"


async def test_a_stale_removal_marks_nothing(service: TableService, tmp_path: Path) -> None:
    table = await started(service)
    async with another_process(tmp_path, table) as other:  # its copy: version 0
        await service.act(table, 0, USERS[0], Act(action=ActionKind.INCOME))
        with pytest.raises(Refusal) as stale:
            await other.remove_player(table, 2, MODERATOR)
        assert stale.value.key == "stale"
        assert not any(s.removed for s in await other.repo.seats(table))
        assert [a.kind for a in await other.repo.actions(table)][-1] is StoredKind.CHOICE
        await other.remove_player(table, 2, MODERATOR)  # reloaded: now it lands
        assert [s.removed for s in await other.repo.seats(table)] == [False, False, True, False]


async def test_a_player_already_out_cannot_be_removed(service: TableService) -> None:
    """Removing a Complots player who lost every card would announce it twice: refused."""
    table = await started(service)
    state = rigged([[D, CA], [CO, AM], [], [D, CO]], revealed=[[], [], [A, CA], []], turn=0)
    await service.repo.commit(
        table,
        expected_version=0,
        state_json=state.model_dump_json(),
        action=ActionRecord(
            table_id=table, version=1, kind=StoredKind.CHOICE, seat=0, created_at=0.0
        ),
        events=[],
        deadline=None,
    )
    service.forget(table)
    with pytest.raises(Refusal) as out:
        await service.remove_player(table, 2, MODERATOR)
    assert out.value.key == "already_out"
    assert [a.version for a in await service.repo.actions(table)] == [0, 1], "nothing written"


# --- the outbox ---------------------------------------------------------------------


class LineAnnouncer:
    """One channel line per change: what it owes, with its events and notices."""

    def announce(self, snapshot: Snapshot) -> list[OutboxEntry]:
        kinds = ",".join(vars(e)["type"] for e in snapshot.events)
        notices = ",".join(n.key for n in snapshot.notices)
        return [
            OutboxEntry(
                table_id=snapshot.table.id,
                version=snapshot.version,
                kind=OutboxKind.POST,
                target=snapshot.table.channel_id,
                content=f"v{snapshot.version} {kinds} {notices}".strip(),
            )
        ]


async def test_what_a_step_owes_is_written_with_the_step(
    service: TableService, tmp_path: Path
) -> None:
    service.announcer = LineAnnouncer()
    table = await started(service)
    await service.act(table, 0, USERS[0], Act(action=ActionKind.TAX))
    owed = await service.repo.undelivered(table)
    assert [(e.version, e.content.split()[0]) for e in owed] == [(0, "v0"), (1, "v1")]
    assert "action_declared" in owed[1].content
    async with another_process(tmp_path, table) as other:  # its copy: version 1
        other.announcer = LineAnnouncer()
        await service.act(table, 1, USERS[1], Pass())
        with pytest.raises(Refusal):  # behind: reloads, and the same seat passed already
            await other.act(table, 1, USERS[1], Pass())
    owed = await service.repo.undelivered(table)
    assert [e.version for e in owed] == [0, 1, 2], "a lost compare-and-set owes nothing"
    await service.repo.mark_delivered(owed[0].id or 0)
    assert [e.version for e in await service.repo.undelivered(table)] == [1, 2]


async def test_a_player_back_and_its_notice_are_one_write(service: TableService) -> None:
    service.announcer = LineAnnouncer()
    table = await started(service)
    for _ in range(3):  # seat 0 misses three turns: a computer takes over
        snap = await service.snapshot(table)
        assert snap.deadline is not None
        await service.fire(snap.deadline)
        while (await service.snapshot(table)).state.turn != 0:  # type: ignore[union-attr]
            snap = await service.snapshot(table)
            assert snap.deadline is not None
            await service.fire(snap.deadline)
    owed = [e.content for e in await service.repo.undelivered(table)]
    assert any("table.taken_over" in line for line in owed)
    await service.come_back(table, USERS[0])
    assert (await service.repo.undelivered(table))[-1].content.endswith("table.back")
    assert (await service.repo.seats(table))[0].away_strikes == 0


async def test_the_recent_public_events_survive_a_reload(service: TableService) -> None:
    table = await started(service)
    game = service.game("complots")
    rng = random.Random(8)
    for _ in range(40):
        snap = await service.snapshot(table)
        if game.result(snap.state) is not None:
            break
        prompt = rng.choice(game.prompts(snap.state))
        seat_user = snap.seats[prompt.player].user_id
        await service.act(table, snap.version or 0, seat_user, rng.choice(prompt.choices))
    kept = (await service.snapshot(table)).recent
    assert len(kept) == RECENT_EVENTS and all(e.public for e in kept)
    service.forget(table)
    assert (await service.snapshot(table)).recent == kept
