"""The fake's world: users, guilds, channels, messages and interactions.

These are plain records. The store mutates them; tests read them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

JSON = dict[str, Any]
_Copied = TypeVar("_Copied")


def json_copy(value: _Copied) -> _Copied:
    """A deep copy of JSON data (dicts, lists, strings, numbers), through orjson: a
    tenth of ``copy.deepcopy``'s time, which the fake spent most of its own in
    (every message version it keeps); anything else goes to ``copy.deepcopy``."""
    try:
        copied: _Copied = orjson.loads(orjson.dumps(value))
    except TypeError:
        return copy.deepcopy(value)
    return copied


T = TypeVar("T")

# Message flags (https://discord.com/developers/docs/resources/message#message-object-message-flags)
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

# Channel types
GUILD_TEXT = 0
DM = 1

# Interaction types
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    global_name: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass(frozen=True)
class Overwrite:
    """A channel permission overwrite; kind 0 = role, 1 = member."""

    target_id: int
    kind: int
    allow: int = 0
    deny: int = 0

    @classmethod
    def for_role(cls, role: FakeRole, *, allow: int = 0, deny: int = 0) -> Overwrite:
        return cls(role.id, 0, allow, deny)

    @classmethod
    def for_user(cls, user: FakeUser, *, allow: int = 0, deny: int = 0) -> Overwrite:
        return cls(user.id, 1, allow, deny)


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int
    guild_id: int | None
    position: int = 0
    topic: str | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    recipient_id: int | None = None
    last_message_id: int | None = None

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass(eq=False)
class FakeMember:
    user: FakeUser
    guild_id: int
    role_ids: list[int]
    joined_at: str
    nick: str | None = None


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    joined_at: str
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def member(self, user: FakeUser) -> FakeMember:
        try:
            return self.members[user.id]
        except KeyError:
            raise LookupError(f"{user.name} is not a member of {self.name}") from None

    def channel_named(self, name: str) -> FakeChannel:
        return _one(self.channels.values(), lambda c: c.name == name, f"channel {name!r}")

    def role_named(self, name: str) -> FakeRole:
        return _one(self.roles.values(), lambda r: r.name == name, f"role {name!r}")


@dataclass(eq=False)
class StoredAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(eq=False)
class StoredMessage:
    """One message as the fake holds it now; `history` keeps every version sent."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    timestamp: str
    type: int = 0
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    edited_timestamp: str | None = None
    ephemeral_to: int | None = None
    webhook_id: int | None = None
    interaction_metadata: JSON | None = None
    message_reference: JSON | None = None
    allowed_mentions: JSON | None = None
    extra: JSON = field(default_factory=dict)
    deleted: bool = False
    history: list[JSON] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def payload(self) -> JSON:
        """The message as Discord would return it now."""
        return self.history[-1]

    @property
    def embed(self) -> JSON:
        """The only embed (raises if there is not exactly one)."""
        if len(self.embeds) != 1:
            raise LookupError(f"message {self.id} has {len(self.embeds)} embeds")
        return self.embeds[0]

    def attachment(self, filename: str) -> StoredAttachment:
        return _one(self.attachments, lambda a: a.filename == filename, f"attachment {filename!r}")

    def text(self) -> str:
        """Everything readable in the current version, as JSON text (for `in` checks)."""
        return json.dumps(self.payload, ensure_ascii=False)


@dataclass(eq=False)
class UploadedFile:
    """A file part of a multipart request (`files[n]`)."""

    index: int
    filename: str
    data: bytes
    content_type: str


@dataclass(eq=False)
class Upload:
    """A file a simulated user attaches to a slash command option."""

    filename: str
    data: bytes
    content_type: str = "application/octet-stream"


@dataclass(eq=False)
class CallbackRecord:
    """One POST /interactions/{id}/{token}/callback the bot made."""

    type: int
    data: JSON
    latency: float
    accepted: bool
    error: str | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.data.get("flags", 0) & EPHEMERAL)


Waiter = Callable[[Callable[[], Any], float, str], Awaitable[Any]]


@dataclass(eq=False)
class InteractionRecord:
    """An interaction a simulated user started, and everything the bot answered."""

    id: int
    token: str
    kind: int
    user: FakeUser
    channel: FakeChannel
    payload: JSON
    created_at: float
    deadline: float | None
    waiter: Waiter
    source_message: StoredMessage | None = None
    source_version: int = 0
    callbacks: list[CallbackRecord] = field(default_factory=list)
    original: StoredMessage | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    modal: JSON | None = None
    choices: list[JSON] | None = None

    @property
    def response(self) -> CallbackRecord | None:
        """The accepted initial response, if any."""
        return next((c for c in self.callbacks if c.accepted), None)

    @property
    def response_type(self) -> int | None:
        response = self.response
        return None if response is None else response.type

    @property
    def latency(self) -> float | None:
        first = self.callbacks[0] if self.callbacks else None
        return None if first is None else first.latency

    @property
    def deadline_met(self) -> bool:
        """True when the bot answered (accepted) within the 3-second window."""
        response = self.response
        limit = 3.0 if self.deadline is None else self.deadline
        return response is not None and response.latency <= limit

    @property
    def ephemeral(self) -> bool:
        if self.original is not None:
            return self.original.ephemeral
        response = self.response
        return response is not None and response.ephemeral

    @property
    def visible_to(self) -> FakeUser | None:
        """Who saw the response: the invoking user if ephemeral, None if public."""
        return self.user if self.ephemeral else None

    @property
    def message(self) -> StoredMessage:
        """The message the response created or edited (`@original`)."""
        if self.original is None:
            raise LookupError(f"interaction {self.id} has no response message")
        return self.original

    @property
    def content(self) -> str:
        return self.message.content

    @property
    def embeds(self) -> list[JSON]:
        return self.message.embeds

    @property
    def components(self) -> list[JSON]:
        return self.message.components

    def settled(self) -> bool:
        """Answered, and no longer "thinking" or waiting for a deferred edit."""
        response = self.response
        if response is None:
            return False
        if response.type == 5:
            return self.original is not None and not self.original.loading
        if response.type == 6:
            edited = self.source_message is not None and (
                len(self.source_message.history) > self.source_version
            )
            return edited or bool(self.followups)
        return True

    async def wait_response(self, timeout: float = 5.0) -> CallbackRecord:
        """Wait for the bot's initial response (accepted by the fake)."""
        result: CallbackRecord = await self.waiter(
            lambda: self.response, timeout, f"a response to interaction {self.id}"
        )
        return result

    async def wait_settled(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait until the answer is complete (deferred responses edited or followed up)."""
        await self.waiter(self.settled, timeout, f"interaction {self.id} to settle")
        return self

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[StoredMessage]:
        def enough() -> list[StoredMessage] | None:
            return self.followups if len(self.followups) >= count else None

        result: list[StoredMessage] = await self.waiter(
            enough, timeout, f"{count} follow-up(s) to interaction {self.id}"
        )
        return result


def _one(items: Iterable[T], predicate: Callable[[T], bool], what: str) -> T:
    found = [item for item in items if predicate(item)]
    if len(found) != 1:
        raise LookupError(f"expected one {what}, found {len(found)}")
    return found[0]
