"""RSS of one bot process over many games: does it stay flat?

    .venv/bin/python -m bench.memory [--games 10000] [--every 1000] [--parallel 50]
        [--computers 2]

One real ``python -m bot`` process (COMPUTER_DELAY=0, RENDER_INTERVAL=0,
LOG_INTERVAL=0 where the bot has that setting, LOG_LEVEL=WARNING, a temp
database) against the fake Discord in this process, one guild, ``--parallel``
channels. In each channel, one table after another: its
creator opens a Complots table (/complots), seats ``--computers`` computer players
(the lobby's "add a computer" button, EASY), starts it, and, since the creator
always holds a seat and the game would wait for a person, takes itself out with
``/mod remove`` (it has Manage Server): the computers play the game out on their
own, at full speed. A game counts once its table is finished, its message shows
it and everything it owed is delivered; then the fake forgets that table's
messages and interactions (so this process's memory does not grow without end),
and the channel's next table opens. Every ``--every`` games, the bot process's RSS
(VmRSS of /proc/<pid>/status) is printed with its CPU seconds and the rate; at the
end, the growth per 1,000 games (least squares over the samples after the first)
and, when fewer than 10,000 games were played, that growth carried on to 10,000.
Nothing is asserted: it is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.botproc import BotProcess, Oracle, bot_process, load_text
from bench.discord_latency import watched_callbacks
from tests.e2e.bot.harness import buttons_on, refusal
from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeUser, InteractionRecord
from tests.e2e.fake_discord.permissions import MANAGE_GUILD

ANSWER_TIMEOUT = 15.0
GAME_TIMEOUT = 120.0
POLL = 0.05


@dataclass
class Sample:
    games: int
    seconds: float
    rss_mib: float
    cpu: float


@dataclass
class Counts:
    games: int = 0
    started: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, text: str) -> None:
        self.errors[text[:120]] = self.errors.get(text[:120], 0) + 1


class Player:
    """The creator in one channel: opens, fills, starts and leaves table after table."""

    def __init__(
        self,
        fake: FakeDiscord,
        oracle: Oracle,
        channel: FakeChannel,
        user: FakeUser,
        computers: int,
        counts: Counts,
    ) -> None:
        self.fake = fake
        self.oracle = oracle
        self.channel = channel
        self.user = user
        self.computers = computers
        self.counts = counts
        self.records: list[InteractionRecord] = []

    async def answered(self, record: InteractionRecord, what: str, *, click: bool) -> bool:
        """The bot answered (and, for a click, did not refuse it)."""
        self.records.append(record)
        if not await watched_callbacks(record).longer_than(0, ANSWER_TIMEOUT):
            self.counts.error(f"no answer to {what}")
            return False
        if record.response is None:
            self.counts.error(f"the fake refused the answer to {what}")
            return False
        refused = refusal(record) if click else None
        if refused is not None:
            self.counts.error(f"{what} refused: {refused}")
            return False
        return True

    async def lobby_message_id(self, table_id: int) -> int | None:
        end = time.monotonic() + ANSWER_TIMEOUT
        while time.monotonic() < end:
            found = self.oracle.rows("SELECT message_id FROM tables WHERE id = ?", (table_id,))
            if found and found[0][0] is not None:
                return int(found[0][0])
            await asyncio.sleep(POLL)
        return None

    async def click(self, message_id: int, code: str) -> bool:
        message = self.fake.message(message_id)
        custom_id = buttons_on(message).get(code)
        if custom_id is None:
            self.counts.error(f"no {code} button on the lobby")
            return False
        return await self.answered(
            await self.fake.click(self.user, message, custom_id), code, click=True
        )

    async def one_game(self) -> bool:
        fake, channel = self.fake, self.channel
        opened = await fake.slash(self.user, channel, "complots")
        if not await self.answered(opened, "/complots", click=False):
            return False
        table_id = self.oracle.open_table_in_channel(channel.id)
        if table_id is None:
            self.counts.error("no table after /complots")
            return False
        message_id = await self.lobby_message_id(table_id)
        if message_id is None:
            self.counts.error("no lobby message")
            return False
        for _ in range(self.computers):
            if not await self.click(message_id, "ui.computer.easy"):
                return False
        if not await self.click(message_id, "ui.start"):
            return False
        self.counts.started += 1
        removed = await fake.slash(
            self.user, channel, "mod", "remove", table=table_id, player=self.user
        )
        if not await self.answered(removed, "/mod remove", click=False):
            return False
        return await self.until_settled(table_id)

    async def until_settled(self, table_id: int) -> bool:
        """Until the table is finished, its message shows it and nothing is owed."""
        end = time.monotonic() + GAME_TIMEOUT
        while time.monotonic() < end:
            found = self.oracle.rows(
                "SELECT status, rendered_status,"
                " (SELECT count(*) FROM outbox WHERE table_id = t.id AND delivered_at IS NULL)"
                " FROM tables t WHERE id = ?",
                (table_id,),
            )
            if (
                found
                and found[0][0] == "finished"
                and found[0][1] == "finished"
                and not found[0][2]
            ):
                return True
            if found and found[0][0] == "cancelled":
                self.counts.error("the table was cancelled")
                return False
            await asyncio.sleep(POLL)
        self.counts.error(f"table not finished within {GAME_TIMEOUT:.0f} s")
        return False

    def forget(self) -> None:
        """The fake drops this channel's messages, the DMs, and the interactions."""
        store = self.fake.store
        channels = {self.channel.id}
        dm = store.dm_channels.get(self.user.id)
        if dm is not None:
            channels.add(dm.id)
        for message_id in [m.id for m in store.messages.values() if m.channel_id in channels]:
            del store.messages[message_id]
        for record in self.records:
            store.interactions.pop(record.id, None)
        self.records.clear()

    async def play(self, target: int, stop: asyncio.Event) -> None:
        counts = self.counts
        while counts.started < target and not stop.is_set():
            try:
                finished = await self.one_game()
            except Exception as error:  # one surprise must not end the channel
                counts.error(f"{type(error).__name__}: {error}")
                finished = False
            self.forget()
            if finished:
                counts.games += 1
            else:
                await asyncio.sleep(1.0)
                table_id = self.oracle.open_table_in_channel(self.channel.id)
                if table_id is not None:  # stuck: end it and go on
                    await self.fake.slash(self.user, self.channel, "mod", "end", table=table_id)
                    await asyncio.sleep(1.0)


