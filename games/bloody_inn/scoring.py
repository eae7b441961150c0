"""End of the game: the undertaker's fee for the corpses left unburied (also paid
at a police investigation), the end-game annex bonuses (Park, Grocery,
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
    SoloLost,
    Stage,
    Standing,
    UndertakerPaid,
)
from .table import gain, order


def finish(state: BloodyInnState, events: list[Event]) -> None:
    """Undertaker for the corpses left, end-game annex bonuses, scores, winners."""
    seats = order(state)
    for seat in seats:
        if state.players[seat].corpses:
            if state.seats == 1:
                solo_loss(state, seat, events)
                return
            undertaker(state, seat, cheques_first=False, events=events)
    for seat in seats:
        _end_bonuses(state, seat, events)
    close(state, seats, events)


def undertaker(
    state: BloodyInnState, seat: Seat, *, cheques_first: bool, events: list[Event]
) -> None:
    """10 F per unburied corpse, as much as the player can pay; corpses to the box.
    RULING: at a police investigation cheques are used first (the track money is
    kept for the wages); at the end of the game the track is used first."""
    player = state.players[seat]
    corpses = list(player.corpses)
    money = cheques = unpaid = 0
    for _ in corpses:
        if cheques_first and player.cheques:
            player.cheques -= 1
            cheques += 1
        elif player.money >= UNDERTAKER_FEE:
            player.money -= UNDERTAKER_FEE
            money += UNDERTAKER_FEE
        elif player.cheques:
            player.cheques -= 1
            cheques += 1
        else:
            money += player.money
            unpaid += UNDERTAKER_FEE - player.money
            player.money = 0
    state.box.extend(corpses)
    player.corpses = []
    events.append(
        UndertakerPaid(
            seat=seat, corpses=tuple(corpses), money=money, cheques=cheques, unpaid=unpaid
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
