"""The fake REST API (under /api/v10), answering exactly what discord.py 2.7 reads."""

from __future__ import annotations

import asyncio
import collections
import json
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler

from . import payloads
from .content import Body, read_body
from .errors import UNKNOWN_GUILD, UNKNOWN_MEMBER, UNKNOWN_MESSAGE, ApiError, unknown
from .models import JSON, FakeGuild, StoredMessage, json_copy
from .store import Store

API = "/api/v10"
NO_AUTH_PREFIXES = (f"{API}/webhooks/", f"{API}/interactions/", f"{API}/gateway")


@dataclass(eq=False)
class RequestRecord:
    """One REST request the bot made, and the status the fake answered."""

    method: str
    path: str
    query: dict[str, str]
    body: JSON | None = None
    files: list[str] = field(default_factory=list)
    status: int = 0
    error: JSON | None = None

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


RECORD = web.RequestKey("record", RequestRecord)


@dataclass(eq=False)
class Gate:
    """Holds the first REST request matching ``method`` and a ``path`` prefix:
    ``before`` the fake handles it (nothing happened yet) or after (Discord did it,
    the answer is not sent yet) — a test kills the bot there. ``reached`` is set
    when a request waits at the gate; ``release`` lets it go on."""

    method: str
    path: str
    before: bool
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    held: RequestRecord | None = None
    dropped: bool = False

    def drop(self) -> None:
        """Let the held request go without Discord doing it (the bot died first)."""
        self.dropped = True
        self.release.set()

    def matches(self, record: RequestRecord) -> bool:
        return (
            self.held is None and record.method == self.method and record.path.startswith(self.path)
        )


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with `Content-Type: application/json` exactly (discord.py checks equality)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        content_type="application/json",
        headers=headers,
    )


def no_content() -> web.Response:
    return web.Response(status=204)


EXEMPT_FROM_GLOBAL_LIMIT = (f"{API}/interactions/", f"{API}/webhooks/")
"""Interaction responses and follow-ups: Discord does not count them."""


class GlobalLimit:
    """Discord's global rate limit of a bot: at most ``per_second`` requests in any
    second (interaction endpoints exempt); beyond it, a 429 saying when to retry."""

    def __init__(self, per_second: int) -> None:
        self.per_second = per_second
        self._recent: collections.deque[float] = collections.deque()

    def retry_after(self, now: float) -> float:
        """0 when a request may go now (and it is counted), else seconds to wait."""
        while self._recent and now - self._recent[0] >= 1.0:
            self._recent.popleft()
        if len(self._recent) < self.per_second:
            self._recent.append(now)
            return 0.0
        return 1.0 - (now - self._recent[0])