def trim_fake(fake: FakeDiscord) -> None:
    """What the fake keeps of every request and gateway frame (this process's memory)."""
    fake.rest.requests.clear()
    for session in fake.gateway.sessions.values():
        session.backlog.clear()


async def sample_every(
    bot: BotProcess, counts: Counts, every: int, target: int, samples: list[Sample], began: float
) -> None:
    next_at = every
    while counts.games < target:
        await asyncio.sleep(0.2)
        if counts.games >= next_at:
            sample = Sample(counts.games, time.monotonic() - began, bot.rss_kib() / 1024, 0.0)
            sample.cpu = bot.cpu_seconds()
            samples.append(sample)
            print_sample(sample, samples)
            next_at += every
        if not bot.alive():
            print(f"  the bot process exited with code {bot.process.returncode}")
            return


def print_sample(sample: Sample, samples: list[Sample]) -> None:
    previous = samples[-2] if len(samples) > 1 else None
    rate = ""
    if previous is not None and sample.seconds > previous.seconds:
        games = sample.games - previous.games
        rate = f"{games / (sample.seconds - previous.seconds):7.1f}"
    print(
        f"{sample.games:>7} {sample.seconds:>8.0f} {sample.rss_mib:>9.1f} {sample.cpu:>8.1f}"
        f" {rate:>8} {os.getloadavg()[0]:>8.2f}",
        flush=True,
    )


def slope(samples: list[Sample]) -> float:
    """Least-squares MiB per game over the samples after the first (warm-up)."""
    points = samples[1:] if len(samples) > 2 else samples
    if len(points) < 2:
        return float("nan")
    n = len(points)
    mean_x = sum(p.games for p in points) / n
    mean_y = sum(p.rss_mib for p in points) / n
    var = sum((p.games - mean_x) ** 2 for p in points)
    cov = sum((p.games - mean_x) * (p.rss_mib - mean_y) for p in points)
    return cov / var if var else float("nan")


