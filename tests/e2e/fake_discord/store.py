"""The fake's state and the rules that change it (messages, DMs, commands, callbacks)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from . import payloads
from .changes import Changes
from .content import (
    Body,
    Draft,
    apply_draft,
    check_draft,
    check_modal,
    draft_for_create,
    draft_for_edit,
    normalize_components,
)
from .errors import (
    ALREADY_ACKNOWLEDGED,
    CANNOT_DM,
    CANNOT_EDIT_OTHERS,
    INVALID_WEBHOOK_TOKEN,
    MISSING_PERMISSIONS,
    UNKNOWN_CHANNEL,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    UNKNOWN_WEBHOOK,
    ApiError,
    invalid_form,
    unknown,
)
from .ids import Snowflakes, iso_now
from .models import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DM,
    EPHEMERAL,
    JSON,
    LOADING,
    MODAL_SUBMIT,
    PING,
    CallbackRecord,
    FakeChannel,
    FakeGuild,
    FakeUser,
    InteractionRecord,
    StoredAttachment,
    StoredMessage,
    UploadedFile,
    json_copy,
)
from .permissions import ATTACH_FILES, MANAGE_MESSAGES, SEND_MESSAGES, VIEW_CHANNEL
from .permissions import channel_permissions as _channel_permissions

GUILDS_INTENT = 1 << 0
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12

TOKEN_LIFETIME = 15 * 60.0
"""Discord: an interaction token is valid for 15 minutes."""
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
DISCORD_LOCALES = frozenset(
    {
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    }
)
"""The locales Discord takes in ``name_localizations`` and ``description_localizations``."""

# (event name, data, intent needed or None, content needs MESSAGE_CONTENT)
Emit = Callable[[str, JSON, int | None, bool], None]


@dataclass(frozen=True)
class CommandSync:
    """One bulk overwrite of application commands (guild_id None = global)."""

    guild_id: int | None
    commands: list[JSON]


class Store:
    """Everything the fake knows; REST handlers and test helpers both go through it."""

    def __init__(self, *, token: str, bot_name: str, response_deadline: float | None) -> None:
        self.ids = Snowflakes()
        self.token = token
        self.application_id = self.ids.next()
        self.bot = FakeUser(self.application_id, bot_name, bot=True)
        self.response_deadline = response_deadline
        self.token_lifetime = TOKEN_LIFETIME
        """Seconds an interaction's token opens its webhook (original response,
        follow-ups) after the interaction was created."""
        self.base_url = ""
        self.app_owner = FakeUser(self.ids.next(), "developer")
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot, self.app_owner.id: self.app_owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.command_syncs: list[CommandSync] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token_index: dict[str, InteractionRecord] = {}
        self._nonces: dict[tuple[int, object], StoredMessage] = {}
        """(channel id, nonce) -> the first message sent with that nonce."""
        self.rejected_dms: list[tuple[int, JSON]] = []
        self.uploads: dict[int, StoredAttachment] = {}
        self.changes = Changes()
        self.emit: Emit = lambda event, data, intent, content: None

    # ---- lookups -------------------------------------------------------------------------

    def user(self, user_id: int) -> FakeUser:
        try:
            return self.users[user_id]
        except KeyError:
            raise unknown("User", UNKNOWN_USER) from None

    def channel(self, channel_id: int) -> FakeChannel:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise unknown("Channel", UNKNOWN_CHANNEL) from None

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def permissions_in(self, user: FakeUser, channel: FakeChannel) -> int:
        guild = self.guild_of(channel)
        if guild is None:
            return VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES
        return _channel_permissions(guild, guild.member(user), channel)

    def can_see(self, user: FakeUser, message: StoredMessage) -> bool:
        channel = self.channels[message.channel_id]
        if message.deleted:
            return False
        if message.ephemeral_to is not None:
            return message.ephemeral_to == user.id
        if channel.is_dm:
            return channel.recipient_id == user.id
        guild = self.guild_of(channel)
        if guild is None or user.id not in guild.members:
            return False
        return bool(self.permissions_in(user, channel) & VIEW_CHANNEL)

    def channel_json(self, channel: FakeChannel) -> JSON:
        recipient = None if channel.recipient_id is None else self.users[channel.recipient_id]
        return payloads.channel(channel, recipient)

    # ---- messages ------------------------------------------------------------------------

    def create_message(
        self,
        channel: FakeChannel,
        body: Body,
        *,
        author: FakeUser | None = None,
        ephemeral_to: int | None = None,
        interaction: InteractionRecord | None = None,
        loading: bool = False,
    ) -> StoredMessage:
        draft = draft_for_create(body, self._attachment_factory(channel))
        if not loading:
            check_draft(draft, creating=True)
        message = StoredMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author or self.bot,
            timestamp=iso_now(),
            ephemeral_to=ephemeral_to,
            allowed_mentions=body.payload.get("allowed_mentions"),
        )
        apply_draft(message, draft)
        if body.payload.get("nonce") is not None:
            message.extra["nonce"] = body.payload["nonce"]
            self._nonces.setdefault((channel.id, body.payload["nonce"]), message)
        if ephemeral_to is not None:
            message.flags |= EPHEMERAL
        if loading:
            message.flags |= LOADING
        self._set_origin(message, body, interaction)
        self.messages[message.id] = message
        if ephemeral_to is None:
            channel.last_message_id = message.id
        self._snapshot(message)
        self._emit_message("MESSAGE_CREATE", message)
        return message

    def edit_message(self, message: StoredMessage, body: Body) -> StoredMessage:
        was_loading = message.loading
        draft: Draft = draft_for_edit(
            message, body, self._attachment_factory(self.channels[message.channel_id])
        )
        check_draft(draft, creating=was_loading)
        apply_draft(message, draft)
        message.flags &= ~LOADING
        if not was_loading:
            message.edited_timestamp = iso_now()
        self._snapshot(message)
        self._emit_message("MESSAGE_UPDATE", message)
        return message

    def delete_message(self, message: StoredMessage) -> None:
        message.deleted = True
        if message.ephemeral_to is None:
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            self.emit("MESSAGE_DELETE", data, self._message_intent(message), False)
        self.changes.notify()

    def message_json(self, message: StoredMessage) -> JSON:
        user_ids, role_ids = payloads.mentioned_ids(message.content)
        mentions = [self.users[u] for u in user_ids if u in self.users]
        return payloads.message(message, mentions=mentions, role_ids=role_ids)

    def _set_origin(
        self, message: StoredMessage, body: Body, interaction: InteractionRecord | None
    ) -> None:
        reference = body.payload.get("message_reference")
        if isinstance(reference, dict) and reference.get("message_id"):
            message.type = 19
            message.message_reference = {
                "type": 0,
                "message_id": str(reference["message_id"]),
                "channel_id": str(message.channel_id),
                **({} if message.guild_id is None else {"guild_id": str(message.guild_id)}),
            }
        if interaction is not None:
            message.webhook_id = self.application_id
            message.type = 20 if interaction.kind == APPLICATION_COMMAND else 0
            message.interaction_metadata = self._interaction_metadata(interaction)

    def _interaction_metadata(self, rec: InteractionRecord) -> JSON:
        owners = rec.payload.get("authorizing_integration_owners", {})
        metadata: JSON = {
            "id": str(rec.id),
            "type": rec.kind,
            "user": payloads.user(rec.user),
            "authorizing_integration_owners": owners,
        }
        if rec.source_message is not None:
            metadata["interacted_message_id"] = str(rec.source_message.id)
        if rec.kind == APPLICATION_COMMAND:
            metadata["name"] = rec.payload["data"]["name"]
            metadata["command_type"] = 1
        return metadata

    def _snapshot(self, message: StoredMessage) -> None:
        message.history.append(json_copy(self.message_json(message)))
        self.changes.notify()

    def _message_intent(self, message: StoredMessage) -> int:
        return DIRECT_MESSAGES_INTENT if message.guild_id is None else GUILD_MESSAGES_INTENT

    def _emit_message(self, event: str, message: StoredMessage) -> None:
        if message.ephemeral_to is not None:
            return
        data = json_copy(message.payload)
        guild = None if message.guild_id is None else self.guilds[message.guild_id]
        if guild is not None and message.author.id in guild.members:
            data["member"] = payloads.member(guild.members[message.author.id], with_user=False)
        mentions_bot = str(self.bot.id) in {m["id"] for m in data["mentions"]}
        needs_content = message.author is not self.bot and not mentions_bot and guild is not None
        self.emit(event, data, self._message_intent(message), needs_content)

    def _attachment_factory(
        self, channel: FakeChannel
    ) -> Callable[[UploadedFile, JSON], StoredAttachment]:
        def make(upload: UploadedFile, ref: JSON) -> StoredAttachment:
            attachment_id = self.ids.next()
            filename = str(ref.get("filename") or upload.filename)
            return StoredAttachment(
                id=attachment_id,
                filename=filename,
                data=upload.data,
                content_type=upload.content_type,
                url=f"{self.base_url}/attachments/{channel.id}/{attachment_id}/{filename}",
                description=ref.get("description"),
            )

        return make

    # ---- channel routes ------------------------------------------------------------------

    def visible_message(self, channel_id: int, message_id: int) -> StoredMessage:
        """A message the bot can fetch through channel routes (not ephemeral, not deleted)."""
        message = self.messages.get(message_id)
        if message is None or message.channel_id != channel_id:
            raise unknown("Message", UNKNOWN_MESSAGE)
        if message.deleted or message.ephemeral:
            raise unknown("Message", UNKNOWN_MESSAGE)
        return message

    def post_channel_message(self, channel_id: int, body: Body) -> StoredMessage:
        channel = self.channel(channel_id)
        if channel.is_dm:
            self._check_dm_open(channel, body)
        else:
            self._require_bot_permission(channel, VIEW_CHANNEL | SEND_MESSAGES)
            if body.files:
                self._require_bot_permission(channel, ATTACH_FILES)
        duplicate = self._same_nonce(channel, body)
        if duplicate is not None:
            return duplicate
        return self.create_message(channel, body)

    def _same_nonce(self, channel: FakeChannel, body: Body) -> StoredMessage | None:
        """With `enforce_nonce`, Discord answers a repeated nonce with the first message."""
        nonce = body.payload.get("nonce")
        if nonce is None or not body.payload.get("enforce_nonce"):
            return None
        return self._nonces.get((channel.id, nonce))

    def edit_channel_message(self, channel_id: int, message_id: int, body: Body) -> StoredMessage:
        message = self.visible_message(channel_id, message_id)
        if message.author is not self.bot:
            raise ApiError(
                403, CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user"
            )
        return self.edit_message(message, body)

    def delete_channel_message(self, channel_id: int, message_id: int) -> None:
        message = self.visible_message(channel_id, message_id)
        channel = self.channels[channel_id]
        if message.author is not self.bot and not channel.is_dm:
            self._require_bot_permission(channel, MANAGE_MESSAGES)
        self.delete_message(message)

    def channel_history(
        self, channel_id: int, *, limit: int, before: int | None, after: int | None
    ) -> list[StoredMessage]:
        self.channel(channel_id)
        found = [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and not m.ephemeral
        ]
        if before is not None:
            found = [m for m in found if m.id < before]
        if after is not None:
            found = [m for m in found if m.id > after]
            found = sorted(found, key=lambda m: m.id)[:limit]
        return sorted(found, key=lambda m: m.id, reverse=True)[:limit]

    def open_dm(self, user_id: int) -> FakeChannel:
        user = self.user(user_id)
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.ids.next(), "", DM, None, recipient_id=user.id)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def _check_dm_open(self, channel: FakeChannel, body: Body) -> None:
        recipient = self.users[channel.recipient_id or 0]
        if not recipient.dms_open:
            self.rejected_dms.append((recipient.id, json_copy(body.payload)))
            self.changes.notify()
            raise ApiError(403, CANNOT_DM, "Cannot send messages to this user")

    def _require_bot_permission(self, channel: FakeChannel, needed: int) -> None:
        if self.permissions_in(self.bot, channel) & needed != needed:
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")

    # ---- application commands ------------------------------------------------------------

    def put_commands(self, guild_id: int | None, commands: list[JSON]) -> list[JSON]:
        check_commands(commands)
        previous = self.commands_for(guild_id)
        known = {(str(c["name"]), int(c.get("type", 1))): str(c["id"]) for c in previous}
        echoed = [self._echo_command(guild_id, c, known) for c in commands]
        if guild_id is None:
            self.global_commands = echoed
        else:
            self.guild_commands[guild_id] = echoed
        self.command_syncs.append(CommandSync(guild_id, json_copy(echoed)))
        self.changes.notify()
        return echoed

    def commands_for(self, guild_id: int | None) -> list[JSON]:
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.get(guild_id, [])

    def _echo_command(
        self, guild_id: int | None, command: JSON, known: dict[tuple[str, int], str]
    ) -> JSON:
        echoed = json_copy(command)
        key = (str(command["name"]), int(command.get("type", 1)))
        command_id = known.get(key) or str(self.ids.next())
        echoed.update(
            {
                "id": command_id,
                "application_id": str(self.application_id),
                "version": str(self.ids.next()),
                "type": command.get("type", 1),
                "description": command.get("description", ""),
                "options": command.get("options", []),
                "default_member_permissions": command.get("default_member_permissions"),
                "nsfw": command.get("nsfw", False),
            }
        )
        if guild_id is not None:
            echoed["guild_id"] = str(guild_id)
        return echoed

    # ---- interactions --------------------------------------------------------------------

    def add_interaction(self, rec: InteractionRecord) -> None:
        self.interactions[rec.id] = rec
        self._by_token_index[rec.token] = rec
        self.changes.notify()

    def interaction_callback(self, interaction_id: int, token: str, body: Body) -> JSON:
        rec = self.interactions.get(interaction_id)
        if rec is None or rec.token != token:
            raise unknown("interaction", UNKNOWN_INTERACTION)
        response_type = int(body.payload.get("type", 0))
        data = body.part("data")
        latency = asyncio.get_running_loop().time() - rec.created_at
        try:
            self._check_can_respond(rec, latency)
            self._respond(rec, response_type, data)
        except ApiError as error:
            rec.callbacks.append(
                CallbackRecord(response_type, data.payload, latency, False, str(error))
            )
            self.changes.notify()
            raise
        rec.callbacks.append(CallbackRecord(response_type, json_copy(data.payload), latency, True))
        self.changes.notify()
        return self._callback_answer(rec, response_type)

    def _check_can_respond(self, rec: InteractionRecord, latency: float) -> None:
        if rec.response is not None:
            raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        if rec.deadline is not None and latency > rec.deadline:
            raise unknown("interaction", UNKNOWN_INTERACTION)

    def _respond(self, rec: InteractionRecord, response_type: int, data: Body) -> None:
        ephemeral_to = rec.user.id if data.payload.get("flags", 0) & EPHEMERAL else None
        if response_type == 1 and rec.kind == PING:
            return
        if response_type in (4, 5):
            rec.original = self.create_message(
                rec.channel,
                data,
                ephemeral_to=ephemeral_to,
                interaction=rec,
                loading=response_type == 5,
            )
        elif response_type in (6, 7) and rec.source_message is not None:
            if response_type == 7:
                self.edit_message(rec.source_message, data)
            rec.original = rec.source_message
        elif response_type == 8 and rec.kind == AUTOCOMPLETE:
            rec.choices = json_copy(data.payload.get("choices", []))
        elif response_type == 9 and rec.kind not in (MODAL_SUBMIT, AUTOCOMPLETE):
            check_modal(data.payload)
            components = normalize_components(data.payload.get("components") or [])
            rec.modal = {**json_copy(data.payload), "components": components}
        else:
            raise invalid_form({"type": f"response type {response_type} not allowed here"})

    def _callback_answer(self, rec: InteractionRecord, response_type: int) -> JSON:
        """The InteractionCallbackResponse discord.py reads (it asks `with_response=1`)."""
        summary: JSON = {
            "id": str(rec.id),
            "type": rec.kind,
            "response_message_loading": response_type == 5,
            "response_message_ephemeral": rec.ephemeral,
        }
        answer: JSON = {"interaction": summary}
        if rec.original is not None:
            summary["response_message_id"] = str(rec.original.id)
        if response_type in (4, 5, 7) and rec.original is not None:
            answer["resource"] = {"type": response_type, "message": rec.original.payload}
        return answer

    # ---- interaction webhooks ------------------------------------------------------------

    def _by_token(self, application_id: int, token: str) -> InteractionRecord:
        rec = self._by_token_index.get(token)
        if application_id != self.application_id or rec is None or rec.response is None:
            raise unknown("Webhook", UNKNOWN_WEBHOOK)
        if asyncio.get_running_loop().time() - rec.created_at > self.token_lifetime:
            raise ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return rec

    def followup(self, application_id: int, token: str, body: Body) -> StoredMessage:
        rec = self._by_token(application_id, token)
        original = rec.original
        if rec.response_type == 5 and original is not None and original.loading:
            # Discord: the first follow-up after a "thinking" defer replaces that message.
            message = self.edit_message(original, body)
        else:
            ephemeral = body.payload.get("flags", 0) & EPHEMERAL
            ephemeral_to = rec.user.id if ephemeral else None
            message = self.create_message(
                rec.channel, body, ephemeral_to=ephemeral_to, interaction=rec
            )
        rec.followups.append(message)
        self.changes.notify()
        return message

    def webhook_message(self, application_id: int, token: str, ref: str) -> StoredMessage:
        rec = self._by_token(application_id, token)
        if ref == "@original":
            message = rec.original
        else:
            candidates = [rec.original, *rec.followups]
            message = next((m for m in candidates if m is not None and str(m.id) == ref), None)
        if message is None or message.deleted:
            raise unknown("Message", UNKNOWN_MESSAGE)
        return message


def check_commands(commands: Iterable[JSON]) -> None:
    """Discord's checks of a command sync (raises 400 / 50035 with each problem)."""
    problems: dict[str, str] = {}
    names: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        key = (str(command.get("name")), int(command.get("type", 1)))
        if key in names:
            problems[f"{i}.name"] = "Application command names must be unique"
        names.add(key)
        problems.update(_check_command(command, str(i), chat_input=key[1] == 1))
    if problems:
        raise invalid_form(problems)


