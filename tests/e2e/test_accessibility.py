"""The accessibility check every screenshot goes through (`check_accessible` in conftest.py) is
itself checked here: on the real window, it finds the faults it exists for, names them, and
passes the screen again once they are gone."""
import pytest

from conftest import accessibility_faults, check_accessible, screen_faults
from test_history import quick_molkky
from test_molkky import add_players, clear_lineup


def test_the_check_finds_a_nameless_button_faint_text_and_a_field_without_a_label(partie):
    p = partie
    p.start()
    p.wait_css("#screen > *")
    assert accessibility_faults(p.d) == []

    # Made with the DOM, as the app's own screens are (its policy refuses inline styles).
    p.d.execute_script("""
        const screen = document.querySelector('#screen > *');
        const b = document.createElement('button');
        b.id = 'a11y-nameless';
        const faint = document.createElement('p');
        faint.id = 'a11y-faint';
        faint.textContent = 'Hard to read in the sun';
        faint.style.color = '#c8c8c8';
        faint.style.background = '#ffffff';
        const field = document.createElement('input');
        field.id = 'a11y-unlabelled';
        const tiny = document.createElement('button');
        tiny.id = 'a11y-tiny';
        tiny.textContent = 'x';
        tiny.setAttribute('aria-label', 'x');
        Object.assign(tiny.style, { minHeight: '0', width: '12px', height: '12px', padding: '0', fontSize: '8px' });
        const neighbour = tiny.cloneNode(true);
        neighbour.id = 'a11y-tiny-2';
        screen.prepend(b, faint, field, tiny, neighbour);
        window.scrollTo(0, 0);""")
    found = {rule: nodes for rule, _impact, _help, nodes in accessibility_faults(p.d)}
    assert any("#a11y-nameless" in n for n in found.get("button-name", [])), found
    assert any("#a11y-faint" in n for n in found.get("color-contrast", [])), found
    assert any("#a11y-unlabelled" in n for n in found.get("label", [])), found
    # A target too small in sight is the screen's fault, not the scroll's: it is kept.
    kept = {rule: nodes for rule, _impact, _help, nodes in screen_faults(accessibility_faults(p.d))}
    assert any("#a11y-tiny" in n for n in kept.get("target-size", [])), found
    with pytest.raises(AssertionError, match="button-name"):
        check_accessible(p.d, "a made-up fault")

    p.d.execute_script("for (const id of ['a11y-nameless', 'a11y-faint', 'a11y-unlabelled', 'a11y-tiny', 'a11y-tiny-2']) document.getElementById(id).remove()")
    assert accessibility_faults(p.d) == []
    check_accessible(p.d, "the home screen again")


def screens_checked(p, theme):
    """Home, a new game's setup and its match for each of the four games, the players and the
    settings, each checked in the theme now on."""
    p.go_hash("#/home")
    p.wait_css("#new-molkky")
    check_accessible(p.d, f"home, {theme}")
    for game, shown in (("molkky", "#pins"), ("crokinole", "[data-twenty]"),
                        ("morris", "#mor-board"), ("boulomania", "#bou-board")):
        p.go_hash("#/home")
        p.tap(f"#new-{game}")
        p.wait_css("#new-player")
        clear_lineup(p)
        add_players(p, "Anna", "Bea")
        check_accessible(p.d, f"{game} setup, {theme}")
        p.begin()
        p.wait_css(shown)
        check_accessible(p.d, f"{game} match, {theme}")
    p.go_hash("#/players")
    p.wait_css("#leaderboard li")
    check_accessible(p.d, f"players, {theme}")
    p.go_hash("#/settings")
    p.wait_css(f"#set-theme-{theme}")
    check_accessible(p.d, f"settings, {theme}")


def test_the_screens_pass_in_each_theme_and_language(partie):
    """Most screenshots are taken in the light theme and in English: here the dark and the
    outdoor (high-contrast) themes, and French, whose longer words wrap otherwise."""
    p = partie
    p.start()
    quick_molkky(p, ["Anna", "Bea"])
    for theme in ("dark", "outdoor", "light"):
        p.go_hash("#/settings")
        p.tap(f"#set-theme-{theme}")
        p.wait_until(f"return document.documentElement.dataset.theme === '{theme}'")
        screens_checked(p, theme)
    p.tap("#set-language-fr")
    p.wait_until("return document.documentElement.lang === 'fr'")
    screens_checked(p, "light, in French")
