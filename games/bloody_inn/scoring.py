"""End of the game: the undertaker's round for the corpses left unburied (also
called at a police investigation), the end-game annex bonuses (Park, Grocery,
Bishopric, Stables, Greenhouse), the scores (track money plus cheques), the
ranking and the winners; and the solo game's loss.
"""

from __future__ import annotations

from collections import Counter

from games.base import Event, Seat

from .cards import CHEQUE, UNDERTAKER_FEE, Effect, solo_rank, spec
from .models import (
    BloodyInnState,
    EndBonus,
    FinalScore,
    GameWon,
    Length,
    PlayerState,
    SoloLost,
    Stage,
    Standing,
    UndertakerPaid,
    UndertakerVisit,
)
from .table import gain, order


def finish(state: BloodyInnState, events: list[Event]) -> None:
    """The end of the game: the undertaker's round for the corpses left unburied
    (solo: a corpse left loses); once everyone has paid, ``final_accounts``."""
    for seat in order(state):
        if state.seats == 1 and state.players[seat].corpses:
            solo_loss(state, seat, events)
            return
    call_undertaker(state, end=True)


def final_accounts(state: BloodyInnState, events: list[Event]) -> None:
    """End-game annex bonuses, scores, winners (after the undertaker's round)."""
    seats = order(state)
    for seat in seats:
        _end_bonuses(state, seat, events)
    close(state, seats, events)


# --- the undertaker --------------------------------------------------------------------


def call_undertaker(state: BloodyInnState, *, end: bool) -> None:
    """Every player with unburied corpses pays the undertaker 10 F each, at a police
    investigation (``end`` False) or at the end of the game (``end`` True).

    The players pay one after another in play order, from the first player, as
    the other Morning steps do (wages, dismissals): the engine asks one player at
    a time. The order changes nothing, since each payment only touches the payer's
    own money, cheques and corpses. A player who has only one way to pay (see
    ``cheque_range``) pays at once without being asked; the first one with a real
    choice is asked (``Stage.UNDERTAKER``) and the players after it wait for its
    answer. ``settle_undertaker`` moves the round on."""
    owing = [seat for seat in order(state) if state.players[seat].corpses]
    state.undertaker = UndertakerVisit(end=end, owing=owing)
    state.stage = Stage.UNDERTAKER


def settle_undertaker(state: BloodyInnState, events: list[Event]) -> bool:
    """Pay for the players of the round who have one way to pay, in order, until
    one has a choice (True: it is asked now) or everyone has paid (False)."""
    visit = state.undertaker
    assert visit is not None
    while visit.owing:
        seat = visit.owing[0]
        low, high = cheque_range(state.players[seat], end=visit.end)
        if low < high:
            return True
        pay_undertaker(state, seat, low, events)
    return False


def cheque_range(player: PlayerState, *, end: bool) -> tuple[int, int]:
    """How many of the player's 10 F payments to the undertaker may be 10 F cheques:
    the fewest and the most; the others are taken from the track.

    A player who cannot pay in full pays all it can, every cheque and all its
    money ("pagare tutto quello che si può con soldi ed assegni"): one way only.
    At a police investigation a player who can pay in full chooses ("Si può
    pagare il becchino con un assegno da 10F", **RULING**: each 10 F from the
    track or with a cheque). At the end of the game the seed allows cheques only
    "se necessario": they pay what the track cannot, so there is one way only
    (the one a choice would take anyway: a cheque spent instead of 10 F of the
    track never raises the final score)."""
    due = len(player.corpses)
    cash = player.money // UNDERTAKER_FEE
    if cash + player.cheques < due:
        return player.cheques, player.cheques
    fewest = max(0, due - cash)
    return fewest, fewest if end else min(player.cheques, due)


def pay_undertaker(state: BloodyInnState, seat: Seat, cheques: int, events: list[Event]) -> None:
    """The head of the undertaker's round pays with ``cheques`` cheques and the rest
    from the track (as much as there is); its corpses go to the box."""
    visit = state.undertaker
    assert visit is not None and visit.owing[0] == seat
    visit.owing.pop(0)
    player = state.players[seat]
    corpses = list(player.corpses)
    cash_due = UNDERTAKER_FEE * len(corpses) - CHEQUE * cheques
    money = min(player.money, cash_due)
    player.cheques -= cheques
    player.money -= money
    state.box.extend(corpses)
    player.corpses = []
    events.append(
        UndertakerPaid(
            seat=seat, corpses=tuple(corpses), money=money, cheques=cheques, unpaid=cash_due - money
        )
    )


def _end_bonuses(state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
    """Park, Grocery, Bishopric, Stables: per card of their colour in the Exit;
    Greenhouse: per cheque held when the bonuses are counted (RULING)."""
    player = state.players[seat]
    cheques = player.cheques
    exit_types = Counter(spec(c).type for c in state.exit)
    for annex in player.annexes:
        if annex.card is None:
            continue
        data = spec(annex.card)
        if data.effect is Effect.EXIT_BONUS:
            amount = data.amount * exit_types[data.type]
        elif data.effect is Effect.CHEQUE_BONUS:
            amount = data.amount * cheques
        else:
            continue
        lost = gain(state, seat, amount)
        events.append(EndBonus(seat=seat, card=annex.card, amount=amount, lost=lost))


def close(state: BloodyInnState, contenders: list[Seat], events: list[Event]) -> None:
    """Scores; the best score wins, then most corpses under one's own annexes;
    still tied: a draw between them (all are winners)."""
    _score(state, events)
    winners = _winners(state, contenders)
    state.winners = winners
    _announce_winners(state, winners, events)
    state.stage = Stage.OVER
    state.queue = []
    state.pending = None
    state.dismissals = []
    state.undertaker = None


def _score(state: BloodyInnState, events: list[Event]) -> None:
    """Every player's standing; the final score of those still in the game."""
    state.standings = [
        Standing(
            seat=seat,
            money=p.money,
            cheques=p.cheques,
            score=p.money + CHEQUE * p.cheques,
            buried_own=sum(len(a.corpses) for a in p.annexes),
        )
        for seat, p in enumerate(state.players)
    ]
    for standing in state.standings:
        if state.players[standing.seat].active:
            events.append(FinalScore(**standing.model_dump()))


def _winners(state: BloodyInnState, contenders: list[Seat]) -> list[Seat]:
    """The contenders with the best (score, corpses under their own annexes);
    nobody after a solo loss."""
    ranked = [state.standings[s] for s in contenders]
    if not ranked or state.solo_lost:
        return []
    best = max((s.score, s.buried_own) for s in ranked)
    return sorted(s.seat for s in ranked if (s.score, s.buried_own) == best)


def _announce_winners(state: BloodyInnState, winners: list[Seat], events: list[Event]) -> None:
    """One GameWon per winner; the long solo game also gets its rank."""
    long_solo = state.seats == 1 and state.options.length is Length.LONG
    for winner in winners:
        score = state.standings[winner].score
        events.append(
            GameWon(
                winner=winner,
                score=score,
                shared=len(winners) > 1,
                solo_rank=solo_rank(score) if long_solo else None,
            )
        )


def solo_loss(state: BloodyInnState, seat: Seat, events: list[Event]) -> None:
    """Solo: an unburied corpse at a police investigation or at the end loses."""
    events.append(SoloLost(seat=seat, corpses=len(state.players[seat].corpses)))
    state.solo_lost = True
    close(state, [], events)
