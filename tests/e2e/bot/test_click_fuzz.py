"""10,000 clicks that must change nothing, through the real bot and the fake Discord.

Tables of two games in two servers (running, finished, a lobby), then seeded
random clicks a modified client could send: forged custom_ids (other tables'
ids, nonexistent and huge ids, stale and future versions, other games' choice
codes, lobby buttons on running tables, garbage), on the wrong message, in the
wrong channel or server, by the wrong user, on another user's panel, after the
end, each sometimes twice. None of them is a legitimate click: where a click
comes from its table's place, only ones refused by the rules of the game are
drawn (see ``Fuzz.harmless``). Every click must be answered within Discord's 3
seconds with an ephemeral line, nothing logged as an error, no table changed."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.app import GameMasterBot
from bot.storage.models import TableStatus
from tests.e2e.fake_discord import FakeChannel, FakeGuild, FakeUser, InteractionRecord
from tests.e2e.fake_discord.components import components_of
from tests.e2e.fake_discord.models import StoredMessage

from .harness import MANAGE_GUILD, Table, World
from .test_click_binding import fingerprint

pytestmark = pytest.mark.slow

CLICKS = 10_000
WAVE = 40
"""Clicks in flight at once (players click concurrently)."""
SEED = 20260512
STORED_MAX = 2**63 - 1
LOBBY_CODES = (
    "ui.join",
    "ui.leave",
    "ui.start",
    "ui.cancel",
    "ui.computer.add",
    "ui.computer.normal",
    "ui.computer.easy",
    "ui.computer.remove",
    "ui.takeover.on",
    "ui.takeover.off",
)
SHARED_CODES = ("ui.hand", "ui.log", "ui.rematch", "ui.panel.choose", "ui.panel.decide")
GARBAGE_CODES = ("x", "act", "act.income", "pass.9", "0", "ui.", "ui.nothing", "-", "a" * 60)
RAW_GARBAGE = (
    "",
    "gm:",
    "gm:1",
    "gm:a:0:ui.join",
    "gm:-1:0:ui.join",
    "gm:1:-1:ui.join",
    "gm:1:0:UI.JOIN",
    "gm:1:0:ui join",
    "gs:1:0:",
    "xx:1:0:ui.join",
    "gm:1:0:ui.join:extra!",
    "gm:\uff11:0:ui.join",
    "gm:\u0661:0:ui.join",
    "g" * 100,
)


@dataclass
class Place:
    """A message a click can come from, and whose click counts there."""

    message: StoredMessage
    guild: FakeGuild | None
    table_id: int | None = None
    """The table whose message this is, or whose panel (for ``owner``)."""
    owner: FakeUser | None = None
    """For an ephemeral panel: the only user who sees it."""
    clickers: list[FakeUser] = field(default_factory=list)


@dataclass
class FuzzTable:
    id: int
    status: TableStatus
    creator: FakeUser
    seated: set[int]
    version: int | None = None
    window: int | None = None
    """The version the open window started at (older ones are stale)."""
    channel_id: int = 0
    members_guild: int = 0
    members: list[FakeUser] = field(default_factory=list)
    """The members of the table's server."""
    actors: list[FakeUser] = field(default_factory=list)
    """Whose clicks on ``shown`` count at the table now: the prompted players of a
    running table, a lobby's creator, a finished table's players."""
    shown: list[tuple[str, list[str] | None]] = field(default_factory=list)
    """The custom_ids (and select values) the bot shows for this table now: clicks
    that count at the table, from its players."""


@dataclass
class Click:
    user: FakeUser
    place: Place
    custom_id: str
    values: list[str] | None = None
    component_type: int | None = None


