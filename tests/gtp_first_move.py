"""A tiny GTP engine for tests (``gtp:python tests/gtp_first_move.py``): on ``genmove`` it plays
the colour's legal placement of lowest id, its board kept by blokus. Its own loop, not
``blokus.gtp``, so that the GTP agent is tested against a second reading of the protocol.

Options make it misbehave, for the tests of errors:
  --log FILE        append every command line received to FILE
  --refuse CMD      answer ``? refused`` to every CMD
  --exit-on CMD     exit (status 3) when CMD arrives, answering nothing
  --hang-on CMD     sleep an hour when CMD arrives
  --genmove TEXT    answer TEXT to genmove instead of a move (e.g. ``resign``, ``a1``)
  --chatter         print a line that is not GTP before the first answer
"""
import argparse
import sys
import time

import blokus
from blokus.sgf import VARIANT_OF_GAME_NAME


def colour_index(game: blokus.Game, word: str) -> int:
    names = {"b": 0, "w": 1} if game.num_colours == 2 else {str(c + 1): c for c in range(4)}
    return names[word.lower()]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log")
    parser.add_argument("--refuse")
    parser.add_argument("--exit-on")
    parser.add_argument("--hang-on")
    parser.add_argument("--genmove")
    parser.add_argument("--chatter", action="store_true")
    args = parser.parse_args()
    game = blokus.Game("duo", start="fixed")
    if args.chatter:
        print("hello, I am not a GTP engine", flush=True)
    for line in sys.stdin:
        if args.log:
            with open(args.log, "a") as log:
                log.write(line)
        words = line.split()
        if not words:
            continue
        command, rest = words[0], words[1:]
        if command == args.exit_on:
            return 3
        if command == args.hang_on:
            time.sleep(3600)
        answer, ok = "", command != args.refuse
        if not ok:
            answer = "refused"
        elif command == "set_game":
            game = blokus.Game(VARIANT_OF_GAME_NAME[" ".join(rest)], start="fixed")
        elif command == "clear_board":
            game = blokus.Game(game.variant, start="fixed")
        elif command == "play":
            game.play(rest[1])  # passes are implicit: blokus gives the turn on
        elif command == "genmove":
            legal = game.legal_moves(colour_index(game, rest[0]))
            if args.genmove:
                answer = args.genmove
            elif not len(legal):
                answer = "pass"
            else:
                game.play(int(legal[0]))
                answer = game.move_text(int(legal[0]))
        elif command == "name":
            answer = "first move"
        elif command == "known_command":
            answer = "true" if rest == ["set_random_seed"] else "false"
        elif command == "quit":
            print("=\n", flush=True)
            return 0
        elif command != "set_random_seed":
            answer, ok = f"unknown command {command}", False
        print(f"{'=' if ok else '?'} {answer}\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
