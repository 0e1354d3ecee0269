#!/usr/bin/env python3
"""Where a lost Nine Men's Morris game was lost: at each of the loser's turns, what a longer
search of `partie uci` (level 5 by default) plays and scores, beside the token played. A score
that falls turn after turn while the longer search agrees with the tokens played says the
engine's judgement, not its time, lost the game; a played token the longer search does not
take, followed by a fall, is a mistake found in time.

    python3 scripts/morris_where_lost.py PARTIE LOSER MS 'MOVE LIST' [FROM]
    python3 scripts/morris_where_lost.py PARTIE --placings MS FILE...

PARTIE is a `partie` binary, LOSER 0 (White) or 1 (Black), MS the time of each search, MOVE
LIST a game in the spec's notation (as `examples/strength.rs` prints a lost game), FROM the
first token to look at (0 by default). One line a turn of the loser's: the token's index, the
token played, the longer search's token, its depth and score (for the loser).

With --placings, FILE is what `examples/strength.rs` printed (its first player the one looked
at); for each game that player lost from a placing that ended level in pieces, the longer
search at each of the loser's placements from its second on, and at its first turn once every
piece is placed. One line a game: that last score (for the loser) and at how many placements
the longer search chose another token; then how many of the games were a piece or more, and
three or more, down when the loser first moved.
"""
import re
import subprocess
import sys

RESULTS = ("1-0", "0-1", "1/2-1/2")


def tokens_of(moves):
    """The tokens of a move list, a removal as its own token (`a7xd5` is `a7` then `xd5`)."""
    out = []
    for word in moves.split():
        if re.fullmatch(r"\d+\.", word) or word in RESULTS:
            continue
        m = re.fullmatch(r"([a-g][1-7](?:-[a-g][1-7])?)(?:x([a-g][1-7]))?", word)
        if not m:
            sys.exit(f"not a move of the notation: {word}")
        out.append(m.group(1))
        if m.group(2):
            out.append("x" + m.group(2))
    return out


def sides_to_act(tokens):
    """Who plays each token: a removal is played by the side whose mill it follows."""
    side, acts = 0, []
    for i, _ in enumerate(tokens):
        acts.append(side)
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if not following.startswith("x"):
            side = 1 - side
    return acts


def ask(binary, ms, tokens, turns):
    """The longer search's (depth, score, token) before each of `turns` (indices in `tokens`)."""
    commands = ["uci"]
    for i in turns:
        commands.append(f"position startpos moves {' '.join(tokens[:i])}" if i else
                        "position startpos")
        commands.append(f"go movetime {ms}")
    # No `quit`: the end of the input lets the last search finish, where `quit` stops it.
    out = subprocess.run([binary, "uci"], input="\n".join(commands) + "\n",
                         capture_output=True, text=True, check=True).stdout
    answers, info = [], ""
    for line in out.splitlines():
        if line.startswith("info depth"):
            info = line
        elif line.startswith("bestmove"):
            depth = re.search(r"depth (\d+)", info)
            score = re.search(r"score (cp|mate) (-?\d+)", info)
            answers.append((depth.group(1) if depth else "-",
                            f"{score.group(1)} {score.group(2)}" if score else "-",
                            line.split()[1]))
            info = ""
    return answers


def lost_level_placings(files):
    """Each game the first player of FILES (what `examples/strength.rs` printed) lost from a
    placing that ended level in pieces: (file, game number, loser, tokens)."""
    for name in files:
        lines = open(name).read().splitlines()
        for n, line in enumerate(lines):
            m = re.match(r"game (\d+): lost .* as side (\d) .*placing ended (\d+)-(\d+),", line)
            if m and m.group(3) == m.group(4) and n + 1 < len(lines):
                yield name, m.group(1), int(m.group(2)), tokens_of(lines[n + 1].split(": ", 1)[1])


def placings(binary, ms, files):
    """The --placings mode: where the games lost from a level placing were lost."""
    looked, down = 0, [0, 0]
    for name, game, loser, tokens in lost_level_placings(files):
        acts = sides_to_act(tokens)
        placed, turns, first_move = 0, [], None
        for i, t in enumerate(tokens):
            if t.startswith("x"):
                continue
            if "-" in t:
                if acts[i] == loser:
                    first_move = i
                    break
                continue
            # The first two placements are the match's random opening.
            if acts[i] == loser and placed >= 2:
                turns.append(i)
            placed += 1
        if first_move is None:
            continue
        answers = ask(binary, ms, tokens, turns + [first_move])
        other = sum(1 for i, a in zip(turns, answers) if a[2] != tokens[i])
        kind, value = answers[-1][1].split() if answers[-1][1] != "-" else ("cp", "0")
        score = int(value) if kind == "cp" else (-10**5 if int(value) < 0 else 10**5)
        looked += 1
        down[0] += score <= -100
        down[1] += score <= -300
        print(f"{name} game {game} (side {loser}): first move {answers[-1][1]} at depth "
              f"{answers[-1][0]}; another token at {other} of {len(turns)} placements",
              flush=True)
    print(f"{looked} games lost from a level placing: a piece or more down when the loser first "
          f"moved in {down[0]}, three or more in {down[1]}")


def main():
    if len(sys.argv) > 3 and sys.argv[2] == "--placings":
        return placings(sys.argv[1], int(sys.argv[3]), sys.argv[4:])
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    binary, loser, ms, moves = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    start = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    tokens = tokens_of(moves)
    acts = sides_to_act(tokens)
    turns = [i for i, t in enumerate(tokens)
             if acts[i] == loser and not t.startswith("x") and i >= start]
    answers = ask(binary, ms, tokens, turns)
    for i, (depth, score, best) in zip(turns, answers):
        print(f"token {i:3d} played {tokens[i]:6s} longer search {best:6s} "
              f"depth {depth:>2s} score {score}")


if __name__ == "__main__":
    main()
