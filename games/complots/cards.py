"""Complots card data: characters, actions, who may block what."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Character(StrEnum):
    DUCHESS = "duchess"
    ASSASSIN = "assassin"
    COUNTESS = "countess"
    CAPTAIN = "captain"
    AMBASSADOR = "ambassador"
    INQUISITOR = "inquisitor"


class Variant(StrEnum):
    """The fifth character of the deck: a table option."""

    AMBASSADOR = "ambassador"
    INQUISITOR = "inquisitor"


CORE_CHARACTERS = (Character.DUCHESS, Character.ASSASSIN, Character.COUNTESS, Character.CAPTAIN)


def deck_characters(variant: Variant) -> tuple[Character, ...]:
    """The five characters of a game with this variant, in a fixed order."""
    return (*CORE_CHARACTERS, Character(variant.value))


def copies_per_character(players: int) -> int:
    """3 copies for 3-6 players, 4 for 7-8 (the 2-player deal uses its own packets)."""
    return 4 if players >= 7 else 3


class ActionKind(StrEnum):
    INCOME = "income"
    FOREIGN_AID = "foreign_aid"
    COUP = "coup"
    TAX = "tax"
    ASSASSINATE = "assassinate"
    STEAL = "steal"
    EXCHANGE = "exchange"
    EXAMINE = "examine"


class BlockScope(StrEnum):
    NOBODY = "nobody"
    TARGET = "target"
    ANYONE = "anyone"


class ActionRule(BaseModel):
    """How one action works: its cost, claim, target and who may block it."""

    model_config = ConfigDict(frozen=True)

    kind: ActionKind
    cost: int = 0
    claim: Character | None = None
    targeted: bool = False
    block_scope: BlockScope = BlockScope.NOBODY
    blockers: tuple[Character, ...] = ()

    def blocking_characters(self, variant: Variant) -> tuple[Character, ...]:
        """Blockers that exist in this game's deck (Captain is blocked by Ambassador
        or Inquisitor, whichever is in the deck)."""
        deck = deck_characters(variant)
        return tuple(c for c in self.blockers if c in deck)


COUP_COST = 7
FORCED_COUP_COINS = 10
ASSASSIN_COST = 3
STEAL_AMOUNT = 2

_CAPTAIN_BLOCKERS = (Character.CAPTAIN, Character.AMBASSADOR, Character.INQUISITOR)

_RULES: dict[ActionKind, ActionRule] = {
    rule.kind: rule
    for rule in (
        ActionRule(kind=ActionKind.INCOME),
        ActionRule(
            kind=ActionKind.FOREIGN_AID,
            block_scope=BlockScope.ANYONE,
            blockers=(Character.DUCHESS,),
        ),
        ActionRule(kind=ActionKind.COUP, cost=COUP_COST, targeted=True),
        ActionRule(kind=ActionKind.TAX, claim=Character.DUCHESS),
        ActionRule(
            kind=ActionKind.ASSASSINATE,
            cost=ASSASSIN_COST,
            claim=Character.ASSASSIN,
            targeted=True,
            block_scope=BlockScope.TARGET,
            blockers=(Character.COUNTESS,),
        ),
        ActionRule(
            kind=ActionKind.STEAL,
            claim=Character.CAPTAIN,
            targeted=True,
            block_scope=BlockScope.TARGET,
            blockers=_CAPTAIN_BLOCKERS,
        ),
        # The exchange's claim depends on the variant; see action_rule().
        ActionRule(kind=ActionKind.EXCHANGE, claim=Character.AMBASSADOR),
        ActionRule(kind=ActionKind.EXAMINE, claim=Character.INQUISITOR, targeted=True),
    )
}


_RULES_BY_VARIANT: dict[tuple[ActionKind, Variant], ActionRule] = {
    (kind, variant): (
        rule.model_copy(update={"claim": Character(variant.value)})
        if kind is ActionKind.EXCHANGE
        else rule
    )
    for kind, rule in _RULES.items()
    for variant in Variant
}


def action_rule(kind: ActionKind, variant: Variant) -> ActionRule:
    return _RULES_BY_VARIANT[(kind, variant)]


def actions_of(variant: Variant) -> tuple[ActionKind, ...]:
    """The actions available in a game: examine only with the Inquisitor."""
    return tuple(
        kind
        for kind in ActionKind
        if kind is not ActionKind.EXAMINE or variant is Variant.INQUISITOR
    )


def exchange_draw_count(variant: Variant) -> int:
    """Ambassador draws 2 from the Court, Inquisitor draws 1."""
    return 2 if variant is Variant.AMBASSADOR else 1
