"""Prints, as JSON lines, the accessibility tree of the Partie window as a screen reader
(Orca) receives it over AT-SPI: one line a node, {depth, role, name, text, states}.

Run with the system Python (`/usr/bin/python3`, which has Debian's python3-pyatspi) on the
accessibility bus of the app's D-Bus session (DBUS_SESSION_BUS_ADDRESS).
"""
import json
import sys

import pyatspi

# The states a screen reader says of a control.
SAID = {"focused", "checked", "pressed", "disabled", "invalid", "expanded", "selected", "focusable"}


def walk(node, depth, out):
    if node is None or depth > 80:
        return
    role = node.getRoleName()
    states = sorted(s for s in map(pyatspi.stateToString, node.getState().getStates()) if s in SAID)
    text = ""
    try:
        t = node.queryText()
        text = t.getText(0, min(t.characterCount, 200))
    except NotImplementedError:
        pass
    out.append({"depth": depth, "role": role, "name": node.name or "", "text": text, "states": states})
    for i in range(node.childCount):
        walk(node.getChildAtIndex(i), depth + 1, out)


def main():
    desktop = pyatspi.Registry.getDesktop(0)
    out = []
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and app.name == sys.argv[1]:
            walk(app, 0, out)
    for node in out:
        print(json.dumps(node, ensure_ascii=False))


main()
