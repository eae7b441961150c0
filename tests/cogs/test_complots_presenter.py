"""The Complots presenter labels a choice of one's own cards (the card to lose or to
show) from the seat's view: its face-down cards and the slots they lie in."""

from __future__ import annotations

from bot.ui.components import GameSelect
from bot.ui.presenter import Panel
from cogs.complots import PRESENTER
from games.base import Prompt, PromptKind, copy_state
from games.complots import GAME, ActionKind, Variant
from games.complots.models import Act, ComplotsChoice, Influence, Pass, Reveal, Show
from tests.cogs.contexts import table_context
from tests.games.complots.helpers import CA, CO, IN, A, D, rigged


def labels(panel: Panel) -> dict[str, str]:
    (select,) = [i for i in panel.items if isinstance(i, GameSelect)]
    return {o.value: o.label for o in select.item.options}


def test_the_cards_to_show_are_named_from_the_examined_players_view() -> None:
    state = rigged([[IN, D], [CO, CA], [A, D]], variant=Variant.INQUISITOR)
    for seat, choice in ((0, Act(action=ActionKind.EXAMINE, target=1)), (1, Pass()), (2, Pass())):
        state, _ = GAME.apply(state, seat, choice)
    ctx = table_context("complots", state, names=["a", "b", "c"], table_id=1, version=1)
    assert labels(PRESENTER.panel(ctx, 1, "choose")) == {
        "show.0": "Show Countess",
        "show.1": "Show Captain",
    }


def test_a_card_to_lose_is_named_by_its_slot_not_its_rank_among_the_face_down() -> None:
    """Slot 0 face up (a lost Duchess), slot 1 the face-down Captain: "lose slot 1"
    is the Captain. The panel is built from the view given (its prompt and its
    face-down slots), not from the table's state (here one with a Countess there)."""
    state = rigged([[CA], [CO, D], [A, D]])
    state.players[0].cards = [Influence(character=D, revealed=True), Influence(character=CA)]
    view = GAME.view(state, 0)
    assert view.players[0].hidden == [CA] and view.players[0].hidden_slots == [1]
    choices: tuple[ComplotsChoice, ...] = (Reveal(slot=1), Show(slot=1))
    view.prompt = Prompt[ComplotsChoice](
        player=0, kind=PromptKind.CHOICE, window="w", choices=choices, default=choices[0]
    )
    other = copy_state(state)
    other.players[0].cards[1].character = CO
    ctx = table_context("complots", other, names=["a", "b", "c"], table_id=1, version=1)
    assert labels(PRESENTER.prompt_panel(ctx, 0, view, "choose")) == {
        "reveal.1": "Lose Captain",
        "show.1": "Show Captain",
    }
