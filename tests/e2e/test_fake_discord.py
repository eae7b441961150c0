"""The fake Discord against the real discord.py client, driven by a small bot."""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import dataclass
from typing import Any, Self, cast

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.e2e.fake_discord import (
    MANAGE_GUILD,
    ClientCrashed,
    DiscordLogGuard,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeRole,
    FakeUser,
    InteractionRefused,
    components_of,
    custom_id_of,
    labels,
)
from tests.e2e.fake_discord.errors import ApiError
from tests.e2e.fake_discord.rest import GlobalLimit
from tests.e2e.fake_discord.store import check_commands

HAND_PNG = b"\x89PNG\r\n\x1a\nfake-hand"
RULES = b"rules: be nice"
MAP = b"\x00\x01\x02map"

# ---- the bot under test ------------------------------------------------------------------


class GameBot(discord.Client):
    """A tiny game bot: guild commands, a board with DynamicItem button and select."""

    def __init__(self, guild_id: int, label: str) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.01)
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id
        self.label = label
        self.tree.add_command(ping)
        for command in GUILD_COMMANDS:
            self.tree.add_command(command, guild=discord.Object(guild_id))

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py sleeps 5 s before every non-initial IDENTIFY; not in tests."""

    async def setup_hook(self) -> None:
        self.add_dynamic_items(PlayButton, PickSelect)
        await self.tree.sync()
        await self.tree.sync(guild=discord.Object(self.guild_id))


def bot_of(interaction: discord.Interaction) -> GameBot:
    return cast(GameBot, interaction.client)


class PlayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"t:(?P<table>\d+):(?P<v>\d+)",
):
    def __init__(self, table: int, version: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Play", style=discord.ButtonStyle.primary, custom_id=f"t:{table}:{version}"
        )
        super().__init__(button)
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["table"]), int(match["v"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        content = f"v{self.version + 1} by {interaction.user.name} via {bot_of(interaction).label}"
        view = board_view(self.table, self.version + 1)
        await interaction.response.edit_message(content=content, view=view)


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=r"pick:(?P<table>\d+)"
):
    def __init__(self, table: int) -> None:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"pick:{table}",
            placeholder="Pick a card",
            options=[
                discord.SelectOption(label="Duke", value="duke"),
                discord.SelectOption(label="Captain", value="captain"),
            ],
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"{interaction.user.name} picked a card")
        await interaction.followup.send(f"you picked {self.item.values[0]}", ephemeral=True)


def board_view(table: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PlayButton(table, version))
    view.add_item(PickSelect(table))
    return view


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(
        label="Name", custom_id="name_input", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


@app_commands.command(description="Are you there?")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"pong {interaction.user.name}", ephemeral=True)


@app_commands.command(description="Say something to everyone")
async def announce(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(f"announce: {text}")


table_group = app_commands.Group(name="table", description="Tables")
admin_group = app_commands.Group(name="admin", description="Moderation", parent=table_group)


@table_group.command(name="open", description="Open a table")
async def table_open(interaction: discord.Interaction, seats: int, ranked: bool = False) -> None:
    embed = discord.Embed(title=f"Table {seats}", description=f"ranked={ranked}")
    await interaction.response.send_message("v0", embed=embed, view=board_view(seats, 0))


@admin_group.command(name="kick", description="Remove a player")
async def table_kick(
    interaction: discord.Interaction,
    who: discord.Member,
    where: discord.TextChannel,
    role: discord.Role,
) -> None:
    manage = interaction.permissions.manage_guild
    text = f"kick {who.name} from {where.name} as {role.name} manage_guild={manage}"
    await interaction.response.send_message(text, ephemeral=True)


@app_commands.command(description="Post and edit a score embed")
async def score(interaction: discord.Interaction) -> None:
    channel = cast(discord.TextChannel, interaction.channel)
    message = await channel.send(embed=discord.Embed(title="Score", description="0"))
    await message.edit(embed=discord.Embed(title="Score", description="1"))
    await interaction.response.send_message("edited", ephemeral=True)


@app_commands.command(description="Files everywhere")
async def files(interaction: discord.Interaction) -> None:
    channel = cast(discord.TextChannel, interaction.channel)
    board = await channel.send(
        "board",
        files=[
            discord.File(io.BytesIO(RULES), "rules.txt"),
            discord.File(io.BytesIO(MAP), "map.bin"),
        ],
    )
    board = await board.edit(attachments=[board.attachments[1]])
    size = len(await board.attachments[0].read())
    hand = discord.File(io.BytesIO(HAND_PNG), "hand.png")
    await interaction.response.send_message(f"hand (map {size} bytes)", file=hand, ephemeral=True)


@app_commands.command(description="Send a secret by DM")
async def dm(interaction: discord.Interaction, who: discord.Member) -> None:
    try:
        await who.send("psst: your card is the Duke")
    except discord.Forbidden as error:
        await interaction.response.send_message(f"dm failed {error.code}", ephemeral=True)
    else:
        await interaction.response.send_message("dm sent", ephemeral=True)


@app_commands.command(description="Think, then answer")
async def think(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True, ephemeral=True)
    await interaction.followup.send("thought about it")


@app_commands.command(description="Ask for a name")
async def name(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal())


@app_commands.command(description="Fails")
async def boom(interaction: discord.Interaction) -> None:
    raise RuntimeError("boom from the bot")


@app_commands.command(description="Too slow")
async def slow(interaction: discord.Interaction) -> None:
    await asyncio.sleep(0.3)  # slow work on purpose: the fake's deadline is 0.05 s here
    await interaction.response.send_message("late")


@app_commands.command(description="Calls a route the fake lacks")
async def emojis(interaction: discord.Interaction) -> None:
    guild = cast(discord.Guild, interaction.guild)
    try:
        await guild.fetch_emojis()
    except discord.NotFound as error:
        await interaction.response.send_message(f"emojis {error.status}", ephemeral=True)


GUILD_COMMANDS: list[app_commands.Command[Any, Any, Any] | app_commands.Group] = [
    announce,
    table_group,
    score,
    files,
    dm,
    think,
    name,
    boom,
    slow,
    emojis,
]

# ---- the world ---------------------------------------------------------------------------


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    games: FakeChannel
    players: FakeRole
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser

    def bot(self, label: str = "first") -> GameBot:
        return GameBot(self.guild.id, label)


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    fake = fake_discord
    guild = fake.add_guild("Game Night")
    games = fake.add_channel(guild, "games", topic="play here")
    players = fake.add_role(guild, "Players")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    carol = fake.add_user("carol", dms_open=False)
    fake.add_member(guild, alice, roles=[players])
    fake.add_member(guild, bob, roles=[players], permissions=MANAGE_GUILD)
    fake.add_member(guild, carol)
    return World(fake, guild, games, players, alice, bob, carol)


# ---- tests -------------------------------------------------------------------------------


async def test_login_ready_and_guild_create(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        assert bot.user is not None and bot.user.id == fake.bot.id
        assert bot.application_id == fake.application_id
        guild = bot.get_guild(world.guild.id)
        assert guild is not None and guild.name == "Game Night"
        assert [c.name for c in guild.text_channels] == ["games"]
        assert guild.member_count == 5  # owner, bot, alice, bob, carol
        assert guild.get_member(world.alice.id) is None  # no members intent: only the bot
        assert [r.name for r in guild.me.roles] == ["@everyone", "GameMaster"]
        assert guild.me.guild_permissions.send_messages
        assert not guild.me.guild_permissions.manage_guild
    requested = {f"{r.method} {r.path}" for r in fake.requests}
    assert {"GET /users/@me", "GET /oauth2/applications/@me"} <= requested
    assert fake.gateway.identifies == 1
    assert fake.gateway.sessions and not fake.gateway.live_sessions()


async def test_rest_lookups_history_delete_and_late_guild(world: World) -> None:
    fake, games = world.fake, world.games
    async with fake.running(world.bot()) as bot:
        channel = await bot.fetch_channel(games.id)
        assert isinstance(channel, discord.TextChannel) and channel.topic == "play here"
        guild = await bot.fetch_guild(world.guild.id)
        member = await guild.fetch_member(world.bob.id)
        assert [r.name for r in member.roles] == ["@everyone", "Players", "bob permissions"]
        assert member.guild_permissions.manage_guild
        assert {r.name for r in await guild.fetch_roles()} >= {"@everyone", "Players", "GameMaster"}
        assert [c.name for c in await guild.fetch_channels()] == ["games"]
        assert (await bot.fetch_user(world.carol.id)).name == "carol"
        first, second = await channel.send("one"), await channel.send("two")
        assert [m.id async for m in channel.history(limit=10)] == [second.id, first.id]
        await first.delete()
        joined = bot.wait_for("guild_join", timeout=5)
        fake.add_guild("Late Guild")
        assert (await joined).name == "Late Guild"
    assert [m.content for m in fake.channel_messages(games)] == ["two"]
    assert [m.deleted for m in fake.channel_messages(games, include_deleted=True)] == [True, False]


async def test_command_sync_is_recorded(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        fetched = await bot.tree.fetch_commands(guild=discord.Object(world.guild.id))
    assert [c["name"] for c in fake.commands()] == ["ping"]
    synced = {c["name"]: c for c in fake.commands(world.guild)}
    assert set(synced) == {c.name for c in GUILD_COMMANDS}
    assert {c.name: c.id for c in fetched} == {n: int(c["id"]) for n, c in synced.items()}
    admin = next(o for o in synced["table"]["options"] if o["name"] == "admin")
    kick = admin["options"][0]
    assert [(o["name"], o["type"]) for o in kick["options"]] == [
        ("who", 6),
        ("where", 7),
        ("role", 8),
    ]
    assert [s.guild_id for s in fake.command_syncs] == [None, world.guild.id]


async def test_slash_answered_ephemerally_and_publicly(world: World) -> None:
    fake, games = world.fake, world.games
    async with fake.running(world.bot()):
        private = await fake.slash(world.alice, games, "ping")
        await private.wait_response()
        public = await fake.slash(world.bob, games, "announce", text="game night at 8")
        await public.wait_response()
    assert private.response_type == 4 and private.ephemeral and private.deadline_met
    assert private.visible_to is world.alice and public.visible_to is None
    assert private.content == "pong alice"
    assert fake.ephemerals(world.alice) == [private.message]
    assert fake.ephemerals(world.bob) == []
    assert "pong" not in fake.public_text()
    assert not public.ephemeral and fake.last_message(games).content == "announce: game night at 8"
    assert public.message.payload["interaction_metadata"]["user"]["id"] == str(world.bob.id)


async def test_slash_in_dm_uses_global_command(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        dm_channel = fake.dm_channel(world.alice)
        rec = await fake.slash(world.alice, dm_channel, "ping")
        await rec.wait_response()
        with pytest.raises(InteractionRefused, match="no synced slash command 'announce'"):
            await fake.slash(world.alice, dm_channel, "announce", text="x")
    assert rec.content == "pong alice" and rec.payload["context"] == 1


async def test_subcommand_group_with_member_channel_and_role_options(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        by_mod = await fake.slash(
            world.bob,
            world.games,
            "table",
            "admin kick",
            who=world.alice,
            where=world.games,
            role=world.players,
        )
        by_player = await fake.slash(
            world.alice,
            world.games,
            "table",
            "admin kick",
            who=world.bob,
            where=world.games,
            role=world.players,
        )
        await by_mod.wait_response()
        await by_player.wait_response()
        with pytest.raises(InteractionRefused, match="cannot take 'four'"):
            await fake.slash(world.alice, world.games, "table", "open", seats="four")
        with pytest.raises(InteractionRefused, match="needs a subcommand"):
            await fake.slash(world.alice, world.games, "table")
    assert by_mod.content == "kick alice from games as Players manage_guild=True"
    assert by_player.content == "kick bob from games as Players manage_guild=False"


async def test_dynamic_button_edits_and_select_defers_then_follows_up(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    async with fake.running(world.bot()):
        opened = await fake.slash(alice, world.games, "table", "open", seats=4, ranked=True)
        await opened.wait_response()
        board = opened.message
        assert labels(board) == ["Play"] and custom_id_of(board, "Play") == "t:4:0"
        assert board.embed["title"] == "Table 4" and board.embed["description"] == "ranked=True"

        click = await fake.click(bob, board, label="Play")
        await click.wait_response()
        pick = await fake.select(alice, board, "pick:4", ["captain"])
        secret = await pick.wait_followups(1)
        await pick.wait_settled()
    assert click.response_type == 7 and click.message is board
    assert [v["content"] for v in fake.message_history(board)] == [
        "v0",
        "v1 by bob via first",
        "alice picked a card",
    ]
    assert custom_id_of(board, "Play") == "t:4:1"
    assert [c["type"] for c in components_of(board)] == [2, 3]
    assert pick.response_type == 6 and pick.deadline_met
    assert secret[0].ephemeral and secret[0].content == "you picked captain"
    assert fake.ephemerals(alice) == secret and fake.ephemerals(bob) == []
    assert "captain" in fake.public_text()  # the select's option label is public...
    assert "you picked" not in fake.public_text()  # ...but the choice is not


async def test_users_cannot_use_what_they_cannot_see(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        rec = await fake.slash(world.alice, world.games, "table", "open", seats=2)
        await rec.wait_response()
        pick = await fake.select(world.alice, rec.message, "pick:2", ["duke"])
        (secret,) = await pick.wait_followups(1)
        with pytest.raises(InteractionRefused, match="are not options"):
            await fake.select(world.bob, rec.message, "pick:2", ["emperor"])
        with pytest.raises(InteractionRefused, match="cannot see"):
            await fake.click(world.bob, secret, label="Play")


async def test_embed_edit_keeps_history(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        rec = await fake.slash(world.alice, world.games, "score")
        await rec.wait_response()
    posted = fake.last_message(world.games)
    assert [v["embeds"][0]["description"] for v in fake.message_history(posted)] == ["0", "1"]
    assert posted.embed["title"] == "Score" and posted.edited_timestamp is not None
    assert rec.content == "edited" and rec.ephemeral


async def test_multipart_files_keep_their_bytes(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        rec = await fake.slash(world.alice, world.games, "files")
        await rec.wait_response()
    board = fake.last_message(world.games)
    names = [[a["filename"] for a in v["attachments"]] for v in fake.message_history(board)]
    assert names == [["rules.txt", "map.bin"], ["map.bin"]]
    assert board.attachment("map.bin").data == MAP
    hand = rec.message.attachment("hand.png")
    assert rec.ephemeral and hand.data == HAND_PNG and hand.content_type == "image/png"
    assert rec.content == f"hand (map {len(MAP)} bytes)"
    async with aiohttp.ClientSession() as session, session.get(hand.url) as response:
        assert await response.read() == HAND_PNG


async def test_dm_to_open_and_closed_users(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        sent = await fake.slash(world.alice, world.games, "dm", who=world.bob)
        refused = await fake.slash(world.alice, world.games, "dm", who=world.carol)
        await sent.wait_response()
        await refused.wait_response()
    assert sent.content == "dm sent"
    assert [m.content for m in fake.dms(world.bob)] == ["psst: your card is the Duke"]
    assert refused.content == "dm failed 50007"
    assert fake.dms(world.carol) == []
    assert [p["content"] for p in fake.rejected_dms(world.carol)] == ["psst: your card is the Duke"]
    assert "Duke" not in fake.public_text().replace('"label": "Duke"', "")


async def test_thinking_defer_then_followup_replaces_the_thinking_message(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        rec = await fake.slash(world.alice, world.games, "think")
        await rec.wait_settled()
    assert rec.response_type == 5 and rec.ephemeral
    assert rec.content == "thought about it" and not rec.message.loading
    assert fake.ephemerals(world.alice) == [rec.message] == rec.followups


async def test_modal_round_trip(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        asked = await fake.slash(world.alice, world.games, "name")
        await asked.wait_response()
        assert asked.response_type == 9 and asked.modal is not None
        with pytest.raises(InteractionRefused, match="length 25 out of bounds"):
            await fake.submit_modal(asked, {"name_input": "x" * 25})
        answered = await fake.submit_modal(asked, {"name_input": "Ada"})
        await answered.wait_response()
    assert asked.modal["title"] == "Your name"
    assert answered.content == "hello Ada" and answered.ephemeral


async def test_old_dynamic_button_reaches_the_restarted_bot(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot("first")):
        opened = await fake.slash(world.alice, world.games, "table", "open", seats=3)
        await opened.wait_response()
    assert not fake.gateway.live_sessions()
    async with fake.running(world.bot("second")):
        click = await fake.click(world.alice, opened.message, label="Play")
        await click.wait_response()
    assert opened.message.content == "v1 by alice via second"
    assert fake.gateway.identifies == 2


async def test_resume_after_the_gateway_drops(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        fake.hold_gateway()
        await fake.drop_gateway()
        assert not fake.gateway.live_sessions()
        rec = await fake.slash(world.alice, world.games, "ping")  # queued in the backlog
        fake.release_gateway()
        await rec.wait_response()
    assert fake.gateway.resumes == 1 and fake.gateway.identifies == 1
    assert fake.gateway.connection_paths == ["/gateway", "/gateway-resume"]
    assert rec.content == "pong alice"


async def test_reconnect_request_resumes(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        await fake.request_reconnect()
        await fake.wait_for(lambda: fake.gateway.resumes == 1, what="a RESUME")
        rec = await fake.slash(world.alice, world.games, "ping")
        await rec.wait_response()
    assert fake.gateway.identifies == 1 and rec.content == "pong alice"


async def test_reidentify_when_the_session_is_invalid(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        await fake.drop_gateway(resumable=False)
        await fake.wait_for(lambda: fake.gateway.identifies == 2, what="a second IDENTIFY")
        rec = await fake.slash(world.alice, world.games, "ping")
        await rec.wait_response()
    assert fake.gateway.invalidated == 1 and fake.gateway.resumes == 0
    assert rec.content == "pong alice"


async def test_log_guard_catches_errors_discord_py_only_logs(
    world: World, discord_log_guard: DiscordLogGuard
) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        rec = await fake.slash(world.alice, world.games, "boom")
        problems = await fake.wait_for(discord_log_guard.problems, what="the logged error")
    assert rec.response is None
    assert "boom from the bot" in str(problems[0].exc_info)
    with pytest.raises(pytest.fail.Exception, match="Ignoring exception in command 'boom'"):
        discord_log_guard.check()
    assert discord_log_guard.problems() == []


async def test_missed_deadline_is_refused_and_recorded(
    world: World, discord_log_guard: DiscordLogGuard
) -> None:
    fake = world.fake
    fake.response_deadline = 0.05
    discord_log_guard.allow(r"error code: 10062\): Unknown interaction")
    async with fake.running(world.bot()):
        rec = await fake.slash(world.alice, world.games, "slow")
        late = await fake.wait_for(lambda: rec.callbacks, what="the late callback")
    assert not late[0].accepted and late[0].latency > 0.05
    assert rec.response is None and not rec.deadline_met
    assert fake.channel_messages(world.games) == []


async def test_unknown_routes_are_recorded(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        rec = await fake.slash(world.alice, world.games, "emojis")
        await rec.wait_response()
    assert rec.content == "emojis 404"
    assert fake.unknown_routes == [f"GET /api/v10/guilds/{world.guild.id}/emojis"]
    fake.unknown_routes.clear()


async def test_a_payload_missing_a_field_crashes_loudly(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()):
        rec = await fake.slash(world.alice, world.games, "ping")
        await rec.wait_response()
        broken = dict(rec.payload, id=str(fake.store.ids.next()))
        del broken["attachment_size_limit"]
        await fake.dispatch("INTERACTION_CREATE", broken)
        with pytest.raises(ClientCrashed, match="attachment_size_limit"):
            await fake.wait_for(lambda: False, timeout=5, what="the client to crash")
    (crash,) = fake.forget_crashes()
    assert isinstance(crash, KeyError)


async def test_a_global_rate_limit_answers_429_and_discord_py_waits_it_out(
    world: World,
) -> None:
    fake = world.fake
    fake.rest.global_limit = GlobalLimit(5)
    async with fake.running(world.bot()) as bot:
        channel = bot.get_partial_messageable(world.games.id)
        sent = await asyncio.gather(*(channel.send(f"line {n}") for n in range(12)))
    assert len({m.id for m in sent}) == 12
    assert sorted(m.content for m in fake.channel_messages(world.games)) == sorted(
        f"line {n}" for n in range(12)
    ), "every message once, none lost to the limit"
    limited = [r for r in fake.requests if r.status == 429]
    assert limited and all("/interactions/" not in r.path for r in limited)
    assert all(r.error is None for r in limited)


def test_the_global_limit_counts_a_rolling_second() -> None:
    limit = GlobalLimit(2)
    assert limit.retry_after(10.0) == 0 and limit.retry_after(10.2) == 0
    assert limit.retry_after(10.5) == pytest.approx(0.5)
    assert limit.retry_after(11.0) == 0, "the first request left the window"
    assert limit.retry_after(11.1) == pytest.approx(0.1)


def test_command_localizations_are_checked_like_discord_does() -> None:
    """Discord refuses a sync whose localised names or descriptions break its rules."""
    good = {
        "name": "hand",
        "description": "See your cards",
        "name_localizations": {"it": "mano", "fr": "main"},
        "description_localizations": {"fr": "Regarde tes cartes"},
        "options": [
            {
                "type": 3,
                "name": "game",
                "description": "Which game",
                "choices": [{"name": "The Bloody Inn", "value": "bloody_inn"}],
            }
        ],
    }
    check_commands([good])
    bad = {
        **good,
        "name_localizations": {"it": "La Mano", "xx": "main"},
        "description_localizations": {"fr": "x" * 101},
        "options": [
            {
                **good["options"][0],  # type: ignore[index]
                "choices": [
                    {"name": "Inn", "value": "inn", "name_localizations": {"fr": ""}},
                ],
            }
        ],
    }
    with pytest.raises(ApiError) as refused:
        check_commands([bad])
    assert set(refused.value.errors or {}) == {
        "0.name_localizations.it",
        "0.name_localizations.xx",
        "0.description_localizations.fr",
        "0.options.0.choices.0.name_localizations.fr",
    }
