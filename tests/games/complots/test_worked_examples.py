"""The four worked examples of rules/complots.md (from the seeds), played out.

Seats: P1 = 0, P2 = 1, P3 = 2 (and a fourth player so the game goes on).
"""

from games.complots import ActionKind
from games.complots.models import (
    Act,
    ActionBlocked,
    Block,
    CardDrawn,
    Challenge,
    Challenged,
    ClaimFailed,
    ClaimProved,
    CoinsStolen,
    LossReason,
    Pass,
    Reveal,
    Stage,
)

from .helpers import AM, CA, CO, A, D, Table, rigged


def test_example_1_captain_challenged_by_target_then_steals() -> None:
    """P1 claims Captain on P2; P2 challenges; P1 shows Captain (reshuffles, draws),
    P2 loses one influence; P1 steals 2 from P2."""
    table = Table(rigged([[CA, D], [D, CO], [AM, AM]], coins=[2, 3, 2]))
    table.do(0, Act(action=ActionKind.STEAL, target=1))
    events = table.do(1, Challenge())

    assert [type(e) for e in events] == [Challenged, ClaimProved, CardDrawn]
    proved = table.of_type(ClaimProved)[0]
    assert (proved.claimant, proved.character) == (0, CA)
    drawn = table.of_type(CardDrawn)[0]
    assert drawn.audience == (0,), "only P1 learns its replacement card"
    assert len(table.hidden(0)) == 2

    assert table.prompted() == [1]
    assert table.choices(1) == (Reveal(slot=0), Reveal(slot=1)), "P2 chooses the card to lose"
    table.do(1, Reveal(slot=1))
    assert table.revealed(1) == [CO]

    # P2 still has influence, so it may still block; it passes.
    assert table.prompted() == [1]
    table.do(1, Pass())
    assert table.coins()[:2] == [4, 1]
    assert table.of_type(CoinsStolen)[0].amount == 2
    assert table.state.turn == 1 and table.state.stage is Stage.ACTION


def test_example_2_block_with_ambassador_survives_two_challenges() -> None:
    """P1 Captain on P2; P3 challenges and loses; P2 blocks with Ambassador; P3
    challenges the block and loses its last card (eliminated); the block stands."""
    table = Table(rigged([[CA, D], [AM, CO], [D, CO], [D, CO]], coins=[2, 2, 2, 2]))
    table.do(0, Act(action=ActionKind.STEAL, target=1))
    table.do(2, Challenge())
    assert table.of_type(ClaimProved)[0].claimant == 0
    table.do(2, Reveal(slot=0))
    assert table.revealed(2) == [D]

    table.do(1, Block(character=AM))
    assert table.state.stage is Stage.BLOCK_CHALLENGE
    assert sorted(table.prompted()) == [0, 2, 3], "anyone but the blocker may challenge it"
    table.do(2, Challenge())

    assert [e.claimant for e in table.of_type(ClaimProved)] == [0, 1]
    assert table.eliminated() == [2], "P3's last card was lost: it is out"
    assert table.losses_of(2)[-1].reason is LossReason.CHALLENGE_LOST
    assert table.of_type(ActionBlocked)[0].blocker == 1
    assert table.coins() == [2, 2, 0, 2], "nothing stolen; P3's coins went to the treasury"
    assert table.state.turn == 1


def test_example_3_challenging_a_real_assassin_costs_two_lives() -> None:
    """P1 Assassin on P2 (2 cards); P2 challenges, P1 shows Assassin: P2 loses one
    for the challenge and one for the murder: eliminated."""
    table = Table(rigged([[A, D], [CA, D], [CO, CO]], coins=[3, 2, 2]))
    table.do(0, Act(action=ActionKind.ASSASSINATE, target=1))
    assert table.coins()[0] == 0, "the Assassin's 3 coins are paid on announcing"
    table.do(1, Challenge())
    table.do(1, Reveal(slot=0))
    # The target that lost the challenge may still block with the Countess: it passes.
    assert table.choices(1) == (Block(character=CO), Pass())
    table.do(1, Pass())

    losses = table.losses_of(1)
    assert [loss.reason for loss in losses] == [
        LossReason.CHALLENGE_LOST,
        LossReason.ASSASSINATED,
    ]
    assert table.eliminated() == [1]
    assert table.coins() == [0, 0, 2]


def test_example_4_bluffed_countess_costs_two_lives() -> None:
    """P1 Assassin on P2; nobody challenges; P2 blocks claiming Countess; P1
    challenges; P2 has no Countess: loses one, then the murder takes the second."""
    table = Table(rigged([[A, D], [CA, D], [CO, CO]], coins=[3, 2, 2]))
    table.do(0, Act(action=ActionKind.ASSASSINATE, target=1))
    table.do(2, Pass())
    table.do(1, Block(character=CO))
    table.do(0, Challenge())
    assert table.of_type(ClaimFailed)[0].claimant == 1
    assert table.prompted() == [1], "P2 chooses which card the failed bluff costs"
    table.do(1, Reveal(slot=1))

    assert [loss.character for loss in table.losses_of(1)] == [D, CA]
    assert [loss.reason for loss in table.losses_of(1)] == [
        LossReason.BLUFF_EXPOSED,
        LossReason.ASSASSINATED,
    ]
    assert table.eliminated() == [1]
    assert table.state.turn == 2
