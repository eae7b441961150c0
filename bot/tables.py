"""The table service: lobby -> running -> finished, for every game.

Discord-agnostic: cogs call it with user ids and typed choices, and it answers
with records or raises ``Refusal`` (a translation key for a polite ephemeral
answer). Every accepted step is one compare-and-set commit in the repository;
in-process, one lock per table serializes steps. After each commit, still
under the lock so steps stay in order, the ``Listener`` (the Discord renderer)
is told; it must only enqueue work, never wait on Discord.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, Protocol

from games.ai import Level, decision_rng
from games.base import (
    Event,
    Game,
    GameIsOver,
    GameState,
    IllegalChoice,
    InvalidOptions,
    Model,
    NotPrompted,
    Prompt,
    PromptKind,
    Result,
    Seat,
)
from games.registry import GAMES

from .languages import LANGUAGES
from .records import record_of
from .storage.models import (
    ActionKind,
    ActionRecord,
    Deadline,
    EventRecord,
    GameOutcome,
    GameRecord,
    OutboxEntry,
    SeatRecord,
    TableRecord,
    TableStatus,
    Timeouts,
)
from .storage.repository import (
    AlreadySeated,
    ChannelBusy,
    NotSeated,
    Repository,
    TableFull,
    UnknownTable,
    WrongStatus,
)
from .thinking import Thinker, remembers

log = logging.getLogger("bot.tables")

AnyGame = Game[Any, Any, Any, Any]


class Refusal(Exception):
    """A polite "no": ``key`` names the text under ``refusal.``, ``params`` fill it in."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Notice:
    """A line for the channel that is not a game event: ``key`` is a translation key,
    filled with the ``seat``'s name (as ``player``) and the table's number."""

    key: str
    seat: Seat | None = None


COMPUTER_NAMES = (
    "Ada", "Babbage", "Turing", "Hopper", "Lovelace", "Shannon", "Knuth", "Noether",
    "Gödel", "Hamilton", "Liskov", "Dijkstra", "Conway",
)  # fmt: skip
"""Computer players' names (13: the most seats any game has)."""
COMPUTER_MARK = "🤖"
SWEEP_EVERY = 60.0
"""Seconds between two sweeps of idle tables out of memory."""
CLOSED_IDLE = 120.0
OPEN_IDLE = 1800.0
COMPUTER_LEVELS = tuple(level.value for level in Level if level is not Level.RANDOM)
"""The levels a table's creator chooses from (RANDOM is for tests and benches)."""
DEADLINE_LEASE = 30.0
"""Seconds a process holds a due deadline to fire it; should it die while firing,
another process (or itself, restarted) fires it after that."""
RECENT_EVENTS = 24
"""Public events a snapshot keeps for the table message's "what just happened"."""


class Logged(NamedTuple):
    """An event of a table's log, with its JSON as stored (a thinking worker is sent
    the JSON: written once, not at every decision)."""

    event: Event
    json: str


@dataclass
class Snapshot:
    """A table as the renderer needs it."""

    table: TableRecord
    seats: list[SeatRecord]
    state: GameState | None = None
    version: int | None = None
    deadline: Deadline | None = None
    events: list[Event] = field(default_factory=list)
    """The events of the step that produced this snapshot (empty for a refresh)."""
    started: bool = False
    """This snapshot is the game's first (hands were just dealt)."""
    notices: list[Notice] = field(default_factory=list)
    """Platform news of this step for the channel (a computer took a seat over...)."""
    recent: list[Event] = field(default_factory=list)
    """The latest public events of the game, oldest first (the table message shows
    what just happened)."""
    log: tuple[Logged, ...] | None = None
    """Every event of the game so far, all audiences (the computers that remember
    read their seats' histories from it): loaded from the database the first time
    one asks, then kept up to date with each step. None: not loaded."""

    @property
    def game(self) -> AnyGame:
        return GAMES[self.table.game]

    def seat_of(self, user_id: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.user_id == user_id and not s.removed), None)

    def taken_over(self, seat: Seat, away_after: int) -> bool:
        """A computer plays for this person, away for ``away_after`` turns (if the
        table allows take-over)."""
        return self.table.takeover and self.seats[seat].away_strikes >= away_after


def process_name() -> str:
    """This process, uniquely among the processes sharing a database."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass(frozen=True)
class PlannedMove:
    """A computer's choice, thought out for one version of its table."""

    version: int
    seat: Seat
    choice: Any


class Listener(Protocol):
    async def table_changed(self, snapshot: Snapshot) -> None: ...


class Announcer(Protocol):
    """Turns a change of a table (a snapshot with the events, notices and deal of
    that change) into what it owes people: channel lines and DMs. Called under the
    table's lock before the change is committed; the entries are written in the
    same transaction, and delivered later (the outbox)."""

    def announce(self, snapshot: Snapshot) -> list[OutboxEntry]: ...