class Fuzz:
    """Draws clicks that must change nothing (seeded)."""

    def __init__(
        self,
        rng: random.Random,
        tables: dict[int, FuzzTable],
        places: list[Place],
        codes: list[str],
        values: list[str],
        moderators: set[int],
    ) -> None:
        self.rng = rng
        self.tables = tables
        self.places = places
        self.codes = codes
        self.values = values
        self.moderators = moderators
        top = max(tables)
        self.missing = [top + 1, top + 1000, 0, STORED_MAX]
        """Ids of no table."""

    def clicks(self, count: int) -> Iterator[Click]:
        previous: Click | None = None
        drawn = 0
        while drawn < count:
            click = self.draw()
            if previous is not None and self.rng.random() < 0.08:
                click = previous  # the same click again (a double click)
            if click is None:
                continue
            previous = click
            drawn += 1
            yield click

    def draw(self) -> Click | None:
        if self.rng.random() < 0.35:
            return self.near_miss()
        return self.anything()

    def near_miss(self) -> Click | None:
        """A click the table shows, by one of its server's members (its players
        among them), from anywhere but the table's place for that user: another
        table's message, a copy, a line, another user's panel, another channel or
        server, a DM."""
        rng = self.rng
        table = rng.choice(list(self.tables.values()))
        if not table.shown:
            return None
        custom_id, values = rng.choice(table.shown)
        actors = table.actors if table.actors and rng.random() < 0.6 else table.members
        user = rng.choice(actors)
        kinds: dict[str, list[Place]] = {}
        for place in self.places:
            if user not in place.clickers:
                continue
            if place.table_id == table.id and place.owner in (None, user):
                continue  # the table's place for this user
            if place.table_id == table.id:
                kind = "another user's panel"
            elif place.guild is None:
                kind = "a DM"
            elif place.message.channel_id == table.channel_id:
                kind = "another message of the channel"
            elif place.guild.id == table.members_guild:
                kind = "another channel"
            else:
                kind = "another server"
            kinds.setdefault(kind, []).append(place)
        if not kinds:
            return None
        places = kinds[rng.choice(sorted(kinds))]
        return Click(user, rng.choice(places), custom_id, values)

    def anything(self) -> Click | None:
        rng = self.rng
        place = rng.choice(self.places)
        user = rng.choice(place.clickers)
        if rng.random() < 0.04:
            return Click(user, place, rng.choice(RAW_GARBAGE))
        select = rng.random() < 0.25
        table_id = self._table_id(place)
        version = self._version(table_id)
        code = rng.choice(self.codes) if rng.random() < 0.9 else rng.choice(GARBAGE_CODES)
        values: list[str] | None = None
        component_type: int | None = None
        if select:
            values = [rng.choice(self.values)] if rng.random() < 0.95 else []
            chosen = values[0] if values else None
            custom_id = f"gs:{table_id}:{version}:{code}"
            if rng.random() < 0.05:
                component_type = 2  # a select's custom_id sent as a button click
        else:
            chosen = code
            custom_id = f"gm:{table_id}:{version}:{code}"
            if rng.random() < 0.05:
                component_type, values = 3, [rng.choice(self.values)]
        if not self.harmless(user, place, table_id, version, chosen):
            return None
        return Click(user, place, custom_id, values, component_type)

    def _table_id(self, place: Place) -> int | str:
        rng = self.rng
        roll = rng.random()
        if place.table_id is not None and roll < 0.35:
            return place.table_id
        if roll < 0.8:
            return rng.choice(list(self.tables))
        if roll < 0.9:
            return rng.choice(self.missing)
        huge: list[int | str] = [STORED_MAX + 1, 2**64 + 7, 10**19 - 1, "9" * 25, "0" * 20 + "1"]
        return rng.choice(huge)

    def _version(self, table_id: int | str) -> int | str:
        rng = self.rng
        table = self.tables.get(table_id) if isinstance(table_id, int) else None
        current = 0 if table is None or table.version is None else table.version
        roll = rng.random()
        if roll < 0.3:
            return current
        if roll < 0.55:
            return rng.randint(0, max(current, 1))
        if roll < 0.8:
            return current + rng.randint(1, 1000)
        if roll < 0.9:
            return 0
        huge: list[int | str] = [STORED_MAX + 1, 10**19 - 1, "1" * 24]
        return rng.choice(huge)

    def harmless(
        self,
        user: FakeUser,
        place: Place,
        table_id: int | str,
        version: int | str,
        code: str | None,
    ) -> bool:
        """Whether this click must be refused even by a table that checks nothing
        but the rules of its game. A click away from its table's place is always
        harmless (the bot must refuse it); at the place, only refusals are drawn."""
        table = self.tables.get(table_id) if isinstance(table_id, int) else None
        if table is None or not isinstance(version, int) or version > STORED_MAX:
            return True
        at_place = place.table_id == table.id and place.owner in (None, user)
        if not at_place:
            return True
        if code is None or code in ("ui.log", "ui.hand") or code.startswith("ui.panel."):
            return False  # legitimate reads: not part of this fuzz
        seated = user.id in table.seated
        if table.status is TableStatus.FINISHED:
            return code != "ui.rematch"
        if table.status is TableStatus.LOBBY:
            if user.id == table.creator.id or user.id in self.moderators:
                return False
            return code not in ("ui.leave" if seated else "ui.join",)
        # running
        if not seated:
            return True
        if code.startswith("ui."):
            return True  # lobby buttons, rematch: not now
        window = table.window if table.window is not None else 0
        return version > (table.version or 0) or version < window


