"""The storage interface the bot uses. SQLite implements it (sqlite.py); a
PostgreSQL backend for sharded deployments would implement the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from .models import (
    ActionRecord,
    Claim,
    Deadline,
    EventRecord,
    GameRecord,
    GuildSettings,
    OutboxClaim,
    OutboxEntry,
    PlayerResult,
    SeatRecord,
    Skill,
    Standing,
    StateRecord,
    TableRecord,
    TableStatus,
    Timeouts,
)


class StorageError(Exception):
    """Base of the repository's own errors."""


class ChannelBusy(StorageError):
    """The channel already has an open (lobby or running) table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"channel already has open table {table_id}")
        self.table_id = table_id


class UnknownTable(StorageError, LookupError):
    """No table has this id."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"no table {table_id}")
        self.table_id = table_id


class AlreadySeated(StorageError):
    pass


class TableFull(StorageError):
    pass


class NotSeated(StorageError):
    pass


class WrongStatus(StorageError):
    """The table is not in the status this operation needs."""


class Repository(Protocol):
    """The storage of one bot process. A backend takes the process's ``Shards``
    (None: every guild): what it is asked at boot (the tables to redraw, resume,
    deliver, time out or record) is about the guilds of those shards alone."""

    async def open(self) -> None:
        """Connect, apply migrations. Idempotent."""

    async def close(self) -> None: ...

    # --- tables ---
    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        creator_id: int,
        creator_name: str,
        options_json: str,
        timeouts: Timeouts,
        rematch_of: int | None = None,
        takeover: bool = True,
        language: str = "en",
        creator_locale: str | None = None,
        hidden: bool = False,
        computer_level: str = "normal",
    ) -> TableRecord:
        """A new lobby speaking ``language``, with its creator in seat 0 (its DMs in
        ``creator_locale``), ``hidden`` from non-players while it runs, its
        computers playing at ``computer_level``. Raises ChannelBusy."""

    async def get_table(self, table_id: int) -> TableRecord | None: ...

    async def open_table_in_channel(self, channel_id: int) -> TableRecord | None: ...

    async def list_tables(
        self, guild_id: int, statuses: tuple[TableStatus, ...]
    ) -> list[TableRecord]: ...

    async def running_tables(self) -> list[TableRecord]:
        """Every running table of every guild (for boot)."""

    async def set_message(self, table_id: int, message_id: int) -> None: ...

    async def mark_rendered(self, table_id: int, version: int | None, status: TableStatus) -> None:
        """The table message now shows this state version (None: no state yet) and
        this status."""

    async def tables_to_refresh(self) -> list[int]:
        """Table ids whose message may be out of date (for boot): every lobby, and
        every table whose message shows an older state or another status than the
        stored one (finished and ended tables included)."""

    async def tables_with_computers(self, away_after: int) -> list[int]:
        """Running tables where a computer may play: a computer seat, or a player away
        for ``away_after`` turns at a table with take-over (for boot)."""

    async def set_takeover(self, table_id: int, takeover: bool) -> None:
        """Whether a computer plays for away players. Raises UnknownTable."""

    async def set_language(self, table_id: int, language: str) -> None:
        """The language of the table's public messages. Raises UnknownTable."""

    async def set_hidden(self, table_id: int, hidden: bool) -> None:
        """Whether the running table is hidden from non-players. Raises UnknownTable."""

    async def set_computer_level(self, table_id: int, level: str) -> None:
        """The level of the computers added to the table and of take-over. Raises
        UnknownTable."""

    async def set_status(self, table_id: int, status: TableStatus) -> None:
        """Also clears the table's deadline when the status is not RUNNING."""

    # --- seats (lobby) ---
    async def add_seat(
        self,
        table_id: int,
        user_id: int,
        name: str,
        max_seats: int,
        computer: str | None = None,
        locale: str | None = None,
    ) -> SeatRecord:
        """Next free seat (``computer``: a computer player's level; ``locale``: the
        player's, for its DMs). Raises AlreadySeated, TableFull, WrongStatus (not a
        lobby)."""

    async def remove_seat(self, table_id: int, user_id: int) -> None:
        """Leave a lobby; later seats move down. Raises NotSeated, WrongStatus."""

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """In seat order."""

    async def update_seat(
        self,
        table_id: int,
        seat: int,
        *,
        away_strikes: int | None = None,
        removed: bool | None = None,
        locale: str | None = None,
    ) -> None: ...

    # --- game state ---
    async def start_game(
        self,
        table_id: int,
        *,
        seed: int,
        state_json: str,
        seat_order: list[int],
        action: ActionRecord,
        deadline: Deadline | None,
        outbox: Sequence[OutboxEntry] = (),
    ) -> StateRecord:
        """Lobby -> running: reorders seats to ``seat_order`` (user ids), writes
        state version 0, the START action, the first deadline and the ``outbox``
        entries, in one transaction. Raises WrongStatus if the table is not a lobby."""

    async def load_state(self, table_id: int) -> StateRecord | None: ...

    async def commit(
        self,
        table_id: int,
        *,
        expected_version: int,
        state_json: str,
        action: ActionRecord,
        events: list[EventRecord],
        deadline: Deadline | None,
        status: TableStatus | None = None,
        removed_seat: int | None = None,
        strikes: Mapping[int, int] | None = None,
        outbox: Sequence[OutboxEntry] = (),
        record: GameRecord | None = None,
    ) -> bool:
        """Compare-and-set in one transaction: if the stored version is still
        ``expected_version``, write the state as ``expected_version + 1``, append
        the action and events, replace the table's deadline (None clears it), set
        the status if given, mark ``removed_seat`` (a moderator's forfeit) as
        removed, set the seats' away ``strikes``, append the ``outbox`` entries
        (what the step owes people) and, for the step that ends the game, its
        ``record``; return True. Otherwise change nothing, return
        False. Raises NotSeated (changing nothing) when a seat does not exist."""

    async def end_table(
        self,
        table_id: int,
        *,
        expected_version: int | None,
        action: ActionRecord,
        outbox: Sequence[OutboxEntry] = (),
        record: GameRecord | None = None,
    ) -> bool:
        """A moderator ends an open table: status CANCELLED, deadline cleared and the
        END ``action`` appended, in one transaction.

        Versions keep the action log gap-free and the compare-and-set meaningful:
        for a running table ``expected_version`` is the state version the moderator
        saw; the state's version becomes ``expected_version + 1`` (its JSON is
        unchanged: END is a version but no game step) and so is the action's. A
        concurrent step that committed first makes the versions differ, and the
        call changes nothing and returns False (reload and judge again). For a
        lobby ``expected_version`` is None: there is no state, the table must still
        be a lobby, and END is the table's only action, version 0 (where START
        would have been). Returns False, changing nothing, when the table is not in
        that status at that version (or does not exist). The ``outbox`` entries and
        the game's ``record`` (a running game's) are written in the same
        transaction."""

    # --- records of games that are over ---
    async def game_record(self, table_id: int) -> GameRecord | None: ...

    async def recent_records(
        self, guild_id: int, *, game: str | None = None, limit: int = 10
    ) -> list[GameRecord]:
        """The guild's latest records (of ``game`` only, if given), newest first."""

    async def results_of(self, guild_id: int, user_id: int) -> list[PlayerResult]:
        """Every finished game ``user_id`` played in the guild, oldest first."""

    async def unrecorded_games(self) -> list[int]:
        """Tables whose game is over (finished, or ended while running) without a
        record: games that ended before records existed, oldest first."""

    async def add_past_records(self, records: Sequence[GameRecord]) -> None:
        """Records of games that ended before records existed: inserted (skipping any
        table that has one by now), then the ratings of each guild's game they touch
        recomputed from all its records in the order they ended, in one
        transaction."""

    # --- statistics of records (computed after the game, see bot.records) ---
    async def records_awaiting_stats(self, limit: int) -> list[int]:
        """Table ids of records whose statistics are not computed yet, oldest first."""

    async def save_stats(self, table_id: int, stats: Mapping[int, Mapping[str, int]]) -> None:
        """The record's per-seat counters (by seat), marking its statistics computed
        (also when there are none). Saving again replaces them."""

    async def stat_totals(self, guild_id: int, user_id: int, game: str) -> dict[str, int]:
        """Each counter summed over the player's finished games of ``game`` in the
        guild (empty: none counted)."""

    # --- ratings (moved by the records, see bot.storage.ratings) ---
    async def skills(self, guild_id: int, game: str) -> dict[int, Skill]:
        """Every rated player's skill in the guild's ``game``, by user id."""

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[Standing]:
        """The best ``limit`` by conservative rating, best first."""

    async def standing(self, guild_id: int, game: str, user_id: int) -> Standing | None:
        """The player's place (None: not rated in that game)."""

    async def announce(
        self,
        table_id: int,
        outbox: Sequence[OutboxEntry],
        *,
        strikes: Mapping[int, int] | None = None,
    ) -> None:
        """Outside a step: set the seats' away ``strikes`` and append ``outbox``
        entries in one transaction (a player back from being away, its notice)."""

    # --- the outbox ---
    async def undelivered(self, table_id: int) -> list[OutboxEntry]:
        """The table's entries not yet delivered, in the order they were written."""

    async def tables_with_undelivered(self) -> list[int]:
        """Tables owing something to people (for boot)."""

    async def mark_delivered(self, entry_id: int) -> None:
        """Discord accepted the entry (or it can never be delivered)."""

    # --- DM channels ---
    async def dm_channel(self, user_id: int) -> int | None:
        """The user's DM channel with the bot, as last remembered."""

    async def remember_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        """Keeps the user's DM channel (None: forgets it)."""

    async def actions(self, table_id: int) -> list[ActionRecord]: ...

    async def events(
        self, table_id: int, *, public_only: bool, last: int | None = None
    ) -> list[EventRecord]:
        """The table's events in order (public ones only, the ``last`` ones only)."""

    async def claim_outbox(self, table_id: int, owner: str, lease: float) -> OutboxClaim:
        """The table's undelivered entries, in order, now ``owner``'s to deliver for
        ``lease`` seconds: all of them, or none while another owner's claim on any
        of them runs (its end is ``retry_at``), so a table's messages keep their
        order whichever process delivers them."""

    # --- deadlines ---
    async def deadlines(self) -> list[Deadline]:
        """Every armed deadline (running tables only), earliest first."""

    async def claim_deadline(self, deadline: Deadline, owner: str, lease: float) -> Claim:
        """Takes the table's stored deadline for ``owner`` for ``lease`` seconds, so
        that one process alone fires it: won when it is still this deadline (same
        version and window) and no other owner's claim runs; lost with ``retry_at``
        when another's does (it ends then, should that process die), lost with
        none when the deadline is gone. A step that replaces or clears the deadline
        ends its claim."""

    async def deadline(self, table_id: int) -> Deadline | None:
        """The table's armed deadline, if any."""

    # --- guild settings ---
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """Stored settings, or an all-default record."""

    async def save_guild_settings(self, settings: GuildSettings) -> None: ...
