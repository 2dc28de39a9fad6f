"""The files of a self-play run's directory (``run.json``, its settings, as ``blokus._rundir``)."""
from blokus._rundir import RUN_FILE

RECORDS_FILE = "games.blksgf"
MOVES_FILE = "moves.parquet"
GAMES_FILE = "games.parquet"
SUMMARY_FILE = "summary.json"
PLOT_FILE = "scores.png"
RUN_FILES = (RUN_FILE, RECORDS_FILE, MOVES_FILE, GAMES_FILE, SUMMARY_FILE, PLOT_FILE)