def _check_localizations(command: JSON, path: str, *, chat_input: bool) -> dict[str, str]:
    """A command's or option's localised names and descriptions: known locales, and
    each within the limits of the default text (a chat command's name: Discord's
    name rules, lowercase)."""
    problems: dict[str, str] = {}
    for locale, name in (command.get("name_localizations") or {}).items():
        where = f"{path}.name_localizations.{locale}"
        if locale not in DISCORD_LOCALES:
            problems[where] = f"Invalid locale {locale!r}"
        elif chat_input and (not COMMAND_NAME.match(str(name)) or name != str(name).lower()):
            problems[where] = f"invalid command name {name!r}"
    for locale, text in (command.get("description_localizations") or {}).items():
        where = f"{path}.description_localizations.{locale}"
        if locale not in DISCORD_LOCALES:
            problems[where] = f"Invalid locale {locale!r}"
        elif not 1 <= len(str(text)) <= 100:
            problems[where] = "Must be between 1 and 100 in length."
    return problems


def _check_command(command: JSON, path: str, *, chat_input: bool) -> dict[str, str]:
    problems: dict[str, str] = {}
    name = str(command.get("name", ""))
    if chat_input and (not COMMAND_NAME.match(name) or name != name.lower()):
        problems[f"{path}.name"] = f"invalid command name {name!r}"
    description = command.get("description", "")
    if chat_input and not 1 <= len(description) <= 100:
        problems[f"{path}.description"] = "Must be between 1 and 100 in length."
    problems.update(_check_localizations(command, path, chat_input=chat_input))
    options: list[JSON] = command.get("options") or []
    if len(options) > 25:
        problems[f"{path}.options"] = "Must be 25 or fewer in length."
    seen_optional = False
    for j, option in enumerate(options):
        if option.get("required") and seen_optional:
            problems[f"{path}.options.{j}"] = "Required options must be placed before non-required"
        seen_optional = seen_optional or not option.get("required", False)
        if len(option.get("choices") or []) > 25:
            problems[f"{path}.options.{j}.choices"] = "Must be 25 or fewer in length."
        for k, choice in enumerate(option.get("choices") or []):
            for locale, text in (choice.get("name_localizations") or {}).items():
                where = f"{path}.options.{j}.choices.{k}.name_localizations.{locale}"
                if locale not in DISCORD_LOCALES:
                    problems[where] = f"Invalid locale {locale!r}"
                elif not 1 <= len(str(text)) <= 100:
                    problems[where] = "Must be between 1 and 100 in length."
        problems.update(_check_command(option, f"{path}.options.{j}", chat_input=True))
    return problems
