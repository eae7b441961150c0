"""bench.mascarade_value: the training of Mascarade's learned value, and the weights
module it writes, which the game reads."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench.mascarade_value import (
    Arrays,
    Weights,
    arrays,
    as_net,
    gradients,
    log_loss,
    module_text,
    play,
    train,
)
from games.mascarade import GAME
from games.mascarade.value import layout_for


def tiny(seed: int = 1) -> Arrays:
    rng = np.random.default_rng(seed)
    won = np.zeros((5, 3))
    won[np.arange(5), rng.integers(0, 3, 5)] = 1.0
    in_play = np.ones((5, 3), dtype=bool)
    in_play[4, 1] = False
    won[4] = [0.5, 0.0, 0.5]
    return Arrays(rng.normal(size=(5, 3, 4)), in_play, won, np.full((5, 3), 1 / 3))


def test_the_gradients_are_the_losss_slopes() -> None:
    data = tiny()
    rng = np.random.default_rng(2)
    weights = Weights(rng.normal(size=(4, 3)), rng.normal(size=3), rng.normal(size=3))
    analytic = gradients(weights, data)
    for param, grad in zip((weights.w1, weights.b1, weights.w2), analytic, strict=True):
        for index in np.ndindex(param.shape):
            kept = param[index]
            param[index] = kept + 1e-6
            up = log_loss(weights.chances(data), data.won)
            param[index] = kept - 1e-6
            down = log_loss(weights.chances(data), data.won)
            param[index] = kept
            assert grad[index] == pytest.approx((up - down) / 2e-6, abs=1e-6)


def test_self_play_moments_are_the_games_inputs_and_training_learns_them() -> None:
    games = [play(6, seed) for seed in (11, 12)]
    layout = layout_for(GAME.setup(6, GAME.options_model(), 11).characters, 6)
    for game in games:
        assert game.inputs, "some moments kept"
        assert all(len(row) == layout.size for moment in game.inputs for row in moment)
        assert sum(game.won) == pytest.approx(1.0)
        assert all(sum(chances) == pytest.approx(1.0) for chances in game.logit)
    data = arrays(games)
    untrained = train(data, hidden=4, epochs=0)
    trained = train(data, hidden=4, epochs=40)
    assert log_loss(trained.chances(data), data.won) < log_loss(untrained.chances(data), data.won)
    # The game scores with the net as written (5 significant digits): the same chances.
    net = as_net(trained, layout)
    first = games[0].inputs[0]
    scores = [net.score(row) for row in first]
    top = max(scores)
    mine = [math.exp(s - top) / sum(math.exp(t - top) for t in scores) for s in scores]
    assert mine == pytest.approx(trained.chances(arrays(games[:1]))[0].tolist(), abs=1e-3)


def test_the_written_module_gives_back_its_nets() -> None:
    layout = layout_for(GAME.setup(6, GAME.options_model(), 1).characters, 6)
    rng = np.random.default_rng(3)
    weights = Weights(rng.normal(size=(layout.size, 5)), rng.normal(size=5), rng.normal(size=5))
    net = as_net(weights, layout)
    text = module_text({6: (net, "6 players, a test")})
    namespace: dict[str, object] = {"__package__": "games.mascarade", "__name__": "written"}
    exec(compile(text, "value_weights.py", "exec"), namespace)
    assert namespace["NETS"] == {6: net}
    assert namespace["FIGURES"] == ("6 players, a test",)
