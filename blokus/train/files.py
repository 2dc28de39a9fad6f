"""The files of a training run's directory (``run.json``, its settings, as ``blokus._rundir``)."""
from blokus._rundir import RUN_FILE

CHECKPOINT_FILE = "checkpoint.pt"
MODEL_FILE = "model.pt"
LOG_FILE = "log.jsonl"
PLOT_FILE = "win_share.png"
RUN_FILES = (RUN_FILE, LOG_FILE, CHECKPOINT_FILE, MODEL_FILE, PLOT_FILE)
