"""FakeDiscord: a Discord server on 127.0.0.1 the real discord.py client logs into.

Build the world (guilds, channels, users), start the bot with `running(client)`,
act as users (`slash`, `click`, `select`, `submit_modal`) and inspect what each
user saw (`channel_messages`, `ephemerals`, `dms`, `public_payloads`).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from typing import TypeVar

import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from . import payloads
from .changes import ClientCrashed
from .content import Body
from .gateway import Gateway
from .ids import iso_now
from .interactions import (
    InteractionRefused,
    Resolver,
    base_payload,
    check_command_allowed,
    command_data,
    component_data,
    find_command,
    find_component,
    modal_data,
)
from .models import (
    APPLICATION_COMMAND,
    GUILD_TEXT,
    JSON,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    InteractionRecord,
    Overwrite,
    StoredMessage,
    json_copy,
)
from .permissions import DEFAULT_BOT, DEFAULT_EVERYONE
from .rest import GlobalLimit, RequestRecord, RestApi
from .store import GUILD_MEMBERS_INTENT, GUILDS_INTENT, CommandSync, Store

T = TypeVar("T")
ClientT = TypeVar("ClientT", bound=discord.Client)
MessageRef = StoredMessage | int


class FakeDiscord:
    """A fake Discord (REST + gateway) for end-to-end tests of a discord.py bot."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "GameMaster",
        response_deadline: float | None = 3.0,
        global_limit: int | None = None,
    ) -> None:
        """``global_limit``: Discord's global rate limit of the bot, requests per
        second (Discord's default is 50); None: unlimited."""
        self.store = Store(token=token, bot_name=bot_name, response_deadline=response_deadline)
        self.gateway = Gateway(self.store)
        self.rest = RestApi(self.store)
        self.rest.global_limit = None if global_limit is None else GlobalLimit(global_limit)
        self.store.emit = self.gateway.dispatch
        self.store.changes.describe = self._describe
        self.enforce_command_permissions = True
        self.allow_unknown_routes = False
        self.url = ""
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.get_ident()

    # ---- identity ------------------------------------------------------------------------

    @property
    def token(self) -> str:
        return self.store.token

    @property
    def bot(self) -> FakeUser:
        return self.store.bot

    @property
    def application_id(self) -> int:
        return self.store.application_id

    @property
    def response_deadline(self) -> float | None:
        """Seconds the bot has to answer; later callbacks get 404 / 10062 (None: no limit)."""
        return self.store.response_deadline

    @response_deadline.setter
    def response_deadline(self, value: float | None) -> None:
        self.store.response_deadline = value

    @property
    def unknown_routes(self) -> list[str]:
        return self.rest.unknown_routes

    @property
    def requests(self) -> list[RequestRecord]:
        return self.rest.requests

    @property
    def server_errors(self) -> list[str]:
        return self.rest.server_errors

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self.store.interactions.values())

    @property
    def command_syncs(self) -> list[CommandSync]:
        return self.store.command_syncs

    # ---- lifecycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on 127.0.0.1 (a free port); `url` is then http://127.0.0.1:<port>."""
        self._loop, self._thread = asyncio.get_running_loop(), threading.get_ident()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        self._runner = web.AppRunner(self._app(), shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        self.url = f"http://127.0.0.1:{port}"
        self.gateway.url = f"ws://127.0.0.1:{port}/gateway"
        self.gateway.resume_url = f"ws://127.0.0.1:{port}/gateway-resume"
        self.rest.gateway_url = self.gateway.url
        self.store.base_url = self.url

    def _app(self) -> web.Application:
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=64 * 1024 * 1024)
        app.add_routes([web.get("/gateway", self.gateway.handle)])
        app.add_routes([web.get("/gateway-resume", self.gateway.handle)])
        app.add_routes(self.rest.routes())
        return app

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.uninstall()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def install(self) -> None:
        """Point discord.py at the fake: `Route.BASE` and the default gateway URL.

        discord.Client (unsharded) never asks /gateway/bot: it connects straight to
        `DiscordWebSocket.DEFAULT_GATEWAY`, and falls back to it after INVALID_SESSION.
        """
        if self._saved is None:
            self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = f"{self.url}/api/v10"
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway.url)

    def uninstall(self) -> None:
        if self._saved is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    @asynccontextmanager
    async def running(self, client: ClientT, *, timeout: float = 10.0) -> AsyncIterator[ClientT]:
        """Log `client` in, connect it, wait for READY and every guild; close it on exit."""
        self.install()
        await client.login(self.token)
        task = asyncio.create_task(client.connect(), name=f"fake-discord-client-{id(client)}")
        task.add_done_callback(self._client_done)
        try:
            await self._until_ready(client, task, timeout)
            yield client
        finally:
            await client.close()
            with suppress(Exception):
                await task

    def _client_done(self, task: asyncio.Task[None]) -> None:
        error = None if task.cancelled() else task.exception()
        if error is not None:
            self.store.changes.crashed(error)

    async def _until_ready(
        self, client: discord.Client, task: asyncio.Task[None], timeout: float
    ) -> None:
        ready = asyncio.ensure_future(self._ready_with_guilds(client))
        done, _ = await asyncio.wait({ready, task}, timeout=timeout, return_when="FIRST_COMPLETED")
        if ready in done:
            ready.result()
            return
        ready.cancel()
        if task in done:
            raise ClientCrashed("the client stopped before READY") from task.exception()
        raise TimeoutError(f"the client was not ready after {timeout}s{self._describe()}")

    async def _ready_with_guilds(self, client: discord.Client) -> None:
        await client.wait_until_ready()
        expected = set(self.store.guilds) if client.intents.guilds else set()

        def all_there(*_: object) -> bool:
            return expected <= {g.id for g in client.guilds}

        if not all_there():
            await client.wait_for("guild_available", check=all_there)

    def assert_healthy(self) -> None:
        """Raise if the fake crashed, a client crashed, or the bot hit unknown routes."""
        problems = [f"fake discord internal error:\n{e}" for e in self.server_errors]
        if self.unknown_routes and not self.allow_unknown_routes:
            problems.append(f"the bot called routes the fake does not know: {self.unknown_routes}")
        if problems:
            raise AssertionError("\n".join(problems))
        self.store.changes.raise_crash()

    # ---- world building ------------------------------------------------------------------

    def add_user(self, name: str, *, dms_open: bool = True, locale: str = "en-US") -> FakeUser:
        user = FakeUser(self.store.ids.next(), name, dms_open=dms_open, locale=locale)
        self.store.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: FakeUser | None = None,
        bot_permissions: int = DEFAULT_BOT,
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild with @everyone, the bot (and its managed role) and an owner;
        ``shard`` (id, count): a guild Discord routes to that shard."""
        guild_id = self.store.ids.next()
        if shard is not None:
            wanted, count = shard
            while (guild_id >> 22) % count != wanted:
                guild_id += 1 << 22
        owner = owner or self.add_user(f"{name} owner")
        guild = FakeGuild(guild_id, name, owner.id, joined_at=iso_now(), locale=locale)
        guild.roles[guild_id] = FakeRole(guild_id, guild_id, "@everyone", DEFAULT_EVERYONE)
        bot_role = FakeRole(
            self.store.ids.next(), guild_id, self.bot.name, bot_permissions, 1, bot_id=self.bot.id
        )
        guild.roles[bot_role.id] = bot_role
        for user, roles in ((self.bot, [bot_role.id]), (owner, [])):
            guild.members[user.id] = FakeMember(user, guild_id, roles, iso_now())
        self.store.guilds[guild_id] = guild
        self.gateway.dispatch_guild_create(guild)
        return guild

    def add_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        topic: str | None = None,
        overwrites: Iterable[Overwrite] = (),
    ) -> FakeChannel:
        channel = FakeChannel(
            self.store.ids.next(),
            name,
            GUILD_TEXT,
            guild.id,
            position=len(guild.channels),
            topic=topic,
            overwrites=list(overwrites),
        )
        guild.channels[channel.id] = channel
        self.store.channels[channel.id] = channel
        self.gateway.dispatch("CHANNEL_CREATE", self.store.channel_json(channel), GUILDS_INTENT)
        return channel

    def add_role(
        self,
        guild: FakeGuild,
        name: str,
        *,
        permissions: int = 0,
        color: int = 0,
        hoist: bool = False,
        mentionable: bool = False,
    ) -> FakeRole:
        position = max(r.position for r in guild.roles.values()) + 1
        role = FakeRole(
            self.store.ids.next(), guild.id, name, permissions, position, color, hoist, mentionable
        )
        guild.roles[role.id] = role
        event = {"guild_id": str(guild.id), "role": payloads.role(role)}
        self.gateway.dispatch("GUILD_ROLE_CREATE", event, GUILDS_INTENT)
        return role

    def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        roles: Iterable[FakeRole] = (),
        permissions: int = 0,
        owner: bool = False,
        nick: str | None = None,
    ) -> FakeMember:
        """Make `user` a member; `permissions` come through a personal role (e.g. 0x20)."""
        role_ids = [r.id for r in roles]
        if permissions:
            role_ids.append(
                self.add_role(guild, f"{user.name} permissions", permissions=permissions).id
            )
        member = FakeMember(user, guild.id, role_ids, iso_now(), nick)
        guild.members[user.id] = member
        if owner:
            guild.owner_id = user.id
        event = {**payloads.member(member), "guild_id": str(guild.id)}
        self.gateway.dispatch("GUILD_MEMBER_ADD", event, GUILD_MEMBERS_INTENT)
        return member

    # ---- simulated users -----------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        /,
        subcommand: str | Sequence[str] | None = None,
        **options: object,
    ) -> InteractionRecord:
        """`user` runs /command [group] [subcommand] with options (users, channels, roles...)."""
        synced = find_command(self.store, channel, command)
        if self.enforce_command_permissions:
            check_command_allowed(self.store, synced, user, channel)
        path = subcommand.split() if isinstance(subcommand, str) else list(subcommand or [])
        data = command_data(synced, path, options, Resolver(self.store, user, channel))
        return await self._interact(APPLICATION_COMMAND, user, channel, data, None)

    async def click(
        self,
        user: FakeUser,
        message: MessageRef,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        seen_version: int | None = None,
    ) -> InteractionRecord:
        """`user` clicks a button found by custom_id (or by label).

        `seen_version` (an index into the message's history) clicks the button as
        an older version showed it: a client that had not yet received an edit.
        """
        stored = self._seen_message(user, message)
        shown = stored if seen_version is None else stored.history[seen_version]
        component = find_component(shown, custom_id=custom_id, label=label)
        if component.get("type") != 2:
            raise InteractionRefused(f"{component.get('custom_id')!r} is not a button")
        channel = self.store.channels[stored.channel_id]
        data = component_data(component, None, Resolver(self.store, user, channel))
        return await self._interact(MESSAGE_COMPONENT, user, channel, data, stored)

    async def select(
        self, user: FakeUser, message: MessageRef, custom_id: str, values: Sequence[object]
    ) -> InteractionRecord:
        """`user` picks `values` in a select (strings; users/roles/channels for typed selects)."""
        stored = self._seen_message(user, message)
        component = find_component(stored, custom_id=custom_id)
        channel = self.store.channels[stored.channel_id]
        data = component_data(component, values, Resolver(self.store, user, channel))
        return await self._interact(MESSAGE_COMPONENT, user, channel, data, stored)

    async def forge(
        self,
        user: FakeUser,
        message: MessageRef,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        component_type: int | None = None,
    ) -> InteractionRecord:
        """What a modified client can make Discord send: a click (or, with `values`, a
        selection) with any `custom_id` on any message of the bot, whether the message
        shows such a component or not, even another user's ephemeral. Discord fills
        in the rest as for a real click: the message's channel and guild, and the
        clicker's member and permissions there (so `user` must be a member)."""
        stored = self.message(message if isinstance(message, int) else message.id)
        channel = self.store.channels[stored.channel_id]
        kind = component_type if component_type is not None else 2 if values is None else 3
        data: JSON = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = list(values)
        return await self._interact(MESSAGE_COMPONENT, user, channel, data, stored)

    async def post_as_bot(
        self,
        channel: FakeChannel,
        *,
        content: str = "",
        embeds: Sequence[JSON] = (),
        components: Sequence[JSON] = (),
    ) -> StoredMessage:
        """A message in `channel` as if the bot had posted it (e.g. a second copy of
        a message's buttons); clicks on it reach the bot."""
        body = {"content": content, "embeds": list(embeds), "components": list(components)}
        message = self.store.create_message(channel, Body(json_copy(body)))
        await self.gateway.flush()
        return message

    async def submit_modal(
        self, record: InteractionRecord, values: Mapping[str, str | Sequence[str]]
    ) -> InteractionRecord:
        """The user who got `record`'s modal fills it (`values` by input custom_id) and submits."""
        if record.modal is None:
            raise InteractionRefused(f"interaction {record.id} was not answered with a modal")
        data = modal_data(record.modal, values)
        source = record.source_message
        return await self._interact(MODAL_SUBMIT, record.user, record.channel, data, source)

    async def send_user_message(
        self, user: FakeUser, channel: FakeChannel, content: str
    ) -> StoredMessage:
        """`user` posts a plain message (MESSAGE_CREATE; content needs the intent)."""
        message = self.store.create_message(channel, Body({"content": content}), author=user)
        await self.gateway.flush()
        return message

    async def _interact(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JSON,
        source: StoredMessage | None,
    ) -> InteractionRecord:
        if not any(not s.invalid for s in self.gateway.sessions.values()):
            raise InteractionRefused("no bot session is connected to the fake gateway")
        interaction_id, token = self.store.ids.next(), secrets.token_urlsafe(32)
        payload = base_payload(
            self.store,
            kind=kind,
            user=user,
            channel=channel,
            interaction_id=interaction_id,
            token=token,
        )
        payload["data"] = data
        if source is not None:
            payload["message"] = json_copy(source.payload)
        loop = asyncio.get_running_loop()
        record = InteractionRecord(
            interaction_id,
            token,
            kind,
            user,
            channel,
            payload,
            created_at=loop.time(),
            deadline=self.store.response_deadline,
            waiter=self.store.changes.wait_for,
            source_message=source,
            source_version=0 if source is None else len(source.history),
        )
        self.store.add_interaction(record)
        self.gateway.dispatch("INTERACTION_CREATE", payload)
        await self.gateway.flush()
        record.created_at = loop.time()
        return record

    def _seen_message(self, user: FakeUser, message: MessageRef) -> StoredMessage:
        stored = self.message(message if isinstance(message, int) else message.id)
        if not self.store.can_see(user, stored):
            raise InteractionRefused(f"{user.name} cannot see message {stored.id}")
        return stored

    # ---- gateway control -----------------------------------------------------------------

    async def dispatch(self, event: str, data: JSON, *, intent: int | None = None) -> None:
        """Send any gateway event (with the next sequence number) to connected bots."""
        self.gateway.dispatch(event, data, intent)
        await self.gateway.flush()

    async def drop_gateway(self, *, resumable: bool = True) -> None:
        """Close the bot's websocket (4000). Not resumable: its RESUME gets INVALID_SESSION.

        Returns once the fake has detached the session (events now go to its backlog).
        """
        await self.gateway.drop(resumable=resumable)

    async def request_reconnect(self) -> None:
        """Ask the bot to reconnect (op 7 RECONNECT); it closes its socket and resumes."""
        await self.gateway.request_reconnect()

    def hold_gateway(self) -> None:
        """Keep new gateway connections waiting before HELLO (see `release_gateway`)."""
        self.gateway.hold()

    def release_gateway(self) -> None:
        self.gateway.release()

    def notify(self) -> None:
        """Wake `wait_for` waiters (for predicates over state outside the fake, e.g. logs).

        Safe to call from other threads (discord.py logs from its heartbeat thread).
        """
        loop = self._loop
        if loop is None or threading.get_ident() == self._thread:
            self.store.changes.notify()
        else:
            loop.call_soon_threadsafe(self.store.changes.notify)

    def forget_crashes(self) -> list[BaseException]:
        """Take the recorded client crashes (after a test expected one)."""
        crashes = list(self.store.changes.crashes)
        self.store.changes.crashes.clear()
        return crashes

    # ---- inspection ----------------------------------------------------------------------

    def message(self, message_id: int) -> StoredMessage:
        try:
            return self.store.messages[message_id]
        except KeyError:
            raise LookupError(f"no message {message_id}") from None

    def message_history(self, message: MessageRef) -> list[JSON]:
        """Every version of a message, oldest first (as Discord returned each)."""
        return self.message(message if isinstance(message, int) else message.id).history

    def channel_messages(
        self, channel: FakeChannel, *, include_deleted: bool = False
    ) -> list[StoredMessage]:
        """Public messages in a channel (current state), oldest first."""
        return [
            m
            for m in self.store.messages.values()
            if m.channel_id == channel.id and not m.ephemeral and (include_deleted or not m.deleted)
        ]

    def last_message(self, channel: FakeChannel) -> StoredMessage:
        messages = self.channel_messages(channel)
        if not messages:
            raise LookupError(f"no messages in #{channel.name}")
        return messages[-1]

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and `user` (created if needed), e.g. for `slash`."""
        return self.store.open_dm(user.id)

    def dms(self, user: FakeUser) -> list[StoredMessage]:
        """Messages the bot delivered to `user` in DMs."""
        channel = self.store.dm_channels.get(user.id)
        return [] if channel is None else self.channel_messages(channel)

    def rejected_dms(self, user: FakeUser) -> list[JSON]:
        """DM payloads refused with 403 / 50007 because `user` has DMs closed."""
        return [payload for user_id, payload in self.store.rejected_dms if user_id == user.id]

    def ephemerals(self, user: FakeUser) -> list[StoredMessage]:
        """Ephemeral messages only `user` saw (current state), oldest first."""
        return [
            m for m in self.store.messages.values() if m.ephemeral_to == user.id and not m.deleted
        ]

    def private_to(self, user: FakeUser) -> list[StoredMessage]:
        """Everything only `user` saw: ephemerals and DMs, in order."""
        return sorted([*self.ephemerals(user), *self.dms(user)], key=lambda m: m.id)

    def modals(self, user: FakeUser) -> list[JSON]:
        return [r.modal for r in self.store.interactions.values() if r.user is user and r.modal]

    def public_payloads(self) -> list[str]:
        """Every version of every message posted in a guild channel, as JSON text.

        Contents, embeds, component labels and custom_ids, attachment names: scan these
        for secrets. Ephemerals and DMs are not public.
        """
        return [
            json.dumps(version, ensure_ascii=False)
            for m in self.store.messages.values()
            if m.guild_id is not None and not m.ephemeral
            for version in m.history
        ]

    def public_text(self) -> str:
        return "\n".join(self.public_payloads())

    def commands(self, guild: FakeGuild | None = None) -> list[JSON]:
        """The commands synced globally (or for `guild`), as Discord echoed them."""
        return self.store.commands_for(None if guild is None else guild.id)

    def command(self, name: str, guild: FakeGuild | None = None) -> JSON:
        found = [c for c in self.commands(guild) if c["name"] == name]
        if not found:
            raise LookupError(f"no synced command {name!r}")
        return found[0]

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "a condition"
    ) -> T:
        """Wait until `predicate()` (over the fake's recorded state) is truthy; return it."""
        return await self.store.changes.wait_for(predicate, timeout, what)

    async def wait_for_message(
        self,
        channel: FakeChannel,
        predicate: Callable[[StoredMessage], bool] = lambda m: True,
        timeout: float = 5.0,
    ) -> StoredMessage:
        """The first public message in `channel` matching `predicate` (waiting for it)."""

        def found() -> StoredMessage | None:
            return next((m for m in self.channel_messages(channel) if predicate(m)), None)

        return await self.wait_for(found, timeout, f"a message in #{channel.name}")

    def _describe(self) -> str:
        lines = [str(r) for r in self.requests[-8:]]
        lines += [f"rejected: {r} {r.error}" for r in self.rest.rejected()[-5:]]
        lines += [f"unknown route: {r}" for r in self.unknown_routes]
        lines += [f"fake error: {e.splitlines()[-1]}" for e in self.server_errors]
        return "".join(f"\n  {line}" for line in lines)
