"""Where Mascarade games are won and lost: the announcement that ends each game, and
the hero's part in it.

    .venv/bin/python -m bench.mascarade_ends --players 10 --games 200 --seed 1 [--hero guide]

One hero seat (``guide``: HARD's guide beyond SEARCHED_PLAYERS, ``RememberingPolicy``
with ``BIG_TABLE_KNOBS``; ``normal``: self-play; ``hard``: HARD itself, ``--budget``
CPU seconds a decision; ``seer``: the guide given the real cards, a measurement
that cheats: ``Seer``) against remembering NORMALs, the
games of bench.mascarade_guide (seed ``seed + i``, the hero at seat ``i mod n``, the
same random numbers as tests.games.playouts). Every game ends inside an announcement
(every coin moves there); it counts that announcement's character, whether the
claimant held it, whether it was contested and who won; the courthouse a Judge took to
win; the winners' coins before it; the bluffs and how often they were contested; each
side's turn choices; and the hero's losses by the winning card and the hero's answer.

At 10 players (NORMAL self-play on seeds 1-195, the guide's games on seeds 1-178,
2026-11-28): self-play ended 78 % on 13 coins, 22 % by the Cheat. The ends that
matter are few: the Judge 40 % (half of them, 20 %, a bluffed Judge contested by its
real holder, who took the courthouse and won; the courthouse then held 6.4 coins on
average, 2 to 13), a true Cheat at 10 coins 21 %, a true King 21 %. No game ended on
a bluff nobody contested (0 of 373): contesting an announcement that would win is
never the missed move. NORMALs bluff a third of their announcements and 90 % of those
bluffs are contested. Half the winners held 10 coins before the last announcement
(94 of 196). The guide (15.7 % of its 178 games) swaps on 71 % of its turns (NORMALs
53 %), announces on 28 % (42 %), looks on 1 % (5 %) and bluffs 15 % of its claims; it
lost 43 games to a true Cheat (11 of them after contesting it in vain), 54 to a Judge
(29 of them a bluff the Judge's holder contested), 28 to a true King; it won 10 with
its own Cheat and 7 as the Judge's holder contesting a bluff.
HARD itself (``--hero hard``) and the seer: bench/results/mascarade-hard.md.

Nothing is asserted: it is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.ai import hard_policy
from games.ai import Level, Policy
from games.base import Event, GameState, Prompt, Seat
from games.mascarade import BIG_TABLE_KNOBS, GAME, Character, MascaradeState
from games.mascarade.ai import POLICIES, RememberingPolicy
from games.mascarade.models import (
    Announce,
    Contest,
    GameWon,
    MascaradeChoice,
    MascaradeView,
    Stage,
)
from tests.games.playouts import Watch, play_out


@dataclass
class Claim:
    """One announcement, as it was played."""

    claimant: Seat
    character: str
    truthful: bool
    courthouse: int
    coins: list[int]
    contesters: list[Seat] = field(default_factory=list)
    silent: list[Seat] = field(default_factory=list)


@dataclass
class Game:
    """One finished game: its announcements, every turn choice, how it ended."""

    hero: Seat
    claims: list[Claim] = field(default_factory=list)
    turns: list[tuple[Seat, str]] = field(default_factory=list)
    winners: tuple[Seat, ...] = ()
    reason: str = ""

    @property
    def last(self) -> Claim:
        return self.claims[-1]


def observe(state: MascaradeState, game: Game, seat: Seat, choice: MascaradeChoice) -> None:
    """Record a turn choice, an announcement or an answer to one, before it is played."""
    if state.stage is Stage.TURN:
        game.turns.append((seat, type(choice).__name__))
        if isinstance(choice, Announce):
            claim = Claim(
                claimant=seat,
                character=choice.character.value,
                truthful=state.cards[GAME.place(state, seat, choice.slot)] is choice.character,
                courthouse=state.courthouse,
                coins=list(state.coins),
            )
            game.claims.append(claim)
    elif state.stage is Stage.CONTEST and game.claims:
        answers = game.last.contesters if isinstance(choice, Contest) else game.last.silent
        answers.append(seat)


@dataclass
class Seer(Policy[MascaradeView, MascaradeChoice]):
    """HARD's guide beyond SEARCHED_PLAYERS given the real cards as its beliefs (a
    measurement: it cheats). ``play`` keeps ``cards`` those of the game's state."""

    cards: list[Character] = field(default_factory=list)
    seen: list[list[Character]] = field(default_factory=list)
    """The cards it was given at each of its decisions."""

    def __post_init__(self) -> None:
        self.level = Level.HARD

    def decide(
        self, view: MascaradeView, prompt: Prompt[MascaradeChoice], rng: random.Random
    ) -> MascaradeChoice:
        self.seen.append(list(self.cards))
        guide = RememberingPolicy([self.cards], knobs=BIG_TABLE_KNOBS)
        return guide.decide(view, prompt, rng)