async def open_table(
    world: World,
    bot: GameMasterBot,
    channel: FakeChannel,
    game: str,
    creator: FakeUser,
    joiners: list[FakeUser],
    *,
    computers: int = 0,
    start: bool = True,
) -> int:
    fake = world.fake
    opened = await fake.slash(creator, channel, game)
    await opened.wait_response()
    found = await bot.tables.table_in_channel(channel.id)
    assert found is not None, opened.content
    await bot.renderer.drain()

    async def click(user: FakeUser, label: str) -> None:
        record = table_message(world, await bot.repo.get_table(found.id))
        done = await fake.click(user, record, label=label)
        await done.wait_response()
        await bot.renderer.drain()

    for user in joiners:
        await click(user, "Join")
    for _ in range(computers):
        await click(creator, "Add computer")
    if start:
        await click(creator, "Start")
    return found.id


def table_message(world: World, table: Any) -> StoredMessage:
    assert table is not None and table.message_id is not None
    return world.fake.message(table.message_id)


async def open_panel(
    world: World, bot: GameMasterBot, table_id: int
) -> tuple[FakeUser, int, StoredMessage]:
    """A prompted player of the table opens a panel (its first ``ui.panel.*`` button)."""
    snap = await bot.tables.snapshot(table_id)
    message = table_message(world, snap.table)
    panel = next(
        str(c["custom_id"])
        for c in components_of(message)
        if ":ui.panel." in str(c.get("custom_id"))
    )
    prompted = [snap.seats[p.player].user_id for p in snap.game.prompts(snap.state)]
    user = world.fake.store.users[prompted[0]]
    record = await world.fake.click(user, message, panel)
    await record.wait_response()
    assert record.ephemeral and components_of(record.message), record.content
    return user, table_id, record.message


async def finish_by_removal(
    world: World, bot: GameMasterBot, channel: FakeChannel, table_id: int, moderator: FakeUser
) -> None:
    """A moderator removes the table's only person; its computers play to the end."""
    seats = await bot.repo.seats(table_id)
    person = world.fake.store.users[next(s.user_id for s in seats if not s.is_computer)]
    removed = await world.fake.slash(
        moderator, channel, "mod", "remove", table=table_id, player=person
    )
    await removed.wait_response()
    started = time.monotonic()
    while (await bot.tables.snapshot(table_id)).table.status is TableStatus.RUNNING:
        assert time.monotonic() - started < 60, "the computers did not finish"
        await asyncio.sleep(0.05)
    await bot.renderer.drain()


