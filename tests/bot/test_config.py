"""Settings of a process among several: shards, its share of the REST budget, its
claim name, the database it names."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.config import Settings
from bot.storage.models import Shards


def settings(**env: str) -> Settings:
    """Settings read from these environment variables alone (no .env)."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "REST_PER_SECOND"):
            patch.delenv(name, raising=False)
        for name, value in env.items():
            patch.setenv(name, value)
        return Settings(_env_file=None)


def test_unsharded_by_default_with_the_whole_budget() -> None:
    plain = settings()
    assert plain.shards is None and plain.database_url is None
    assert plain.rest_budget == 45.0 and plain.claim_owner == "unsharded"


def test_shard_ids_are_a_comma_separated_list_of_the_count() -> None:
    one = settings(SHARD_COUNT="4", SHARD_IDS="1, 3")
    assert one.shards == Shards(count=4, ids=(1, 3))
    assert one.rest_budget == pytest.approx(22.5), "half the shards: half the budget"
    assert one.claim_owner == "shards 1,3 of 4"
    every = settings(SHARD_COUNT="2")
    assert every.shards == Shards(count=2, ids=(0, 1)) and every.rest_budget == 45.0


@pytest.mark.parametrize(
    ("env", "why"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "shards 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "names a shard twice"),
        ({"SHARD_COUNT": "0"}, "greater than or equal to 1"),
        ({"DATABASE_URL": "mysql://x"}, "must be a postgresql:// URL"),
    ],
)
def test_settings_that_cannot_work_are_refused(env: dict[str, str], why: str) -> None:
    with pytest.raises(ValidationError, match=why):
        settings(**env)


def test_the_database_password_never_shows() -> None:
    named = settings(DATABASE_URL="postgresql://bot:hunter2@db:5432/games")
    assert named.database_url is not None
    assert named.database_url.get_secret_value().endswith("@db:5432/games")
    assert "hunter2" not in repr(named) and "hunter2" not in str(named.model_dump())


def test_a_shard_owns_the_guilds_discord_sends_it() -> None:
    shards = Shards(count=3, ids=(2,))
    assert shards.owns((5 << 22) + 123) and not shards.owns(4 << 22)