async def run(games: int, every: int, parallel: int, computers: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as name:
        folder = Path(name)
        database = folder / "tables.sqlite3"
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Memory night")
            players = []
            for n in range(parallel):
                channel = fake.add_channel(guild, f"complots-{n}")
                user = fake.add_user(f"creator-{n}")
                fake.add_member(guild, user, permissions=MANAGE_GUILD)
                players.append((channel, user))
            env = {"COMPUTER_DELAY": "0", "RENDER_INTERVAL": "0", "LOG_INTERVAL": "0"}
            async with bot_process(fake, folder, database, env) as bot:
                oracle = Oracle(database)
                counts = Counts()
                samples: list[Sample] = []
                began = time.monotonic()
                await asyncio.sleep(0.5)
                first = Sample(0, 0.0, bot.rss_kib() / 1024, bot.cpu_seconds())
                samples.append(first)
                print_sample(first, samples)
                stop = asyncio.Event()
                tasks = [
                    asyncio.create_task(
                        Player(fake, oracle, channel, user, computers, counts).play(games, stop)
                    )
                    for channel, user in players
                ]
                trimmer = asyncio.create_task(keep_fake_small(fake, stop))
                try:
                    await sample_every(bot, counts, every, games, samples, began)
                    steps = oracle.rows(
                        "SELECT avg(s.version) FROM states s JOIN tables t ON t.id = s.table_id"
                        " WHERE t.status = 'finished'"
                    )[0][0]
                finally:
                    stop.set()
                    for task in [*tasks, trimmer]:
                        task.cancel()
                    await asyncio.gather(*tasks, trimmer, return_exceptions=True)
                    oracle.close()
                elapsed = time.monotonic() - began
                size = sum(p.stat().st_size for p in folder.glob("tables.sqlite3*")) / 1e6
                log = bot.log_counts()
            print_summary(samples, counts, elapsed, size, steps or 0.0)
            for text, n in log.most_common(5):
                print(f"  bot log x{n}: {text}")


async def keep_fake_small(fake: FakeDiscord, stop: asyncio.Event) -> None:
    while not stop.is_set():
        await asyncio.sleep(5.0)
        trim_fake(fake)


def print_summary(
    samples: list[Sample], counts: Counts, elapsed: float, size_mb: float, steps: float
) -> None:
    print(
        f"\n{counts.games} games finished in {elapsed:.0f} s ({counts.games / elapsed:.1f}/s),"
        f" {steps:.1f} stored versions (steps) per game; database {size_mb:.1f} MB;"
        f" load average now {load_text()}"
    )
    for text, n in sorted(counts.errors.items(), key=lambda item: -item[1])[:5]:
        print(f"  error x{n}: {text}")
    per_game = slope(samples)
    if per_game == per_game:  # not NaN
        print(
            f"RSS: {samples[0].rss_mib:.1f} MiB after boot, {samples[-1].rss_mib:.1f} MiB after"
            f" {samples[-1].games} games; growth {1000 * per_game:.2f} MiB per 1,000 games"
            " (least squares after the first sample)"
        )
        half = samples[len(samples) // 2 :]
        if len(half) >= 2 and half[-1].games > half[0].games:
            late = (half[-1].rss_mib - half[0].rss_mib) / (half[-1].games - half[0].games)
            print(
                f"  second half only ({half[0].games} -> {half[-1].games} games):"
                f" {1000 * late:.2f} MiB per 1,000 games"
            )
        if samples[-1].games < 10_000:
            at = samples[-1].rss_mib + per_game * (10_000 - samples[-1].games)
            print(
                f"  carried on linearly to 10,000 games: about {at:.0f} MiB (an extrapolation"
                f" from {samples[-1].games} games, not a measurement)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=50, help="channels playing at once")
    parser.add_argument("--computers", type=int, default=2, help="computer players per table")
    args = parser.parse_args()
    print("RSS of one bot process over many all-computer games (bench.memory)")
    print(
        f"{args.parallel} channels at once, {args.computers} EASY computers per table (the"
        " creator removes itself), COMPUTER_DELAY=0, RENDER_INTERVAL=0, LOG_INTERVAL=0."
    )
    print(f"Load average before: {load_text()}")
    print(f"{'games':>7} {'seconds':>8} {'RSS MiB':>9} {'CPU s':>8} {'games/s':>8} {'load 1m':>8}")
    asyncio.run(run(args.games, args.every, args.parallel, args.computers))


if __name__ == "__main__":
    main()
