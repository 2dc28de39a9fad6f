"""The files of a training run's directory."""
from blokus.selfplay.files import RUN_FILE, replace_file, write_text  # run.json: the settings, as self-play's

CHECKPOINT_FILE = "checkpoint.pt"
MODEL_FILE = "model.pt"
LOG_FILE = "log.jsonl"
PLOT_FILE = "win_share.png"
RUN_FILES = (RUN_FILE, LOG_FILE, CHECKPOINT_FILE, MODEL_FILE, PLOT_FILE)

__all__ = ["RUN_FILE", "CHECKPOINT_FILE", "MODEL_FILE", "LOG_FILE", "PLOT_FILE", "RUN_FILES", "replace_file",
           "write_text"]
