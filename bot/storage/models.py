"""Records stored by the repository (plain pydantic models, no SQL here)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TableStatus(StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def open(self) -> bool:
        """A lobby or a running game: at most one open table per channel."""
        return self in (TableStatus.LOBBY, TableStatus.RUNNING)


class Timeouts(Record):
    """Seconds a player has to answer, by prompt kind."""

    turn: int
    reaction: int
    choice: int


class TableRecord(Record):
    id: int
    guild_id: int
    channel_id: int
    game: str
    status: TableStatus
    creator_id: int
    options_json: str
    """The game's options model as JSON."""
    timeouts: Timeouts
    message_id: int | None = None
    """The live table message in the channel."""
    seed: int | None = None
    rematch_of: int | None = None
    created_at: float
    """Unix time (seconds)."""
    updated_at: float
    rendered_version: int | None = None
    """The state version the table message shows (None: not rendered yet)."""
    takeover: bool = True
    """A computer plays for a player marked away, until that player comes back."""
    rendered_status: TableStatus | None = None
    """The status the table message shows (a finished or ended table must lose its
    buttons even when its state version did not move)."""
    language: str = "en"
    """The language of the table's public messages, lines and pictures."""
    hidden: bool = False
    computer_level: str = "normal"
    """The level (``games.ai.Level``) of the computers the creator adds, and of the
    computer playing for an away player."""
    """While the game runs, only its players see the table (its message shows who
    plays and who is asked, its channel gets the start and the end)."""


class SeatRecord(Record):
    table_id: int
    seat: int
    user_id: int
    name: str
    """Display name when the seat was taken (for the public log)."""
    away_strikes: int = 0
    """Consecutive turns timed out; reset by any answer."""
    removed: bool = False
    computer: str | None = None
    """A computer player's level (``games.ai.Level``); None for a person. Computer
    seats have negative user ids, which no Discord user has."""
    locale: str | None = None
    """The player's Discord locale when it sat down: its DMs speak it (None: the
    table's language)."""

    @property
    def is_computer(self) -> bool:
        return self.computer is not None


class StateRecord(Record):
    table_id: int
    version: int
    """The storage version: how many action records followed START (the version of
    the last one). Every committed action record bumps it by exactly one, and a
    commit is a compare-and-set on it. Not ``GameState.step`` (choices the engine
    applied: a timeout applying three defaults is three steps but one version; a
    moderator's END is a version but no step) nor an engine's ``moment`` (decision
    windows opened, the prompts' window key)."""
    state_json: str


class ActionKind(StrEnum):
    START = "start"
    CHOICE = "choice"
    TIMEOUT = "timeout"
    FORFEIT = "forfeit"
    END = "end"
    """A moderator ended the table."""
    COMPUTER = "computer"
    """A computer's choice: for a computer seat, or for a player away."""


class ActionRecord(Record):
    """What produced a state version: appended, never changed."""

    table_id: int
    version: int
    """The storage version this action produced (see ``StateRecord.version``): START
    is 0, each later action the next one, so a table's log has no gap. A lobby ended
    by a moderator has no state; its only action, END, is version 0."""
    kind: ActionKind
    seat: int | None = None
    user_id: int | None = None
    choice_json: str | None = None
    created_at: float


class EventRecord(Record):
    table_id: int
    version: int
    index: int
    """Order within the version."""
    audience: list[int] | None
    """None: public; else the seats that may see it."""
    event_json: str


class Deadline(Record):
    """When the open window of a table times out (one per table)."""

    table_id: int
    window: str
    version: int
    """The state version the deadline was armed at."""
    due_at: float
    """Unix time (seconds)."""


class Claim(Record):
    """A process's attempt to take a deadline (or a table's outbox) for a while, so
    that one process alone acts on it (``Repository.claim_deadline``)."""

    won: bool
    retry_at: float | None = None
    """When lost to another process: when its claim runs out (Unix time), should it
    die before acting; None: nothing is left to claim."""


class OutboxKind(StrEnum):
    POST = "post"
    """A message in a channel (``target``: the channel id)."""
    DM = "dm"
    """A direct message (``target``: the user id)."""


class OutboxEntry(Record):
    """Something the bot owes people about a step, written in the step's own
    transaction and delivered (in ``id`` order per table) by the renderer."""

    id: int | None = None
    """Assigned by the storage; also the message's nonce, so a resend is a no-op."""
    table_id: int
    version: int | None = None
    """The state version of the step that owes it (None: a lobby or a notice)."""
    kind: OutboxKind
    target: int
    content: str = ""
    embed_json: str | None = None
    """An embed, as Discord's JSON (``discord.Embed.to_dict``)."""
    created_at: float = 0.0
    delivered_at: float | None = None


class OutboxClaim(Record):
    """A table's undelivered entries, now this process's to deliver for a while
    (``Repository.claim_outbox``); none while another process holds them."""

    entries: list[OutboxEntry]
    retry_at: float | None = None
    """When another process holds them: when its claim runs out (Unix time)."""


class GameOutcome(StrEnum):
    FINISHED = "finished"
    """Played to its end: the game's result names the winners."""
    ENDED = "ended"
    """Ended by a moderator while running: nobody wins."""


class RecordSeat(Record):
    """One seat of a game that is over, as it ended."""

    seat: int
    user_id: int
    """A person's Discord id; negative for a computer player."""
    name: str
    computer: str | None = None
    """A computer player's level; None for a person."""
    removed: bool = False
    """Removed by a moderator (or forfeited) before the end."""
    winner: bool = False
    score: int | None = None
    """The game's own score for the seat, where the game has one."""


class GameRecord(Record):
    """A game that is over, kept for good: standings, history and replays read it
    (never a running game's secrets: it is written when nothing is secret any more)."""

    table_id: int
    guild_id: int
    channel_id: int
    game: str
    options_json: str
    outcome: GameOutcome
    started_at: float | None = None
    """When START was committed (the repository fills it from the action log)."""
    ended_at: float
    steps: int
    """Choices the engine applied (``GameState.step``)."""
    seats: list[RecordSeat]


class PlayerResult(Record):
    """One finished game, as one of its players ended it."""

    table_id: int
    game: str
    ended_at: float
    winner: bool


class Skill(Record):
    """One player's rating in one guild's game (``bot.storage.ratings``)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    games: int = 0
    """Rated games played."""
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating: 99.7 % sure the skill is at least this."""
        return self.mu - 3 * self.sigma


class Standing(Record):
    """A player's place on its guild's board of one game."""

    user_id: int
    rank: int
    """1 for the best conservative rating; equal ratings share a rank."""
    skill: Skill


class Shards(Record):
    """The Discord shards one bot process serves: the guilds whose
    ``(guild_id >> 22) % count`` is in ``ids`` (Discord's own rule)."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.count in self.ids


class GuildSettings(Record):
    guild_id: int
    moderator_role_id: int | None = None
    turn_timeout: int | None = None
    reaction_timeout: int | None = None
    choice_timeout: int | None = None
    language: str | None = None
    """New tables' language (None: the guild's preferred locale)."""
