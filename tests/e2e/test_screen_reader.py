"""What a screen reader receives: the window's accessibility tree over AT-SPI, the bus Orca
reads, not the page's DOM. axe (conftest's `check_accessible`) checks the DOM; how WebKitGTK
maps it for the platform is only seen here (an SVG shape with no role, for one, reaches Orca as
a nameless image that axe passes)."""
import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from conftest import Partie
from test_club_night import ipc

HERE = Path(__file__).parent
SYSTEM_PYTHON = "/usr/bin/python3"           # the one with Debian's python3-pyatspi
BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"

# The roles a screen reader says by their name: one without a name is heard as "button" or
# "image" and nothing else.
NAMED_ROLES = {"push button", "toggle button", "image", "entry", "check box", "radio button",
               "combo box", "link", "spin button", "slider", "menu item", "page tab"}


@pytest.fixture
def heard():
    """A Partie in a D-Bus session of its own with an accessibility bus, as a desktop with a
    screen reader on has; and `tree()`, its window's accessibility tree."""
    daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    address = daemon.stdout.readline().strip()
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address)
    launcher = subprocess.Popen([BUS_LAUNCHER, "--launch-immediately"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        asked = subprocess.run(["dbus-send", "--session", "--dest=org.a11y.Bus", "--print-reply",
                                "/org/a11y/bus", "org.a11y.Bus.GetAddress"], env=env, capture_output=True)
        if asked.returncode == 0:
            break
        time.sleep(0.1)
    else:
        raise RuntimeError("the accessibility bus did not start")
    p = Partie(env={"DBUS_SESSION_BUS_ADDRESS": address})

    def tree():
        out = subprocess.run([SYSTEM_PYTHON, str(HERE / "atspi_tree.py"), "partie-app"], env=env,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return [json.loads(line) for line in out.stdout.splitlines()]

    p.tree = tree
    yield p
    p.close()
    launcher.terminate()
    daemon.terminate()
    launcher.wait(5)
    daemon.wait(5)


def heard_when(p, ready, timeout=10):
    """The tree once `ready(tree)` holds (the page's changes reach the bus a moment later)."""
    end = time.time() + timeout
    while True:
        nodes = p.tree()
        if ready(nodes) or time.time() > end:
            return nodes
        time.sleep(0.3)


def nameless(nodes):
    """The controls and images a screen reader would say with no name, as role and where."""
    return [(n["role"], i) for i, n in enumerate(nodes) if n["role"] in NAMED_ROLES and not n["name"].strip()]


def named(nodes, role):
    """The names of the nodes of `role`, in the order a screen reader meets them."""
    return [n["name"] for n in nodes if n["role"] == role]


def test_the_tree_is_read_and_a_nameless_image_is_found(heard):
    """The check itself: the home screen's tree comes over AT-SPI with its named buttons, and a
    nameless SVG shape put on the screen in a group (as the boards are drawn) is found as a
    nameless image."""
    p = heard
    p.start()
    p.size(390, 844)
    nodes = heard_when(p, lambda t: "History" in named(t, "push button"))
    buttons = named(nodes, "push button")
    assert "History" in buttons and "Players" in buttons and "Club night" in buttons, buttons
    assert any(b.startswith("Mölkky") for b in buttons), buttons
    assert nameless(nodes) == [], nameless(nodes)
    p.d.execute_script("""
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        svg.setAttribute('viewBox', '0 0 10 10');
        svg.setAttribute('role', 'group');
        svg.setAttribute('aria-label', 'A dot');
        const dot = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
        dot.setAttribute('cx', 5); dot.setAttribute('cy', 5); dot.setAttribute('r', 4);
        svg.append(dot);
        svg.id = 'sr-dot';
        document.querySelector('#screen > *').prepend(svg);""")
    nodes = heard_when(p, lambda t: nameless(t))
    assert [role for role, _ in nameless(nodes)] == ["image"]


@pytest.mark.parametrize("game", ["molkky", "crokinole", "morris", "boulomania"])
def test_a_match_screen_says_a_name_for_every_control_and_no_drawing(heard, game):
    """Each game's match screen at phone size, as Orca gets it: every button, field and image
    has a name (a board's wood, lines, ground and arrows are drawing, not nameless images), and
    the controls that play are there by the names the game gives them."""
    p = heard
    p.start()
    p.size(390, 844)
    m = ipc(p, "newMatch", game, {}, [["Ann"], ["Bob"]])
    assert "id" in m, m
    p.go_hash(f"#/match/{m['id']}")
    p.wait_css("#undo")
    expect = {
        "molkky": lambda t: "Pin 12" in named(t, "toggle button"),
        "crokinole": lambda t: "+20 Ann, 0 this round" in named(t, "push button"),
        "morris": lambda t: "a1, empty, tap to place a piece" in named(t, "push button"),
        "boulomania": lambda t: "Roll for the jack" in named(t, "push button"),
    }[game]
    nodes = heard_when(p, expect)
    assert expect(nodes), [n for n in nodes if n["name"]]
    assert nameless(nodes) == [], [(r, nodes[i]) for r, i in nameless(nodes)]
    if game == "molkky":
        assert sorted(named(nodes, "toggle button"), key=lambda n: int(n.split()[1])) == [f"Pin {k}" for k in range(1, 13)]
    if game == "morris":
        points = [n for n in named(nodes, "push button") if n.endswith("tap to place a piece")]
        assert len(points) == 24, points
        # A piece placed is heard on its point.
        p.tap_at('#mor-board [data-point="a1"] .mor-hit')
        nodes = heard_when(p, lambda t: any(n.startswith("a1, light") for n in named(t, "push button")))
        assert any(n.startswith("a1, light") for n in named(nodes, "push button")), named(nodes, "push button")
        assert nameless(nodes) == []
    if game == "boulomania":
        squares = [n["name"] for n in nodes if n["name"].startswith("square ")]
        assert sorted(squares, key=lambda n: int(n.split()[1])) == [f"square {k}" for k in range(1, 19)], squares


def test_a_tournament_table_is_heard_in_the_order_it_is_drawn(heard):
    """A table's card on the round: "A vs B", as drawn, then its result "7 – 2" between the
    two names, not the two names and then "vs" or the score."""
    p = heard
    p.start()
    p.size(390, 844)
    t = ipc(p, "newTournament", {"game": "molkky", "system": "swiss", "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"]]})
    assert "id" in t, t
    ipc(p, "tournamentEvent", t["id"], {"pair": {}})
    p.go_hash(f"#/tournament/{t['id']}")
    p.wait_css('[data-table="0"] .table-result')
    drawn = p.d.execute_script("""return [...document.querySelectorAll('[data-table] .table-sides')].map((row) =>
        [...row.children].sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left).map((c) => c.textContent))""")
    assert all(row[1] == "vs" for row in drawn), drawn

    def cards(nodes):
        return [n["text"].split("\n") for n in nodes if n["role"] == "list item" and n["text"].startswith("Table ")]

    nodes = heard_when(p, lambda t: len(cards(t)) == 2)
    assert [lines[2:5] for lines in cards(nodes)] == [row for row in drawn], cards(nodes)
    ipc(p, "tournamentEvent", t["id"], {"result": {"round": 1, "table": 0, "winner": 0, "scores": [50, 20]}})
    p.go_hash("#/")
    p.wait_css("#new-molkky")
    p.go_hash(f"#/tournament/{t['id']}")
    p.wait_css('[data-table="0"].done')
    first = p.texts('[data-table="0"] .table-sides > *')
    nodes = heard_when(p, lambda t: any("50 – 20" in "\n".join(c) for c in cards(t)))
    assert cards(nodes)[0][2:5] == first, (cards(nodes), first)
    assert first[1] == "50 – 20", first
