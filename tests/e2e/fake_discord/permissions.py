"""Discord's permission arithmetic (base permissions, then channel overwrites)."""

from __future__ import annotations

from .models import FakeChannel, FakeGuild, FakeMember

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38

ALL = (1 << 53) - 1

DEFAULT_EVERYONE = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)

DEFAULT_BOT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | SEND_MESSAGES_IN_THREADS
)


def base_permissions(guild: FakeGuild, member: FakeMember) -> int:
    """Guild-wide permissions: owner, @everyone, then roles; Administrator means all."""
    if member.user.id == guild.owner_id:
        return ALL
    value = guild.everyone.permissions
    for role_id in member.role_ids:
        value |= guild.roles[role_id].permissions
    return ALL if value & ADMINISTRATOR else value


def channel_permissions(guild: FakeGuild, member: FakeMember, channel: FakeChannel) -> int:
    """Permissions in one channel, overwrites applied in Discord's order."""
    value = base_permissions(guild, member)
    if value == ALL:
        return ALL
    overwrites = {(o.kind, o.target_id): o for o in channel.overwrites}
    everyone = overwrites.get((0, guild.id))
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    role_allow = role_deny = 0
    for role_id in member.role_ids:
        own = overwrites.get((0, role_id))
        if own is not None:
            role_allow |= own.allow
            role_deny |= own.deny
    value = (value & ~role_deny) | role_allow
    personal = overwrites.get((1, member.user.id))
    if personal is not None:
        value = (value & ~personal.deny) | personal.allow
    return value
