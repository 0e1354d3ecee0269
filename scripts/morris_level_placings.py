#!/usr/bin/env python3
"""The games lost from a level placing, cut where the placing ends: a file of openings for
`examples/strength.rs --openings`. Such positions are where the target of issue 21 is decided;
played again many times from there, two players' losses can be compared on far fewer games than
from random openings, where about one game in fifty is such a loss.

    python3 scripts/morris_level_placings.py FILE... > openings.txt

FILE is what `examples/strength.rs` printed. One line is written for each game its first player
lost from a placing that ended level in pieces: the move list up to the first move, after a
comment naming the game.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from morris_where_lost import lost_level_placings  # noqa: E402


def placing(tokens):
    """The turns of the placing (a token with its removal), up to the first move."""
    turns = []
    for t in tokens:
        if "-" in t:
            break
        if t.startswith("x"):
            turns[-1] += t
        else:
            turns.append(t)
    return turns


def main(files):
    if not files:
        sys.exit(__doc__)
    for name, game, loser, tokens in lost_level_placings(files):
        print(f"# {os.path.basename(name)} game {game}, lost as side {loser}")
        print(" ".join(placing(tokens)))


if __name__ == "__main__":
    main(sys.argv[1:])
