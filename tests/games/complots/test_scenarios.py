"""Scenario tests on the edges of every Complots action, window and loss."""

import pytest

from games.base import GameIsOver, IllegalChoice, NotAllowed, NotPrompted
from games.complots import GAME, Variant
from games.complots.models import (
    Act,
    ActionBlocked,
    ActionFizzled,
    Block,
    CardDrawn,
    CardShown,
    Challenge,
    ClaimFailed,
    CoinsRefunded,
    ComplotsState,
    ExchangeOffered,
    HandChanged,
    Keep,
    LossReason,
    Pass,
    PlayerEliminated,
    Reveal,
    Show,
    Stage,
    Verdict,
)

from .helpers import (
    AM,
    CA,
    CO,
    EXCHANGE,
    FOREIGN_AID,
    IN,
    INCOME,
    TAX,
    A,
    D,
    Table,
    assassinate,
    card_total,
    coup,
    examine,
    rigged,
    steal,
)


def three() -> Table:
    """P0 holds Duchess+Captain, P1 Countess+Ambassador, P2 Assassin+Duchess."""
    return Table(rigged([[D, CA], [CO, AM], [A, D]], coins=[2, 2, 2]))


# --- income, foreign aid, coup ---------------------------------------------------


def test_income_takes_one_coin_and_opens_no_window() -> None:
    table = three()
    table.do(0, INCOME)
    assert table.coins() == [3, 2, 2]
    assert table.state.stage is Stage.ACTION and table.state.turn == 1


def test_foreign_aid_unblocked_when_everyone_passes() -> None:
    table = three()
    table.do(0, FOREIGN_AID)
    assert table.prompted() == [1, 2]
    assert table.choices(1) == (Block(character=D), Pass()), "no challenge: no claim"
    table.do(1, Pass())
    assert table.prompted() == [2], "P1's pass is recorded; the window stays open"
    table.do(2, Pass())
    assert table.coins() == [4, 2, 2]


def test_foreign_aid_blocked_by_any_duchess_claim() -> None:
    table = three()
    table.do(0, FOREIGN_AID)
    table.do(1, Block(character=D))  # a bluff nobody challenges
    assert sorted(table.prompted()) == [0, 2]
    table.do(0, Pass())
    table.do(2, Pass())
    assert table.of_type(ActionBlocked)[0].blocker == 1
    assert table.coins() == [2, 2, 2]


def test_foreign_aid_block_challenged_and_true() -> None:
    table = three()
    table.do(0, FOREIGN_AID)
    table.do(2, Block(character=D))
    table.do(0, Challenge())
    table.do(0, Reveal(slot=1))
    assert table.revealed(0) == [CA]
    assert table.coins() == [2, 2, 2]
    assert len(table.hidden(2)) == 2, "the proved Duchess was replaced"


def test_foreign_aid_block_exposed_lets_the_aid_resolve() -> None:
    """RULING: an exposed Duchess block lets the foreign aid resolve, no new window."""
    table = three()
    table.do(0, FOREIGN_AID)
    table.do(1, Block(character=D))
    table.do(2, Challenge())
    table.do(1, Reveal(slot=0))
    assert table.coins() == [4, 2, 2]
    assert table.state.turn == 1 and table.state.stage is Stage.ACTION


def test_coup_costs_seven_and_cannot_be_blocked() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D]], coins=[7, 2, 2]))
    table.do(0, coup(1))
    assert table.coins()[0] == 0
    assert table.prompted() == [1]
    assert table.choices(1) == (Reveal(slot=0), Reveal(slot=1))
    table.do(1, Reveal(slot=1))
    assert table.revealed(1) == [AM]
    assert table.losses_of(1)[0].reason is LossReason.COUP


def test_coup_needs_seven_coins() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D]], coins=[6, 2, 2]))
    assert coup(1) not in table.choices(0)
    with pytest.raises(NotAllowed):
        table.do(0, coup(1))


def test_ten_coins_force_the_coup() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D]], coins=[10, 2, 2]))
    assert table.choices(0) == (coup(1), coup(2))
    prompt = GAME.prompt_for(table.state, 0)
    assert prompt is not None and prompt.default in (coup(1), coup(2))
    with pytest.raises(NotAllowed):
        table.do(0, INCOME)


def test_ten_coins_timeout_assassinates_a_random_target() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D]], coins=[12, 2, 2]))
    table.timeout()
    assert table.coins()[0] == 5
    assert table.state.losses and table.state.losses[0].reason is LossReason.COUP


# --- Duchess tax ------------------------------------------------------------------


