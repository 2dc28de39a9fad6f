"""Every documented value is safe (issue 25): each numeric parameter of the ``mcts`` agent string
and each argument of ``BatchedSearch`` at its documented extremes (the smallest allowed, a tiny
value, the smallest denormal 5e-324, a huge value, the largest allowed) plays a legal move in
every variant, and a value just outside its range raises a ValueError that names the parameter,
its range and the value, with no printf code left in the message (PyErr_Format has no %g).

The simulation counts are small: what is checked is that nothing overflows, divides by zero or
runs away, not how well the search plays.
"""
from __future__ import annotations

import pathlib
import re
import sys

import numpy as np
import pytest

import blokus
from blokus.agents import make_agent
from blokus.agents._strings import AGENTS
from blokus.puzzles import Packing
from blokus.search import BatchedSearch
from blokus.variants import VARIANTS

DENORMAL = 5e-324  # the smallest positive float
HUGE = sys.float_info.max
BELOW_HALF = 0.49999999999999994  # the largest float below 0.5
ABOVE_ONE = 1.0000000000000002  # the smallest float above 1

# --- the mcts agent string ---------------------------------------------------------------------

# Agent-string key -> (its keyword argument, the values allowed at the ends of its documented
# range and beyond tiny/huge, the values just outside it). Every search runs at most a few
# simulations (sims=8 unless the key is a simulation count or a time).
AGENT_EXTREMES = {
    "sims": ("simulations", ["1", "9223372036854775807"], ["0", "9223372036854775808"]),
    "simulations": ("simulations", ["1", "9223372036854775807"], ["0", "-1"]),
    "seconds": ("seconds", ["5e-324", "1e-300", "0.001", "1e9"], ["0", "-5e-324", "1000000001", "1e309"]),
    "c": ("exploration", ["0", "5e-324", "1e-300", "1e300", repr(HUGE)], ["-5e-324", "1e309"]),
    "exploration": ("exploration", ["0", "5e-324", repr(HUGE)], ["-1", "1e309"]),
    "prior_temperature": ("prior_temperature", ["5e-324", "1e-300", "1e-3", "1e300", repr(HUGE)],
                          ["0", "-5e-324", "1e309"]),
    "rave": ("rave", ["0", "5e-324", "1e-300", "1e300", repr(HUGE)], ["-5e-324", "1e309"]),
    "margin": ("margin", ["0", "5e-324", "1e-300", repr(BELOW_HALF)], ["-5e-324", "0.5"]),
    "evaluation": ("evaluation", ["0", "5e-324", "1e-300", "0.5", "1"], ["-5e-324", repr(ABOVE_ONE), "1e309"]),
    "replies": ("replies", ["0", "1"], ["-1", "2"]),
    "max_nodes": ("max_nodes", ["1", "2", "4294967295"], ["0", "4294967296"]),
    "threads": ("threads", ["1", "64"], ["0", "65"]),
    "early_stop": ("early_stop", ["0", "5e-324", "1e-300", "1e300", repr(HUGE)], ["-5e-324", "1e309"]),
    "reuse": ("reuse", ["0", "1"], ["-1", "2"]),
    "cpu": ("cpu_seconds", ["0", "1"], ["-1", "2"]),
    "solve": ("solve", ["0", "1", "1125899906842623"], ["-1", "1125899906842624"]),
    "growth": ("growth", ["0.5", "1", "2"], ["0.49999999999999994", "2.0000000000000004", "1e309"]),
    "shared": ("shared", ["0", "1"], ["-1", "2"]),
}


def test_every_key_of_the_mcts_agent_string_is_swept():
    """A key added to the agent string must get its extremes here."""
    assert set(AGENT_EXTREMES) == set(AGENTS["mcts"][1])


def agent_spec(key: str, value: str) -> str:
    params = {"threads": "2" if key == "shared" else "1"}  # a shared tree needs threads to share it
    if AGENT_EXTREMES[key][0] != "simulations":
        params["sims"] = "8"
    if key == "seconds":
        params["sims"] = "64"  # the time limit, when it comes first, ends the search
    elif AGENT_EXTREMES[key][0] == "simulations" and int(value) > 64:
        params["seconds"] = "0.001"  # 2**63 - 1 simulations: the clock ends the search
    params[key] = value
    return "mcts:" + ":".join(f"{k}={v}" for k, v in params.items())


