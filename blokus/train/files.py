"""The files of a training run's directory."""
from blokus.selfplay.files import replace_file, write_text

RUN_FILE = "run.json"
CHECKPOINT_FILE = "checkpoint.pt"
MODEL_FILE = "model.pt"
LOG_FILE = "log.jsonl"
PLOT_FILE = "win_share.png"

__all__ = ["RUN_FILE", "CHECKPOINT_FILE", "MODEL_FILE", "LOG_FILE", "PLOT_FILE", "replace_file", "write_text"]
