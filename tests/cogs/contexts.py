"""A TableContext around a bare game state, as the renderer would build it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.models import Deadline, SeatRecord, TableRecord, TableStatus, Timeouts
from bot.tables import Snapshot
from bot.ui.presenter import TableContext
from games.base import GameState, Seat
from games.registry import GAMES


def table_context(
    game: str,
    state: GameState,
    *,
    names: Sequence[str],
    table_id: int,
    version: int,
    first_user: int = 1000,
    away: frozenset[Seat] = frozenset(),
) -> TableContext:
    """Seats get user ids from ``first_user`` on; ``away`` seats have enough strikes
    to show as away; a running game has an open deadline, a finished one none."""
    finished = GAMES[game].result(state) is not None
    options = getattr(state, "options", None)
    table = TableRecord(
        id=table_id,
        guild_id=1,
        channel_id=2,
        game=game,
        status=TableStatus.FINISHED if finished else TableStatus.RUNNING,
        creator_id=first_user,
        options_json=options.model_dump_json() if options is not None else "{}",
        timeouts=Timeouts(turn=120, reaction=30, choice=60),
        message_id=5,
        created_at=0.0,
        updated_at=0.0,
    )
    seats = [
        SeatRecord(
            table_id=table_id,
            seat=seat,
            user_id=first_user + seat,
            name=names[seat],
            away_strikes=5 if seat in away else 0,
        )
        for seat in range(state.seats)
    ]
    deadline = (
        None
        if finished
        else Deadline(table_id=table_id, window="1.0", version=version, due_at=1.9e9)
    )
    return TableContext(
        Snapshot(table=table, seats=seats, state=state, version=version, deadline=deadline)
    )