def test_tax_unchallenged() -> None:
    table = three()
    table.do(0, TAX)
    assert table.choices(1) == (Challenge(), Pass()), "tax cannot be blocked"
    table.do(1, Pass())
    table.do(2, Pass())
    assert table.coins() == [5, 2, 2]


def test_tax_challenged_truthfully_replaces_the_card() -> None:
    table = three()
    court_before = len(table.state.court)
    table.do(0, TAX)
    table.do(1, Challenge())
    drawn = table.of_type(CardDrawn)
    assert len(drawn) == 1 and drawn[0].audience == (0,)
    assert len(table.state.court) == court_before
    table.do(1, Reveal(slot=0))
    assert table.coins() == [5, 2, 2]
    assert table.revealed(1) == [CO]


def test_tax_challenged_as_a_bluff() -> None:
    table = Table(rigged([[CA, CO], [CO, AM], [A, D]]))
    table.do(0, TAX)
    table.do(2, Challenge())
    assert table.of_type(ClaimFailed)[0].claimant == 0
    table.do(0, Reveal(slot=0))
    assert table.coins() == [2, 2, 2]
    assert table.losses_of(0)[0].reason is LossReason.BLUFF_EXPOSED
    assert table.state.turn == 1


def test_first_challenge_wins_and_closes_the_window() -> None:
    table = three()
    table.do(0, TAX)
    table.do(2, Challenge())
    with pytest.raises(NotPrompted):
        table.do(1, Challenge())


# --- Assassin -----------------------------------------------------------------------


def test_assassination_unchallenged_and_unblocked() -> None:
    table = Table(rigged([[A, D], [CO, AM], [CA, D]], coins=[3, 2, 2]))
    table.do(0, assassinate(1))
    assert table.choices(1) == (Challenge(), Block(character=CO), Pass())
    assert table.choices(2) == (Challenge(), Pass()), "only the target may block"
    table.do(1, Pass())
    table.do(2, Pass())
    table.do(1, Reveal(slot=1))
    assert table.revealed(1) == [AM]
    assert table.coins() == [0, 2, 2]


def test_exposed_assassin_gets_its_coins_back() -> None:
    table = Table(rigged([[CA, D], [CO, AM], [CA, D]], coins=[3, 2, 2]))
    table.do(0, assassinate(1))
    table.do(2, Challenge())
    table.do(0, Reveal(slot=0))
    assert table.of_type(CoinsRefunded)[0].amount == 3
    assert table.coins() == [3, 2, 2]
    assert table.revealed(1) == []


def test_countess_block_keeps_the_coins_paid() -> None:
    table = Table(rigged([[A, D], [CO, AM], [CA, D]], coins=[3, 2, 2]))
    table.do(0, assassinate(1))
    table.do(1, Block(character=CO))
    table.do(0, Pass())
    table.do(2, Pass())
    assert table.of_type(ActionBlocked)[0].character is CO
    assert table.coins() == [0, 2, 2]
    assert table.revealed(1) == []


def test_countess_block_challenged_and_true() -> None:
    table = Table(rigged([[A, D], [CO, AM], [CA, D]], coins=[3, 2, 2]))
    table.do(0, assassinate(1))
    table.do(1, Block(character=CO))
    table.do(2, Challenge())
    table.do(2, Reveal(slot=1))
    assert table.coins() == [0, 2, 2]
    assert table.revealed(1) == [] and table.revealed(2) == [D]


def test_assassin_needs_three_coins() -> None:
    table = three()
    assert assassinate(1) not in table.choices(0)


# --- Captain --------------------------------------------------------------------------


@pytest.mark.parametrize(("victim_coins", "stolen"), [(5, 2), (2, 2), (1, 1), (0, 0)])
def test_steal_takes_up_to_two(victim_coins: int, stolen: int) -> None:
    table = Table(rigged([[CA, D], [CO, AM], [A, D]], coins=[2, victim_coins, 2]))
    table.do(0, steal(1))
    table.do(1, Pass())
    table.do(2, Pass())
    assert table.coins() == [2 + stolen, victim_coins - stolen, 2]


def test_steal_blockers_follow_the_variant() -> None:
    ambassador = Table(rigged([[CA, D], [CO, AM], [A, D]]))
    ambassador.do(0, steal(1))
    assert ambassador.choices(1) == (
        Challenge(),
        Block(character=CA),
        Block(character=AM),
        Pass(),
    )
    inquisitor = Table(rigged([[CA, D], [CO, IN], [A, D]], variant=Variant.INQUISITOR))
    inquisitor.do(0, steal(1))
    assert inquisitor.choices(1) == (
        Challenge(),
        Block(character=CA),
        Block(character=IN),
        Pass(),
    )
    with pytest.raises(NotAllowed):
        inquisitor.do(1, Block(character=AM))