def answered_privately(record: InteractionRecord) -> bool:
    response = record.response
    if response is None:
        return False
    if response.type == 4:
        return response.ephemeral
    return (
        response.type in (5, 6)
        and bool(record.followups)
        and all(m.ephemeral for m in record.followups)
    )


@dataclass
class Servers:
    """The table's server of ``build_world`` (A) and another one (B), with their
    channels, members and moderators."""

    world: World
    other: FakeGuild
    b_players: list[FakeUser]
    b_moderator: FakeUser
    channels: dict[str, FakeChannel]
    members: dict[int, list[FakeUser]]
    """Per server id: its members who click."""

    @classmethod
    def build(cls, world: World) -> Servers:
        fake = world.fake
        alice, bob, carol, dave = world.players
        other = fake.add_guild("Other server")
        b_players = [fake.add_user(name) for name in ("erin", "frank", "grace", "heidi")]
        b_moderator = fake.add_user("other-mod")
        for user in [*b_players, alice, world.outsider]:
            fake.add_member(other, user)
        fake.add_member(other, b_moderator, permissions=MANAGE_GUILD)
        fake.add_member(world.guild, b_players[0])
        channels = {
            "a_done": fake.add_channel(world.guild, "mascarade-done"),
            "a_lobby": fake.add_channel(world.guild, "lobby"),
            "a_general": fake.add_channel(world.guild, "general"),
            "b_running": fake.add_channel(other, "mascarade"),
            "b_done": fake.add_channel(other, "complots-done"),
            "b_general": fake.add_channel(other, "general"),
        }
        members = {
            world.guild.id: [
                alice,
                bob,
                carol,
                dave,
                world.moderator,
                world.outsider,
                b_players[0],
            ],
            other.id: [*b_players, b_moderator, alice, world.outsider],
        }
        return cls(world, other, b_players, b_moderator, channels, members)

    def guild(self, guild_id: int) -> FakeGuild:
        return self.other if guild_id == self.other.id else self.world.guild


Panel = tuple[FakeUser, int, StoredMessage]
"""An ephemeral panel: its owner, its table, the message."""


async def open_tables(servers: Servers, bot: GameMasterBot) -> tuple[list[int], list[Panel]]:
    """Server A: a running Complots table a few steps in, a finished Mascarade table,
    a Complots lobby. Server B: a running Mascarade table, a finished Complots table.
    Panels: a prompted player's at each running table (at the Complots one, one
    more opened before the steps: stale now), and "My hand" of two players at each."""
    world, fake, channels = servers.world, servers.world.fake, servers.channels
    alice, bob, carol, _ = world.players
    erin, frank, grace, _ = servers.b_players
    running_a = await Table.open(world, bot, players=4)
    panels = [await open_panel(world, bot, running_a.id)]
    rng = random.Random(SEED)
    game = bot.tables.game("complots")
    for _ in range(6):
        prompt = rng.choice(game.prompts(await running_a.state()))
        await running_a.play(prompt.player, rng.choice(prompt.choices))
    done_a = await open_table(world, bot, channels["a_done"], "mascarade", alice, [], computers=2)
    await finish_by_removal(world, bot, channels["a_done"], done_a, world.moderator)
    lobby_a = await open_table(
        world, bot, channels["a_lobby"], "complots", bob, [carol], start=False
    )
    running_b = await open_table(
        world, bot, channels["b_running"], "mascarade", erin, servers.b_players[1:]
    )
    done_b = await open_table(world, bot, channels["b_done"], "complots", frank, [], computers=1)
    await finish_by_removal(world, bot, channels["b_done"], done_b, servers.b_moderator)
    panels.append(await open_panel(world, bot, running_a.id))
    panels.append(await open_panel(world, bot, running_b))
    for user, table_id in [
        (alice, running_a.id),
        (bob, running_a.id),
        (erin, running_b),
        (grace, running_b),
    ]:
        message = table_message(world, await bot.repo.get_table(table_id))
        record = await fake.click(user, message, label="My hand")
        await record.wait_response()
        assert record.ephemeral
        panels.append((user, table_id, record.message))
    return [running_a.id, done_a, lobby_a, running_b, done_b], panels


