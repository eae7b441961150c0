"""How Complots shows itself on Discord.

Public rendering reads only the spectator view, or the final state once the
game is over; the action buttons come from the turn's legal actions, which
depend on public coins only. Secrets go to ephemeral panels and DMs built from
the seat's own view.
"""

from __future__ import annotations

import discord

from bot.ui.i18n import t
from bot.ui.presenter import EmbedField, GamePresenter, Item, Panel, TableBody, TableContext
from games.base import Choice, Event, Model, Seat
from games.complots import ActionKind, Character, Complots, ComplotsOptions, ComplotsState, Variant
from games.complots.cards import action_rule
from games.complots.models import (
    Act,
    ActionBlocked,
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
    PlayerView,
    Reveal,
    Show,
    Stage,
    Verdict,
)

from .strings import STRINGS

HIDDEN_CARD = "🂠"
COIN = "🪙"
PRIVATE_STAGES = (Stage.PICK, Stage.EXCHANGE, Stage.EXAMINE_SHOW, Stage.EXAMINE_DECIDE)
"""Stages whose choices name the chooser's own cards: they go to a private panel."""
WINDOW_STAGES = {
    Stage.REACT: "react",
    Stage.BLOCK: "block",
    Stage.BLOCK_CHALLENGE: "block_challenge",
}
CHOICE_STAGES = {
    Stage.EXCHANGE: "exchange",
    Stage.EXAMINE_SHOW: "examine_show",
    Stage.EXAMINE_DECIDE: "examine_decide",
}


def card(character: Character | Variant, locale: str | None) -> str:
    """A character's name (a variant is named by its fifth character)."""
    return t(f"complots.card.{character.value}", locale)


def card_the(character: Character | Variant, locale: str | None) -> str:
    """A character's name with its article ("the Duchess", "la Duchessa", "l'Assassin")."""
    return t(f"complots.card_the.{character.value}", locale)


def cards(characters: list[Character] | None, locale: str | None) -> str:
    return ", ".join(card(c, locale) for c in characters or []) or "-"


def action_label(action: ActionKind, locale: str | None) -> str:
    return t(f"complots.action.{action.value}", locale)