def test_steal_blocked_by_the_inquisitor() -> None:
    table = Table(rigged([[CA, D], [CO, IN], [A, D]], variant=Variant.INQUISITOR))
    table.do(0, steal(1))
    table.do(1, Block(character=IN))
    table.do(0, Challenge())
    table.do(0, Reveal(slot=0))
    assert table.coins() == [2, 2, 2]
    assert table.revealed(0) == [CA]


def test_block_must_be_proved_with_the_named_character() -> None:
    """RULING: blocking 'as Captain' and holding only an Ambassador fails."""
    table = Table(rigged([[CA, D], [CO, AM], [A, D]]))
    table.do(0, steal(1))
    table.do(1, Block(character=CA))
    table.do(0, Challenge())
    assert table.of_type(ClaimFailed)[0].claimant == 1
    table.do(1, Reveal(slot=0))
    assert table.coins() == [4, 0, 2]


def test_target_that_lost_a_challenge_may_still_block() -> None:
    table = Table(rigged([[CA, D], [CO, AM], [A, D]]))
    table.do(0, steal(1))
    table.do(1, Challenge())
    table.do(1, Reveal(slot=0))
    assert table.state.stage is Stage.BLOCK
    assert table.choices(1) == (Block(character=CA), Block(character=AM), Pass())
    table.do(1, Block(character=AM))
    table.do(0, Pass())
    table.do(2, Pass())
    assert table.coins() == [2, 2, 2]


def test_steal_bluff_exposed_steals_nothing() -> None:
    table = Table(rigged([[D, D], [CO, AM], [A, D]]))
    table.do(0, steal(1))
    table.do(2, Challenge())
    table.do(0, Reveal(slot=1))
    assert table.coins() == [2, 2, 2]


# --- exchanges --------------------------------------------------------------------------


def test_ambassador_exchange_with_two_cards() -> None:
    table = Table(rigged([[AM, D], [CO, CO], [A, D]]))
    total = card_total(table.state)
    table.do(0, EXCHANGE)
    table.do(1, Pass())
    table.do(2, Pass())
    offered = table.of_type(ExchangeOffered)[0]
    assert offered.audience == (0,) and len(offered.drawn) == 2
    pool = [AM, D, *offered.drawn]
    keeps = {c.cards for c in table.choices(0) if isinstance(c, Keep)}
    assert all(len(k) == 2 and list(k) == sorted(k) for k in keeps)
    expected = {tuple(sorted((pool[i], pool[j]))) for i in range(4) for j in range(i + 1, 4)}
    assert keeps == expected, "every pair of the four cards, and nothing else"
    chosen = tuple(sorted(offered.drawn))
    assert chosen in keeps
    assert card_total(table.state) == total
    table.do(0, Keep(cards=chosen))
    assert sorted(table.hidden(0)) == sorted(chosen)
    assert table.of_type(HandChanged)[-1].audience == (0,)
    assert len(table.state.court) == 15 - 6
    assert card_total(table.state) == total


def test_exchange_with_one_live_card_keeps_one() -> None:
    table = Table(rigged([[AM], [CO, CO], [A, D]], revealed=[[D], [], []]))
    table.do(0, EXCHANGE)
    table.do(1, Pass())
    table.do(2, Pass())
    keeps = [c for c in table.choices(0) if isinstance(c, Keep)]
    assert keeps and all(len(k.cards) == 1 for k in keeps)
    assert Keep(cards=(AM,)) in keeps
    table.do(0, keeps[-1])
    assert len(table.hidden(0)) == 1 and table.revealed(0) == [D]


def test_inquisitor_exchange_draws_one() -> None:
    table = Table(rigged([[IN, D], [CO, CO], [A, D]], variant=Variant.INQUISITOR))
    table.do(0, EXCHANGE)
    table.do(1, Pass())
    table.do(2, Pass())
    offered = table.of_type(ExchangeOffered)[0]
    assert len(offered.drawn) == 1
    keeps = {c.cards for c in table.choices(0) if isinstance(c, Keep)}
    assert tuple(sorted([IN, D])) in keeps
    assert len(keeps) <= 3


def test_exchange_timeout_keeps_ones_own_cards() -> None:
    table = Table(rigged([[AM, D], [CO, CO], [A, D]]))
    table.do(0, EXCHANGE)
    table.do(1, Pass())
    table.do(2, Pass())
    table.timeout()
    assert sorted(table.hidden(0)) == sorted([AM, D])
    assert table.state.turn == 1