async def places_of(
    servers: Servers, bot: GameMasterBot, ids: list[int], panels: list[Panel]
) -> list[Place]:
    """Where clicks come from: each table message and the bot's last lines beside it,
    the panels (by their owner and by anyone), a copy of a table message in its
    channel and of the lobby's buttons in another server, people's messages, DMs."""
    world, fake, channels = servers.world, servers.world.fake, servers.channels
    places: list[Place] = []
    for table_id in ids:
        table = await bot.repo.get_table(table_id)
        assert table is not None
        guild, members = servers.guild(table.guild_id), servers.members[table.guild_id]
        message = table_message(world, table)
        places.append(Place(message, guild, table_id, clickers=members))
        channel = fake.store.channels[table.channel_id]
        lines = [m for m in fake.channel_messages(channel) if m.id != message.id]
        places += [Place(m, guild, clickers=members) for m in lines[-3:]]
    for user, table_id, message in panels:
        table = await bot.repo.get_table(table_id)
        assert table is not None
        guild, members = servers.guild(table.guild_id), servers.members[table.guild_id]
        places.append(Place(message, guild, table_id, owner=user, clickers=members))
        places.append(Place(message, guild, table_id, owner=user, clickers=[user]))
    running_a = table_message(world, await bot.repo.get_table(ids[0]))
    lobby = table_message(world, await bot.repo.get_table(ids[2]))
    copy = await fake.post_as_bot(
        world.channel, embeds=running_a.embeds, components=running_a.components
    )
    await fake.post_as_bot(channels["b_general"], components=lobby.components)
    await fake.send_user_message(world.players[3], channels["a_general"], "gg")
    await fake.send_user_message(servers.b_players[3], channels["b_general"], "hi")
    places.append(Place(copy, world.guild, clickers=servers.members[world.guild.id]))
    for channel in (channels["a_general"], channels["b_general"]):
        guild = servers.guild(channel.guild_id or 0)
        places += [
            Place(m, guild, clickers=servers.members[guild.id])
            for m in fake.channel_messages(channel)
        ]
    for user in (world.players[0], world.players[1], servers.b_players[0]):
        places += [Place(m, None, clickers=[user]) for m in fake.dms(user)[-2:]]
    return places


def codes_shown(fake: Any) -> tuple[set[str], set[str]]:
    """Every custom_id code and select value the bot ever showed (both games, lobby
    and end buttons), and the platform's ``ui.*`` codes."""
    codes: set[str] = {*LOBBY_CODES, *SHARED_CODES}
    values: set[str] = set()
    for message in fake.store.messages.values():
        for version in message.history:
            for component in components_of(version):
                custom_id = str(component.get("custom_id") or "")
                if custom_id.startswith(("gm:", "gs:")):
                    codes.add(custom_id.split(":", 3)[3])
                values.update(o["value"] for o in component.get("options", []))
    values |= {c for c in codes if not c.startswith("ui.")} | {"ui.join", "garbage"}
    return codes, values


async def fuzz_table(
    servers: Servers, bot: GameMasterBot, table_id: int, panels: list[Panel]
) -> FuzzTable:
    """What the fuzz needs to know of a table to stay harmless, and to come close."""
    users = servers.world.fake.store.users
    snap = await bot.tables.snapshot(table_id)
    creator = users[snap.table.creator_id]
    message = table_message(servers.world, snap.table)
    shown: list[tuple[str, list[str] | None]] = [
        (str(c["custom_id"]), None) for c in components_of(message) if c["type"] == 2
    ]
    for _, panel_table, panel in panels:
        selects = [c for c in components_of(panel) if c["type"] == 3]
        for select in selects if panel_table == table_id else []:
            shown += [(select["custom_id"], [o["value"]]) for o in select["options"]]
    if snap.table.status is TableStatus.RUNNING:
        actors = {snap.seats[p.player].user_id for p in snap.game.prompts(snap.state)}
    elif snap.table.status is TableStatus.LOBBY:
        actors = {creator.id}
    else:
        actors = {s.user_id for s in snap.seats if not s.is_computer}
    return FuzzTable(
        table_id,
        snap.table.status,
        creator,
        {s.user_id for s in snap.seats if not s.removed},
        snap.version,
        None if snap.deadline is None else snap.deadline.version,
        snap.table.channel_id,
        snap.table.guild_id,
        servers.members[snap.table.guild_id],
        [users[u] for u in sorted(actors)],
        shown,
    )


