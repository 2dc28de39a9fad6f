"""What the tests of the kept and the shared search trees (test_mcts_reuse.py,
test_mcts_shared.py) share: one search through ``_core.mcts`` as a dict of plain lists, and the
contract every search's root statistics keep."""
from __future__ import annotations

from blokus import _core


def legal_set(game):
    return set(game.legal_moves().tolist())


def search(game, tree, simulations, seed, **options):
    ids, visits, values, sims, wins, scores, pv, pwins, pscores = _core.mcts(
        game, simulations=simulations, seed=seed, tree=tree, threads=options.pop("threads", 1), **options)
    return {"ids": ids.tolist(), "visits": visits.tolist(), "simulations": sims, "pv": pv.tolist(),
            "values": values.tolist(), "wins": wins.tolist(), "scores": scores.tolist(),
            "pwins": pwins.tolist(), "pscores": pscores.tolist()}


def assert_contract(game, result):
    """The root statistics' contract: legal moves, most visited first, visits adding up to the
    simulations, means in range, and a principal variation that is a legal line from ids[0]."""
    assert set(result["ids"]) <= legal_set(game)
    assert result["visits"] == sorted(result["visits"], reverse=True)
    assert sum(result["visits"]) == result["simulations"]
    assert all(0.0 <= x <= 1.0 for x in result["values"] + result["wins"])
    assert result["pv"][0] == result["ids"][0]
    line = game.copy()
    for move in result["pv"]:
        assert move in legal_set(line)
        line.play(move)