def test_exchange_after_a_failed_challenge_uses_the_new_card() -> None:
    table = Table(rigged([[AM, D], [CO, CO], [A, D]]))
    table.do(0, EXCHANGE)
    table.do(1, Challenge())
    table.do(1, Reveal(slot=0))
    assert table.state.stage is Stage.EXCHANGE
    new_card = table.of_type(CardDrawn)[0].character
    own = table.hidden(0)
    assert new_card in own and D in own


# --- Inquisitor examine -------------------------------------------------------------------


def inquisition() -> Table:
    return Table(rigged([[IN, D], [CO, CA], [A, D]], variant=Variant.INQUISITOR))


def test_examine_cannot_be_blocked_and_target_chooses_the_card() -> None:
    table = inquisition()
    table.do(0, examine(1))
    assert table.choices(1) == (Challenge(), Pass())
    table.do(1, Pass())
    table.do(2, Pass())
    assert table.prompted() == [1]
    assert table.choices(1) == (Show(slot=0), Show(slot=1))
    table.do(1, Show(slot=1))
    shown = table.of_type(CardShown)[0]
    assert shown.character is CA and shown.audience == (0, 1)
    view = GAME.view(table.state, 0)
    assert view.examined is CA
    assert GAME.view(table.state, 2).examined is None


def test_examine_give_back_keeps_the_hand() -> None:
    table = inquisition()
    table.do(0, examine(1))
    table.do(1, Pass())
    table.do(2, Pass())
    table.do(1, Show(slot=0))
    table.do(0, Verdict(redraw=False))
    assert table.hidden(1) == [CO, CA]
    assert table.state.turn == 1


def test_examine_force_redraw_replaces_the_card() -> None:
    table = inquisition()
    total = card_total(table.state)
    table.do(0, examine(1))
    table.do(1, Pass())
    table.do(2, Pass())
    table.do(1, Show(slot=0))
    table.do(0, Verdict(redraw=True))
    drawn = table.of_type(CardDrawn)
    assert len(drawn) == 1 and drawn[0].audience == (1,)
    assert table.hidden(1)[0] is drawn[0].character and table.hidden(1)[1] is CA
    assert card_total(table.state) == total


def test_examine_target_with_one_card_shows_it_without_choosing() -> None:
    table = Table(
        rigged([[IN, D], [CA], [A, D]], revealed=[[], [CO], []], variant=Variant.INQUISITOR)
    )
    table.do(0, examine(1))
    table.do(1, Pass())
    table.do(2, Pass())
    assert table.prompted() == [0]
    assert table.of_type(CardShown)[0].character is CA


def test_examine_timeouts_random_show_then_give_back() -> None:
    table = inquisition()
    table.do(0, examine(1))
    stages = []
    for _ in range(3):
        table.timeout()
        stages.append(table.state.stage)
    assert stages == [Stage.EXAMINE_SHOW, Stage.EXAMINE_DECIDE, Stage.ACTION]
    assert table.hidden(1) == [CO, CA]


# --- losses, elimination, turn order --------------------------------------------------------


def test_one_card_challenger_is_eliminated_mid_action_and_the_action_goes_on() -> None:
    table = Table(rigged([[CA, D], [CO, AM], [A], [D, D]], revealed=[[], [], [CO], []]))
    table.do(0, steal(1))
    table.do(2, Challenge())
    assert table.eliminated() == [2]
    assert table.coins()[2] == 0
    assert table.prompted() == [1], "the target may still block"
    table.do(1, Pass())
    assert table.coins() == [4, 0, 0, 2]


def test_target_eliminated_by_its_own_challenge_makes_the_steal_fizzle() -> None:
    table = Table(rigged([[CA, D], [CO], [A, D]], coins=[2, 5, 2], revealed=[[], [AM], []]))
    table.do(0, steal(1))
    table.do(1, Challenge())
    assert table.eliminated() == [1]
    assert table.of_type(ActionFizzled)
    assert table.coins() == [2, 0, 2], "the victim's coins went to the treasury, not the thief"


def test_turn_order_skips_several_eliminated_players() -> None:
    table = Table(
        rigged(
            [[CA, D], [], [], [A, D], [], [D, CO]],
            revealed=[[], [CO, CO], [AM, AM], [], [A, CA], []],
        )
    )
    table.do(0, INCOME)
    assert table.state.turn == 3
    table.do(3, INCOME)
    assert table.state.turn == 5
    table.do(5, INCOME)
    assert table.state.turn == 0