class RestApi:
    def __init__(self, store: Store, gateway_url: str = "") -> None:
        self.store = store
        self.gateway_url = gateway_url
        self.global_limit: GlobalLimit | None = None
        """Set: the bot's requests beyond it are answered 429 (off by default)."""
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[str] = []
        self.server_errors: list[str] = []
        self.gates: list[Gate] = []

    def gate(self, method: str, path: str, *, before: bool) -> Gate:
        """Hold the next ``method`` request under ``path`` (see ``Gate``)."""
        gate = Gate(method, path, before)
        self.gates.append(gate)
        return gate

    async def _pass_gate(self, record: RequestRecord, *, before: bool) -> None:
        gate = next((g for g in self.gates if g.before is before and g.matches(record)), None)
        if gate is None:
            return
        gate.held = record
        self.gates.remove(gate)
        gate.reached.set()
        await gate.release.wait()
        if before and gate.dropped:
            raise web.HTTPServiceUnavailable()

    def rejected(self) -> list[RequestRecord]:
        return [r for r in self.requests if r.status >= 400]

    # ---- plumbing ------------------------------------------------------------------------

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        record = RequestRecord(request.method, request.path.removeprefix(API), dict(request.query))
        request[RECORD] = record
        if request.path.startswith(API):
            self.requests.append(record)
        if (limited := self._over_global_limit(request)) is not None:
            record.status = limited.status
            return limited
        try:
            self._check_auth(request)
            await self._pass_gate(record, before=True)
            response = await handler(request)
            await self._pass_gate(record, before=False)
        except ApiError as error:
            record.error = error.body()
            response = json_response(error.body(), error.status)
        except web.HTTPException:
            raise
        except Exception as error:
            self.server_errors.append(traceback.format_exc())
            body = {"message": f"fake discord crashed: {error!r}", "code": 0}
            response = json_response(body, 400)
        record.status = response.status
        self.store.changes.notify()
        return response

    def _over_global_limit(self, request: web.Request) -> web.Response | None:
        path = request.path
        if self.global_limit is None or not path.startswith(API):
            return None
        if path.startswith(EXEMPT_FROM_GLOBAL_LIMIT):
            return None
        wait = self.global_limit.retry_after(time.monotonic())
        if not wait:
            return None
        body = {"message": "You are being rate limited.", "retry_after": wait, "global": True}
        headers = {
            "Retry-After": f"{wait:.3f}",
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
            "Via": "1.1 google",  # Discord's own 429s carry it (discord.py: else a ban)
        }
        return json_response(body, 429, headers=headers)

    def _check_auth(self, request: web.Request) -> None:
        path = request.path
        if not path.startswith(API) or path.startswith(NO_AUTH_PREFIXES):
            return
        if request.headers.get("Authorization") != f"Bot {self.store.token}":
            raise ApiError(401, 0, "401: Unauthorized")

    async def body(self, request: web.Request) -> Body:
        body = await read_body(request)
        record = request[RECORD]
        record.body = json_copy(body.payload)
        record.files = [f.filename for f in body.files]
        return body

    def routes(self) -> list[web.RouteDef]:
        a = API
        return [
            web.get(f"{a}/gateway", self.get_gateway),
            web.get(f"{a}/gateway/bot", self.get_gateway_bot),
            web.get(f"{a}/users/@me", self.get_me),
            web.get(f"{a}/users/{{user_id:\\d+}}", self.get_user),
            web.post(f"{a}/users/@me/channels", self.open_dm),
            web.get(f"{a}/oauth2/applications/@me", self.get_application),
            web.get(f"{a}/applications/{{app:\\d+}}/commands", self.get_commands),
            web.put(f"{a}/applications/{{app:\\d+}}/commands", self.put_commands),
            web.get(
                f"{a}/applications/{{app:\\d+}}/guilds/{{guild_id:\\d+}}/commands",
                self.get_commands,
            ),
            web.put(
                f"{a}/applications/{{app:\\d+}}/guilds/{{guild_id:\\d+}}/commands",
                self.put_commands,
            ),
            web.get(f"{a}/channels/{{channel_id:\\d+}}", self.get_channel),
            web.get(f"{a}/channels/{{channel_id:\\d+}}/messages", self.get_history),
            web.post(f"{a}/channels/{{channel_id:\\d+}}/messages", self.post_message),
            web.post(f"{a}/channels/{{channel_id:\\d+}}/typing", self.typing),
            web.get(
                f"{a}/channels/{{channel_id:\\d+}}/messages/{{message_id:\\d+}}", self.get_message
            ),
            web.patch(
                f"{a}/channels/{{channel_id:\\d+}}/messages/{{message_id:\\d+}}", self.edit_message
            ),
            web.delete(
                f"{a}/channels/{{channel_id:\\d+}}/messages/{{message_id:\\d+}}",
                self.delete_message,
            ),
            web.get(f"{a}/guilds/{{guild_id:\\d+}}", self.get_guild),
            web.get(f"{a}/guilds/{{guild_id:\\d+}}/roles", self.get_roles),
            web.get(f"{a}/guilds/{{guild_id:\\d+}}/channels", self.get_guild_channels),
            web.get(f"{a}/guilds/{{guild_id:\\d+}}/members", self.get_members),
            web.get(f"{a}/guilds/{{guild_id:\\d+}}/members/{{user_id:\\d+}}", self.get_member),
            web.post(f"{a}/interactions/{{interaction_id:\\d+}}/{{token}}/callback", self.callback),
            web.post(f"{a}/webhooks/{{app:\\d+}}/{{token}}", self.followup),
            web.get(
                f"{a}/webhooks/{{app:\\d+}}/{{token}}/messages/{{ref}}", self.get_webhook_message
            ),
            web.patch(
                f"{a}/webhooks/{{app:\\d+}}/{{token}}/messages/{{ref}}", self.edit_webhook_message
            ),
            web.delete(
                f"{a}/webhooks/{{app:\\d+}}/{{token}}/messages/{{ref}}", self.delete_webhook_message
            ),
            web.get(
                "/attachments/{channel_id:\\d+}/{attachment_id:\\d+}/{name}", self.get_attachment
            ),
            web.get("/uploads/{attachment_id:\\d+}/{name}", self.get_upload),
            web.route("*", "/{tail:.*}", self.unknown_route),
        ]

    async def unknown_route(self, request: web.Request) -> web.Response:
        self.unknown_routes.append(f"{request.method} {request.path}")
        return json_response({"message": "Unknown route", "code": 0}, 404)

    # ---- gateway, users, application -----------------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response(payloads.current_user(self.store.bot))

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.store.user(int(request.match_info["user_id"]))
        return json_response(payloads.user(user))

    async def get_application(self, request: web.Request) -> web.Response:
        store = self.store
        return json_response(
            {
                "id": str(store.application_id),
                "name": store.bot.name,
                "icon": None,
                "description": "",
                "summary": "",
                "verify_key": "0" * 64,
                "flags": 0,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": payloads.user(store.app_owner),
                "team": None,
                "rpc_origins": [],
                "redirect_uris": [],
                "tags": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(store.guilds),
                "bot": payloads.current_user(store.bot),
            }
        )

    async def open_dm(self, request: web.Request) -> web.Response:
        body = await self.body(request)
        channel = self.store.open_dm(int(body.payload["recipient_id"]))
        return json_response(self.store.channel_json(channel))

    # ---- application commands ------------------------------------------------------------

    def _app_guild(self, request: web.Request) -> int | None:
        if int(request.match_info["app"]) != self.store.application_id:
            raise ApiError(403, 50001, "Missing Access")
        guild_id = request.match_info.get("guild_id")
        if guild_id is not None and int(guild_id) not in self.store.guilds:
            raise unknown("Guild", UNKNOWN_GUILD)
        return None if guild_id is None else int(guild_id)

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.store.commands_for(self._app_guild(request)))

    async def put_commands(self, request: web.Request) -> web.Response:
        guild_id = self._app_guild(request)
        commands: list[JSON] = await request.json()
        record = request[RECORD]
        record.body = {"commands": json_copy(commands)}
        return json_response(self.store.put_commands(guild_id, commands))

    # ---- channels and messages -----------------------------------------------------------

    def _ids(self, request: web.Request) -> tuple[int, int]:
        return int(request.match_info["channel_id"]), int(request.match_info["message_id"])

    def _message(self, message: StoredMessage) -> web.Response:
        return json_response(message.payload)

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.store.channel(int(request.match_info["channel_id"]))
        return json_response(self.store.channel_json(channel))

    async def get_history(self, request: web.Request) -> web.Response:
        query = request.query
        found = self.store.channel_history(
            int(request.match_info["channel_id"]),
            limit=min(int(query.get("limit", 50)), 100),
            before=int(query["before"]) if "before" in query else None,
            after=int(query["after"]) if "after" in query else None,
        )
        return json_response([m.payload for m in found])

    async def post_message(self, request: web.Request) -> web.Response:
        body = await self.body(request)
        channel_id = int(request.match_info["channel_id"])
        return self._message(self.store.post_channel_message(channel_id, body))

    async def typing(self, request: web.Request) -> web.Response:
        self.store.channel(int(request.match_info["channel_id"]))
        return no_content()

    async def get_message(self, request: web.Request) -> web.Response:
        return self._message(self.store.visible_message(*self._ids(request)))

    async def edit_message(self, request: web.Request) -> web.Response:
        body = await self.body(request)
        return self._message(self.store.edit_channel_message(*self._ids(request), body))

    async def delete_message(self, request: web.Request) -> web.Response:
        self.store.delete_channel_message(*self._ids(request))
        return no_content()

    async def get_attachment(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["attachment_id"])
        for message in self.store.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        raise unknown("Attachment", UNKNOWN_MESSAGE)

    async def get_upload(self, request: web.Request) -> web.Response:
        upload = self.store.uploads.get(int(request.match_info["attachment_id"]))
        if upload is None:
            raise unknown("Attachment", UNKNOWN_MESSAGE)
        return web.Response(body=upload.data, content_type=upload.content_type)

    # ---- guilds --------------------------------------------------------------------------

    def _guild(self, request: web.Request) -> FakeGuild:
        guild = self.store.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise unknown("Guild", UNKNOWN_GUILD)
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        data = payloads.guild(guild)
        if request.query.get("with_counts") in ("1", "true"):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return json_response(data)

    async def get_roles(self, request: web.Request) -> web.Response:
        return json_response([payloads.role(r) for r in self._guild(request).roles.values()])

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        channels = self._guild(request).channels.values()
        return json_response([self.store.channel_json(c) for c in channels])

    async def get_members(self, request: web.Request) -> web.Response:
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = sorted(self._guild(request).members.values(), key=lambda m: m.user.id)
        chosen = [m for m in members if m.user.id > after][:limit]
        return json_response([payloads.member(m) for m in chosen])

    async def get_member(self, request: web.Request) -> web.Response:
        member = self._guild(request).members.get(int(request.match_info["user_id"]))
        if member is None:
            raise unknown("Member", UNKNOWN_MEMBER)
        return json_response(payloads.member(member))

    # ---- interactions --------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        body = await self.body(request)
        interaction_id = int(request.match_info["interaction_id"])
        answer = self.store.interaction_callback(interaction_id, request.match_info["token"], body)
        if request.query.get("with_response") in ("1", "true", "True"):
            return json_response(answer)
        return no_content()

    def _app(self, request: web.Request) -> tuple[int, str]:
        return int(request.match_info["app"]), request.match_info["token"]

    async def followup(self, request: web.Request) -> web.Response:
        body = await self.body(request)
        message = self.store.followup(*self._app(request), body)
        if request.query.get("wait") in ("1", "true", "True"):
            return self._message(message)
        return no_content()

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        ref = request.match_info["ref"]
        return self._message(self.store.webhook_message(*self._app(request), ref))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        body = await self.body(request)
        message = self.store.webhook_message(*self._app(request), request.match_info["ref"])
        return self._message(self.store.edit_message(message, body))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        message = self.store.webhook_message(*self._app(request), request.match_info["ref"])
        self.store.delete_message(message)
        return no_content()
