"""The TorchRL snippet of docs/encodings.md ("With TorchRL and RLlib"), run as the page shows it
(issue 27): every move of its rollout is legal by the mask observed before it, and a finished game
pays win/loss. Skipped with the reason when TorchRL is not installed."""

import pathlib
import re

import pytest

pytest.importorskip("torchrl", reason="needs TorchRL: pip install torchrl")
torch = pytest.importorskip("torch", reason='needs PyTorch: pip install -e ".[torch]"')

PAGE = pathlib.Path(__file__).parent.parent / "docs" / "encodings.md"


def snippet():
    section = PAGE.read_text().split("### With TorchRL and RLlib", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.fixture
def one_torch_thread():
    """One thread: with torch's default of one a core, the run took 7x longer on 2 loaded cores."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_torchrl_snippet_plays_legal_moves(one_torch_thread):
    scope = {}
    exec(compile(snippet(), str(PAGE), "exec"), scope)
    rollout = scope["rollout"]
    assert rollout.shape == (4, 100)
    masks, actions = rollout["action_mask"], rollout["action"]
    assert masks.dtype == torch.int8 and masks.shape[-1] == 13_729
    chosen = masks.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    assert (chosen == 1).all(), "a move outside the mask it was chosen from"
    done = rollout["next", "done"].squeeze(-1)
    rewards = rollout["next", "reward"].squeeze(-1)
    assert done.sum() >= 4  # a Duo game lasts at most 21 learner moves: each env ends some
    assert set(rewards[done].tolist()) <= {-1.0, 0.0, 1.0} and (rewards[~done] == 0).all()
