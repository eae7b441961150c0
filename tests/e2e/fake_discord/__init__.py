"""A fake Discord server (REST + gateway on 127.0.0.1) for end-to-end tests.

The real discord.py client talks to it over HTTP and a websocket; tests act as
users and assert on everything each user saw. Start with `FakeDiscord`.
"""

from .changes import ClientCrashed
from .components import component, components_of, custom_id_of, labels, option_values
from .errors import ApiError
from .interactions import InteractionRefused
from .logguard import DiscordLogGuard
from .models import (
    CallbackRecord,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    InteractionRecord,
    Overwrite,
    StoredAttachment,
    StoredMessage,
    Upload,
)
from .permissions import ADMINISTRATOR, MANAGE_GUILD
from .rest import RequestRecord
from .server import FakeDiscord

__all__ = [
    "ADMINISTRATOR",
    "MANAGE_GUILD",
    "ApiError",
    "CallbackRecord",
    "ClientCrashed",
    "DiscordLogGuard",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "InteractionRecord",
    "InteractionRefused",
    "Overwrite",
    "RequestRecord",
    "StoredAttachment",
    "StoredMessage",
    "Upload",
    "component",
    "components_of",
    "custom_id_of",
    "labels",
    "option_values",
]