def first_moves(variant: str) -> list[blokus.Game]:
    """The empty board and a position a few moves in (seeded random play): the priors, values
    and RAVE updates of a position with pieces down differ from the empty board's."""
    game = blokus.Game(variant)
    later = game.copy()
    rng = np.random.default_rng(len(variant))
    for _ in range(2 * later.num_colours):
        later.play(int(rng.choice(later.legal_moves())))
    return [game, later]


AGENT_CASES = [(key, value) for key, (_, allowed, _) in AGENT_EXTREMES.items() for value in allowed]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("key,value", AGENT_CASES)
def test_mcts_at_every_extreme_plays_a_legal_move(key, value, variant):
    agent = make_agent(agent_spec(key, value), seed=1)
    for game in first_moves(variant):
        key_before = game.key
        result = agent.search(game)
        assert game.key == key_before  # searched on a copy
        assert np.isfinite(result.values).all() and np.isfinite(result.win_probability).all()
        assert ((result.values >= 0) & (result.values <= 1)).all()
        assert game.is_legal(int(result.ids[0]))


AGENT_OUTSIDE = [(key, value) for key, (_, _, outside) in AGENT_EXTREMES.items() for value in outside]


@pytest.mark.parametrize("key,value", AGENT_OUTSIDE)
def test_mcts_just_outside_a_range_is_refused_by_name(key, value):
    name = AGENT_EXTREMES[key][0]
    with pytest.raises(ValueError, match=rf"^{name} must be .*, not ") as info:
        make_agent(agent_spec(key, value))
    assert "%" not in str(info.value)


def test_a_huge_exploration_ranks_by_prior_share_not_by_the_first_child():
    """As c grows, c P sqrt(N) log(N + 1) / n dominates the values: the children are ranked by
    P / n alone, which is the same for c = 1e30 and for the largest float. Infinity (c beyond
    the float range of the term) tied every child and sent all visits to the first."""
    game = first_moves("duo")[1]
    searches = [make_agent(f"mcts:sims=300:threads=1:c={c}", seed=3).search(game)
                for c in ("1e30", "1e300", repr(HUGE))]
    for s in searches[1:]:
        np.testing.assert_array_equal(s.ids, searches[0].ids)
        np.testing.assert_array_equal(s.visits, searches[0].visits)
    assert searches[-1].visits[0] < 300 // 4  # spread over the moves, not all on one


def test_a_huge_rave_weight_acts_as_a_large_one():
    """A RAVE update of weight w turns a child's mean into the update's value once w dwarfs the
    child's count (at most 2000 before an update): 1e20 and the largest float give the same
    search. As a float32 infinity the weight made the means NaN (inf / inf)."""
    game = first_moves("duo")[1]
    searches = [make_agent(f"mcts:sims=300:threads=1:rave={w}", seed=3).search(game)
                for w in ("1e20", "1e300", repr(HUGE))]
    for s in searches[1:]:
        np.testing.assert_array_equal(s.ids, searches[0].ids)
        np.testing.assert_array_equal(s.visits, searches[0].visits)


# --- the other agent strings ---------------------------------------------------------------------

# The agents of AGENTS besides mcts, and where each is swept: level's argument here (its values at
# the ends of 1..9, and just outside), net's sims= in tests/test_agent_sources.py (it needs torch
# and a network file), random and greedy take nothing, gtp and sb3 a command or a path
# (tests/test_agent_sources.py).
LEVEL_EXTREMES = (["1", "9"], ["0", "10", "-1", "99999999999999999999"])
SWEPT_ELSEWHERE = {"random", "greedy", "gtp", "sb3", "net"}


def test_every_agent_is_swept():
    """An agent added to AGENTS must get its extremes here or in tests/test_agent_sources.py."""
    assert set(AGENTS) == {"mcts", "level"} | SWEPT_ELSEWHERE
    assert set(AGENTS["net"][1]) == {"sims", "simulations"}  # test_net_simulations_at_their_extremes


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_lowest_level_plays_a_legal_move_and_the_highest_is_built(variant):
    low, high = (make_agent(f"level:{level}", seed=1) for level in LEVEL_EXTREMES[0])
    for game in first_moves(variant):
        assert game.is_legal(low(game))
    assert high.options["simulations"] == 5_000_000  # level 9 searches for seconds: not run here