class ComplotsPresenter(GamePresenter[ComplotsState, ComplotsView]):
    notable_events = GamePresenter.notable_events | {"player_eliminated"}
    strings = STRINGS
    colour = discord.Colour.dark_red()
    game: Complots

    # --- public table message ------------------------------------------------

    def table_body(self, ctx: TableContext) -> TableBody:
        view = self.view(ctx, None)
        locale = ctx.locale
        court = self.text(
            ctx, "court_value", count=view.court_size, the_variant=card_the(view.variant, locale)
        )
        return TableBody(
            description="\n".join(self._player_line(ctx, view, p) for p in view.players),
            fields=[
                EmbedField(self.text(ctx, "court"), court, inline=True),
                EmbedField(self.text(ctx, "now"), self._now(ctx, view)),
            ],
            footer=self.text(ctx, "footer", turn=view.turn_number, table=ctx.table_id),
        )

    def _player_line(self, ctx: TableContext, view: ComplotsView, player: PlayerView) -> str:
        locale = ctx.locale
        seat = player.seat
        finished = view.winner is not None
        turn = view.turn == seat and not finished and view.stage is not Stage.PICK
        marker = "▶" if turn else "▪"
        revealed = " ".join(f"~~{card(c, locale)}~~" for c in player.revealed)
        if finished:  # the game is over: every card may be shown
            final = self.state(ctx).players[seat].hidden()
            hidden = " ".join(f"**{card(c, locale)}**" for c in final)
        else:
            hidden = HIDDEN_CARD * player.hidden_count
        status = ""
        if view.winner == seat:
            status = " 🏆"
        elif not player.alive:
            status = " ❌"
        elif ctx.away(seat):
            status = " 💤 " + t("table.away", locale)
        line = f"{marker} **{ctx.name(seat)}** {COIN} {player.coins}"
        if shown := " ".join(part for part in (hidden, revealed) if part):
            line += f" · {shown}"
        return line + status

    def _now(self, ctx: TableContext, view: ComplotsView) -> str:
        if view.winner is not None:
            return self.text(ctx, "now.winner", winner=ctx.name(view.winner))
        when = ctx.countdown()
        names = ", ".join(ctx.name(s) for s in view.awaiting)
        if view.losing is not None:
            return self.text(ctx, "now.losing", player=ctx.name(view.losing), when=when)
        if view.stage is Stage.PICK:
            return self.text(ctx, "now.pick", players=names, when=when)
        if view.stage is Stage.ACTION:
            return self.text(ctx, "now.turn", player=ctx.name(view.turn), when=when)
        lines = [self._claim_text(ctx, view)]
        pending = view.pending
        if view.stage is Stage.BLOCK_CHALLENGE and pending is not None and pending.block:
            block = pending.block
            lines.append(
                self.text(
                    ctx,
                    "now.blocked_by",
                    player=ctx.name(block.blocker),
                    character=card(block.character, ctx.locale),
                )
            )
        if view.stage in WINDOW_STAGES:
            lines.append(
                self.text(ctx, f"now.{WINDOW_STAGES[view.stage]}", players=names, when=when)
            )
            if view.passed:
                passed = ", ".join(ctx.name(s) for s in view.passed)
                lines.append(self.text(ctx, "now.passed", players=passed))
        else:
            key = CHOICE_STAGES.get(view.stage, "wait")
            lines.append(self.text(ctx, f"now.{key}", players=names, when=when))
        return "\n".join(lines)

    def _claim_text(self, ctx: TableContext, view: ComplotsView) -> str:
        """The pending action, worded as its line in the log."""
        pending = view.pending
        if pending is None:
            return ""
        target = ctx.name(pending.target) if pending.target is not None else ""
        return self.text(
            ctx,
            f"log.action_declared.{pending.action.value}",
            actor=ctx.name(pending.actor),
            target=target,
            the_claim=card_the(pending.claim, ctx.locale) if pending.claim is not None else "",
        )

    def table_items(self, ctx: TableContext) -> list[Item]:
        view = self.view(ctx, None)
        if not view.awaiting:
            return []
        if view.losing is not None or view.stage in PRIVATE_STAGES:
            return [self.panel_button(ctx, "choose", self.text(ctx, "button.choose"))]
        if view.stage is Stage.ACTION:
            return self._action_buttons(ctx, view)
        return self._window_buttons(ctx)

    def _action_buttons(self, ctx: TableContext, view: ComplotsView) -> list[Item]:
        """One button per action the player whose turn it is may take (public: the
        legal actions depend on coins and living players only)."""
        locale = ctx.locale
        buttons: list[Item] = []
        seen: set[ActionKind] = set()
        for act in self.game.legal_actions(self.state(ctx), view.turn):
            if act.action in seen:
                continue
            seen.add(act.action)
            rule = action_rule(act.action, view.variant)
            label = action_label(act.action, locale)
            if rule.claim is not None:
                label += f" · {card(rule.claim, locale)}"
            if act.action is ActionKind.COUP:
                style = discord.ButtonStyle.danger
            elif rule.claim is not None:
                style = discord.ButtonStyle.primary
            else:
                style = discord.ButtonStyle.secondary
            if rule.targeted:
                buttons.append(
                    self.panel_button(ctx, f"target.{act.action.value}", label, style=style)
                )
            else:
                buttons.append(self.choice_button(ctx, act, label, style=style))
        return buttons

    def _window_buttons(self, ctx: TableContext) -> list[Item]:
        """Challenge, block and pass: the answers of everyone asked in the window."""
        answers: list[ComplotsChoice] = []
        for prompt in self.game.prompts(self.state(ctx)):
            answers.extend(c for c in prompt.choices if c not in answers)
        answers.sort(key=lambda c: (isinstance(c, Pass), isinstance(c, Block)))
        buttons: list[Item] = []
        for choice in answers:
            if isinstance(choice, Challenge):
                label, style = self.text(ctx, "button.challenge"), discord.ButtonStyle.danger
            elif isinstance(choice, Block):
                character = card(choice.character, ctx.locale)
                label = self.text(ctx, "button.block", character=character)
                style = discord.ButtonStyle.primary
            else:
                label, style = self.text(ctx, "button.pass"), discord.ButtonStyle.secondary
            buttons.append(self.choice_button(ctx, choice, label, style=style))
        return buttons

    # --- private: hand and panels -------------------------------------------------

    def hand(self, ctx: TableContext, seat: Seat) -> Panel:
        view = self.view(ctx, seat)
        locale = ctx.locale
        me = view.players[seat]
        lines = [self.text(ctx, "hand.cards", cards=cards(me.hidden, locale))]
        if me.revealed:
            lines.append(self.text(ctx, "hand.lost", cards=cards(me.revealed, locale)))
        lines.append(self.text(ctx, "hand.coins", coins=me.coins))
        if view.packet:
            lines.append(self.text(ctx, "hand.packet", cards=cards(view.packet, locale)))
        if view.exchange_pool:
            lines.append(self.text(ctx, "hand.pool", cards=cards(view.exchange_pool, locale)))
        if view.examined is not None:
            lines.append(self.text(ctx, "hand.examined", card=card(view.examined, locale)))
        embed = discord.Embed(
            title=self.text(ctx, "hand.title", table=ctx.table_id), description="\n".join(lines)
        )
        items: list[Item] = []
        if view.prompt is not None and view.prompt.kind.value == "choice":
            items = self.prompt_panel(ctx, seat, view, "choose").items
        return Panel(content="", embed=embed, items=items)

    def prompt_panel(self, ctx: TableContext, seat: Seat, view: ComplotsView, code: str) -> Panel:
        prompt = view.prompt
        assert prompt is not None
        if code.startswith("target."):
            return self._target_panel(ctx, view, code.removeprefix("target."))
        options = [self.option(c, self._choice_label(ctx, view, c)) for c in prompt.choices]
        select = self.select(ctx, "choose", options, self.text(ctx, "button.choose"))
        return Panel(content=self._choice_question(ctx, view), items=[select])

    def _target_panel(self, ctx: TableContext, view: ComplotsView, action: str) -> Panel:
        assert view.prompt is not None
        acts = [
            c
            for c in view.prompt.choices
            if isinstance(c, Act) and c.action.value == action and c.target is not None
        ]
        if not acts:
            return self.stale(ctx)
        question = self.text(ctx, "panel.target", action=action_label(acts[0].action, ctx.locale))
        options = [self.option(a, ctx.plain_name(a.target)) for a in acts if a.target is not None]
        return Panel(content=question, items=[self.select(ctx, "target", options, question)])

    def _choice_question(self, ctx: TableContext, view: ComplotsView) -> str:
        locale = ctx.locale
        if view.losing is not None:
            return self.text(ctx, "panel.lose")
        if view.stage is Stage.PICK:
            return self.text(ctx, "panel.pick")
        if view.stage is Stage.EXCHANGE:
            return self.text(ctx, "panel.exchange", cards=cards(view.exchange_pool, locale))
        if view.stage is Stage.EXAMINE_SHOW:
            return self.text(ctx, "panel.show")
        if view.stage is Stage.EXAMINE_DECIDE and view.examined is not None:
            return self.text(ctx, "panel.verdict", card=card(view.examined, locale))
        return self.text(ctx, "button.choose")

    def _choice_label(self, ctx: TableContext, view: ComplotsView, choice: ComplotsChoice) -> str:
        """A private choice in words, from the chooser's own view."""
        locale = ctx.locale
        if isinstance(choice, Reveal | Show):
            key = "choice.reveal" if isinstance(choice, Reveal) else "choice.show"
            return self.text(ctx, key, card=card(_in_slot(view, choice.slot), locale))
        if isinstance(choice, Keep):
            kept = " + ".join(card(c, locale) for c in choice.cards)
            return self.text(ctx, "choice.keep", cards=kept)
        if isinstance(choice, Verdict):
            return self.text(ctx, "choice.redraw" if choice.redraw else "choice.give_back")
        if isinstance(choice, Pick):
            return self.text(ctx, "choice.pick", card=card(choice.character, locale))
        return self.describe(choice, locale)

    def after_choice(
        self, ctx: TableContext, seat: Seat, choice: Choice, events: list[Event]
    ) -> Panel | None:
        """After a private choice, the chooser sees its hand as it now is."""
        if not isinstance(choice, Reveal | Keep | Show | Pick):
            return None
        me = self.view(ctx, seat).players[seat]
        return Panel(content=self.text(ctx, "after_choice", cards=cards(me.hidden, ctx.locale)))

    # --- event lines ---------------------------------------------------------------

    def event_key(self, ctx: TableContext, event: Event) -> str:
        if isinstance(event, ActionDeclared):
            return f"action_declared.{event.action.value}"
        if isinstance(event, ExamineVerdict):
            return "examine_verdict.redraw" if event.redraw else "examine_verdict.give_back"
        return super().event_key(ctx, event)

    def event_args(self, ctx: TableContext, event: Event) -> dict[str, object]:
        """A claimed or blocking character with its article (each language its own)."""
        if isinstance(event, ActionDeclared) and event.claim is not None:
            return {"the_claim": card_the(event.claim, ctx.locale)}
        if isinstance(event, ActionBlocked):
            return {"the_character": card_the(event.character, ctx.locale)}
        return {}

    def tells(self, event: Event, seat: Seat) -> bool:
        """The examined card is news to the Inquisitor only (the target knows its cards)."""
        return not isinstance(event, CardShown) or event.inquisitor == seat

    def describe(self, value: object, locale: str | None) -> str:
        if isinstance(value, Character):
            return card(value, locale)
        if isinstance(value, ActionKind):
            return action_label(value, locale)
        return super().describe(value, locale)

    def describe_options(self, options: Model, locale: str | None) -> str:
        assert isinstance(options, ComplotsOptions)
        return t("complots.options", locale, variant=card(options.variant, locale))


def _in_slot(view: ComplotsView, slot: int) -> Character:
    """The viewer's face-down card in ``slot``."""
    assert view.viewer is not None
    me = view.players[view.viewer]
    assert me.hidden is not None and me.hidden_slots is not None
    return me.hidden[me.hidden_slots.index(slot)]
