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
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from morris_where_lost import tokens_of  # noqa: E402


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
    for name in files:
        lines = open(name).read().splitlines()
        for n, line in enumerate(lines):
            m = re.match(r"game (\d+): lost .* as side (\d) .*placing ended (\d+)-(\d+),", line)
            if not m or m.group(3) != m.group(4) or n + 1 >= len(lines):
                continue
            turns = placing(tokens_of(lines[n + 1].split(": ", 1)[1]))
            print(f"# {os.path.basename(name)} game {m.group(1)}, lost as side {m.group(2)}")
            print(" ".join(turns))


if __name__ == "__main__":
    main(sys.argv[1:])