@pytest.mark.parametrize("value", LEVEL_EXTREMES[1])
def test_a_level_just_outside_1_to_9_is_refused_by_name(value):
    with pytest.raises(ValueError, match=rf"^level must be an integer in 1\.\.9 \(Pentobi's levels\), not {value}$"):
        make_agent(f"level:{value}")


# --- BatchedSearch -----------------------------------------------------------------------------

# Argument -> (values allowed at the ends of its range and beyond tiny/huge, values just outside).
SEARCH_EXTREMES = {
    "simulations": ([1, 2**24], [0, -1, 2**24 + 1]),
    "c_puct": ([0.0, DENORMAL, 1e-300, 1e300, HUGE], [-DENORMAL, float("inf"), float("nan"), 10**400]),
    "fpu": ([None, 0.0, DENORMAL, 1.0], [-DENORMAL, ABOVE_ONE, float("nan")]),
    "dirichlet_alpha": ([DENORMAL, 1e-320, 1e-300, 1e-3, 1e300, HUGE], [0.0, -DENORMAL, float("inf")]),
    "dirichlet_fraction": ([0.0, DENORMAL, 1.0], [-DENORMAL, ABOVE_ONE, float("nan")]),
    "seed": ([0, 2**64 - 1], [-1, 2**64]),
}


def test_every_argument_of_batched_search_is_swept():
    params = BatchedSearch([blokus.Game("duo")], simulations=1).params
    assert set(SEARCH_EXTREMES) == set(params)


def evaluator(num_players: int):
    """Priors that differ between moves (so that they matter), values of a draw."""
    def evaluate(observations, remaining, masks):
        weights = 1.0 + np.arange(masks.shape[1]) % 7
        return (masks * weights).astype(np.float32), np.full((len(masks), num_players), 1 / num_players,
                                                             np.float32)
    return evaluate


def check_root(search: BatchedSearch, games: list[blokus.Game]) -> None:
    """Every game's root priors are a distribution over its legal moves (noise included), its
    value is finite, and its most visited move is legal."""
    for i, game in enumerate(games):
        ids, priors, _, _ = search.children(i)
        np.testing.assert_array_equal(ids, np.sort(game.legal_moves()))
        assert np.isfinite(priors).all() and (priors >= 0).all()
        assert abs(float(priors.astype(np.float64).sum()) - 1.0) < 1e-4
        assert np.isfinite(search.root_values()[i]).all()
        assert game.is_legal(int(search.best_moves()[i]))


SEARCH_CASES = [(arg, value) for arg, (allowed, _) in SEARCH_EXTREMES.items() for value in allowed]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("arg,value", SEARCH_CASES, ids=lambda x: repr(x))
def test_batched_search_at_every_extreme_plays_a_legal_move(arg, value, variant):
    games = first_moves(variant)
    kwargs = {"simulations": 8, "dirichlet_fraction": 0.5, arg: value}
    search = BatchedSearch(games, **kwargs)
    evaluate = evaluator(games[0].num_players)
    # the root's evaluation and 8 simulations; of 2**24, the root's and 3 only
    for _ in range(9 if kwargs["simulations"] <= 8 else 4):
        if search.done:
            break
        request = search.pending()
        search.evaluate(*evaluate(request.observations, request.remaining, request.masks))
    assert search.done == (kwargs["simulations"] <= 8)
    check_root(search, games)
    policy = search.policy(temperature=1.0)
    assert np.isfinite(policy).all()


SEARCH_OUTSIDE = [(arg, value) for arg, (_, outside) in SEARCH_EXTREMES.items() for value in outside]


@pytest.mark.parametrize("arg,value", SEARCH_OUTSIDE, ids=lambda x: repr(x))
def test_batched_search_just_outside_a_range_is_refused_by_name(arg, value):
    with pytest.raises(ValueError, match=rf"^{arg}\b") as info:
        BatchedSearch([blokus.Game("duo")], **{arg: value})
    message = str(info.value)
    assert "%" not in message
    if arg not in ("seed", "simulations"):  # the real numbers: the value is quoted
        assert message.endswith(", not " + repr(value)[:40])


@pytest.mark.parametrize("temperature", [0.0, DENORMAL, 1e-300, 1.0, 1e300, HUGE])
def test_policy_at_every_temperature_is_a_distribution(temperature):
    search = BatchedSearch([blokus.Game("duo")] * 2, simulations=16).run(evaluator(2))
    policy = search.policy(temperature)
    assert np.isfinite(policy).all() and (policy >= 0).all()
    np.testing.assert_allclose(policy.sum(axis=1), 1.0, rtol=1e-6)
    visited = search.visit_counts() > 0
    assert not policy[~visited].any()  # the weight is on visited moves only


