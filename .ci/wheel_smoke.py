"""Smoke test of an installed wheel (.ci/run): the package imported is the venv's, not a checkout's, it
carries its types (PEP 561), and its C core plays a whole Duo game with the tree search."""
import os
import sys
import sysconfig

import blokus
import blokus._core
from blokus.agents import make_agent

package = os.path.dirname(blokus.__file__)
assert package == os.path.join(sysconfig.get_paths()["platlib"], "blokus"), package
assert os.path.dirname(blokus._core.__file__) == package, blokus._core.__file__
for name in ("_core.pyi", "py.typed"):
    assert os.path.isfile(os.path.join(package, name)), f"{name} is not in the installed package"

game = blokus.Game("duo", start="fixed")
agents = [make_agent("mcts:sims=100", seed=1), make_agent("greedy", seed=2)]
while not game.is_over:
    game.play(agents[game.to_move](game))
# The rule sheet's score: -1 per square left in hand, so a colour that placed fewer than all 89 squares of
# its 21 pieces has exactly 89 + score squares on the board (with all placed, +15 or +20 and 89 squares).
for colour, score in enumerate(game.scores()):
    on_board = int((game.board == colour).sum())
    assert on_board == (89 if score > 0 else 89 + score), (colour, score, on_board)
print(f"wheel smoke test: {blokus.__file__}, a Duo game of mcts against greedy scored {game.scores()}",
      file=sys.stderr)
