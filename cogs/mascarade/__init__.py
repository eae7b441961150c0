"""Mascarade on Discord: the /mascarade command and how the game is shown.

``presenter.py`` renders (public: spectator view only; private: the seat's
view) and answers each choice privately through the platform's
``after_choice`` hook (a look, a Spy's cards, the secret swap-or-not);
``text.py`` words places and memories; its strings are in ``strings.py``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables import Refusal
from bot.ui.i18n import t
from bot.ui.names import markdown_name
from games.mascarade import GAME, Character, MascaradeOptions
from games.mascarade.cards import OFFICIAL_SETS, check_custom_set

from .presenter import MascaradePresenter, fitting_player_counts

if TYPE_CHECKING:
    from bot.app import GameMasterBot

__all__ = ["PRESENTER", "MascaradeCog", "MascaradePresenter", "parse_characters", "setup"]

PRESENTER = MascaradePresenter(GAME)

_SEPARATORS = re.compile(r"[,;\n]+")


def _norm(name: str) -> str:
    name = name.strip().lower()
    return name.removeprefix("the ").strip()


def parse_characters(text: str, locale: str | None) -> tuple[Character, ...]:
    """A comma-separated list of character names (English or the user's language)
    as a custom set, checked by the engine's rules for at least one table size.
    Raises Refusal("invalid_options") with the reason."""
    names: dict[str, Character] = {}
    for character in Character:
        names[character.value] = character
        for lang in (None, locale):
            names[_norm(t(f"mascarade.card.{character.value}", lang))] = character
    cards: list[Character] = []
    unknown: list[str] = []
    for raw in _SEPARATORS.split(text):
        if not raw.strip():
            continue
        found = names.get(_norm(raw))
        if found is None:
            unknown.append(markdown_name(raw, limit=40))  # typed text: shown escaped
        else:
            cards.append(found)
    if unknown:
        known = ", ".join(t(f"mascarade.card.{c.value}", locale) for c in Character)
        reason = t("mascarade.options.unknown", locale, names=", ".join(unknown), known=known)
        raise Refusal("invalid_options", reason=reason)
    if not cards:
        raise Refusal("invalid_options", reason=t("mascarade.options.empty", locale))
    order = list(Character)
    chosen = tuple(sorted(cards, key=order.index))
    if not fitting_player_counts(chosen):
        # No table size fits: say why for the size nearest to the number of cards.
        players = min(max(len(chosen), 4), max(OFFICIAL_SETS))
        try:
            check_custom_set(players, chosen)
        except ValueError as error:
            raise Refusal(
                "invalid_options",
                reason=t("mascarade.options.no_size", locale, players=players, reason=str(error)),
            ) from None
    return chosen


class MascaradeCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @app_commands.command(name="mascarade", description="Open a Mascarade table in this channel")
    @app_commands.guild_only()
    @app_commands.describe(
        characters=(
            "Custom set (4+ players), e.g. Judge, Bishop, King, Queen, Thief, Cheat;"
            " default: the official one"
        ),
        turn_timeout="Seconds for a turn (30-600)",
        reaction_timeout="Seconds to contest an announcement, per player (10-120)",
    )
    async def mascarade(
        self,
        interaction: discord.Interaction[Any],
        characters: app_commands.Range[str, 1, 300] | None = None,
        turn_timeout: app_commands.Range[int, 30, 600] | None = None,
        reaction_timeout: app_commands.Range[int, 10, 120] | None = None,
    ) -> None:
        chosen = None
        if characters is not None and characters.strip():
            chosen = parse_characters(characters, interaction.locale.value)
        await self.bot.open_table(
            interaction,
            GAME,
            MascaradeOptions(characters=chosen),
            turn_timeout=turn_timeout,
            reaction_timeout=reaction_timeout,
        )


async def setup(bot: GameMasterBot) -> None:
    await bot.add_game(PRESENTER, MascaradeCog(bot))
