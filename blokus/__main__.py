"""``python -m blokus``: the command line."""
import sys

from blokus.cli import main

sys.exit(main())
