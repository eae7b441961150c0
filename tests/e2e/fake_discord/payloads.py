"""JSON payloads shaped like Discord's (every field discord.py's types/*.py require)."""

from __future__ import annotations

import re

from .models import (
    JSON,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    StoredAttachment,
    StoredMessage,
)

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")


def user(u: FakeUser) -> JSON:
    return {
        "id": str(u.id),
        "username": u.name,
        "discriminator": "0",
        "global_name": u.global_name,
        "avatar": None,
        "bot": u.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
    }


def current_user(u: FakeUser) -> JSON:
    """GET /users/@me for the bot."""
    return {
        **user(u),
        "verified": True,
        "mfa_enabled": False,
        "locale": u.locale,
        "email": None,
        "premium_type": 0,
        "banner": None,
        "accent_color": None,
    }


def role(r: FakeRole) -> JSON:
    payload: JSON = {
        "id": str(r.id),
        "name": r.name,
        "color": r.color,
        "colors": {"primary_color": r.color, "secondary_color": None, "tertiary_color": None},
        "hoist": r.hoist,
        "position": r.position,
        "permissions": str(r.permissions),
        "managed": r.bot_id is not None,
        "mentionable": r.mentionable,
        "flags": 0,
        "icon": None,
        "unicode_emoji": None,
    }
    if r.bot_id is not None:
        payload["tags"] = {"bot_id": str(r.bot_id)}
    return payload


def member(m: FakeMember, *, with_user: bool = True, permissions: int | None = None) -> JSON:
    payload: JSON = {
        "roles": [str(r) for r in m.role_ids],
        "joined_at": m.joined_at,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "nick": m.nick,
        "avatar": None,
        "banner": None,
        "premium_since": None,
        "communication_disabled_until": None,
    }
    if with_user:
        payload["user"] = user(m.user)
    if permissions is not None:
        payload["permissions"] = str(permissions)
    return payload


def channel(c: FakeChannel, recipient: FakeUser | None = None) -> JSON:
    last = None if c.last_message_id is None else str(c.last_message_id)
    if c.is_dm:
        recipients = [] if recipient is None else [user(recipient)]
        return {
            "id": str(c.id),
            "type": 1,
            "last_message_id": last,
            "recipients": recipients,
            "flags": 0,
        }
    return {
        "id": str(c.id),
        "type": c.type,
        "guild_id": str(c.guild_id),
        "name": c.name,
        "position": c.position,
        "permission_overwrites": [
            {"id": str(o.target_id), "type": o.kind, "allow": str(o.allow), "deny": str(o.deny)}
            for o in c.overwrites
        ],
        "nsfw": False,
        "parent_id": None,
        "topic": c.topic,
        "last_message_id": last,
        "rate_limit_per_user": 0,
        "default_auto_archive_duration": 1440,
        "default_thread_rate_limit_per_user": 0,
        "flags": 0,
    }


def guild(g: FakeGuild) -> JSON:
    """The guild object of GET /guilds/{id} (no members or channels)."""
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "icon_hash": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(g.owner_id),
        "region": "us-west",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "widget_enabled": False,
        "widget_channel_id": None,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role(r) for r in g.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "nsfw_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": g.locale,
        "max_members": 500000,
        "max_presences": None,
        "max_video_channel_users": 25,
        "incidents_data": None,
        "stage_instances": [],
        "guild_scheduled_events": [],
    }


def guild_create(g: FakeGuild, *, from_ready: bool, all_members: bool, bot_id: int) -> JSON:
    """The full GUILD_CREATE dispatch: channels, roles and members.

    Without the GUILD_MEMBERS intent Discord only includes the bot's own member.
    """
    members = [m for m in g.members.values() if all_members or m.user.id == bot_id]
    payload = guild(g)
    payload.update(
        {
            "joined_at": g.joined_at,
            "large": False,
            "member_count": len(g.members),
            "members": [member(m) for m in members],
            "channels": [channel(c) for c in g.channels.values()],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "soundboard_sounds": [],
        }
    )
    if from_ready:
        payload["unavailable"] = False
    return payload


def attachment(a: StoredAttachment, *, ephemeral: bool) -> JSON:
    payload: JSON = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": a.url,
        "proxy_url": a.url,
        "content_type": a.content_type,
        "flags": 0,
    }
    if a.description is not None:
        payload["description"] = a.description
    if ephemeral:
        payload["ephemeral"] = True
    return payload


def message(m: StoredMessage, *, mentions: list[FakeUser], role_ids: list[int]) -> JSON:
    payload: JSON = {
        "id": str(m.id),
        "type": m.type,
        "channel_id": str(m.channel_id),
        "author": user(m.author),
        "content": m.content,
        "timestamp": m.timestamp,
        "edited_timestamp": m.edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [user(u) for u in mentions],
        "mention_roles": [str(r) for r in role_ids],
        "attachments": [attachment(a, ephemeral=m.ephemeral) for a in m.attachments],
        "embeds": m.embeds,
        "components": m.components,
        "pinned": False,
        "flags": m.flags,
    }
    if m.guild_id is not None:
        payload["guild_id"] = str(m.guild_id)
    if m.webhook_id is not None:
        payload["webhook_id"] = str(m.webhook_id)
        payload["application_id"] = str(m.webhook_id)
    if m.interaction_metadata is not None:
        payload["interaction_metadata"] = m.interaction_metadata
    if m.message_reference is not None:
        payload["message_reference"] = m.message_reference
    payload.update(m.extra)
    return payload


def mentioned_ids(content: str) -> tuple[list[int], list[int]]:
    """User ids and role ids mentioned in a message's content."""
    users = [int(x) for x in USER_MENTION.findall(content)]
    roles = [int(x) for x in ROLE_MENTION.findall(content)]
    return list(dict.fromkeys(users)), list(dict.fromkeys(roles))
