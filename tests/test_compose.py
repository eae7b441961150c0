"""compose.yaml (no Docker engine runs here): PostgreSQL on a volume and two bot
processes, one shard each, whose settings the bot accepts and which together
serve every guild once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[1]


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return loaded


def bots(services: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in services.items() if name.startswith("bot")}


def test_postgres_keeps_its_data_on_a_volume_and_says_when_it_is_ready() -> None:
    spec = compose()
    postgres = spec["services"]["postgres"]
    [mount] = postgres["volumes"]
    volume, target = mount.split(":")
    assert volume in spec["volumes"] and target == "/var/lib/postgresql/data"
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])


def test_two_bots_share_the_database_and_split_the_shards() -> None:
    services = compose()["services"]
    found = bots(services)
    assert len(found) == 2
    shards: list[int] = []
    for bot in found.values():
        env = bot["environment"]
        assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert bot["build"] == "." and bot["env_file"] == ".env"
        url = re.sub(r"\$\{(\w+):-([^}]*)\}", r"\2", env["DATABASE_URL"])
        assert url.startswith("postgresql://") and "@postgres:5432/" in url
        settings = Settings(
            _env_file=None,
            database_url=url,
            shard_count=env["SHARD_COUNT"],
            shard_ids=env["SHARD_IDS"],
        )
        assert settings.shards is not None and settings.shards.count == 2
        shards += settings.shards.ids
    assert sorted(shards) == [0, 1], "every shard served, none twice"


def test_the_image_runs_the_bot_as_the_readme_says() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'CMD ["python", "-m", "bot"]' in dockerfile
    readme = (ROOT / "README.md").read_text()
    assert "docker compose up -d --build" in readme
