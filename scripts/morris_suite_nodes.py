#!/usr/bin/env python3
"""Positions searched, time and the tokens chosen when `partie uci` (level 5) searches every
line of a suite of openings to a fixed depth, where the line ends and a few tokens before: for
telling whether a change to the search's order or pruning searches fewer positions. The node
counts are exact (a fresh table for each position); the time is this machine's, and noisy.

    python3 scripts/morris_suite_nodes.py PARTIE DEPTH [SUITE] [BACK...]

SUITE defaults to src-tauri/partie-core/examples/level_placings_lost.txt, BACK to 0 4 8 (the
tokens cut from the end of each line). Prints the positions, the positions searched, the time in
ms, and a digest of the tokens chosen (two builds that search alike choose alike).
"""
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from morris_time_to_depth import field, search  # noqa: E402

SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src-tauri",
                     "partie-core", "examples", "level_placings_lost.txt")


def lines(path):
    """The move lists of a suite file (comments and blank lines skipped)."""
    with open(path) as f:
        return [l.split() for l in f if l.strip() and not l.startswith("#")]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    exe, depth = sys.argv[1], int(sys.argv[2])
    suite = sys.argv[3] if len(sys.argv) > 3 else SUITE
    backs = [int(b) for b in sys.argv[4:]] or [0, 4, 8]
    engine = subprocess.Popen([exe, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    count = nodes = millis = 0
    chosen = []
    for back in backs:
        for tokens in lines(suite):
            moves = " ".join(tokens[:len(tokens) - back])
            token, info = search(engine, moves, depth)
            chosen.append(token)
            nodes += field(info, "nodes")
            millis += field(info, "time")
            count += 1
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait()
    digest = hashlib.sha256(" ".join(chosen).encode()).hexdigest()[:8]
    print(f"positions {count}, searched {nodes}, {millis} ms, tokens {digest}")


if __name__ == "__main__":
    main()
