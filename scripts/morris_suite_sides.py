#!/usr/bin/env python3
"""How a suite of openings went for the first player, colour by colour: which of its losses
came from positions the other player also lost with the same colour (decided where the games
start), and which from positions the other player held (the first player's own failing).

    python3 scripts/morris_suite_sides.py SUITE FILE...

SUITE is a file of openings (`examples/strength.rs --openings`, one move list a line, `#` for
a comment); each FILE is what `strength --openings SUITE` printed, every game followed by its
move list. Each game is told to the longest opening its moves start with. One line an opening
that was lost at least once: its line number in SUITE, the first player's results as side 0
and as side 1 (W, D, L), and its class:

- decided: lost with one colour only, and every game with the other colour won. Whoever had
  that colour lost it, so the position was lost where the games start;
- held by the other: lost with one colour only, and with the other colour not always won. The
  other player kept a draw (or more) with the colour the first player lost with;
- lost both ways: lost with each colour;
- other colour not played: lost with one colour, and no game with the other in FILEs.

Then the count of each class and of the losses in it, over all FILEs together.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from morris_where_lost import tokens_of  # noqa: E402

GAME = re.compile(r"\s+(won|drawn|lost) as side (\d): (.*)")
LETTER = {"won": "W", "drawn": "D", "lost": "L"}


def suite(path):
    """The openings of SUITE, as (line number, tokens)."""
    out = []
    for n, line in enumerate(open(path).read().splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append((n, tokens_of(line)))
    return out


def results(openings, files):
    """For each opening's line number, the first player's results as side 0 and as side 1."""
    by_line = {n: ([], []) for n, _ in openings}
    for name in files:
        for line in open(name):
            m = GAME.match(line)
            if not m:
                continue
            tokens = tokens_of(m.group(3))
            hits = [(len(o), n) for n, o in openings if tokens[: len(o)] == o]
            if not hits:
                sys.exit(f"{name}: a game that starts with none of the openings: {m.group(3)[:60]}")
            by_line[max(hits)[1]][int(m.group(2))].append(LETTER[m.group(1)])
    return by_line


def kind(sides):
    """The class of an opening from its results by colour, None when it was never lost."""
    lost = [any(r == "L" for r in s) for s in sides]
    if all(lost):
        return "lost both ways"
    if not any(lost):
        return None
    other = sides[lost.index(False)]
    if not other:
        return "other colour not played"
    return "decided" if all(r == "W" for r in other) else "held by the other"


def main(args):
    if len(args) < 2:
        sys.exit(__doc__)
    openings = suite(args[0])
    counts = {}
    for n, sides in results(openings, args[1:]).items():
        k = kind(sides)
        if k is None:
            continue
        losses = sum(r == "L" for s in sides for r in s)
        print(f"line {n}: side 0 {''.join(sides[0]) or '-'}, side 1 {''.join(sides[1]) or '-'}: {k}")
        c = counts.setdefault(k, [0, 0])
        c[0] += 1
        c[1] += losses
    for k in ("decided", "held by the other", "lost both ways", "other colour not played"):
        c = counts.get(k, [0, 0])
        print(f"{k}: {c[0]} openings, {c[1]} losses")


if __name__ == "__main__":
    main(sys.argv[1:])
