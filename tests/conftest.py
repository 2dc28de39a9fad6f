"""Make the tests' helper modules (reference.py, constructed.py, recorded_games.py,
env_helpers.py) importable under any pytest import mode, and keep Stable-Baselines3's log
folders out of the system's temporary directory."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture(autouse=True, scope="session")
def sb3_log_folder(tmp_path_factory):
    """Stable-Baselines3's logger makes a folder for each model that learns, in the system's
    temporary directory unless SB3_LOGDIR names one: here one under pytest's own."""
    os.environ.setdefault("SB3_LOGDIR", str(tmp_path_factory.mktemp("sb3")))
