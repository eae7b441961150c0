"""`python -m bot`: start the bot with the settings of the environment / `.env`.

Exits with a one-line message (no traceback) when the token is missing or
rejected. SIGTERM and SIGINT close it cleanly: the scheduler stops, queued
Discord output is flushed and the database is closed; every table resumes on
the next start.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord
import yarl
from pydantic import ValidationError

from .app import GameMasterBot
from .config import Settings


def point_at_api(settings: Settings) -> None:
    """Use another REST base (an API proxy, or the tests' fake Discord)."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


async def run(settings: Settings) -> int:
    point_at_api(settings)
    bot = GameMasterBot(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner not in done:
            logging.getLogger("bot").info("stopping")
            await bot.close()
            await asyncio.wait({runner}, timeout=5)
            return 0
        stopper.cancel()
        runner.result()
    return 0


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        first = error.errors()[0]
        print(
            f"Bad setting {'.'.join(map(str, first['loc'])).upper()}: {first['msg']}",
            file=sys.stderr,
        )
        return 2
    if not settings.discord_token.get_secret_value():
        print(
            "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example).",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        return asyncio.run(run(settings))
    except discord.LoginFailure:
        print("Discord rejected the token in DISCORD_TOKEN: check it in .env.", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("The bot asks for an intent its application does not allow.", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
