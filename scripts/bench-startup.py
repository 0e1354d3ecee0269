#!/usr/bin/env python3
"""Cold start of the release app to the home screen drawn, under Xvfb.

Each run starts the release binary with a fresh data folder and PARTIE_STARTUP_PROBE=1: the
home screen, once drawn with its data, calls the `painted` command, which prints the time since
the process started and quits. This script measures from spawning the process to that line
(wall clock, so it includes the dynamic loader, WebKit's start and the first paint).

    python3 scripts/bench-startup.py [--runs 15] [--app PATH] [--db FILE]

With --db, each run starts on a copy of that history (e.g. the 100,000-match club the
`club` benchmark generates), copied before the clock starts.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main():
    target = Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache" / "partie-target"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--app", default=str(target / "release" / "partie-app"))
    ap.add_argument("--db", help="start each run on a copy of this database")
    args = ap.parse_args()

    xvfb = None
    if not os.environ.get("DISPLAY"):
        xvfb = subprocess.Popen(["Xvfb", ":77", "-screen", "0", "1280x800x24"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.environ["DISPLAY"] = ":77"
        time.sleep(1)
    wall, inner = [], []
    try:
        for i in range(args.runs + 1):
            with tempfile.TemporaryDirectory() as data:
                if args.db:
                    folder = Path(data) / "app.partie.scorepad"
                    folder.mkdir()
                    shutil.copyfile(args.db, folder / "partie.db")
                env = dict(os.environ, XDG_DATA_HOME=data, PARTIE_STARTUP_PROBE="1")
                t0 = time.perf_counter()
                p = subprocess.Popen([args.app], env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
                line = p.stdout.readline()
                t1 = time.perf_counter()
                p.wait(10)
                if not line.startswith("painted"):
                    sys.exit(f"run {i}: the app did not report its first paint ({line!r})")
                if i == 0:
                    continue  # the very first run warms the disk cache; it is not counted
                wall.append((t1 - t0) * 1000)
                inner.append(float(line.split()[1]))
    finally:
        if xvfb:
            xvfb.terminate()
    print(f"runs: {len(wall)}")
    print(f"spawn to home drawn (wall): median {statistics.median(wall):.0f} ms, "
          f"min {min(wall):.0f} ms, max {max(wall):.0f} ms")
    print(f"main() to home drawn (app):  median {statistics.median(inner):.0f} ms")


if __name__ == "__main__":
    main()
