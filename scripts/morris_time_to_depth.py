#!/usr/bin/env python3
"""Time and nodes each Morris engine (`partie uci` of a build) needs to search six positions,
from the start to the middle game, to a fixed depth; for comparing two builds of the search.

    python3 scripts/morris_time_to_depth.py OLD/partie NEW/partie
"""
import subprocess
import sys

POSITIONS = [
    ("", 9),
    ("d6 f4 d2 b4 f2 d7", 10),
    ("d6 f4 d2 b4 f2 d7 b6 g7 a4 c3", 10),
    ("d6 f4 d2 b4 f2 d7 b6 g7 a4 c3 e3 e5 c4 d3 g4 a1", 12),
    ("d6 f4 d2 b4 f2 d7 b6 g7 a4 c3 e3 e5 c4 d3 g4 a1 a7 c5", 12),
    ("e4 d2 d6 b4 f4 b2 g4 xb2 a4 c4 b2 b6 f2 xc4 c4 f6 d1 g7 a1 g1", 12),
]


def search(engine, moves, depth):
    """Searches the position after `moves` to `depth` with a fresh table (so that one position
    does not help the next); the token chosen and the last `info depth` line's fields."""
    engine.stdin.write(f"ucinewgame\nposition startpos moves {moves}\ngo depth {depth}\n")
    info = None
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit(f"{engine.args[0]} stopped answering")
        if line.startswith("info depth"):
            info = line.split()
        if line.startswith("bestmove"):
            if info is None:
                sys.exit(f"{engine.args[0]} gave no depth for: {moves}")
            return line.split()[1], info


def field(info, name):
    """A number of an `info` line."""
    return int(info[info.index(name) + 1])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for exe in sys.argv[1:]:
        engine = subprocess.Popen([exe, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        nodes = millis = 0
        for moves, depth in POSITIONS:
            token, info = search(engine, moves, depth)
            n, t = field(info, "nodes"), field(info, "time")
            nodes, millis = nodes + n, millis + t
            print(f"{exe}: depth {depth} {token:8} score {info[info.index('cp') + 1]:>5} "
                  f"nodes {n:>9} {t:>5} ms", flush=True)
        print(f"{exe}: total {nodes} nodes in {millis} ms")
        engine.stdin.write("quit\n")
        engine.wait()


if __name__ == "__main__":
    main()
