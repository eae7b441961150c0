"""Complots on Discord: the /complots command and how the game is shown.

Public rendering reads only the spectator view (``GAME.view(state, None)``),
or the final state once the game is over. Secrets go to ephemeral panels and
DMs built from the seat's own view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.codec import encode
from bot.ui.components import GameButton, GameSelect
from bot.ui.events import event_text
from bot.ui.i18n import t
from bot.ui.presenter import Panel, TableContext
from games.base import Choice, Event, Seat
from games.complots import GAME, ActionKind, Character, ComplotsOptions, ComplotsState, Variant
from games.complots.cards import action_rule
from games.complots.models import (
    Act,
    ActionDeclared,
    Block,
    CardShown,
    Challenge,
    ComplotsChoice,
    ComplotsView,
    ExamineVerdict,
    Keep,
    Pass,
    Pick,
    Reveal,
    Show,
    Stage,
    Verdict,
)

if TYPE_CHECKING:
    from bot.app import GameMasterBot

HIDDEN_CARD = "🂠"
COIN = "🪙"


def card(character: object, locale: str | None) -> str:
    return t(f"complots.card.{getattr(character, 'value', character)}", locale)


def action_label(action: ActionKind, locale: str | None) -> str:
    return t(f"complots.action.{action.value}", locale)


class ComplotsPresenter:
    game = "complots"
    title_key = "complots.title"
    draws = False

    # --- public table message ------------------------------------------------

    def table_embed(self, ctx: TableContext) -> discord.Embed:
        state = _state(ctx)
        locale = ctx.locale
        finished = GAME.result(state) is not None
        view = GAME.view(state, None)
        embed = discord.Embed(
            title=t("complots.table_title", locale, table=ctx.table_id),
            colour=discord.Colour.gold() if finished else discord.Colour.dark_red(),
        )
        embed.description = "\n".join(
            self._player_line(ctx, view, state, seat, finished) for seat in range(state.seats)
        )
        embed.add_field(
            name=t("complots.court", locale),
            value=t(
                "complots.court_value",
                locale,
                count=view.court_size,
                variant=card(view.variant, locale),
            ),
            inline=True,
        )
        embed.add_field(name=t("complots.now", locale), value=self._now(ctx, view), inline=False)
        embed.set_footer(
            text=t("complots.footer", locale, turn=view.turn_number, table=ctx.table_id)
        )
        return embed

    def _player_line(
        self,
        ctx: TableContext,
        view: ComplotsView,
        state: ComplotsState,
        seat: Seat,
        finished: bool,
    ) -> str:
        locale = ctx.locale
        player = view.players[seat]
        marker = "▶" if view.turn == seat and not finished and view.stage is not Stage.PICK else "▪"
        revealed = " ".join(f"~~{card(c, locale)}~~" for c in player.revealed)
        if finished:
            hidden = " ".join(f"**{card(c, locale)}**" for c in state.players[seat].hidden())
        else:
            hidden = HIDDEN_CARD * player.hidden_count
        status = ""
        if not player.alive:
            status = " ❌"
        elif ctx.away(seat):
            status = " 💤 " + t("table.away", locale)
        if view.winner == seat:
            status = " 🏆"
        line = f"{marker} **{ctx.name(seat)}** {COIN} {player.coins} · {hidden} {revealed}{status}"
        return line.rstrip()

    def _now(self, ctx: TableContext, view: ComplotsView) -> str:
        locale = ctx.locale
        if view.winner is not None:
            return t("complots.now.winner", locale, winner=ctx.name(view.winner))
        when = ctx.countdown()
        names = ", ".join(ctx.name(s) for s in view.awaiting)
        if view.losing is not None:
            return t("complots.now.losing", locale, player=ctx.name(view.losing), when=when)
        if view.stage is Stage.PICK:
            return t("complots.now.pick", locale, players=names, when=when)
        if view.stage is Stage.ACTION:
            return t("complots.now.turn", locale, player=ctx.name(view.turn), when=when)
        pending = view.pending
        assert pending is not None
        claim = self._claim_text(ctx, view)
        if view.stage is Stage.BLOCK_CHALLENGE and pending.block is not None:
            claim += "\n" + t(
                "complots.now.blocked_by",
                locale,
                player=ctx.name(pending.block.blocker),
                character=card(pending.block.character, locale),
            )
        passed = ", ".join(ctx.name(s) for s in view.passed)
        if view.stage in (Stage.REACT, Stage.BLOCK, Stage.BLOCK_CHALLENGE):
            key = {
                Stage.REACT: "complots.now.react",
                Stage.BLOCK: "complots.now.block",
                Stage.BLOCK_CHALLENGE: "complots.now.block_challenge",
            }[view.stage]
            text = claim + "\n" + t(key, locale, players=names, when=when)
            if passed:
                text += "\n" + t("complots.now.passed", locale, players=passed)
            return text
        key = {
            Stage.EXCHANGE: "complots.now.exchange",
            Stage.EXAMINE_SHOW: "complots.now.examine_show",
            Stage.EXAMINE_DECIDE: "complots.now.examine_decide",
        }.get(view.stage, "complots.now.wait")
        return claim + "\n" + t(key, locale, players=names, when=when)

    def _claim_text(self, ctx: TableContext, view: ComplotsView) -> str:
        pending = view.pending
        assert pending is not None
        target = ctx.name(pending.target) if pending.target is not None else ""
        return t(
            "complots.claim",
            ctx.locale,
            actor=ctx.name(pending.actor),
            action=action_label(pending.action, ctx.locale),
            target=target,
        )

    def table_items(self, ctx: TableContext) -> list[discord.ui.Item[Any]]:
        state = _state(ctx)
        view = GAME.view(state, None)
        locale, table, version = ctx.locale, ctx.table_id, ctx.version
        if not view.awaiting:
            return []
        if view.losing is not None or view.stage in (
            Stage.PICK,
            Stage.EXCHANGE,
            Stage.EXAMINE_SHOW,
            Stage.EXAMINE_DECIDE,
        ):
            return [
                GameButton(
                    table,
                    version,
                    "ui.panel.choose",
                    label=t("complots.button.choose", locale),
                    style=discord.ButtonStyle.primary,
                )
            ]
        if view.stage is Stage.ACTION:
            return self._action_buttons(ctx, state)
        return self._window_buttons(ctx, state)

    def _action_buttons(
        self, ctx: TableContext, state: ComplotsState
    ) -> list[discord.ui.Item[Any]]:
        locale = ctx.locale
        buttons: list[discord.ui.Item[Any]] = []
        seen: set[ActionKind] = set()
        for act in GAME.legal_actions(state, state.turn):
            if act.action in seen:
                continue
            seen.add(act.action)
            rule = action_rule(act.action, state.options.variant)
            label = action_label(act.action, locale)
            if rule.claim is not None:
                label += f" · {card(rule.claim, locale)}"
            code = f"ui.panel.target.{act.action.value}" if rule.targeted else encode(act)
            style = (
                discord.ButtonStyle.danger
                if act.action is ActionKind.COUP
                else (discord.ButtonStyle.primary if rule.claim else discord.ButtonStyle.secondary)
            )
            buttons.append(GameButton(ctx.table_id, ctx.version, code, label=label, style=style))
        return buttons

    def _window_buttons(
        self, ctx: TableContext, state: ComplotsState
    ) -> list[discord.ui.Item[Any]]:
        locale = ctx.locale
        answers: list[ComplotsChoice] = []
        for prompt in GAME.prompts(state):
            for choice in prompt.choices:
                if choice not in answers:
                    answers.append(choice)
        answers.sort(key=lambda c: (isinstance(c, Pass), isinstance(c, Block)))
        buttons: list[discord.ui.Item[Any]] = []
        for choice in answers:
            if isinstance(choice, Challenge):
                label, style = t("complots.button.challenge", locale), discord.ButtonStyle.danger
            elif isinstance(choice, Block):
                label = t("complots.button.block", locale, character=card(choice.character, locale))
                style = discord.ButtonStyle.primary
            else:
                label, style = t("complots.button.pass", locale), discord.ButtonStyle.secondary
            buttons.append(
                GameButton(ctx.table_id, ctx.version, encode(choice), label=label, style=style)
            )
        return buttons

    # --- private: hand and panels -------------------------------------------------

    def hand(self, ctx: TableContext, seat: Seat) -> Panel:
        state = _state(ctx)
        view = GAME.view(state, seat)
        locale = ctx.locale
        me = view.players[seat]
        lines = [
            t(
                "complots.hand.cards",
                locale,
                cards=", ".join(card(c, locale) for c in me.hidden or []) or "-",
            )
        ]
        if me.revealed:
            lines.append(
                t(
                    "complots.hand.lost",
                    locale,
                    cards=", ".join(card(c, locale) for c in me.revealed),
                )
            )
        lines.append(t("complots.hand.coins", locale, coins=me.coins))
        if view.packet:
            lines.append(
                t(
                    "complots.hand.packet",
                    locale,
                    cards=", ".join(card(c, locale) for c in view.packet),
                )
            )
        if view.exchange_pool:
            lines.append(
                t(
                    "complots.hand.pool",
                    locale,
                    cards=", ".join(card(c, locale) for c in view.exchange_pool),
                )
            )
        if view.examined is not None:
            lines.append(t("complots.hand.examined", locale, card=card(view.examined, locale)))
        embed = discord.Embed(
            title=t("complots.hand.title", locale, table=ctx.table_id), description="\n".join(lines)
        )
        items: list[discord.ui.Item[Any]] = []
        if view.prompt is not None and view.prompt.kind.value == "choice":
            items = self.panel(ctx, seat, "choose").items
        return Panel(content="", embed=embed, items=items)

    def panel(self, ctx: TableContext, seat: Seat, code: str) -> Panel:
        state = _state(ctx)
        view = GAME.view(state, seat)
        locale = ctx.locale
        prompt = view.prompt
        if prompt is None:
            return Panel(content=t("refusal.not_prompted", locale))
        if code.startswith("target."):
            action = code.removeprefix("target.")
            acts = [c for c in prompt.choices if isinstance(c, Act) and c.action.value == action]
            if not acts:
                return Panel(content=t("refusal.stale", locale))
            options = [
                discord.SelectOption(label=ctx.name(a.target), value=encode(a))
                for a in acts
                if a.target is not None
            ]
            select = GameSelect(
                ctx.table_id,
                ctx.version,
                "target",
                options,
                placeholder=t(
                    "complots.panel.target", locale, action=action_label(acts[0].action, locale)
                ),
            )
            return Panel(
                content=t(
                    "complots.panel.target", locale, action=action_label(acts[0].action, locale)
                ),
                items=[select],
            )
        options = [
            discord.SelectOption(
                label=self._choice_label(ctx, state, seat, c)[:100], value=encode(c)
            )
            for c in prompt.choices
        ]
        select = GameSelect(
            ctx.table_id,
            ctx.version,
            "choose",
            options,
            placeholder=t("complots.button.choose", locale),
        )
        return Panel(content=self._choice_question(ctx, view), items=[select])

    def _choice_question(self, ctx: TableContext, view: ComplotsView) -> str:
        locale = ctx.locale
        if view.losing is not None:
            return t("complots.panel.lose", locale)
        if view.stage is Stage.PICK:
            return t("complots.panel.pick", locale)
        if view.stage is Stage.EXCHANGE:
            pool = ", ".join(card(c, locale) for c in view.exchange_pool or [])
            return t("complots.panel.exchange", locale, cards=pool)
        if view.stage is Stage.EXAMINE_SHOW:
            return t("complots.panel.show", locale)
        if view.stage is Stage.EXAMINE_DECIDE and view.examined is not None:
            return t("complots.panel.verdict", locale, card=card(view.examined, locale))
        return t("complots.button.choose", locale)

    def _choice_label(
        self, ctx: TableContext, state: ComplotsState, seat: Seat, choice: ComplotsChoice
    ) -> str:
        locale = ctx.locale
        cards = state.players[seat].cards
        if isinstance(choice, Reveal):
            return t(
                "complots.choice.reveal", locale, card=card(cards[choice.slot].character, locale)
            )
        if isinstance(choice, Show):
            return t(
                "complots.choice.show", locale, card=card(cards[choice.slot].character, locale)
            )
        if isinstance(choice, Keep):
            return t(
                "complots.choice.keep",
                locale,
                cards=" + ".join(card(c, locale) for c in choice.cards),
            )
        if isinstance(choice, Verdict):
            return t(
                "complots.choice.redraw" if choice.redraw else "complots.choice.give_back", locale
            )
        if isinstance(choice, Pick):
            return t("complots.choice.pick", locale, card=card(choice.character, locale))
        return encode(choice)

    # --- event lines ---------------------------------------------------------------

    def event_lines(self, ctx: TableContext, events: list[Event]) -> list[str]:
        lines = (
            event_text(ctx, f"complots.log.{_variant(e)}", e, describe) for e in events if e.public
        )
        return [line for line in lines if line]

    def private_lines(self, ctx: TableContext, seat: Seat, events: list[Event]) -> list[str]:
        lines = (
            event_text(ctx, f"complots.dm.{_variant(e)}", e, describe)
            for e in events
            if not e.public and e.visible_to(seat) and _for_me(e, seat)
        )
        return [f"#{ctx.table_id} · {line}" for line in lines if line]

    def after_choice(
        self, ctx: TableContext, seat: Seat, choice: Choice, events: list[Event]
    ) -> Panel | None:
        """After a private choice, the chooser sees its hand as it now is."""
        if not isinstance(choice, Reveal | Keep | Show | Pick):
            return None
        me = GAME.view(_state(ctx), seat).players[seat]
        cards = ", ".join(card(c, ctx.locale) for c in me.hidden or []) or "-"
        return Panel(content=t("complots.after_choice", ctx.locale, cards=cards))

    def table_image(self, ctx: TableContext) -> bytes | None:
        return None  # Complots reads best as text

    def options_summary(self, options_json: str, locale: str | None) -> str:
        options = ComplotsOptions.model_validate_json(options_json)
        return t("complots.options", locale, variant=card(options.variant, locale))


def describe(value: object, locale: str | None) -> str:
    """Card and action names; tuples of cards as a list."""
    if isinstance(value, Character):
        return card(value, locale)
    if isinstance(value, ActionKind):
        return action_label(value, locale)
    if isinstance(value, tuple):
        return ", ".join(describe(v, locale) for v in value)
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _variant(event: Event) -> str:
    """The event's text key: its type, refined where one type reads two ways."""
    if isinstance(event, ActionDeclared) and event.claim is not None:
        return "action_declared.claim"
    if isinstance(event, ExamineVerdict):
        return "examine_verdict.redraw" if event.redraw else "examine_verdict.give_back"
    return str(vars(event)["type"])


