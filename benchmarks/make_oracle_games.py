"""Converts the oracle games of tests/data/*.jsonl to benchmarks/oracle_games.txt.

Only games with start "fixed" are kept: bench_movegen.c replays every game
under the fixed start rule, the rule Pentobi plays and is timed under.
One game per line:  VARIANT|COLOUR:CELLS;COLOUR:CELLS;...

    python3 benchmarks/make_oracle_games.py
"""
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, os.pardir, "tests", "data")


def main():
    lines = []
    for path in sorted(glob.glob(os.path.join(DATA, "*.jsonl"))):
        with open(path) as f:
            for text in f:
                if not text.strip():
                    continue
                game = json.loads(text)
                if game["start"] != "fixed":
                    continue
                moves = ";".join(f"{colour}:{cells}" for colour, cells in game["moves"])
                lines.append(f"{game['variant']}|{moves}\n")
    out = os.path.join(HERE, "oracle_games.txt")
    with open(out, "w") as f:
        f.writelines(lines)
    print(f"wrote {len(lines)} games to {os.path.relpath(out)}")


if __name__ == "__main__":
    main()
