"""Make the tests' helper modules (reference.py, constructed.py, recorded_games.py,
env_helpers.py) importable under any pytest import mode."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
