"""What a seat's visible history says about the others' hands (Complots).

Read by NORMAL (``ai.py``) to challenge and bluff by the odds, and by the HARD
search's sampler (``sampler.py``) to deal likely hands. Both see only the view
and this history, never the state.

Per opponent, since its hand last changed as far as the viewer can tell:

* a character it claimed (an action or a block) and did not lose or prove since
  is likelier in its hand: honest claims are more common than bluffs;
* a character it could have blocked with and did not (it let a theft or a murder
  on itself, or a foreign aid, go unblocked) is less likely;
* a character whose claim it failed to prove is very unlikely;
* a card the viewer saw as the Inquisitor is certainly there.

A proved claim does not keep the card: the rules shuffle it into the Court and
the claimant draws anew, so a proved claim says nothing of the new hand. An
exchange, or an examined card sent back to the Court, resets what is known of
that hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.base import Event, Seat

from .cards import ActionKind, Character
from .models import (
    ActionBlocked,
    ActionDeclared,
    BlockDeclared,
    CardDrawn,
    CardShown,
    ClaimFailed,
    ClaimProved,
    ExamineVerdict,
    ExchangeDone,
    ExchangeOffered,
    ExchangeStarted,
    HandChanged,
    InfluenceLost,
    Passed,
)

HONEST = 4.0
"""How much likelier a claimed character is in the claimant's hand than not."""
DENIED = 0.2
"""Likelihood ratio of holding a character one could have blocked with and did not."""
DENIED_ANYONE = 0.8
"""... when anyone could have blocked (a foreign aid): someone else might have."""
EXPOSED = 0.03
"""Likelihood of holding a character one failed to prove (until a new hand)."""


@dataclass
class Memory:
    """What the history says about hands and the Court."""

    claims: dict[Seat, Counter[Character]] = field(default_factory=dict)
    """Claims (how many times) not lost, proved or exchanged away since."""
    denied: dict[Seat, dict[Character, float]] = field(default_factory=dict)
    """Blocks a seat could have claimed and did not: their likelihood ratio."""
    exposed: dict[Seat, set[Character]] = field(default_factory=dict)
    known: dict[Seat, list[Character]] = field(default_factory=dict)
    """Cards the viewer saw in another hand (as the Inquisitor), not redrawn since."""
    court: Counter[Character] = field(default_factory=Counter)
    """Cards the viewer put in the Court, not drawn by anyone since."""

    @property
    def empty(self) -> bool:
        """Nothing known of any hand (no history, or none that tells anything)."""
        return not (self.claims or self.denied or self.exposed or self.known)

    def forget_hand(self, seat: Seat) -> None:
        self.claims.pop(seat, None)
        self.denied.pop(seat, None)
        self.exposed.pop(seat, None)
        self.known.pop(seat, None)

    def claimed(self, seat: Seat, character: Character) -> int:
        return self.claims.get(seat, Counter())[character]

    def ratio(self, seat: Seat, character: Character, pending: bool = False) -> float:
        """How much likelier (above 1) or less likely the seat holds ``character``
        than a random hand would. ``pending``: the claim now being decided is the
        seat's last one, which is not evidence for itself."""
        if character in self.exposed.get(seat, set()):
            return EXPOSED
        claims = self.claimed(seat, character) - (1 if pending else 0)
        if claims > 0:
            return HONEST
        return self.denied.get(seat, {}).get(character, 1.0)


def blockers_of(action: ActionKind) -> tuple[Character, ...]:
    """The characters that block ``action`` (the theft: both exchangers, only the
    deck's one can be held)."""
    if action is ActionKind.FOREIGN_AID:
        return (Character.DUCHESS,)
    if action is ActionKind.ASSASSINATE:
        return (Character.COUNTESS,)
    if action is ActionKind.STEAL:
        return (Character.CAPTAIN, Character.AMBASSADOR, Character.INQUISITOR)
    return ()


@dataclass
class Reader:
    """Reads a history event by event into a ``Memory``."""

    viewer: Seat
    memory: Memory = field(default_factory=Memory)
    offered: tuple[Character, ...] = ()
    action: ActionDeclared | None = None
    """The action whose blocks are still open (None once a block is declared)."""

    def read(self, event: Event) -> None:
        memory = self.memory
        if isinstance(event, ActionDeclared):
            self.action = event
            if event.claim is not None:
                memory.claims.setdefault(event.actor, Counter())[event.claim] += 1
        elif isinstance(event, BlockDeclared):
            self.action = None
            memory.claims.setdefault(event.blocker, Counter())[event.character] += 1
        elif isinstance(event, Passed):
            self._passed(event.seat)
        elif isinstance(event, ActionBlocked):
            self.action = None
        elif isinstance(event, ClaimFailed):
            memory.claims.get(event.claimant, Counter()).pop(event.character, None)
            memory.exposed.setdefault(event.claimant, set()).add(event.character)
            self.action = None
        elif isinstance(event, ClaimProved):
            self._proved(event)
        elif isinstance(event, CardDrawn) and event.seat == self.viewer:
            if memory.court[event.character] > 0:
                memory.court[event.character] -= 1
            else:
                memory.court.clear()
        elif isinstance(event, InfluenceLost):
            self._lost(event)
        else:
            self._exchanges(event)

    def _passed(self, seat: Seat) -> None:
        action = self.action
        if action is None:
            return
        if action.action is ActionKind.FOREIGN_AID:
            ratio = DENIED_ANYONE
        elif action.target == seat:
            ratio = DENIED
        else:
            return
        denied = self.memory.denied.setdefault(seat, {})
        for character in blockers_of(action.action):
            denied[character] = min(denied.get(character, 1.0), ratio)

    def _proved(self, event: ClaimProved) -> None:
        memory = self.memory
        memory.claims.get(event.claimant, Counter()).pop(event.character, None)
        if event.claimant == self.viewer:
            memory.court[event.character] += 1
        else:
            memory.court.clear()  # it drew from the Court

    def _lost(self, event: InfluenceLost) -> None:
        memory = self.memory
        memory.claims.get(event.seat, Counter()).pop(event.character, None)
        known = memory.known.get(event.seat, [])
        if event.character in known:
            known.remove(event.character)

    def _exchanges(self, event: Event) -> None:
        memory = self.memory
        viewer = self.viewer
        if isinstance(event, ExchangeStarted) and event.actor != viewer:
            memory.court.clear()
        elif isinstance(event, ExchangeOffered):
            self.offered = event.drawn
        elif isinstance(event, HandChanged) and event.seat == viewer:
            memory.court += Counter(self.offered) - Counter(event.hidden)
            self.offered = ()
        elif isinstance(event, ExchangeDone) and event.actor != viewer:
            memory.forget_hand(event.actor)
        elif isinstance(event, CardShown) and event.inquisitor == viewer:
            memory.known.setdefault(event.target, []).append(event.character)
        elif isinstance(event, ExamineVerdict) and event.redraw:
            memory.forget_hand(event.target)
            if event.target != viewer:
                memory.court.clear()


def read_history(history: Sequence[Event], viewer: Seat) -> Memory:
    reader = Reader(viewer)
    for event in history:
        reader.read(event)
    return reader.memory