@pytest.mark.parametrize("scale", [1e-40, 1.0, np.finfo(np.float32).max])
def test_evaluations_at_the_float32_extremes_give_the_same_priors(scale):
    """Priors are renormalised over the legal moves: scaling them all so that the largest is
    a float32 denormal (1e-40, where they keep 14 bits or more) or the largest float32 changes
    nothing but rounding."""
    game = first_moves("classic")[1]
    ref = BatchedSearch([game], simulations=8, dirichlet_fraction=0.0)
    search = BatchedSearch([game], simulations=8, dirichlet_fraction=0.0)
    request = search.pending()
    priors, values = evaluator(4)(request.observations, request.remaining, request.masks)
    search.evaluate((priors / priors.max() * scale).astype(np.float32), np.zeros_like(values))
    ref.pending()
    ref.evaluate(priors, np.zeros_like(values))
    np.testing.assert_allclose(search.children(0)[1], ref.children(0)[1], rtol=1e-3)


# --- error messages: no printf code left -------------------------------------------------------

@pytest.mark.parametrize("call,names", [
    (lambda: BatchedSearch([blokus.Game("duo")], c_puct=-1.5), ["c_puct", ">= 0", "-1.5"]),
    (lambda: BatchedSearch([blokus.Game("duo")], fpu=1.5), ["fpu", "[0, 1]", "1.5"]),
    (lambda: BatchedSearch([blokus.Game("duo")], dirichlet_alpha=0.0), ["dirichlet_alpha", "> 0", "0.0"]),
    (lambda: BatchedSearch([blokus.Game("duo")], dirichlet_fraction=-0.25),
     ["dirichlet_fraction", "[0, 1]", "-0.25"]),
    (lambda: Packing((1, 5), {"I5": 1}).count_solutions(time_limit=0), ["time_limit", "(0, 1e+09]", "0"]),
    (lambda: Packing((1, 5), {"I5": 1}).solve(time_limit=2e9), ["time_limit", "(0, 1e+09]", "2000000000.0"]),
])
def test_range_errors_name_the_limit_and_the_value(call, names):
    """These messages were written with %g, which PyErr_Format does not know: they read
    'c_puct must be finite and >= %g'."""
    with pytest.raises(ValueError) as info:
        call()
    message = str(info.value)
    assert "%" not in message
    for name in names:
        assert name in message


# The conversions PyUnicode_FromFormat knows (Python 3.10 on): no %g, %f or %e, and the length
# modifiers l, ll and z with d, i and u only.
KNOWN_CODE = re.compile(r"%\d*(\.\d+)?(%|[cdiuxspAUVSR]|(l|ll|z)[diu])")
FORMAT_CALL = re.compile(r"\b(PyErr_Format|PyErr_WarnFormat|PyUnicode_FromFormat|PyBytes_FromFormat)\s*\(")


def format_strings(source: str):
    """(line, the string literals of the call, joined) of each formatting call in C source."""
    for call in FORMAT_CALL.finditer(source):
        depth, i = 1, call.end()
        while depth:
            if source[i] == '"':  # skip a literal, with its escapes and parentheses
                i += 1
                while source[i] != '"':
                    i += 2 if source[i] == "\\" else 1
            depth += {"(": 1, ")": -1}.get(source[i], 0)
            i += 1
        literals = re.findall(r'"((?:[^"\\]|\\.)*)"', source[call.end():i])
        yield source[:call.start()].count("\n") + 1, "".join(literals)


def test_every_format_code_in_the_c_sources_is_known_to_python():
    csrc = pathlib.Path(__file__).resolve().parent.parent / "csrc"
    if not csrc.is_dir():
        pytest.skip("no csrc/ beside the tests")
    calls, unknown = 0, []
    for path in sorted(csrc.rglob("*.c")):
        for line, text in format_strings(path.read_text()):
            calls += 1
            for code in re.finditer(r"%[^a-zA-Z%]*(ll|l|z|h|hh|j|t|L)?[a-zA-Z%]", text):
                if not KNOWN_CODE.fullmatch(code.group(0)):
                    unknown.append(f"{path.name}:{line}: {code.group(0)}")
    assert calls > 40  # the scan found the calls
    assert not unknown
