"""The fake gateway: HELLO, IDENTIFY/READY, GUILD_CREATE, heartbeats, RESUME, dispatches.

Frames are plain JSON text. discord.py asks for `compress=zlib-stream` in the URL but
only decompresses *binary* frames; text frames are parsed as they are.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field

from aiohttp import WSMsgType, web

from . import payloads
from .models import JSON, FakeGuild
from .store import GUILD_MEMBERS_INTENT, GUILDS_INTENT, Store

DISPATCH, HEARTBEAT, IDENTIFY = 0, 1, 2
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11
MESSAGE_CONTENT_INTENT = 1 << 15
HEARTBEAT_INTERVAL_MS = 41_250
AUTHENTICATION_FAILED = 4004
CLEAN_CLOSE_CODES = (1000, 1001)


class Connection:
    """One websocket; frames go out in order through a queue and a writer task."""

    def __init__(self, ws: web.WebSocketResponse, path: str, query: dict[str, str]) -> None:
        self.ws = ws
        self.path = path
        self.query = query
        self.session: Session | None = None
        self._closing: asyncio.Task[None] | None = None
        self.finished = asyncio.Event()
        self.closed_by_server = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, frame: str) -> None:
        self._queue.put_nowait(frame)

    def send_op(self, op: int, data: object) -> None:
        self.send(json.dumps({"op": op, "d": data, "s": None, "t": None}))

    def close_after_flush(self, code: int) -> None:
        self._closing = asyncio.create_task(self._close(code))

    async def _close(self, code: int) -> None:
        await self.drain()
        await self.close(code)

    async def close(self, code: int) -> None:
        """Close from the server side (the session stays resumable unless invalidated)."""
        self.closed_by_server = True
        await self.ws.close(code=code, message=b"closed by fake discord")

    async def drain(self) -> None:
        await self._queue.join()

    async def stop(self) -> None:
        self._queue.put_nowait(None)
        await self._writer

    async def _write(self) -> None:
        while True:
            frame = await self._queue.get()
            try:
                if frame is None:
                    return
                if not self.ws.closed:
                    with contextlib.suppress(ConnectionError):
                        await self.ws.send_str(frame)
            finally:
                self._queue.task_done()


@dataclass(eq=False)
class Session:
    id: str
    intents: int
    shard: list[int]
    seq: int = 0
    backlog: list[tuple[int, str]] = field(default_factory=list)
    connection: Connection | None = None
    invalid: bool = False

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the events of ``guild_id``: the guilds
        of its shard (``(guild_id >> 22) % shard_count``); DMs go to shard 0."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id


class Gateway:
    """Sessions, their sequence numbers and backlogs (for RESUME), and the ws handler."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.url = ""
        self.resume_url = ""
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.identifies = 0
        self.resumes = 0
        self.invalidated = 0
        self.connection_paths: list[str] = []
        self._open = asyncio.Event()
        self._open.set()

    def hold(self) -> None:
        """New connections wait (before HELLO) until `release()`; the bot sees a slow gateway."""
        self._open.clear()

    def release(self) -> None:
        self._open.set()

    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.connection is not None and not s.invalid]

    # ---- dispatching ---------------------------------------------------------------------

    def dispatch(
        self, event: str, data: JSON, intent: int | None = None, needs_content: bool = False
    ) -> None:
        """Send an event (with the next `s`) to every session that asked for it and
        whose shard owns the event's guild (its ``guild_id``; none: shard 0).

        Sessions that are disconnected but resumable keep it in their backlog.
        """
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        for session in self.sessions.values():
            if session.invalid or (intent is not None and not session.intents & intent):
                continue
            if not session.owns(guild_id):
                continue
            body = data
            if needs_content and not session.intents & MESSAGE_CONTENT_INTENT:
                body = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
            self._dispatch_to(session, event, body)

    def dispatch_guild_create(self, guild: FakeGuild) -> None:
        """A guild the bot joined while connected (GUILD_CREATE without `unavailable`)."""
        for session in self.sessions.values():
            if not session.invalid and session.intents & GUILDS_INTENT and session.owns(guild.id):
                self._guild_create(session, guild, from_ready=False)

    def _guild_create(self, session: Session, guild: FakeGuild, *, from_ready: bool) -> None:
        all_members = bool(session.intents & GUILD_MEMBERS_INTENT)
        data = payloads.guild_create(
            guild, from_ready=from_ready, all_members=all_members, bot_id=self.store.bot.id
        )
        self._dispatch_to(session, "GUILD_CREATE", data)

    def _dispatch_to(self, session: Session, event: str, data: JSON) -> None:
        session.seq += 1
        frame = json.dumps({"op": DISPATCH, "s": session.seq, "t": event, "d": data})
        session.backlog.append((session.seq, frame))
        if session.connection is not None:
            session.connection.send(frame)

    async def flush(self) -> None:
        """Wait until every queued frame was written to its socket."""
        for connection in list(self.connections):
            await connection.drain()

    async def drop(self, *, resumable: bool = True) -> None:
        """Close every live socket with 4000, as when Discord drops a connection."""
        for session in self.live_sessions():
            connection = session.connection
            if not resumable:
                session.invalid = True
            if connection is not None:
                await connection.drain()
                await connection.close(4000)
                await connection.finished.wait()

    async def request_reconnect(self) -> None:
        """Send RECONNECT (op 7): the bot closes its socket and resumes."""
        for session in self.live_sessions():
            if session.connection is not None:
                session.connection.send_op(RECONNECT, None)
        await self.flush()

    async def close(self) -> None:
        self.release()
        for connection in list(self.connections):
            if not connection.ws.closed:
                await connection.close(1001)

    # ---- websocket handler ---------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connection_paths.append(request.path)
        await self._open.wait()
        connection = Connection(ws, request.path, dict(request.query))
        self.connections.append(connection)
        connection.send_op(HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    self._on_frame(connection, json.loads(message.data))
        finally:
            self.connections.remove(connection)
            self._detach(connection, ws.close_code)
            await connection.stop()
            connection.finished.set()
        return ws

    def _on_frame(self, connection: Connection, frame: JSON) -> None:
        """Answer one client frame (heartbeats, IDENTIFY, RESUME, member requests)."""
        op, data = frame.get("op"), frame.get("d") or {}
        if op == HEARTBEAT:
            connection.send_op(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            self._identify(connection, data)
        elif op == RESUME:
            self._resume(connection, data)
        elif op == REQUEST_MEMBERS:
            self._members_chunk(connection, data)

    def _identify(self, connection: Connection, data: JSON) -> None:
        if data.get("token") != self.store.token:
            connection.close_after_flush(AUTHENTICATION_FAILED)
            return
        session = Session(
            secrets.token_hex(16), int(data.get("intents", 0)), data.get("shard", [0, 1])
        )
        self.sessions[session.id] = session
        self._attach(connection, session)
        self.identifies += 1
        self._dispatch_to(session, "READY", self._ready(session))
        if session.intents & GUILDS_INTENT:
            for guild in self._shard_guilds(session):
                self._guild_create(session, guild, from_ready=True)
        self.store.changes.notify()

    def _resume(self, connection: Connection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.invalid or data.get("token") != self.store.token:
            self.invalidated += 1
            connection.send_op(INVALID_SESSION, False)
            return
        self._attach(connection, session)
        self.resumes += 1
        last_seen = int(data.get("seq") or 0)
        for seq, frame in session.backlog:
            if seq > last_seen:
                connection.send(frame)
        self._dispatch_to(session, "RESUMED", {})
        self.store.changes.notify()

    def _members_chunk(self, connection: Connection, data: JSON) -> None:
        session = connection.session
        guild = self.store.guilds.get(int(data.get("guild_id", 0)))
        if session is None or guild is None or not session.intents & GUILD_MEMBERS_INTENT:
            return
        query = str(data.get("query") or "").lower()
        wanted = {int(u) for u in data.get("user_ids") or []}
        members = [
            payloads.member(m)
            for m in guild.members.values()
            if (not wanted or m.user.id in wanted) and m.user.name.lower().startswith(query)
        ]
        limit = int(data.get("limit") or 0)
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": members[:limit] if limit else members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if "nonce" in data:
            chunk["nonce"] = data["nonce"]
        self._dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)

    def _ready(self, session: Session) -> JSON:
        return {
            "v": 10,
            "user": payloads.current_user(self.store.bot),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self._shard_guilds(session)],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url,
            "shard": session.shard,
            "application": {"id": str(self.store.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["us-west"],
            "auth": {},
            "user_settings": {},
            "_trace": ["fake-discord"],
        }

    def _shard_guilds(self, session: Session) -> list[FakeGuild]:
        return [g for g in self.store.guilds.values() if session.owns(g.id)]

    def _attach(self, connection: Connection, session: Session) -> None:
        previous = session.connection
        if previous is not None and previous is not connection:
            previous.session = None
        connection.session = session
        session.connection = connection

    def _detach(self, connection: Connection, close_code: int | None) -> None:
        session = connection.session
        if session is not None and session.connection is connection:
            session.connection = None
            if close_code in CLEAN_CLOSE_CODES and not connection.closed_by_server:
                session.invalid = True
        self.store.changes.notify()
