"""The slash commands exactly as the bot syncs them to Discord (the body of the
PUT the fake received): names, descriptions and choices within Discord's limits
and worded for players, /mod for moderators only, everything guild-only."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.bot.ui.test_command_translator import COMMANDS
from tests.e2e.fake_discord.interactions import InteractionRefused

from .harness import MANAGE_GUILD, World

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
GUILD_CONTEXT = 0
SUBCOMMAND_TYPES = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP
EXPECTED = COMMANDS


def walk(command: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The command and every subcommand and option below it, with its /path."""
    yield path, command
    for option in command.get("options") or []:
        yield from walk(option, f"{path} {option['name']}")


def problems_of(commands: list[dict[str, Any]]) -> list[str]:
    problems = []
    for command in commands:
        for path, item in walk(command, f"/{command['name']}"):
            name, description = item.get("name", ""), item.get("description", "")
            if not NAME.match(name):
                problems.append(f"{path}: name {name!r} is not lowercase, 1-32 characters")
            if not 1 <= len(description) <= 100:
                problems.append(f"{path}: description has {len(description)} characters")
            if description.strip() in ("\u2026", "...", "") or description.endswith("\u2026"):
                problems.append(f"{path}: placeholder or cut description {description!r}")
            for choice in item.get("choices") or []:
                label = str(choice.get("name", ""))
                if not 1 <= len(label) <= 100 or label == "\u2026":
                    problems.append(f"{path}: choice label {label!r}")
                elif not label[0].isupper():
                    problems.append(f"{path}: choice label {label!r} is not a word for players")
    return problems


async def synced_commands(world: World) -> list[dict[str, Any]]:
    fake = world.fake
    async with fake.running(world.bot()):
        pass
    puts = [
        r
        for r in fake.requests
        if r.method == "PUT" and r.path.endswith("/commands") and r.body is not None
    ]
    assert len(puts) == 1, [str(r) for r in puts]
    put = puts[0]
    assert put.status == 200 and put.body is not None, put.error
    commands: list[dict[str, Any]] = put.body["commands"]
    return commands


async def test_synced_commands_are_within_discords_limits(world: World) -> None:
    commands = await synced_commands(world)
    assert {c["name"] for c in commands} == EXPECTED
    problems = problems_of(commands)
    assert not problems, "\n".join(problems)
    for command in commands:
        for path, option in walk(command, f"/{command['name']}"):
            if option is not command and option.get("type") not in SUBCOMMAND_TYPES:
                assert "description" in option, path


async def test_synced_commands_carry_their_italian_and_french_names(world: World) -> None:
    """Discord shows a command in the client's language from the localisations the
    bot registers; the default (English) names stay what interactions carry."""
    commands = await synced_commands(world)
    missing = []
    for command in commands:
        for path, item in walk(command, f"/{command['name']}"):
            for field in ("name_localizations", "description_localizations"):
                if set(item.get(field) or {}) != {"it", "fr"}:
                    missing.append(f"{path}: {field} {item.get(field)}")
            for choice in item.get("choices") or []:
                if set(choice.get("name_localizations") or {}) != {"it", "fr"}:
                    missing.append(f"{path}: choice {choice}")
    assert not missing, "\n".join(missing)
    hand = next(c for c in commands if c["name"] == "hand")
    assert hand["name_localizations"] == {"it": "mano", "fr": "main"}
    assert hand["description_localizations"]["fr"] == (
        "Regarde tes cartes secrètes à la table de ce salon"
    )


async def test_mod_is_for_server_managers_and_everything_is_guild_only(world: World) -> None:
    commands = {c["name"]: c for c in await synced_commands(world)}
    mod = commands["mod"]
    # Manage Server only (discord.py sends the bit field as a number; Discord takes both).
    assert int(mod["default_member_permissions"]) == MANAGE_GUILD == 0x20
    for name, command in commands.items():
        # discord.py 2.7 sends both the legacy flag and the contexts list.
        assert command.get("dm_permission") is False, name
        assert command.get("contexts") == [GUILD_CONTEXT], name
        if name != "mod":
            assert command.get("default_member_permissions") is None, name


async def test_members_without_manage_server_do_not_see_mod(world: World) -> None:
    """Discord (the fake) hides /mod from ordinary members; the bot still checks
    (see test_complots_scenarios: a member to whom a server admin opened /mod)."""
    fake = world.fake
    async with fake.running(world.bot()):
        record = await fake.slash(world.moderator, world.channel, "mod", "tables")
        await record.wait_response()
        assert record.ephemeral and "Open tables" in str(record.embeds)
        with pytest.raises(InteractionRefused, match="lacks permissions 32 for /mod"):
            await fake.slash(world.players[0], world.channel, "mod", "tables")


async def test_a_command_answered_too_late_is_told_in_the_log_not_as_a_failure(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord dropped the interaction before the answer (an overloaded machine): the
    table is open all the same, and the log says the interaction expired (a warning,
    not an error with a traceback)."""
    fake = world.fake
    caplog.set_level(logging.WARNING, "bot")
    async with fake.running(world.bot()) as bot:
        fake.response_deadline = 0.0
        record = await fake.slash(world.players[0], world.channel, "complots")
        await fake.wait_for(lambda: record.callbacks, 5, "the late answer")
        assert not record.callbacks[0].accepted, "Discord no longer took it"
        await fake.wait_for(
            lambda: any("expired before it was answered" in r.getMessage() for r in caplog.records),
            5,
            "the expiry in the log",
        )
        assert await bot.tables.table_in_channel(world.channel.id) is not None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
