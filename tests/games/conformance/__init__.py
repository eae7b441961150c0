"""One conformance suite for every game of ``games.registry.GAMES`` (the pattern of
OpenSpiel's ``api_test``): what the engine protocol (games/base.py) and the
computer-player protocol (games/ai.py) promise, checked the same way for each game.

The suite iterates the registry; it never names a game. What only a game knows
comes from its test package, ``tests/games/<name>/conformance.py``, which must define:

``random_options(players, rng) -> Options``
    Varied legal options for that many players (variants, lengths, custom sets,
    a first player now and then): the random games cover them all.
``scramble_unknown(state, viewer, rng) -> State``
    A copy of ``state`` where everything ``viewer`` (a seat, or ``None`` for a
    spectator) cannot know is shuffled or replaced: other hands, deck orders,
    other players' memories. ``view(state, viewer)`` must not change. It must not
    modify ``state``.
``check_rules(state, before, events) -> None``
    The game's own invariants after a step (``before`` is the previous state and
    ``events`` what the step told; ``None`` and ``[]`` for a new game): cards and
    coins conserved, stage consistency, who may be asked, how the end is reached.

and may define:

``check_view(state, viewer, view) -> None``
    Structural checks of one view (no other player's hand, one's own memories ...).
``random_choice(prompt, rng) -> Choice``
    How random games pick among a prompt's choices, when uniform picks would
    rarely reach parts of the game (default: uniform).

``support`` holds the random-game driver and the generic checks; per-game tests
may use it for game-specific random games (e.g. from a doctored state).
"""