def play(
    policies: Sequence[Policy[MascaradeView, MascaradeChoice]],
    seed: int,
    hero: Seat,
    also: Watch | None = None,
) -> Game:
    """One game, played by tests.games.playouts.play_out, watched step by step (by
    ``also`` too), a ``Seer`` among the players shown the cards before each step."""
    game = Game(hero=hero)
    seers = [p for p in policies if isinstance(p, Seer)]
    for seer in seers:
        seer.cards = list(GAME.setup(len(policies), GAME.options_model(), seed).cards)

    def watch(
        before: GameState,
        seat: Seat,
        choice: MascaradeChoice,
        events: list[Event],
        after: GameState,
    ) -> None:
        assert isinstance(before, MascaradeState) and isinstance(after, MascaradeState)
        if also is not None:
            also(before, seat, choice, events, after)
        observe(before, game, seat, choice)
        for event in events:
            if isinstance(event, GameWon):
                game.winners, game.reason = event.winners, event.reason.value
        for seer in seers:
            seer.cards = list(after.cards)

    play_out(GAME, policies, seed, watch=watch)
    return game


def ending(game: Game) -> tuple[str, str, str, str]:
    claim = game.last
    return (
        claim.character,
        "true" if claim.truthful else "bluff",
        "contested" if claim.contesters else "silent",
        "claimant won" if claim.claimant in game.winners else "a contester won",
    )


def hero_answer(game: Game) -> str:
    claim, hero = game.last, game.hero
    if claim.claimant == hero:
        return "its own claim"
    if hero in claim.contesters:
        return "contested"
    return "silent" if hero in claim.silent else "not asked"


def share(counter: Counter[str], part: str) -> str:
    return f"{100 * counter[part] / max(1, sum(counter.values())):.0f} %"


def report(games: list[Game]) -> None:
    n = len(games)
    won = sum(1 / len(g.winners) for g in games if g.hero in g.winners)
    print(f"{n} games, the hero's share {100 * won / n:.1f} %")
    print("ended by:", dict(Counter(g.reason for g in games)))
    print("the last announcement (character, held, contested, who won):")
    for key, count in Counter(ending(g) for g in games).most_common():
        print(f"  {count:4} {key}")
    judged = [g.last.courthouse for g in games if g.last.character == "judge"]
    if judged:
        mean = statistics.fmean(judged)
        print(f"courthouse at the Judge's ends: mean {mean:.1f}, max {max(judged)}")
    coins = Counter(g.last.coins[w] for g in games for w in g.winners)
    print("winners' coins before it:", dict(sorted(coins.items())))
    unchallenged = sum(1 for g in games if not g.last.truthful and not g.last.contesters)
    print("won on a bluff nobody contested:", unchallenged)
    for side in ("hero", "others"):
        mine = [c for g in games for c in g.claims if (c.claimant == g.hero) == (side == "hero")]
        bluffs = [c for c in mine if not c.truthful]
        caught = sum(1 for c in bluffs if c.contesters)
        turns = Counter(t for g in games for s, t in g.turns if (s == g.hero) == (side == "hero"))
        mix = ", ".join(f"{t} {share(turns, t)}" for t in sorted(turns))
        print(f"{side}: {mix}; bluffs {len(bluffs)} of {len(mine)} claims, contested {caught}")
    print("the hero's losses (winning card, held, the hero's answer):")
    lost = Counter(
        (g.last.character, ending(g)[1], hero_answer(g)) for g in games if g.hero not in g.winners
    )
    for lost_key, count in lost.most_common(12):
        print(f"  {count:4} {lost_key}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hero", choices=("guide", "normal", "hard", "seer"), default="guide")
    parser.add_argument("--budget", type=float, default=0.2, help="hard: CPU seconds a decision")
    args = parser.parse_args()
    normal = POLICIES[Level.NORMAL]
    heroes: dict[str, Callable[[], Policy[MascaradeView, MascaradeChoice]]] = {
        "guide": lambda: RememberingPolicy(knobs=BIG_TABLE_KNOBS),
        "normal": lambda: normal,
        "hard": lambda: hard_policy("mascarade", args.budget, clock="cpu"),
        "seer": Seer,
    }
    hero = heroes[args.hero]()
    games = []
    for index in range(args.games):
        seat = index % args.players
        seats = [normal] * args.players
        seats[seat] = hero
        games.append(play(seats, args.seed + index, seat))
    report(games)


if __name__ == "__main__":
    main()