def _for_me(event: Event, seat: Seat) -> bool:
    """The examined card is news to the Inquisitor only (the target knows its cards)."""
    return not isinstance(event, CardShown) or event.inquisitor == seat


def _state(ctx: TableContext) -> ComplotsState:
    state = ctx.snapshot.state
    assert isinstance(state, ComplotsState)
    return state


class ComplotsCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @app_commands.command(name="complots", description="Open a Complots table in this channel")
    @app_commands.guild_only()
    @app_commands.describe(
        variant="The fifth character: Ambassador (recommended first) or Inquisitor",
        turn_timeout="Seconds for a turn (30-600)",
        reaction_timeout="Seconds to challenge or block (10-120)",
    )
    async def complots(
        self,
        interaction: discord.Interaction[Any],
        variant: Variant = Variant.AMBASSADOR,
        turn_timeout: app_commands.Range[int, 30, 600] | None = None,
        reaction_timeout: app_commands.Range[int, 10, 120] | None = None,
    ) -> None:
        await self.bot.open_table(
            interaction,
            game="complots",
            options=ComplotsOptions(variant=variant),
            turn_timeout=turn_timeout,
            reaction_timeout=reaction_timeout,
        )


async def setup(bot: GameMasterBot) -> None:
    bot.presenters["complots"] = ComplotsPresenter()
    await bot.add_cog(ComplotsCog(bot))