class Silent:
    """An announcer that owes nobody anything (the service without Discord)."""

    def announce(self, snapshot: Snapshot) -> list[OutboxEntry]:
        return []


class Scheduling(Protocol):
    """What the service needs of the durable scheduler (bot.timers.Scheduler)."""

    def arm(self, deadline: Deadline) -> None: ...

    def disarm(self, table_id: int) -> None: ...


class TableService:
    """Every table's life, one compare-and-set commit per accepted step.

    Three counters, not to be confused:

    * the storage **version** (``StateRecord.version``, ``ActionRecord.version``,
      ``Snapshot.version``): one per committed action record (START is 0; a
      choice, a timeout, a computer's move, a forfeit, a moderator's END each
      take the next). Commits compare-and-set on it; buttons carry it.
    * ``GameState.step``: choices the engine applied. A timeout applying three
      defaults is three steps but one version; END is a version but no step.
    * an engine's ``moment``: decision windows opened, the prompts' ``window``
      key. Passes inside a window are versions (and steps) in the same moment, so
      they share the window's deadline.
    """

    def __init__(
        self,
        repo: Repository,
        scheduler: Scheduling,
        *,
        away_after: int = 3,
        clock: Callable[[], float] = time.time,
        seeds: Callable[[], int] = lambda: secrets.randbits(63),
        owner: str | None = None,
    ) -> None:
        self.repo = repo
        self.owner = owner or process_name()
        """Who this process is in its claims on deadlines and outboxes."""
        self.deadline_lease = DEADLINE_LEASE
        self.thinker = Thinker()
        """Where computers think (the bot sizes it from its settings)."""
        self.scheduler = scheduler
        self.listeners: list[Listener] = []
        self.announcer: Announcer = Silent()
        self.away_after = away_after
        self.clock = clock
        self.seeds = seeds
        self._locks: dict[int, asyncio.Lock] = {}
        self._deadlines: dict[int, Deadline] = {}
        self._cache: dict[int, Snapshot] = {}
        self._used: dict[int, float] = {}
        """When each cached table was last looked at (monotonic seconds)."""
        self._swept = time.monotonic()

    # --- boot ------------------------------------------------------------------

    async def armed_deadlines(self) -> list[Deadline]:
        """Every stored deadline, remembered for stale-click checks (call once at boot)."""
        deadlines = await self.repo.deadlines()
        self._deadlines = {d.table_id: d for d in deadlines}
        return deadlines

    # --- lobby -----------------------------------------------------------------

    def game(self, name: str) -> AnyGame:
        return GAMES[name]

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        creator_id: int,
        creator_name: str,
        options: Model,
        timeouts: Timeouts,
        language: str = "en",
        creator_locale: str | None = None,
    ) -> Snapshot:
        try:
            table = await self.repo.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                creator_id=creator_id,
                creator_name=creator_name,
                options_json=options.model_dump_json(),
                timeouts=timeouts,
                language=language,
                creator_locale=creator_locale,
            )
        except ChannelBusy as busy:
            raise Refusal("channel_busy", table=busy.table_id) from None
        self.forget(table.id)
        return await self._notify(table.id)

    async def join(
        self, table_id: int, user_id: int, name: str, locale: str | None = None
    ) -> Snapshot:
        """Seat ``user_id`` (``locale``: its Discord locale, for its DMs)."""
        async with self._lock(table_id):
            table = await self._table(table_id)
            try:
                await self.repo.add_seat(
                    table_id,
                    user_id,
                    name,
                    max_seats=self.game(table.game).max_players,
                    locale=locale,
                )
            except AlreadySeated:
                raise Refusal("already_seated") from None
            except TableFull:
                raise Refusal("table_full") from None
            except WrongStatus:
                raise Refusal("not_lobby") from None
            except UnknownTable:
                raise Refusal("no_table") from None
            self.forget(table_id)
            return await self._notify(table_id)

    async def leave(self, table_id: int, user_id: int) -> Snapshot:
        async with self._lock(table_id):
            table = await self._table(table_id)
            if table.creator_id == user_id:
                raise Refusal("creator_cannot_leave")
            try:
                await self.repo.remove_seat(table_id, user_id)
            except NotSeated:
                raise Refusal("not_seated") from None
            except WrongStatus:
                raise Refusal("not_lobby") from None
            self.forget(table_id)
            return await self._notify(table_id)

    async def cancel(self, table_id: int, user_id: int, *, moderator: bool) -> Snapshot:
        async with self._lock(table_id):
            table = await self._table(table_id)
            if table.status is not TableStatus.LOBBY:
                raise Refusal("not_lobby")
            self._require_creator(table, user_id, moderator)
            await self.repo.set_status(table_id, TableStatus.CANCELLED)
            self.forget(table_id)
            return await self._notify(table_id)

    async def start(self, table_id: int, user_id: int, *, moderator: bool) -> Snapshot:
        async with self._lock(table_id):
            table = await self._table(table_id)
            if table.status is not TableStatus.LOBBY:
                raise Refusal("not_lobby")
            self._require_creator(table, user_id, moderator)
            game = self.game(table.game)
            seats = await self.repo.seats(table_id)
            if len(seats) < game.min_players:
                raise Refusal("too_few_players", minimum=game.min_players)
            options = game.options_model.model_validate_json(table.options_json)
            seed = self.seeds()
            try:
                state = game.setup(len(seats), options, seed)
            except InvalidOptions as error:
                raise Refusal("invalid_options", reason=error.phrase) from None
            deadline = self._deadline_for(table, game, state, version=0, previous=None)
            started = Snapshot(
                table=table.model_copy(update={"status": TableStatus.RUNNING, "seed": seed}),
                seats=seats,
                state=state,
                version=0,
                deadline=deadline,
                started=True,
            )
            await self.repo.start_game(
                table_id,
                seed=seed,
                state_json=state.model_dump_json(),
                seat_order=[s.user_id for s in seats],
                action=ActionRecord(
                    table_id=table_id,
                    version=0,
                    kind=ActionKind.START,
                    user_id=user_id,
                    created_at=self.clock(),
                ),
                deadline=deadline,
                outbox=self.announcer.announce(started),
            )
            self.warm_computers(table, seats)
            self._arm(table_id, deadline)
            self.forget(table_id)
            return await self._notify(table_id, started=True)

    async def rematch(self, table_id: int, user_id: int, name: str) -> Snapshot:
        """A new lobby in the same channel with the same players; the last winner starts."""
        old = await self.snapshot(table_id)
        if old.table.status is not TableStatus.FINISHED:
            raise Refusal("not_finished")
        if old.seat_of(user_id) is None:
            raise Refusal("not_seated")
        game = self.game(old.table.game)
        options = game.options_model.model_validate_json(old.table.options_json)
        winners = self._winners(old)
        seats = [s for s in old.seats if not s.removed]
        clicker = next(i for i, s in enumerate(seats) if s.user_id == user_id)
        order = seats[clicker:] + seats[:clicker]  # the same clockwise order
        if "first_player" in type(options).model_fields and winners:
            winner_user = old.seats[winners[0]].user_id
            first = next((i for i, s in enumerate(order) if s.user_id == winner_user), None)
            options = options.model_copy(update={"first_player": first})
        try:
            table = await self.repo.create_table(
                guild_id=old.table.guild_id,
                channel_id=old.table.channel_id,
                game=old.table.game,
                creator_id=user_id,
                creator_name=name,
                options_json=options.model_dump_json(),
                timeouts=old.table.timeouts,
                rematch_of=table_id,
                takeover=old.table.takeover,
                language=old.table.language,
                hidden=old.table.hidden,
                computer_level=old.table.computer_level,
                creator_locale=order[0].locale,
            )
        except ChannelBusy as busy:
            raise Refusal("channel_busy", table=busy.table_id) from None
        for seat in order[1:]:
            await self.repo.add_seat(
                table.id,
                seat.user_id,
                seat.name,
                game.max_players,
                computer=seat.computer,
                locale=seat.locale,
            )
        self.forget(table.id)
        return await self._notify(table.id)

    # --- playing -----------------------------------------------------------------

    async def act(self, table_id: int, version: int, user_id: int, choice: object) -> Snapshot:
        """Apply a player's choice clicked at ``version``. Raises Refusal."""
        async with self._lock(table_id):
            for attempt in range(2):  # a copy behind the database reloads once
                snap, game = await self._running(table_id)
                seat = snap.seat_of(user_id)
                if seat is None:
                    raise Refusal("not_seated")
                current = snap.version or 0
                if version > current and attempt == 0:
                    self.forget(table_id)  # another process moved the table on
                    continue
                if version > current or (version != current and not _same_window(snap, version)):
                    raise Refusal("stale")
                new, events = self._apply(
                    game, snap.state, seat.seat, choice, stale=version != current
                )
                strikes, notices = self._back(snap, seat)
                if await self._commit(
                    snap,
                    game,
                    new,
                    events,
                    ActionKind.CHOICE,
                    seat=seat.seat,
                    user_id=user_id,
                    choice=choice,
                    strikes=strikes,
                    notices=notices,
                ):
                    break
            else:
                raise Refusal("stale")
            return await self._notify(table_id, events, notices=notices)

    @staticmethod
    def _apply(
        game: AnyGame, state: Any, seat: Seat, choice: object, *, stale: bool
    ) -> tuple[GameState, list[Event]]:
        try:
            new: GameState
            new, events = game.apply(state, seat, choice)
        except GameIsOver:
            raise Refusal("stale") from None
        except NotPrompted:
            raise Refusal("stale" if stale else "not_prompted") from None
        except IllegalChoice:
            raise Refusal("stale" if stale else "not_allowed") from None
        return new, events

    async def fire(self, deadline: Deadline) -> None:
        """The scheduler's callback: apply the open window's timeout defaults, once
        this process holds the deadline (other processes may share the database)."""
        claim = await self.repo.claim_deadline(deadline, self.owner, self.deadline_lease)
        if not claim.won:
            if claim.retry_at is None:  # fired (or replaced) elsewhere
                if self._deadlines.get(deadline.table_id) == deadline:
                    self._deadlines.pop(deadline.table_id)
                    self.forget(deadline.table_id)  # its cached state is behind
            else:  # should the process holding it die, take it when its claim ends
                self.scheduler.arm(deadline.model_copy(update={"due_at": claim.retry_at}))
            return
        async with self._lock(deadline.table_id):
            try:
                snap, game = await self._running(deadline.table_id)
            except Refusal:
                return
            prompts = game.prompts(snap.state)
            if not prompts or prompts[0].window != deadline.window:
                log.info("deadline of table %s is stale", deadline.table_id)
                return
            new, events = game.timeout(snap.state)
            turns = {p.player for p in prompts if p.kind is PromptKind.TURN}
            strikes = {s.seat: s.away_strikes + 1 for s in snap.seats if s.seat in turns}
            taken_over = [
                Notice("table.taken_over", seat)
                for seat, count in strikes.items()
                if count == self.away_after and snap.table.takeover
            ]
            if not await self._commit(
                snap, game, new, events, ActionKind.TIMEOUT, strikes=strikes, notices=taken_over
            ):
                return  # another process moved the table on; its deadline is its own
            await self._notify(deadline.table_id, events, notices=taken_over)

    # --- computer players ---------------------------------------------------------------

    async def add_computer(
        self, table_id: int, user_id: int, level: Level | None = None, *, moderator: bool
    ) -> Snapshot:
        """The creator seats a computer player in the lobby, at ``level`` (None: the
        table's computer level)."""
        async with self._lock(table_id):
            table = await self._lobby_of_creator(table_id, user_id, moderator)
            level = level or Level(table.computer_level)
            seats = await self.repo.seats(table_id)
            taken = {s.name for s in seats}
            names = (f"{COMPUTER_MARK} {name}" for name in COMPUTER_NAMES)
            name = next(name for name in names if name not in taken)
            computer_id = min([0, *(s.user_id for s in seats)]) - 1
            try:
                await self.repo.add_seat(
                    table_id,
                    computer_id,
                    name,
                    max_seats=self.game(table.game).max_players,
                    computer=level.value,
                )
            except TableFull:
                raise Refusal("table_full") from None
            except WrongStatus:
                raise Refusal("not_lobby") from None
            self.thinker.warm(table.game, level)
            self.forget(table_id)
            return await self._notify(table_id)

    def warm_computers(self, table: TableRecord, seats: Sequence[SeatRecord]) -> None:
        """Gets the thinking workers ready for the game's computers that search (those
        seated, and those that may play for away players)."""
        levels = {Level(seat.computer) for seat in seats if seat.computer is not None}
        if table.takeover:
            levels.add(Level(table.computer_level))
        for level in levels:
            self.thinker.warm(table.game, level)

    async def remove_computer(self, table_id: int, user_id: int, *, moderator: bool) -> Snapshot:
        """The creator takes the last computer player out of the lobby."""
        async with self._lock(table_id):
            await self._lobby_of_creator(table_id, user_id, moderator)
            computers = [s for s in await self.repo.seats(table_id) if s.is_computer]
            if not computers:
                raise Refusal("no_computer")
            try:
                await self.repo.remove_seat(table_id, computers[-1].user_id)
            except WrongStatus:
                raise Refusal("not_lobby") from None
            self.forget(table_id)
            return await self._notify(table_id)

    async def set_takeover(
        self, table_id: int, user_id: int, takeover: bool, *, moderator: bool
    ) -> Snapshot:
        """The creator decides whether a computer plays for players marked away."""
        return await self._lobby_option(
            table_id, user_id, moderator, lambda: self.repo.set_takeover(table_id, takeover)
        )

    async def set_hidden(
        self, table_id: int, user_id: int, hidden: bool, *, moderator: bool
    ) -> Snapshot:
        """The creator decides whether the live table is hidden from non-players."""
        return await self._lobby_option(
            table_id, user_id, moderator, lambda: self.repo.set_hidden(table_id, hidden)
        )

    async def set_computer_level(
        self, table_id: int, user_id: int, level: str, *, moderator: bool
    ) -> Snapshot:
        """The creator chooses how well the table's computers play (those it adds,
        and those playing for away players)."""
        if level not in COMPUTER_LEVELS:
            raise Refusal("not_allowed")
        return await self._lobby_option(
            table_id, user_id, moderator, lambda: self.repo.set_computer_level(table_id, level)
        )

    async def set_language(
        self, table_id: int, user_id: int, language: str, *, moderator: bool
    ) -> Snapshot:
        """The creator chooses the language of the table's public messages."""
        if language not in LANGUAGES:
            raise Refusal("not_allowed")
        return await self._lobby_option(
            table_id, user_id, moderator, lambda: self.repo.set_language(table_id, language)
        )

    async def _lobby_option(
        self,
        table_id: int,
        user_id: int,
        moderator: bool,
        write: Callable[[], Awaitable[None]],
    ) -> Snapshot:
        """A lobby option its creator (or a moderator) changes: ``write`` stores it."""
        async with self._lock(table_id):
            await self._lobby_of_creator(table_id, user_id, moderator)
            await write()
            self.forget(table_id)
            return await self._notify(table_id)

    async def _lobby_of_creator(self, table_id: int, user_id: int, moderator: bool) -> TableRecord:
        table = await self._table(table_id)
        if table.status is not TableStatus.LOBBY:
            raise Refusal("not_lobby")
        self._require_creator(table, user_id, moderator)
        return table

    def computer_level(self, snap: Snapshot, seat: SeatRecord) -> Level | None:
        """Who plays this seat's moves by computer, at which level (None: its person)."""
        if seat.removed:
            return None
        if seat.computer is not None:
            return Level(seat.computer)
        return Level(snap.table.computer_level) if self.taken_over(snap, seat) else None

    @staticmethod
    def other_computers(snap: Snapshot, seat: Seat) -> dict[Seat, Level]:
        """The seats other than ``seat`` that are computer players, at their levels
        (shown in the lobby). Not the people a computer plays for while they are
        away: they may come back at any moment."""
        return {
            other.seat: Level(other.computer)
            for other in snap.seats
            if other.computer is not None and not other.removed and other.seat != seat
        }

    def taken_over(self, snap: Snapshot, seat: SeatRecord) -> bool:
        return snap.taken_over(seat.seat, self.away_after)

    def computers_awaited(self, snap: Snapshot) -> list[Seat]:
        """Seats asked something now whose answer a computer gives."""
        if snap.state is None or snap.table.status is not TableStatus.RUNNING:
            return []
        awaiting = snap.game.awaiting(snap.state)
        return [
            seat
            for seat in awaiting
            if seat < len(snap.seats) and self.computer_level(snap, snap.seats[seat]) is not None
        ]

    async def plan_computer(self, table_id: int) -> PlannedMove | None:
        """The next computer move of this table, thought out without holding the
        table (a search thinks for a while); None if no computer is being asked."""
        try:
            snap, game = await self._running(table_id)
        except Refusal:
            return None
        seats = self.computers_awaited(snap)
        if not seats or snap.version is None:
            return None
        seat = snap.seats[seats[0]]
        choice = await self._computer_choice(snap, game, seat)
        return PlannedMove(version=snap.version, seat=seat.seat, choice=choice)

    async def play_computer(self, table_id: int, planned: PlannedMove | None = None) -> bool:
        """One computer move on this table, if a computer is being asked: ``planned``
        (or one thought out now); True if played. A plan made for an earlier version
        of the table is not played (False: plan again)."""
        planned = planned or await self.plan_computer(table_id)
        if planned is None:
            return False
        async with self._lock(table_id):
            try:
                snap, game = await self._running(table_id)
            except Refusal:
                return False
            if snap.version != planned.version or planned.seat not in self.computers_awaited(snap):
                return False
            seat = snap.seats[planned.seat]
            choice = planned.choice
            new, events = game.apply(snap.state, seat.seat, choice)
            if not await self._commit(
                snap,
                game,
                new,
                events,
                ActionKind.COMPUTER,
                seat=seat.seat,
                user_id=seat.user_id,
                choice=choice,
            ):
                return False
            await self._notify(table_id, events)
            return True

    async def _computer_choice(self, snap: Snapshot, game: AnyGame, seat: SeatRecord) -> Any:
        """The policy's choice from the seat's view (and, for a policy that remembers,
        its visible history) only; the prompt's default if the policy fails (a bug,
        logged: the game must go on)."""
        level = self.computer_level(snap, seat)
        assert level is not None and snap.state is not None
        view = game.view(snap.state, seat.seat)
        rng = decision_rng(snap.table.seed or 0, snap.state.step, seat.seat)
        try:
            seen = await self._history(snap, seat.seat) if remembers(game.name, level) else []
            history = [logged.event for logged in seen]
            as_json = [logged.json for logged in seen]
            return await self.thinker.choose(
                game.name,
                level,
                view,
                rng,
                history,
                history_json=as_json,
                computers=self.other_computers(snap, seat.seat),
            )
        except Exception:  # IllegalDecision or a crash: a bug, but the game goes on
            log.exception("computer of table %s seat %s failed", snap.table.id, seat.seat)
            prompt = game.prompt_for(snap.state, seat.seat)
            assert prompt is not None
            return prompt.default

    async def _history(self, snap: Snapshot, seat: Seat) -> list[Logged]:
        """The events the seat was shown, in order, up to ``snap``."""
        log = snap.log if snap.log is not None else await self._load_log(snap)
        return [logged for logged in log if logged.event.visible_to(seat)]

    async def _load_log(self, snap: Snapshot) -> tuple[Logged, ...]:
        """The game's events up to ``snap``, from the database; kept in the cache
        when it still holds ``snap``'s version (each step then adds its own), so a
        computer's next decision reads and parses nothing."""
        table_id, version = snap.table.id, snap.version or 0
        records = await self.repo.events(table_id, public_only=False)
        game = snap.game
        log = tuple(
            Logged(game.parse_event(r.event_json), r.event_json)
            for r in records
            if r.version <= version
        )
        cached = self._cache.get(table_id)
        if cached is not None and cached.version == version and cached.log is None:
            self._cache[table_id] = replace(cached, log=log)
        return log

    async def follow_locale(self, table_id: int, user_id: int, locale: str) -> None:
        """A seated player's client now speaks ``locale``: its next DMs do too."""
        seat = (await self.snapshot(table_id)).seat_of(user_id)
        if seat is None or seat.locale == locale:
            return
        async with self._lock(table_id):
            await self.repo.update_seat(table_id, seat.seat, locale=locale)
            self.forget(table_id)

    async def come_back(self, table_id: int, user_id: int) -> None:
        """A player marked away showed up (opened its hand): its seat is its own again."""
        async with self._lock(table_id):
            snap = await self.snapshot(table_id)
            seat = snap.seat_of(user_id)
            if seat is None or snap.table.status is not TableStatus.RUNNING:
                return
            strikes, notices = self._back(snap, seat)
            if not strikes:
                return
            announced = replace(snap, notices=notices)
            await self.repo.announce(table_id, self.announcer.announce(announced), strikes=strikes)
            self._cache_strikes(table_id, strikes)
            if notices:
                await self._notify(table_id, notices=notices)

    def _back(self, snap: Snapshot, seat: SeatRecord) -> tuple[dict[Seat, int], list[Notice]]:
        """A seat's away strikes cleared, with a notice if a computer was playing for it
        (both written with the step that shows the player is back)."""
        if not seat.away_strikes:
            return {}, []
        notices = [Notice("table.back", seat.seat)] if self.taken_over(snap, seat) else []
        return {seat.seat: 0}, notices

    async def remove_player(self, table_id: int, seat: Seat, by_user: int) -> Snapshot:
        """A moderator takes a seat out: its cards are revealed as lost. The forfeit
        and the seat's ``removed`` mark are one commit."""
        async with self._lock(table_id):
            snap, game = await self._running(table_id)
            if not 0 <= seat < len(snap.seats) or snap.seats[seat].removed:
                raise Refusal("no_such_seat")
            try:
                new, events = game.forfeit(snap.state, seat)
            except IllegalChoice:
                raise Refusal("already_out") from None
            if not await self._commit(
                snap,
                game,
                new,
                events,
                ActionKind.FORFEIT,
                seat=seat,
                user_id=by_user,
                removes_seat=True,
            ):
                raise Refusal("stale")
            return await self._notify(table_id, events)

    async def end(self, table_id: int, by_user: int) -> Snapshot:
        """A moderator (``by_user``) ends a table, lobby or running: nobody wins.

        The END action and the status change are one transaction
        (``Repository.end_table``). At a running table END takes the next storage
        version (the state is unchanged), so the log stays gap-free and a step
        committed meanwhile by another process makes it lose the compare-and-set:
        the copy is reloaded and the end judged again. A lobby has no state: END is
        its only action, version 0."""
        async with self._lock(table_id):
            for _ in range(2):  # a copy behind the database reloads once
                snap = await self.snapshot(table_id)
                if not snap.table.status.open:
                    raise Refusal("not_open")
                running = snap.table.status is TableStatus.RUNNING
                expected = snap.version if running else None
                action = ActionRecord(
                    table_id=table_id,
                    version=0 if expected is None else expected + 1,
                    kind=ActionKind.END,
                    user_id=by_user,
                    created_at=self.clock(),
                )
                ended = replace(
                    snap,
                    table=snap.table.model_copy(update={"status": TableStatus.CANCELLED}),
                    version=action.version if running else None,
                    deadline=None,
                    notices=[Notice("table.ended_by_moderator")],
                )
                outbox = self.announcer.announce(ended)
                record = self._record(ended, GameOutcome.ENDED) if running else None
                if await self.repo.end_table(
                    table_id, expected_version=expected, action=action, outbox=outbox, record=record
                ):
                    break
                self.forget(table_id)
            else:
                raise Refusal("stale")
            self._disarm(table_id)
            self.forget(table_id)
            return await self._notify(table_id, notices=[Notice("table.ended_by_moderator")])

    # --- reading -------------------------------------------------------------------

    async def snapshot(self, table_id: int) -> Snapshot:
        """The table as it is now: from memory, loaded from the database once.

        Every change goes through this service, which keeps the cached copy up
        to date (or forgets it); a compare-and-set lost to another process
        forgets it too, so the next look reloads."""
        cached = self._cache.get(table_id)
        if cached is None:
            cached = await self._load(table_id)
            self._cache[table_id] = cached
        self._used[table_id] = now = time.monotonic()
        if now - self._swept > SWEEP_EVERY:
            self._sweep(now)
        return replace(cached, events=[], started=False, notices=[])

    def _sweep(self, now: float) -> None:
        """Forget what is idle, so memory follows the live tables, not every game
        ever played: a finished or closed table unseen for ``CLOSED_IDLE`` seconds,
        any table unseen for ``OPEN_IDLE`` (it reloads from the database when
        needed), and the locks of tables no longer cached."""
        self._swept = now
        for table_id, used in list(self._used.items()):
            cached = self._cache.get(table_id)
            closed = cached is None or not cached.table.status.open
            if now - used > (CLOSED_IDLE if closed else OPEN_IDLE):
                self._cache.pop(table_id, None)
                del self._used[table_id]
        for table_id, lock in list(self._locks.items()):
            if table_id not in self._cache and not lock.locked():
                del self._locks[table_id]

    def forget(self, table_id: int) -> None:
        """Drop the cached copy (after a change made elsewhere, e.g. a test's setup)."""
        self._cache.pop(table_id, None)

    async def message_posted(self, table_id: int, message_id: int) -> None:
        """The renderer posted a new table message."""
        await self.repo.set_message(table_id, message_id)
        cached = self._cache.get(table_id)
        if cached is not None:
            table = cached.table.model_copy(update={"message_id": message_id})
            self._cache[table_id] = replace(cached, table=table)

    async def _load(self, table_id: int) -> Snapshot:
        table = await self._table(table_id)
        seats = await self.repo.seats(table_id)
        record = await self.repo.load_state(table_id)
        snap = Snapshot(table=table, seats=seats)
        if record is not None:
            snap.state = self.game(table.game).state_model.model_validate_json(record.state_json)
            snap.version = record.version
            snap.deadline = await self.repo.deadline(table_id)
            public = await self.repo.events(table_id, public_only=True, last=RECENT_EVENTS)
            game = self.game(table.game)
            snap.recent = [game.parse_event(r.event_json) for r in public]
        return snap

    async def table_in_channel(self, channel_id: int) -> TableRecord | None:
        return await self.repo.open_table_in_channel(channel_id)

    async def public_log(self, table_id: int) -> list[Event]:
        table = await self._table(table_id)
        game = self.game(table.game)
        records = await self.repo.events(table_id, public_only=True)
        return [game.parse_event(r.event_json) for r in records]

    # --- internals -------------------------------------------------------------------

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def _table(self, table_id: int) -> TableRecord:
        table = await self.repo.get_table(table_id)
        if table is None:
            raise Refusal("no_table")
        return table

    async def _running(self, table_id: int) -> tuple[Snapshot, AnyGame]:
        snap = await self.snapshot(table_id)
        status = snap.table.status
        if status is not TableStatus.RUNNING or snap.state is None:
            raise Refusal("stale" if status is TableStatus.FINISHED else "not_running")
        return snap, self.game(snap.table.game)

    @staticmethod
    def _require_creator(table: TableRecord, user_id: int, moderator: bool) -> None:
        if table.creator_id != user_id and not moderator:
            raise Refusal("creator_only")

    def _deadline_for(
        self,
        table: TableRecord,
        game: AnyGame,
        state: Any,
        *,
        version: int,
        previous: Deadline | None,
    ) -> Deadline | None:
        prompts: list[Prompt[Any]] = game.prompts(state)
        if not prompts:
            return None
        window = prompts[0].window
        if previous is not None and previous.window == window:
            return previous
        seconds = max(self._timeout_of(table.timeouts, p.kind) for p in prompts)
        return Deadline(
            table_id=table.id, window=window, version=version, due_at=self.clock() + seconds
        )

    @staticmethod
    def _timeout_of(timeouts: Timeouts, kind: PromptKind) -> int:
        return {
            PromptKind.TURN: timeouts.turn,
            PromptKind.REACTION: timeouts.reaction,
            PromptKind.CHOICE: timeouts.choice,
        }[kind]

    async def _commit(
        self,
        snap: Snapshot,
        game: AnyGame,
        new: GameState,
        events: list[Event],
        kind: ActionKind,
        *,
        seat: Seat | None = None,
        user_id: int | None = None,
        choice: object | None = None,
        removes_seat: bool = False,
        strikes: dict[Seat, int] | None = None,
        notices: list[Notice] | None = None,
    ) -> bool:
        """Write one step taken from ``snap`` as one compare-and-set transaction: the
        action record (``kind`` by ``user_id`` for ``seat``, with its ``choice`` if
        any) at the next storage version, the new state, its events, the next
        deadline, the seats' away ``strikes``, ``seat`` marked removed when
        ``removes_seat``, and everything the step owes people (the announcer's
        outbox entries, ``notices`` included). On success the cache holds the new
        snapshot; False when another writer moved the table on (the cache is
        dropped)."""
        table = snap.table
        version = (snap.version or 0) + 1
        action = ActionRecord(
            table_id=table.id,
            version=version,
            kind=kind,
            seat=seat,
            user_id=user_id,
            choice_json=None if choice is None else game.choice_adapter.dump_json(choice).decode(),
            created_at=self.clock(),
        )
        removed_seat = seat if removes_seat else None
        result = game.result(new)
        finished = result is not None
        deadline = None
        if not finished:
            deadline = self._deadline_for(table, game, new, version=version, previous=snap.deadline)
        logged = [Logged(event, event.model_dump_json()) for event in events]
        after = replace(
            snap,
            table=table.model_copy(
                update={"status": TableStatus.FINISHED if finished else table.status}
            ),
            seats=_seats_after(snap.seats, removed_seat, strikes or {}),
            state=new,
            version=version,
            deadline=deadline,
            events=list(events),
            notices=list(notices or []),
            recent=[*snap.recent, *(e for e in events if e.public)][-RECENT_EVENTS:],
            log=None if snap.log is None else (*snap.log, *logged),
        )
        committed = await self.repo.commit(
            table.id,
            expected_version=version - 1,
            state_json=new.model_dump_json(),
            action=action,
            events=[
                EventRecord(
                    table_id=table.id,
                    version=version,
                    index=i,
                    audience=list(e.audience) if e.audience is not None else None,
                    event_json=json,
                )
                for i, (e, json) in enumerate(logged)
            ],
            deadline=deadline,
            status=TableStatus.FINISHED if finished else None,
            removed_seat=removed_seat,
            strikes=strikes,
            outbox=self.announcer.announce(_announced(after)),
            record=None if result is None else self._record(after, GameOutcome.FINISHED, result),
        )
        if not committed:
            self.forget(table.id)
            return False
        self._cache[table.id] = replace(after, events=[], notices=[])
        self._arm(table.id, deadline)
        return True

    def _record(
        self, snap: Snapshot, outcome: GameOutcome, result: Result | None = None
    ) -> GameRecord:
        """The record of the game ``snap`` ends."""
        assert snap.state is not None
        return record_of(snap.table, snap.seats, snap.state, outcome, result, self.clock())

    def _arm(self, table_id: int, deadline: Deadline | None) -> None:
        if deadline is None:
            self._disarm(table_id)
            return
        if self._deadlines.get(table_id) != deadline:
            self._deadlines[table_id] = deadline
            self.scheduler.arm(deadline)

    def _disarm(self, table_id: int) -> None:
        self._deadlines.pop(table_id, None)
        self.scheduler.disarm(table_id)

    def _cache_strikes(self, table_id: int, strikes: dict[Seat, int]) -> None:
        cached = self._cache.get(table_id)
        if cached is not None and strikes:
            self._cache[table_id] = replace(cached, seats=_seats_after(cached.seats, None, strikes))

    def _winners(self, snapshot: Snapshot) -> tuple[Seat, ...]:
        if snapshot.state is None:
            return ()
        result = snapshot.game.result(snapshot.state)
        return result.winners if result is not None else ()

    async def _notify(
        self,
        table_id: int,
        events: list[Event] | None = None,
        *,
        started: bool = False,
        notices: list[Notice] | None = None,
    ) -> Snapshot:
        snapshot = await self.snapshot(table_id)
        snapshot.events = list(events or [])
        snapshot.started = started
        snapshot.notices = list(notices or [])
        for listener in self.listeners:
            try:
                await listener.table_changed(snapshot)
            except Exception:
                log.exception("telling %r about table %s failed", listener, table_id)
        return snapshot


def _announced(snap: Snapshot) -> Snapshot:
    """The step as the announcer tells it: while a hidden table runs, its public
    events are not told (the channel gets the start and the end; each player still
    gets its private lines)."""
    table = snap.table
    if not table.hidden or table.status is not TableStatus.RUNNING:
        return snap
    return replace(snap, events=[event for event in snap.events if not event.public])


def _same_window(snap: Snapshot, version: int) -> bool:
    """A click from an earlier version of the still-open window (others passed
    meanwhile) is as good as a current one; the engine then judges it. The window
    is the one of the snapshot's own deadline: loaded with its state from the
    database, never a value cached apart from it (another process may have moved
    the table on)."""
    deadline = snap.deadline
    return deadline is not None and version >= deadline.version


def _seats_after(
    seats: list[SeatRecord], removed: Seat | None, strikes: dict[Seat, int]
) -> list[SeatRecord]:
    """The seats once ``removed`` is marked and the away ``strikes`` are set."""
    changed: list[SeatRecord] = []
    for record in seats:
        update: dict[str, object] = {}
        if record.seat == removed:
            update["removed"] = True
        if record.seat in strikes:
            update["away_strikes"] = strikes[record.seat]
        changed.append(record.model_copy(update=update) if update else record)
    return changed
