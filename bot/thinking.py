"""Where computer players think.

The quick levels (``games.ai.QUICK_LEVELS``: rules of thumb) decide at once, on
the event loop. A level that searches (HARD: ``games.search``) thinks for up to
``COMPUTER_THINK`` seconds a decision, in a worker process of its own, so the
event loop, which answers every click of every table, never waits on it; the
bot starts that thinking when the computer is asked and lets it run during the
``COMPUTER_DELAY`` people get to follow the game (``bot.autoplay``).

A decision reads what the seat sees and nothing else: its view, and its visible
history (the events the seat was shown, in order). Its randomness comes from
``decision_rng`` (the table's seed, the step, the seat), so below its time cap a
decision depends on the game alone. No Discord here.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace

from games.ai import QUICK_LEVELS, Level
from games.base import Choice, Event, Seat, View
from games.registry import GAMES, policy_for
from games.search import SearchPolicy

log = logging.getLogger("bot.thinking")

RUSHED_LOG_INTERVAL = 60.0
"""Seconds between two warnings that computers waited for a worker."""


@dataclass(frozen=True)
class Question:
    """One decision a computer must make, as it crosses to a worker process: the
    view and the events as JSON (their generic models do not pickle)."""

    game: str
    level: Level
    view_type: type[View]
    view_json: str
    history_json: tuple[str, ...]
    rng: random.Random
    budget: float
    """Seconds the search may think (levels that search), from ``asked_at``."""
    asked_at: float
    """When the computer was asked (``time.time()``: comparable across processes)."""
    computers: tuple[tuple[Seat, Level], ...] = ()
    """The table's other seats that a computer plays, at their levels (public)."""

    @classmethod
    def of(
        cls,
        game: str,
        level: Level,
        view: View,
        history: Sequence[Event],
        rng: random.Random,
        budget: float,
        history_json: Sequence[str] | None = None,
        computers: Mapping[Seat, Level] | None = None,
    ) -> Question:
        """``history_json``: the history's events as JSON already (else written here)."""
        if history_json is not None and len(history_json) == len(history):
            events = tuple(history_json)
        else:
            events = tuple(event.model_dump_json() for event in history)
        view_json = view.model_dump_json()
        seated = tuple(sorted((computers or {}).items()))
        return cls(game, level, type(view), view_json, events, rng, budget, time.time(), seated)


@dataclass(frozen=True)
class Answer:
    choice: Choice
    waited: float
    """Seconds the question waited for a worker (taken from its budget)."""


def answer(question: Question) -> Answer:
    """The computer's choice (in the worker process), in what is left of its budget."""
    waited = max(time.time() - question.asked_at, 0.0)
    view = question.view_type.model_validate_json(question.view_json)
    game = GAMES[question.game]
    history = [game.parse_event(event) for event in question.history_json]
    left = max(question.budget - waited, 0.0)
    computers = dict(question.computers)
    choice = decide(question.game, question.level, view, question.rng, history, left, computers)
    return Answer(choice, waited)


def decide(
    game: str,
    level: Level,
    view: View,
    rng: random.Random,
    history: Sequence[Event],
    budget: float,
    computers: Mapping[Seat, Level] | None = None,
) -> Choice:
    """The level's choice from the seat's view and history, a search thinking for at
    most ``budget`` seconds; ``computers``: the table's other computer seats, at
    their levels, which a search plays as they are (``SearchPolicy.facing``)."""
    policy = policy_for(game, level)
    if isinstance(policy, SearchPolicy):
        policy = policy.with_settings(replace(policy.settings, budget_seconds=budget))
        if computers:
            known = {seat: policy_for(game, other) for seat, other in computers.items()}
            policy = policy.facing(known)
    choice: Choice = policy.choose(view, rng, history)
    return choice


def warm_up(game: str, level: Level) -> int:
    """Loads the level's player of ``game`` (in a worker: its imports, its tables);
    returns the worker's process id."""
    policy_for(game, level)
    return os.getpid()


def remembers(game: str, level: Level) -> bool:
    """Whether the level's player of ``game`` reads the seat's visible history."""
    return policy_for(game, level).remembers


def searches(level: Level) -> bool:
    """Whether the level thinks ahead (and needs the seat's history)."""
    return level not in QUICK_LEVELS


class Thinker:
    """Answers computers' questions: the quick levels at once, the others in
    ``workers`` processes (started on first use)."""

    def __init__(self, *, workers: int = 1, budget: float = 1.0) -> None:
        self.workers = workers
        self.budget = budget
        self._pool: ProcessPoolExecutor | None = None
        self._warmed: set[tuple[str, Level]] = set()
        """The players these workers were asked to load (new workers load afresh)."""
        self.rushed = 0
        """Questions that waited over half their budget for a worker."""
        self._warned_at = -RUSHED_LOG_INTERVAL

    async def choose(
        self,
        game: str,
        level: Level,
        view: View,
        rng: random.Random,
        history: Sequence[Event] = (),
        *,
        history_json: Sequence[str] | None = None,
        computers: Mapping[Seat, Level] | None = None,
    ) -> Choice:
        """The level's choice for the seat of ``view``; ``history_json``, the history's
        events as JSON, spares writing them again for a worker; ``computers``, the
        table's other computer seats at their levels (``decide``)."""
        if not searches(level):
            return decide(game, level, view, rng, history, self.budget)
        question = Question.of(
            game, level, view, history, rng, self.budget, history_json, computers
        )
        try:
            answered = await self._ask(question)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the pool refuses all work from
            # then on. A new one takes this question and the next ones.
            log.warning("a thinking worker died: starting new workers")
            self.close()
            answered = await self._ask(question)
        if answered.waited > self.budget / 2:
            self._rushed(answered.waited)
        # The choice as the engine's own model (it crossed processes as a copy).
        entry = GAMES[game]
        parsed: Choice = entry.parse_choice(entry.choice_adapter.dump_json(answered.choice))
        return parsed

    def warm(self, game: str, level: Level) -> list[Future[int]]:
        """Starts the workers and loads the level's player of ``game`` in each, ahead
        of its first question: a worker's start and imports take a second or two,
        which the first decision would otherwise lose from its budget. Nothing for a
        level that does not search, or one these workers already loaded."""
        if not searches(level) or (game, level) in self._warmed:
            return []
        try:
            pool = self._workers()
            warming = [pool.submit(warm_up, game, level) for _ in range(self.workers)]
        except BrokenProcessPool:  # the next question starts new workers
            self.close()
            return []
        self._warmed.add((game, level))
        return warming

    async def _ask(self, question: Question) -> Answer:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._workers(), answer, question)

    def _rushed(self, waited: float) -> None:
        self.rushed += 1
        now = time.monotonic()
        if now - self._warned_at >= RUSHED_LOG_INTERVAL:
            self._warned_at = now
            log.warning(
                "computers wait for a worker to think (%.1f s of a %.1f s budget, %d times"
                " so far): they play on what is left; more THINK_WORKERS let them think"
                " in full",
                waited,
                self.budget,
                self.rushed,
            )

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork of this process would copy its threads' locks and sockets
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._warmed.clear()
