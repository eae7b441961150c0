"""Settings from the environment or `.env` (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from .storage.models import Shards

Seconds = Annotated[int, Field(ge=5, le=3600)]


class Settings(BaseSettings):
    """Every setting of the bot; `.env.example` documents each one."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: SecretStr = SecretStr("")
    database_path: Path = Path("data/gamemaster.sqlite3")
    database_url: SecretStr | None = None
    """A PostgreSQL database (``postgresql://user:password@host:port/name``) that
    several bot processes can share; unset: SQLite at ``database_path``. Secret:
    it holds the password (never shown in logs or reprs)."""
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    dev_guild_id: int | None = None
    """Sync slash commands to this guild only (instant), for development."""
    shard_count: Annotated[int, Field(ge=1, le=10_000)] | None = None
    """Discord shards of the whole bot (all its processes); unset: one process, no
    sharding. Discord requires sharding from 2,500 guilds."""
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    """The shards this process runs (``0,1``); unset with ``shard_count``: all of
    them. It serves the guilds of its shards alone: their tables' timers, computer
    players and deliveries (``guild_id >> 22 % shard_count``)."""
    discord_api_base: str | None = None
    """Base URL of the Discord REST API, e.g. an API proxy (`http://host:port/api/v10`)."""
    discord_gateway_url: str | None = None
    """Gateway websocket URL to connect to instead of Discord's (tests, proxies)."""
    connect_attempts: Annotated[int, Field(ge=1, le=100)] = 5
    """Attempts to reach Discord at start-up before giving up (exit code 1)."""
    connect_backoff: Annotated[float, Field(ge=0, le=60)] = 2.0
    """Seconds before the second attempt; the wait doubles each time (at most 60)."""
    turn_timeout: Seconds = 120
    reaction_timeout: Seconds = 30
    choice_timeout: Seconds = 60
    away_after: Annotated[int, Field(ge=1, le=20)] = 3
    """Consecutive timed-out turns after which a player is marked away."""
    computer_delay: Annotated[float, Field(ge=0, le=30)] = 1.5
    """Seconds a computer player waits before each move, so people can follow."""
    computer_think: Annotated[float, Field(ge=0.01, le=30)] = 1.0
    """Seconds a HARD computer may think over a decision (in a worker process,
    during ``computer_delay``: keep it at most that, or moves come later)."""
    turn_reminder: bool = True
    """Mention the one person a table waits on (a turn or a private choice) in its
    channel once half of the time to answer is gone (the line goes once they move)."""
    think_workers: Annotated[int, Field(ge=1, le=64)] = 1
    """Worker processes for HARD computers' thinking (one core each while they think)."""
    render_interval: Annotated[float, Field(ge=0, le=10)] = 1.0
    """Minimum seconds between two edits of one table message."""
    rest_per_second: Annotated[float, Field(gt=0, le=1000)] = 45.0
    """REST writes a second the bot allows itself (table edits, posts, DMs): Discord's
    global limit is 50 for a bot (answers to clicks do not count); a bot Discord
    granted more may raise it."""
    channel_log: Literal["notable", "all"] = "notable"
    """What of a game the channel gets as posts: ``notable``, what people need to be
    told (the deal, a player out or removed, the end and its scores, a game's own
    turning points, platform notices); ``all``, every line. Either way the table
    message shows the latest lines and ``/table log`` the whole game."""
    log_interval: Annotated[float, Field(ge=0, le=60)] = 15.0
    """With ``channel_log=all``: minimum seconds between two posts of one table's
    lines (the table message shows the latest lines at once, and more lines than it
    shows go at once; fewer posts spare Discord's global rate limit). Notable lines
    are posted at once."""

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(
            ("postgresql://", "postgres://")
        ):
            raise ValueError("DATABASE_URL must be a postgresql:// URL")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT")
            if not self.shard_ids or any(not 0 <= i < self.shard_count for i in self.shard_ids):
                raise ValueError(f"SHARD_IDS must be shards 0 to {self.shard_count - 1}")
            if len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError("SHARD_IDS names a shard twice")
        return self

    @property
    def rest_budget(self) -> float:
        """This process's share of ``rest_per_second``: Discord's global limit is the
        whole bot's, over all its shards, so each process takes its shards' part."""
        shards = self.shards
        if shards is None:
            return self.rest_per_second
        return self.rest_per_second * len(shards.ids) / shards.count

    @property
    def claim_owner(self) -> str:
        """Who this process is in its claims on deadlines and outboxes: its shards, so
        that the same process restarted after a crash takes its claims back at once
        (processes of other shards never touch its guilds' tables)."""
        shards = self.shards
        if shards is None:
            return "unsharded"
        return f"shards {','.join(map(str, shards.ids))} of {shards.count}"

    @property
    def shards(self) -> Shards | None:
        """The shards this process serves (None: unsharded, every guild)."""
        if self.shard_count is None:
            return None
        ids = self.shard_ids if self.shard_ids is not None else range(self.shard_count)
        return Shards(count=self.shard_count, ids=tuple(ids))