async def test_ten_thousand_forged_clicks_change_nothing(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    caplog.set_level(logging.WARNING, "asyncio")
    servers = Servers.build(world)
    settings = {"turn_timeout": 3600, "reaction_timeout": 3600, "choice_timeout": 3600}
    async with fake.running(world.bot(computer_delay=0.0, **settings)) as bot:
        ids, panels = await open_tables(servers, bot)
        places = await places_of(servers, bot, ids, panels)
        await bot.renderer.drain()
        codes, values = codes_shown(fake)
        tables = {i: await fuzz_table(servers, bot, i, panels) for i in ids}
        assert [t.status.value for t in tables.values()] == [
            "running",
            "finished",
            "lobby",
            "running",
            "finished",
        ]
        moderators = {world.moderator.id, servers.b_moderator.id}
        fuzz = Fuzz(random.Random(SEED), tables, places, sorted(codes), sorted(values), moderators)
        before = {i: await fingerprint(bot, i) for i in ids}
        shown_before = {i: table_message(world, await bot.repo.get_table(i)).payload for i in ids}

        records: list[InteractionRecord] = []
        started = time.monotonic()
        for click in fuzz.clicks(CLICKS):
            records.append(
                await fake.forge(
                    click.user,
                    click.place.message,
                    click.custom_id,
                    values=click.values,
                    component_type=click.component_type,
                )
            )
            if len(records) % WAVE == 0:
                await settle(records[-WAVE:])
        await settle(records[-(len(records) % WAVE or WAVE) :])
        elapsed = time.monotonic() - started
        await bot.renderer.drain()

        assert {i: await fingerprint(bot, i) for i in ids} == before, "a table changed"
        for table_id in ids:
            message = table_message(world, await bot.repo.get_table(table_id))
            assert message.payload == shown_before[table_id], "a table message changed"
        assert await bot.repo.get_table(max(ids) + 1) is None, "no table was opened"

    assert len(records) == CLICKS
    unanswered = [r for r in records if r.response is None]
    assert not unanswered, f"{len(unanswered)} clicks unanswered: {unanswered[0].payload['data']}"
    latencies = [r.response.latency for r in records if r.response is not None]
    assert max(latencies) < 3.0
    public = [r for r in records if not answered_privately(r)]
    assert not public, f"{len(public)} not answered privately, e.g. {public[0].callbacks}"
    problems = [r for r in caplog.records if r.name == "asyncio" or r.levelno >= logging.ERROR]
    assert not problems, [r.getMessage() for r in problems[:5]]
    print(
        f"\n{CLICKS} forged clicks in {elapsed:.1f} s,"
        f" max latency {max(latencies) * 1000:.0f} ms,"
        f" median {sorted(latencies)[len(latencies) // 2] * 1000:.1f} ms"
    )


async def settle(wave: list[InteractionRecord]) -> None:
    """Wait until every click of the wave is answered, and a deferred answer followed
    up (a click never answered, or deferred and not told, fails the checks after)."""
    await asyncio.gather(*(r.wait_response(timeout=5) for r in wave), return_exceptions=True)
    deferred = [r for r in wave if r.response_type in (5, 6)]
    await asyncio.gather(*(r.wait_followups(timeout=2) for r in deferred), return_exceptions=True)
