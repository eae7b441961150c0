"""INTERACTION_CREATE payloads for simulated users: slash commands, clicks, selects, modals."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from . import payloads
from .content import walk_components
from .models import (
    JSON,
    FakeChannel,
    FakeMember,
    FakeRole,
    FakeUser,
    StoredAttachment,
    StoredMessage,
    Upload,
    json_copy,
)
from .permissions import ADMINISTRATOR
from .store import Store

ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024
SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8


class InteractionRefused(Exception):
    """Discord's own client would not let the user do this (bad option, hidden button...)."""


def base_payload(
    store: Store,
    *,
    kind: int,
    user: FakeUser,
    channel: FakeChannel,
    interaction_id: int,
    token: str,
) -> JSON:
    """Fields every interaction carries; guild ones get `member`, DM ones get `user`."""
    payload: JSON = {
        "id": str(interaction_id),
        "application_id": str(store.application_id),
        "type": kind,
        "token": token,
        "version": 1,
        "channel_id": str(channel.id),
        "locale": user.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    guild = store.guild_of(channel)
    if guild is None:
        channel_json = store.channel_json(channel)
        channel_json["recipients"] = [payloads.user(user)]
        payload.update(
            {
                "channel": channel_json,
                "user": payloads.user(user),
                "app_permissions": str(store.permissions_in(store.bot, channel)),
                "context": 1,
                "authorizing_integration_owners": {"0": "0"},
            }
        )
        return payload
    permissions = store.permissions_in(user, channel)
    payload.update(
        {
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "guild_locale": guild.locale,
            "channel": {**store.channel_json(channel), "permissions": str(permissions)},
            "member": payloads.member(guild.member(user), permissions=permissions),
            "app_permissions": str(store.permissions_in(store.bot, channel)),
            "context": 0,
            "authorizing_integration_owners": {"0": str(guild.id)},
        }
    )
    return payload


# ---- slash commands ----------------------------------------------------------------------


@dataclass
class Resolver:
    """Collects `resolved` data for user/channel/role/attachment option values."""

    store: Store
    user: FakeUser
    channel: FakeChannel
    resolved: dict[str, dict[str, JSON]] = field(default_factory=dict)

    def add(self, kind: str, key: int, value: JSON) -> str:
        self.resolved.setdefault(kind, {})[str(key)] = value
        return str(key)

    def user_value(self, value: object) -> str:
        target = value.user if isinstance(value, FakeMember) else value
        if not isinstance(target, FakeUser):
            raise InteractionRefused(f"expected a user, got {value!r}")
        guild = self.store.guild_of(self.channel)
        if guild is not None and target.id in guild.members:
            perms = self.store.permissions_in(target, self.channel)
            member = payloads.member(guild.members[target.id], with_user=False, permissions=perms)
            self.add("members", target.id, member)
        return self.add("users", target.id, payloads.user(target))

    def channel_value(self, value: object, allowed_types: list[int]) -> str:
        if not isinstance(value, FakeChannel):
            raise InteractionRefused(f"expected a channel, got {value!r}")
        if allowed_types and value.type not in allowed_types:
            raise InteractionRefused(f"channel type {value.type} not in {allowed_types}")
        data = self.store.channel_json(value)
        data["permissions"] = str(self.store.permissions_in(self.user, value))
        return self.add("channels", value.id, data)

    def role_value(self, value: object) -> str:
        if not isinstance(value, FakeRole):
            raise InteractionRefused(f"expected a role, got {value!r}")
        return self.add("roles", value.id, payloads.role(value))

    def attachment_value(self, value: object) -> str:
        if not isinstance(value, Upload):
            raise InteractionRefused(f"expected an Upload, got {value!r}")
        attachment_id = self.store.ids.next()
        url = f"{self.store.base_url}/uploads/{attachment_id}/{value.filename}"
        stored = StoredAttachment(
            attachment_id, value.filename, value.data, value.content_type, url
        )
        self.store.uploads[attachment_id] = stored
        return self.add("attachments", attachment_id, payloads.attachment(stored, ephemeral=True))


def find_command(store: Store, channel: FakeChannel, name: str) -> JSON:
    """A synced command by name: this guild's commands first, then global ones."""
    candidates = [] if channel.guild_id is None else store.commands_for(channel.guild_id)
    for command in [*candidates, *store.global_commands]:
        if command["name"] == name and command.get("type", 1) == 1:
            return command
    synced = sorted({c["name"] for c in [*candidates, *store.global_commands]})
    raise InteractionRefused(f"no synced slash command {name!r} here; synced: {synced}")


def check_command_allowed(
    store: Store, command: JSON, user: FakeUser, channel: FakeChannel
) -> None:
    """Discord hides commands by context and default_member_permissions."""
    guild = store.guild_of(channel)
    contexts = command.get("contexts")
    context = 1 if guild is None else 0
    if contexts is not None and context not in contexts:
        raise InteractionRefused(f"/{command['name']} is not available in context {context}")
    if guild is None and command.get("dm_permission") is False:
        raise InteractionRefused(f"/{command['name']} is not available in DMs")
    needed = command.get("default_member_permissions")
    if guild is not None and needed is not None:
        has = store.permissions_in(user, channel)
        if not has & ADMINISTRATOR and has & int(needed) != int(needed):
            raise InteractionRefused(
                f"{user.name} lacks permissions {needed} for /{command['name']}"
            )


def command_data(
    command: JSON,
    path: Sequence[str],
    values: Mapping[str, object],
    resolver: Resolver,
) -> JSON:
    """The `data` of an APPLICATION_COMMAND interaction for /command [group] [sub] opts."""
    options = _nest(command, list(path), values, resolver)
    data: JSON = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    if resolver.resolved:
        data["resolved"] = resolver.resolved
    return data


def _nest(
    node: JSON, path: list[str], values: Mapping[str, object], resolver: Resolver
) -> list[JSON]:
    declared: list[JSON] = node.get("options") or []
    groups = [o for o in declared if o.get("type") in (SUBCOMMAND, GROUP)]
    if not groups:
        if path:
            raise InteractionRefused(f"{node['name']!r} has no subcommand {path[0]!r}")
        return _values(node, declared, values, resolver)
    if not path:
        names = [o["name"] for o in groups]
        raise InteractionRefused(f"{node['name']!r} needs a subcommand, one of {names}")
    child = next((o for o in groups if o["name"] == path[0]), None)
    if child is None:
        raise InteractionRefused(f"{node['name']!r} has no subcommand {path[0]!r}")
    inner = _nest(child, path[1:], values, resolver)
    return [{"type": child["type"], "name": child["name"], "options": inner}]


def _values(
    node: JSON, declared: list[JSON], values: Mapping[str, object], resolver: Resolver
) -> list[JSON]:
    by_name = {o["name"]: o for o in declared}
    extra = set(values) - set(by_name)
    if extra:
        raise InteractionRefused(
            f"/{node['name']} has no options {sorted(extra)}; has {list(by_name)}"
        )
    missing = [o["name"] for o in declared if o.get("required") and o["name"] not in values]
    if missing:
        raise InteractionRefused(f"/{node['name']} needs options {missing}")
    return [
        {
            "type": by_name[name]["type"],
            "name": name,
            "value": _value(by_name[name], value, resolver),
        }
        for name, value in values.items()
    ]


def _value(option: JSON, value: object, resolver: Resolver) -> object:
    kind = option["type"]
    if kind == USER:
        return resolver.user_value(value)
    if kind == CHANNEL:
        return resolver.channel_value(value, option.get("channel_types") or [])
    if kind == ROLE:
        return resolver.role_value(value)
    if kind == MENTIONABLE:
        return (
            resolver.role_value(value)
            if isinstance(value, FakeRole)
            else resolver.user_value(value)
        )
    if kind == ATTACHMENT:
        return resolver.attachment_value(value)
    return _scalar(option, value)


def _scalar(option: JSON, value: object) -> object:
    kind, name = option["type"], option["name"]
    expected: dict[int, type | tuple[type, ...]] = {
        STRING: str,
        INTEGER: int,
        BOOLEAN: bool,
        NUMBER: (int, float),
    }
    wrong_bool = isinstance(value, bool) and kind != BOOLEAN
    if kind not in expected or not isinstance(value, expected[kind]) or wrong_bool:
        raise InteractionRefused(f"option {name!r} (type {kind}) cannot take {value!r}")
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise InteractionRefused(f"option {name!r}: {value!r} is not one of the choices")
    _check_range(option, value)
    if kind == NUMBER and isinstance(value, int | float):
        return float(value)
    return value


def _check_range(option: JSON, value: object) -> None:
    name = option["name"]
    if isinstance(value, str):
        if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
            raise InteractionRefused(f"option {name!r}: length of {value!r} out of bounds")
    elif isinstance(value, int | float):
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise InteractionRefused(f"option {name!r}: {value!r} outside [{low}, {high}]")


# ---- components --------------------------------------------------------------------------


def find_component(
    message: StoredMessage | JSON, *, custom_id: str | None = None, label: str | None = None
) -> JSON:
    """The interactive component with this custom_id (or label) on a message
    (a stored message, or one version of it from its history)."""
    components = (
        message.components if isinstance(message, StoredMessage) else message.get("components", [])
    )
    for component in walk_components(components):
        if custom_id is not None and component.get("custom_id") == custom_id:
            return component
        if custom_id is None and label is not None and component.get("label") == label:
            return component
    available = [
        (c.get("label"), c.get("custom_id"))
        for c in walk_components(components)
        if "custom_id" in c
    ]
    wanted = custom_id if custom_id is not None else label
    message_id = message.id if isinstance(message, StoredMessage) else message.get("id")
    raise InteractionRefused(f"no component {wanted!r} on message {message_id}; has {available}")


def component_data(component: JSON, values: Sequence[object] | None, resolver: Resolver) -> JSON:
    """The `data` of a MESSAGE_COMPONENT interaction (a click or a selection)."""
    if component.get("disabled"):
        raise InteractionRefused(f"component {component.get('custom_id')!r} is disabled")
    kind = int(component["type"])
    data: JSON = {"custom_id": component["custom_id"], "component_type": kind}
    if kind == 2:
        if values is not None:
            raise InteractionRefused("a button takes no values")
        return data
    if values is None:
        raise InteractionRefused(f"select {component['custom_id']!r} needs values")
    data["values"] = _select_values(component, values, resolver)
    if resolver.resolved:
        data["resolved"] = resolver.resolved
    return data


def _select_values(component: JSON, values: Sequence[object], resolver: Resolver) -> list[str]:
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise InteractionRefused(f"select needs between {low} and {high} values, got {len(values)}")
    kind = component["type"]
    if kind == 3:
        allowed = [o["value"] for o in component.get("options", [])]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise InteractionRefused(f"values {bad} are not options of the select; has {allowed}")
        return [str(v) for v in values]
    converters: dict[int, Callable[[object], str]] = {
        USER_SELECT: resolver.user_value,
        ROLE_SELECT: resolver.role_value,
        CHANNEL_SELECT: lambda v: resolver.channel_value(v, component.get("channel_types") or []),
        MENTIONABLE_SELECT: lambda v: (
            resolver.role_value(v) if isinstance(v, FakeRole) else resolver.user_value(v)
        ),
    }
    return [converters[kind](v) for v in values]


# ---- modals ------------------------------------------------------------------------------


def modal_data(modal: JSON, values: Mapping[str, str | Sequence[str]]) -> JSON:
    """The `data` of a MODAL_SUBMIT: the modal's inputs filled with `values` by custom_id."""
    inputs = {
        c["custom_id"]: c
        for c in walk_components(modal.get("components") or [])
        if c.get("type") in (3, 4, 5, 6, 7, 8) and "custom_id" in c
    }
    unknown = set(values) - set(inputs)
    if unknown:
        raise InteractionRefused(f"modal has no inputs {sorted(unknown)}; has {sorted(inputs)}")
    for custom_id, component in inputs.items():
        _check_modal_value(component, values.get(custom_id))
    return {
        "custom_id": modal["custom_id"],
        "components": [_submitted(c, values) for c in modal.get("components") or []],
    }


def _check_modal_value(component: JSON, value: str | Sequence[str] | None) -> None:
    custom_id = component["custom_id"]
    if component.get("type") != 4:
        return
    text = "" if value is None else str(value)
    if component.get("required", True) and not text:
        raise InteractionRefused(f"modal input {custom_id!r} is required")
    if text and not component.get("min_length", 0) <= len(text) <= component.get(
        "max_length", 4000
    ):
        raise InteractionRefused(f"modal input {custom_id!r}: length {len(text)} out of bounds")


def _submitted(component: JSON, values: Mapping[str, str | Sequence[str]]) -> JSON:
    kind = component.get("type")
    if kind == 1:
        children = [_submitted(c, values) for c in component.get("components") or []]
        return {"type": 1, "id": component.get("id"), "components": children}
    if kind == 18:
        return {
            "type": 18,
            "id": component.get("id"),
            "component": _submitted(component["component"], values),
        }
    custom_id = component.get("custom_id")
    result: JSON = {"type": kind, "id": component.get("id"), "custom_id": custom_id}
    value = values.get(custom_id or "")
    if kind == 4:
        result["value"] = "" if value is None else str(value)
    elif custom_id is not None:
        result["values"] = (
            [] if value is None else [value] if isinstance(value, str) else list(value)
        )
    else:
        result = json_copy(component)
    return result