def test_loss_timeout_reveals_a_random_card() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D]], coins=[7, 2, 2]))
    table.do(0, coup(1))
    table.timeout()
    assert len(table.revealed(1)) == 1 and len(table.hidden(1)) == 1


def test_elimination_returns_coins_and_last_player_wins() -> None:
    table = Table(rigged([[D, CA], [CO]], coins=[7, 6], revealed=[[], [AM]]))
    table.do(0, coup(1))
    assert table.of_type(PlayerEliminated)[0].coins_returned == 6
    assert table.coins() == [0, 0]
    result = GAME.result(table.state)
    assert result is not None and result.winners == (0,)
    assert GAME.prompts(table.state) == []
    with pytest.raises(GameIsOver):
        table.do(1, INCOME)


def test_reaction_window_timeout_passes_for_everyone() -> None:
    table = three()
    table.do(0, TAX)
    table.do(1, Pass())
    window = GAME.prompts(table.state)[0].window
    table.timeout()
    assert table.coins() == [5, 2, 2]
    assert GAME.prompts(table.state)[0].window != window


def test_a_pass_keeps_the_window_key_and_a_decision_changes_it() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D], [CO, CO]]))
    table.do(0, TAX)
    window = {p.window for p in GAME.prompts(table.state)}
    table.do(1, Pass())
    assert {p.window for p in GAME.prompts(table.state)} == window
    table.do(2, Challenge())
    assert {p.window for p in GAME.prompts(table.state)} != window


# --- illegal choices leave the state untouched ---------------------------------------------


def _illegal_moves() -> list[tuple[str, int, object]]:
    return [
        ("wrong player", 1, INCOME),
        ("wrong phase", 1, Challenge()),
        ("unaffordable", 0, coup(1)),
        ("self-target", 0, steal(0)),
        ("character not in the deck", 0, examine(1)),
        ("eliminated target", 0, steal(3)),
        ("no such seat", 0, steal(9)),
    ]


@pytest.mark.parametrize(("label", "seat", "choice"), _illegal_moves())
def test_illegal_choice_is_rejected_and_state_untouched(
    label: str, seat: int, choice: Act | Challenge
) -> None:
    state = rigged([[D, CA], [CO, AM], [A, D], []], revealed=[[], [], [], [CO, CO]])
    before = state.model_dump_json()
    with pytest.raises(IllegalChoice):
        GAME.apply(state, seat, choice)
    assert state.model_dump_json() == before, label


def test_block_with_a_character_absent_from_the_deck_is_rejected() -> None:
    table = Table(rigged([[CA, D], [CO, AM], [A, D]]))
    table.do(0, steal(1))
    before = table.state.model_dump_json()
    with pytest.raises(NotAllowed):
        table.do(1, Block(character=IN))
    with pytest.raises(NotAllowed):
        table.do(2, Block(character=CA))
    assert table.state.model_dump_json() == before


def test_losing_player_cannot_reveal_a_face_up_card() -> None:
    table = Table(rigged([[D, CA], [CO, AM], [A, D]], coins=[7, 2, 2]))
    table.do(0, coup(1))
    table.do(1, Reveal(slot=0))
    state: ComplotsState = table.state
    assert state.stage is Stage.ACTION and state.turn == 1
    with pytest.raises(NotAllowed):
        table.do(1, Reveal(slot=0))


def test_exchange_bluff_exposed_exchanges_nothing() -> None:
    table = Table(rigged([[D, CA], [CO, CO], [A, D]]))
    court = list(table.state.court)
    table.do(0, EXCHANGE)
    table.do(2, Challenge())
    table.do(0, Reveal(slot=0))
    assert table.hidden(0) == [CA] and table.state.court == court
    assert not table.of_type(ExchangeOffered)
    assert table.state.turn == 1


def test_examine_challenged_truthfully_then_examines() -> None:
    table = inquisition()
    table.do(0, examine(1))
    table.do(2, Challenge())
    table.do(2, Reveal(slot=0))
    assert table.state.stage is Stage.EXAMINE_SHOW and table.prompted() == [1]


def test_examine_bluff_exposed_by_the_target() -> None:
    table = Table(rigged([[D, CA], [CO, CA], [A, D]], variant=Variant.INQUISITOR))
    table.do(0, examine(1))
    table.do(1, Challenge())
    table.do(0, Reveal(slot=1))
    assert not table.of_type(CardShown)
    assert table.state.turn == 1 and table.revealed(0) == [CA]
