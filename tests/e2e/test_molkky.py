"""A player's journeys through Partie's Mölkky, tapping as on a phone."""
import os
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_kill_loop import ipc


def add_players(p, *names, field="#new-player", button="#add-player", listing="#sides"):
    for n in names:
        # The field is kept through redraws (the known players' answer, the last add): every
        # key typed lands, and it holds the whole name.
        p.type(field, n)
        assert p.d.execute_script(f"return document.querySelector({field!r}).value") == n
        p.tap(button)
        p.wait_until(f"return (document.querySelector({listing!r})?.innerText || '').includes({n!r})")
        # The redraw after an add empties the field: type the next name only then.
        p.wait_until(f"return document.querySelector({field!r}).value === ''")


def clear_lineup(p):
    """Takes every player out of the new-game screen's line-up (the last match's, remembered)."""
    while p.count("#sides .chip-x"):
        n = p.count("#sides .chip-x")
        p.tap("#sides .chip-x")
        p.wait_until(f"return document.querySelectorAll('#sides .chip-x').length < {n}")


def save_default_rule(p, game, rule, value):
    """From the screen at hand, Settings: a default rule of `game` saved, then Back."""
    p.tap("#nav-settings")
    set_number(p, f"#rule-{game}-{rule}", value)
    p.tap(f"#save-rules-{game}")
    p.wait_text(f"#save-rules-{game}", "Saved")
    p.tap("#nav-back")


def set_number(p, css, value):
    # A rules field is drawn once the game's rules are in (game_info), after the name field:
    # waited for like a tap waits for its button.
    p.wait_css(css)
    el = p.css(css)
    p.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
    el.clear()
    el.send_keys(str(value))
    el.send_keys(Keys.TAB)


def test_full_game_with_bust_elimination_and_undo(partie):
    p = partie
    p.start()
    p.wait_css("#new-molkky")
    p.shot("01-home-empty")
    p.tap("#new-molkky")
    p.wait_css("#new-player")
    add_players(p, "Anna", "Bea", "Cyril")
    assert p.texts("#sides .chip-name") == ["Anna", "Bea", "Cyril"]
    p.shot("02-setup")
    p.begin()
    p.wait_css("#pins")
    assert p.text("#turn-banner") == "Anna to throw"
    assert p.count("#pins .pin") == 12
    rows = [row.split() for row in p.texts("#pins .pin-row")]
    assert rows == [["7", "9", "8"], ["5", "11", "12", "6"], ["3", "10", "4"], ["1", "2"]]

    for _ in range(2):
        p.throw(12)
        p.throw()          # Bea misses
        p.throw(10)
    assert p.scores() == [24, 0, 20]
    assert "warn" in p.attr('#scoreboard [data-side="1"]', "class")   # two misses: Bea's row warns
    assert p.text(".warning") is None
    p.tap('[data-pin="7"]')
    p.tap('[data-pin="3"]')
    p.wait_text("#preview", "2 pins: 2 points")
    p.tap('[data-pin="7"]')
    p.tap('[data-pin="3"]')
    p.throw(12)            # Anna 36
    assert p.text(".warning") == "Careful: one more miss and Bea is out"
    p.shot("03-scorepad-warning")
    p.throw()              # Bea's third miss: out
    assert "out" in p.text('#scoreboard [data-side="1"]')
    assert "out" in p.attr('#scoreboard [data-side="1"]', "class")
    p.throw(10)            # Cyril 30
    p.throw(12)            # Anna 48 (Bea is skipped)
    assert p.text("#turn-banner") == "Cyril to throw"
    p.throw(12)            # Cyril 42
    p.tap('[data-pin="5"]')
    p.wait_text("#preview", "back to 25")
    p.tap("#confirm")      # Anna 53: over 50, back to 25
    p.wait_text('#scoreboard [data-score="0"]', "25")
    assert "over! back to 25" in p.text("#log")
    # Said aloud as the log shows it: the points alone ("5 points, total 25") hid the bust.
    p.wait_until("return document.querySelector('#announce').textContent.startsWith('Anna: 5 points, total 25. over! back to 25')")
    p.throw(7)             # Cyril 49 ...
    assert p.scores() == [25, 0, 49]
    # ... taken back by a double tap on Undo: one throw, not two.
    before = p.actions()
    p.double_tap("#undo")
    p.wait_actions(before - 1)
    time.sleep(0.8)
    assert p.actions() == before - 1
    assert p.scores()[2] == 42
    assert p.text("#turn-banner") == "Cyril to throw"
    p.shot("04-scorepad-after-undo")
    p.tap('[data-pin="8"]')
    p.wait_text("#preview", "wins")
    p.tap("#confirm")
    p.wait_css("#end-screen")
    assert p.text("#end-title") == "Cyril wins!"
    ranking = p.texts("#ranking .rank-name")
    assert ranking == ["Cyril", "Anna", "Bea"]
    p.shot("05-end-screen")

    # Undo works across the end of the game, then the rematch has the same players. A double
    # tap on it takes back the winning throw only: its second tap lands where the pad's bar
    # comes back, and scores no foul.
    before = p.actions()
    p.double_tap_in_place("#undo-end")
    p.wait_css("#pins")
    time.sleep(0.8)
    assert p.actions() == before - 1
    assert p.scores() == [25, 0, 42]
    p.throw(8)
    p.wait_css("#end-screen")
    p.tap("#rematch")
    p.wait_css("#pins")
    assert p.scores() == [0, 0, 0]
    assert p.texts("#scoreboard .side-names") == ["Anna", "Bea", "Cyril"]

    p.tap("#nav-back")
    p.wait_css("#recent")
    assert "Cyril" in p.text("#recent")
    assert "Anna" in p.text("#unfinished")
    p.shot("06-home-with-history")


def test_best_of_three_with_molkkout(partie):
    p = partie
    p.start()
    p.tap("#new-molkky")
    add_players(p, "Anna", "Bea")
    p.tap("#rule-best_of-3")
    p.wait_pressed("#rule-best_of-3")
    set_number(p, "#rule-target", 10)
    p.begin()
    p.wait_css("#pins")
    assert p.text("#status-line") == "Game 1 · best of 3"
    p.throw(10)                            # Anna wins game 1
    assert p.text("#status-line") == "Game 2 · best of 3"
    assert p.text("#turn-banner") == "Bea to throw"   # the other side starts game 2
    assert p.count('#scoreboard [data-side="0"] .leg-dot.won') == 1
    p.throw(10)                            # Bea wins game 2: 10 points each, a mölkkout
    p.wait_css(".phase-molkkout")
    assert "Mölkkout" in p.text("#status-line")
    assert p.texts("#pins .pin") == ["6", "4", "12", "10", "8"]
    assert p.text("#turn-banner") == "Anna to throw"
    p.throw(12)
    p.shot("07-molkkout-in-match")
    for pin in (6, 6, 4, 4, 4):            # A BB AA B: Anna 20, Bea 16
        p.throw(pin)
    p.wait_text("#status-line", "Game 3")
    assert p.text("#turn-banner") == "Anna to throw"   # the mölkkout's winner starts
    p.throw(3)
    p.throw()
    p.throw(7)
    p.wait_css("#end-screen")
    assert p.text("#end-title") == "Anna wins the match!"
    assert p.texts("#ranking .rank-name") == ["Anna", "Bea"]
    assert p.texts("#ranking .rank-score") == ["2 · 10", "1 · 0"]
    p.shot("08-match-end")


def test_killed_mid_game_resumes_exactly(partie):
    p = partie
    p.start()
    p.tap("#new-molkky")
    p.wait_css("#new-player")
    p.tap("#team-mode")
    p.wait_css("#new-side")
    add_players(p, "Anna", "Ari")          # a team: both join the side being formed
    p.tap("#new-side")
    p.wait_until("return document.querySelector('#sides .side-card.active') === null")
    add_players(p, "Bea")
    assert p.texts('#sides [data-side="0"] .chip-name') == ["Anna", "Ari"]
    assert p.texts('#sides [data-side="1"] .chip-name') == ["Bea"]
    p.shot("02b-setup-teams")
    p.begin()
    p.wait_css("#pins")
    assert p.text("#turn-banner") == "Anna to throw"
    p.throw(9)
    p.throw(2, 5, 7)
    assert p.text("#turn-banner") == "Ari to throw"
    p.throw(foul=True)
    p.tap('[data-pin="11"]')               # a pin tapped but not confirmed is not a throw
    p.kill_app()

    p.start()
    p.wait_css("#unfinished")
    p.shot("09-home-resume")
    p.tap("#unfinished .match-open")
    p.wait_css("#pins")
    assert p.scores() == [9, 3]
    assert p.text("#turn-banner") == "Bea to throw"
    assert p.count("#pins .pin.down") == 0
    assert "foul" in p.text("#log")
    p.throw(4)
    assert p.scores() == [9, 7]
    assert p.text("#turn-banner") == "Anna to throw"   # the team's rotation went on

    # Discarding an unfinished match takes two taps, and a double tap is one (its second tap
    # discarded the match at once).
    p.tap("#nav-back")
    p.wait_css("#unfinished")
    p.double_tap("#unfinished [data-discard]")
    p.wait_until("return document.querySelector('#unfinished [data-discard]').textContent === 'Tap again to discard'")
    time.sleep(0.6)
    assert p.count("#unfinished .match-row") == 1
    assert p.text("#unfinished [data-discard]") == "Tap again to discard"
    p.tap("#unfinished [data-discard]")
    p.wait_until("return !document.querySelector('#unfinished')")


def test_an_armed_discard_stays_with_its_match_when_the_list_changes(partie):
    """Discard is armed on one unfinished match; the other is played on (another window, a
    phone's push) and the list reloads in another order: the armed button is still that match's,
    and 4 s later each row's button is disarmed and named for its own match (the timer used to
    change the button it was first drawn on, by then another match's)."""
    p = partie
    p.start()
    ids = p.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('./js/ipc.js').then(async ({ ipc }) => {
          const a = await ipc.newMatch('molkky', {}, [['Anna'], ['Bea']]);
          await new Promise((r) => setTimeout(r, 20));
          const b = await ipc.newMatch('molkky', {}, [['Cyril'], ['Dora']]);
          return [a.id, b.id];
        }).then(done, (e) => done(String(e)));""")
    a, b = ids
    p.go_hash("#/history")
    p.go_hash("#/home")
    p.wait_until("return document.querySelectorAll('#unfinished .match-row').length === 2")
    order = p.d.execute_script("return [...document.querySelectorAll('#unfinished [data-discard]')].map(x => Number(x.dataset.discard))")
    first = order[0]
    other = order[1]
    p.tap(f'#unfinished [data-discard="{first}"]')
    p.wait_until(f"return document.querySelector('#unfinished [data-discard=\"{first}\"]').classList.contains('armed')")
    # The other match is played on: it comes first once the list is read again.
    p.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('./js/ipc.js').then(({ ipc }) => ipc.play(arguments[0], {pins: [5]})).then(() => done(), (e) => done(String(e)));""", other)
    p.d.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    p.wait_until(f"return Number(document.querySelector('#unfinished [data-discard]').dataset.discard) === {other}")
    label = lambda m: p.attr(f'#unfinished [data-discard="{m}"]', "aria-label")
    names = {a: "Anna, Bea", b: "Cyril, Dora"}
    assert label(first) == f"Tap again to discard {names[first]}"
    assert label(other) == f"Discard {names[other]}"
    time.sleep(4.3)
    assert label(first) == f"Discard {names[first]}"
    assert label(other) == f"Discard {names[other]}"
    assert p.count("#unfinished .armed") == 0
    assert p.count("#unfinished .match-row") == 2


def test_damaged_history_is_set_aside_and_the_app_opens(partie):
    p = partie
    folder = os.path.join(p.data_home, "app.partie.scorepad")
    os.makedirs(folder)
    with open(os.path.join(folder, "partie.db"), "wb") as f:
        f.write(b"a shopping list, not a database: milk, eggs, pins" * 100)
    p.start()
    p.wait_css("#banner:not([hidden])")
    assert "was damaged" in p.text("#banner")
    kept = [n for n in os.listdir(folder) if n.startswith("partie.db.damaged-")]
    assert kept, os.listdir(folder)
    p.shot("13-damaged-history")
    p.tap("#new-molkkout")                 # and the app works on its fresh history
    add_players(p, "Anna", "Bea")
    p.begin()
    p.wait_css(".phase-molkkout")
    p.throw(12)
    assert p.scores() == [12, 0]


def test_a_team_molkkout_on_its_own(partie):
    """A mölkkout between a team of two and a player: the team's players share its four throws
    (two each, in turn), the player throws three; the order is A BB AA B, then the team throws
    the rest of its quota in a row."""
    p = partie
    p.start()
    p.tap("#new-molkkout")
    p.wait_css("#new-player")
    p.tap("#team-mode")
    p.wait_css("#new-side")
    add_players(p, "Anna", "Ari")
    p.tap("#new-side")
    p.wait_until("return document.querySelector('#sides .side-card.active') === null")
    add_players(p, "Bea")
    p.begin()
    p.wait_css(".phase-molkkout")
    throwers = []
    for i, pin in enumerate((12, 4, 4, 12, 12, 4, 10)):
        throwers.append(p.text("#turn-banner"))
        if i == 3:
            p.shot("11b-molkkout-team")
        p.throw(pin)
    p.wait_css("#end-screen")
    assert throwers == [f"{n} to throw" for n in ("Anna", "Bea", "Bea", "Ari", "Anna", "Bea", "Ari")]
    assert "Anna" in p.text("#end-title")


def test_standalone_molkkout_in_french_outdoor_theme(partie):
    p = partie
    p.start()
    p.tap("#nav-settings")
    p.tap("#set-language-fr")
    p.wait_text("#title", "Réglages")
    # The data panel, kept across redraws, speaks the new language too.
    p.wait_text("#data-panel h2", "Vos données")
    p.tap("#set-theme-outdoor")
    # The theme changes once the setting is saved (an answer from Rust, not at the tap).
    p.wait_until("return document.documentElement.dataset.theme === 'outdoor'")
    p.shot("10-settings-fr-outdoor")
    p.tap("#nav-back")
    p.tap("#new-molkkout")
    add_players(p, "Léa", "Noé")
    p.begin()
    p.wait_css(".phase-molkkout")
    assert p.text("#turn-banner") == "À Léa de lancer"
    assert "encore 3 lancers" in p.text("#scoreboard")
    p.throw(4, 6, 8)
    p.shot("11-molkkout-fr")
    for pin in (12, 12, 4, 4, 4):
        p.throw(pin)
    p.wait_css("#end-screen")
    assert p.text("#end-title") == "Noé gagne !"

    # The language and theme were kept: a restart comes back in French, outdoor.
    p.d.quit()
    p.d = None
    p.start()
    p.wait_text("#title", "Partie")
    assert p.text("#new-molkky .game-hint") == "Quilles 1 à 12, 50 pile"
    assert p.d.execute_script("return document.documentElement.dataset.theme") == "outdoor"


def test_refusals_are_shown_in_the_users_language(partie):
    p = partie
    p.start()
    p.tap("#new-molkky")
    add_players(p, "Anna", "Bea", "Cyril")
    p.tap("#rule-best_of-3")
    p.wait_pressed("#rule-best_of-3")
    p.tap("#start")                         # a best-of match needs exactly two sides
    p.wait_css("#toast:not([hidden])")
    assert p.text("#toast") == "A best-of match is between exactly 2 sides."
    # The error stands below the Start bar, not over it: the bar rises above the note.
    p.wait_until("""
        return document.querySelector('#start').getBoundingClientRect().bottom
            <= document.querySelector('#notices').getBoundingClientRect().top""")
    p.shot("12-setup-refused")
    assert p.count("#pins") == 0
    # Said to a screen reader through the alert region that is always there; the same error
    # again is said again (the region is emptied, then written).
    p.wait_until("return document.querySelector('#alert').textContent === 'A best-of match is between exactly 2 sides.'")
    p.d.execute_script("window.__said = []; new MutationObserver(() => window.__said.push(document.querySelector('#alert').textContent))"
                       ".observe(document.querySelector('#alert'), {childList: true, characterData: true, subtree: true})")
    p.tap("#start")
    p.wait_until("return window.__said.includes('A best-of match is between exactly 2 sides.')")
    assert p.d.execute_script("return window.__said[0]") == "", "emptied first: a reader hears a change"

    # Its close button, from the keyboard, puts it away.
    assert p.attr("#toast-close", "aria-label") == "Close"
    p.css("#toast-close").send_keys(Keys.ENTER)
    p.wait_until("return document.querySelector('#toast').hidden")
    # A target the rules cannot take is said at its field, in words, and Start sends nothing.
    p.tap("#rule-best_of-1")
    p.wait_pressed("#rule-best_of-1")
    set_number(p, "#rule-target", 5)
    p.wait_css("#rule-target-error")
    assert p.text("#rule-target-error") == "Target: a whole number from 10 to 200."
    assert p.attr("#rule-target", "aria-invalid") == "true"
    # Read out as it comes, and tied to the field, under it, not in its label (where it was read
    # as part of the field's name).
    assert p.attr("#rule-target", "aria-describedby") == "rule-target-error"
    assert p.attr("#rule-target-error", "role") == "alert"
    assert p.d.execute_script("return document.querySelector('label[for=rule-target]').contains(document.querySelector('#rule-target-error'))") is False
    # What was typed stays beside its error (not the last target taken, or none).
    assert p.d.execute_script("return document.querySelector('#rule-target').value") == "5"
    p.shot("12b-setup-rule-field-error", at="#rule-target")
    p.tap("#start")
    p.wait_until("return document.querySelector('#toast').textContent === 'Target: a whole number from 10 to 200.'")
    assert p.count("#pins") == 0
    assert p.d.execute_script("return document.querySelector('#toast').hidden") is False
    set_number(p, "#rule-target", 12)
    p.wait_until("return !document.querySelector('#rule-target-error')")
    # The toast of Start goes with the error it said (not six seconds later, on its clock).
    p.wait_until("return document.querySelector('#toast').hidden", 2)
    # A fall-back that hangs on the target is said at its field once Rust has looked at both,
    # in words, and Start sends nothing.
    set_number(p, "#rule-bust_to", 20)
    p.wait_css("#rule-bust_to-error")
    assert p.text("#rule-bust_to-error") == "Over the target, back to a score below the target."
    assert p.attr("#rule-bust_to", "aria-invalid") == "true"
    p.shot("12c-setup-rule-that-hangs-on-another", at="#rule-bust_to")
    p.slow_command("new_match", 0)
    p.tap("#start")
    p.wait_until("return document.querySelector('#toast').textContent === 'Over the target, back to a score below the target.'")
    assert p.asked("new_match") == 0, "said at the field: Start sends nothing"
    assert p.count("#pins") == 0
    # A higher target makes it right: the error leaves the field that was not touched.
    assert p.d.execute_script("return document.querySelector('#toast').hidden") is False
    set_number(p, "#rule-target", 30)
    p.wait_until("return !document.querySelector('#rule-bust_to-error')")
    p.wait_until("return document.querySelector('#toast').hidden", 2)
    assert p.attr("#rule-bust_to", "aria-invalid") is None
    p.tap("#nav-back")
    p.wait_css("#new-molkky")
    # The lists are drawn once the history answers: "Nothing yet" says it has.
    p.wait_text(".home p.empty", "Nothing yet")
    assert p.count("#unfinished") == 0, "nothing was written"


def scorepad(p, *names):
    """A new Mölkky match between `names`, on its scorepad."""
    p.start()
    p.tap("#new-molkky")
    p.wait_css("#new-player")
    add_players(p, *names)
    p.begin()
    p.wait_css("#pins")
    return p


def test_a_pin_pressed_while_the_scorepad_redraws_still_lands(partie):
    """A finger goes down on a pin, the scorepad redraws (the app coming back to the front
    reloads what Rust has), the finger lifts: the pin is down, once, with no retry."""
    p = scorepad(partie, "Anna", "Bea")
    p.tap_across_redraw('[data-pin="5"]')
    p.wait_until("return document.querySelector('[data-pin=\"5\"]').getAttribute('aria-pressed') === 'true'", 5)
    p.wait_text("#preview", "pin 5: 5 points")


def test_enter_on_a_focused_pin_presses_that_pin(partie):
    """With the keyboard, Enter on a focused button does what that button does: on pin 5, with
    pin 3 already down, it puts 5 down too (it used to confirm a throw of pin 3 alone). Enter
    away from the buttons confirms the pins down."""
    p = scorepad(partie, "Anna", "Bea")
    p.tap('[data-pin="3"]')
    p.wait_until("return document.querySelector('[data-pin=\"3\"]').getAttribute('aria-pressed') === 'true'")
    p.css('[data-pin="5"]').send_keys(Keys.ENTER)
    p.wait_until("return document.querySelector('[data-pin=\"5\"]').getAttribute('aria-pressed') === 'true'")
    p.wait_text("#preview", "2 pins: 2 points")
    assert p.actions() == 0
    p.d.execute_script("document.activeElement.blur()")
    ActionChains(p.d).send_keys(Keys.ENTER).perform()      # to the page, no button focused
    p.wait_actions(1)
    assert p.scores() == [2, 0]
    # Said aloud: the throw, then who throws next.
    p.wait_until("return document.querySelector('#announce').textContent.endsWith('Bea to throw')")
    p.tap("#undo")
    p.wait_actions(0)
    p.wait_until("return document.querySelector('#announce').textContent === 'Taken back. Anna to throw'")


def key(p, **event):
    """A key pressed on the page, as the keyboard sends it (its character and its place)."""
    p.d.execute_script(
        "document.body.dispatchEvent(new KeyboardEvent('keydown', Object.assign({bubbles: true}, arguments[0])))",
        event)


def pins_down(p):
    return p.d.execute_script(
        "return [...document.querySelectorAll('[data-pin][aria-pressed=true]')].map(b => +b.dataset.pin)")


def test_pins_follow_the_keys_place_and_shortcuts_score_nothing(partie):
    """On a French keyboard the key marked 6 types "-" unshifted: it is pin 6, not pin 11. A
    browser or system shortcut (Ctrl+F to find, Cmd+M to minimise, Alt+U) scores nothing: a
    throw is committed at once. Ctrl+Z still undoes."""
    p = scorepad(partie, "Anna", "Bea")
    key(p, key="-", code="Digit6")              # AZERTY's 6
    key(p, key="\u00e0", code="Digit0")         # AZERTY's 0 (à): pin 10
    p.wait_until("return document.querySelectorAll('[data-pin][aria-pressed=true]').length === 2")
    assert sorted(pins_down(p)) == [6, 10]
    key(p, key="6", code="Digit6")              # pressed again: up
    key(p, key="-", code="Minus")               # QWERTY's minus: pin 11
    p.wait_until("return document.querySelector('[data-pin=\"11\"]').getAttribute('aria-pressed') === 'true'")
    assert sorted(pins_down(p)) == [10, 11]
    key(p, key="7")                             # a keyboard that gives no place: by character
    p.wait_until("return document.querySelector('[data-pin=\"7\"]').getAttribute('aria-pressed') === 'true'")
    # The number pad: its minus is 11; with Num Lock off its 8 is an arrow, no pin.
    key(p, key="-", code="NumpadSubtract")      # 11 up
    key(p, key="ArrowUp", code="Numpad8")
    key(p, key="-", code="NumpadSubtract")      # and down again
    p.wait_until("return document.querySelector('[data-pin=\"11\"]').getAttribute('aria-pressed') === 'true'")
    assert sorted(pins_down(p)) == [7, 10, 11]
    key(p, key="Enter", code="Enter")
    p.wait_actions(1)
    assert p.scores() == [3, 0]
    for shortcut in [dict(key="f", code="KeyF", ctrlKey=True), dict(key="m", code="KeyM", metaKey=True),
                     dict(key="u", code="KeyU", altKey=True), dict(key="1", code="Digit1", ctrlKey=True),
                     dict(key="Z", code="KeyZ", ctrlKey=True, shiftKey=True)]:        # a redo elsewhere
        key(p, **shortcut)
    key(p, key="m", code="KeyM")                # M alone is a miss: Bea's throw
    p.wait_actions(2)
    assert pins_down(p) == [], "no shortcut put a pin down"
    assert p.actions() == 2, "no shortcut scored a throw"
    key(p, key="z", code="KeyZ", ctrlKey=True)
    p.wait_actions(1)
    assert p.scores() == [3, 0]


def test_the_winning_throw_from_the_keyboard_puts_the_focus_on_the_winner(partie):
    """Throw, pressed with the keyboard, keeps the focus on the scorepad (on the pins, once
    Confirm goes grey); on the throw that wins it takes the scorepad away, and the focus goes to
    the title that says who won (a screen reader reads it), not to the page. Undo there hands it
    to the game's own Undo."""
    p = partie
    p.start()
    p.tap("#new-molkky")
    add_players(p, "Anna", "Bea")
    set_number(p, "#rule-target", 10)
    p.begin()
    p.wait_css("#pins")
    # A throw that does not win: Confirm goes grey with no pin down, and the focus goes on to
    # the pins for the next throw instead of being lost to the page.
    p.css('[data-pin="3"]').send_keys(Keys.ENTER)
    p.wait_until("return !document.querySelector('#confirm').disabled")
    p.css("#confirm").send_keys(Keys.ENTER)
    p.wait_actions(1)
    p.wait_until("return document.activeElement?.matches('[data-pin]')")
    p.d.switch_to.active_element.send_keys(Keys.ENTER)       # Bea: the pin that has the focus
    p.wait_until("return !document.querySelector('#confirm').disabled")
    p.css("#confirm").send_keys(Keys.ENTER)
    p.wait_actions(2)
    assert p.scores()[0] == 3 and 0 < p.scores()[1] < 10
    p.css('[data-pin="7"]').send_keys(Keys.ENTER)           # Anna: 3 + 7 = 10
    p.wait_until("return !document.querySelector('#confirm').disabled")
    p.css("#confirm").send_keys(Keys.ENTER)
    p.wait_css("#end-screen")
    p.wait_until("return document.activeElement?.id === 'end-title'")
    assert p.d.execute_script("return document.activeElement.textContent") == p.text("#end-title")
    assert "Anna" in p.text("#end-title")
    p.css("#undo-end").send_keys(Keys.ENTER)
    p.wait_css("#pins")
    p.wait_until("return document.activeElement?.id === 'undo'")


def test_the_focus_moves_with_the_player_moved(partie):
    """Move down, pressed from the keyboard, takes the player one place down and the focus with
    them (it used to stay on the slot, now someone else's); at the end of the order the focus
    is on the arrow still usable. Where they are now is said aloud. A removal and a known
    player's chip keep the focus in the list too."""
    p = partie
    p.start()
    p.tap("#new-molkky")
    add_players(p, "Anna", "Bea", "Cyril")
    label = "return document.activeElement.getAttribute('aria-label')"
    p.css('[data-key="down-0"]').send_keys(Keys.ENTER)
    p.wait_until("return document.activeElement?.dataset.key === 'down-1'")
    assert p.d.execute_script(label) == "Move down Anna"
    assert p.texts("#sides .chip-name") == ["Bea", "Anna", "Cyril"]
    p.wait_until("return document.querySelector('#announce').textContent === 'Anna: 2 of 3'")
    p.d.switch_to.active_element.send_keys(Keys.ENTER)
    p.wait_until("return document.activeElement?.dataset.key === 'up-2'")
    assert p.d.execute_script(label) == "Move up Anna"
    p.wait_until("return document.querySelector('#announce').textContent === 'Anna: 3 of 3'")
    p.d.switch_to.active_element.send_keys(Keys.ENTER)
    p.wait_until("return document.activeElement?.dataset.key === 'up-1'")
    assert p.d.execute_script(label) == "Move up Anna"
    # Removed with her ×: the focus goes to the next player's ×, and the removal is said.
    p.css('[aria-label="Remove Anna"]').send_keys(Keys.ENTER)
    p.wait_until("return document.querySelector('#announce').textContent === 'Removed: Anna'")
    p.wait_until("return document.activeElement?.getAttribute('aria-label') === 'Remove Cyril'")
    # Her chip among the known players takes her back; the chip goes, the focus to the field.
    p.css('#known-players [data-player="Anna"]').send_keys(Keys.ENTER)
    p.wait_until("return document.querySelector('#announce').textContent === 'Added: Anna'")
    p.wait_until("return document.activeElement?.id === 'new-player'")
    assert p.texts("#sides .chip-name") == ["Bea", "Cyril", "Anna"]


def test_a_typed_name_narrows_the_known_players_and_finds_them_whatever_the_case(partie):
    """Known players narrow as a name is typed, without case or accents ("zo" finds Zoé); one
    picked clears the text typed. A name typed in another case, accented capitals included, is
    the known player, in the player's own spelling, not a second one."""
    p = partie
    p.start()
    p.tap("#new-molkky")
    add_players(p, "Zoé", "Élodie", "Anna")
    for k, n in enumerate(("Zoé", "Élodie", "Anna")):
        p.tap(f'[aria-label="Remove {n}"]')
        p.wait_until(f"return document.querySelectorAll('#sides .chip-name').length === {2 - k}")
    p.wait_until("return document.querySelectorAll('#known-players .chip').length === 3")
    chips = "return [...document.querySelectorAll('#known-players .chip')].map((c) => c.textContent)"
    p.type("#new-player", "zo")
    p.wait_until("return [...document.querySelectorAll('#known-players .chip')].map((c) => c.textContent).join() === 'Zoé'")
    p.shot("03c-known-players-narrowed")
    p.tap('#known-players [data-player="Zoé"]')
    p.wait_until("return document.querySelector('#sides').innerText.includes('Zoé')")
    assert p.d.execute_script("return [document.activeElement.id, document.activeElement.value]") == ["new-player", ""]
    assert sorted(p.d.execute_script(chips)) == ["Anna", "Élodie"]
    # "élodie" typed: Élodie, as she was first written.
    p.type("#new-player", "élodie")
    p.tap("#add-player")
    p.wait_until("return document.querySelector('#sides').innerText.includes('Élodie')")
    assert p.texts("#sides .chip-name") == ["Zoé", "Élodie"]
    assert p.d.execute_script(chips) == ["Anna"]
    assert sorted(k["name"] for k in ipc(p, "ipc.players()")) == ["Anna", "Zoé", "Élodie"]


def test_a_mistyped_new_name_is_put_right_on_its_chip(partie):
    """A name typed wrong and added is put right where it shows: a tap on the chip of a player
    this setup made opens its spelling there; Escape leaves it as it was; Enter renames the
    player (the line-up, the known players and the match follow, and no player of the wrong
    name is left). Put right to a known player's name, that player takes the place and the one
    made by mistake is archived; a name already in the line-up is refused in words. A known
    player's chip offers no such change (their history is the players screen's), nor does one
    a typed name found (Dora, made on the players screen and never played)."""
    p = partie
    p.start()
    ipc(p, "ipc.addPlayer('Anna')")
    ipc(p, "ipc.addPlayer('Cyril')")
    ipc(p, "ipc.addPlayer('Dora')")
    p.tap("#new-molkky")
    p.wait_until("return document.querySelectorAll('#known-players .chip').length === 3")
    add_players(p, "Jonh", "Bea", "Ana")
    p.type("#new-player", "dora")
    p.tap("#add-player")
    p.tap('#known-players [data-player="Cyril"]')
    p.wait_until("return document.querySelectorAll('#sides .chip-name').length === 5")
    # The three made here can be put right; Dora, found by her name, and Cyril cannot.
    fixable = "return [...document.querySelectorAll('#sides .chip-fix .chip-name')].map((c) => c.textContent)"
    assert p.d.execute_script(fixable) == ["Jonh", "Bea", "Ana"]
    p.tap('[aria-label="Remove Dora"]')
    p.wait_until("return document.querySelectorAll('#sides .chip-name').length === 4")
    fixing = "return [document.activeElement.id, document.activeElement.value]"
    p.shot("03d-name-fixable")
    on_chip = "return document.activeElement?.getAttribute('aria-label') === 'Put right the spelling of {}'"

    def open_fix(name, typed):
        p.tap(f'[aria-label="Put right the spelling of {name}"]')
        p.wait_until("return document.activeElement?.id === 'fix-name'")
        assert p.d.execute_script(fixing) == ["fix-name", name]
        el = p.d.switch_to.active_element
        if typed is not None:
            el.send_keys(Keys.CONTROL, "a")
            el.send_keys(typed)
        return el

    # Opened and left with Escape: nothing changes, the focus is back on the chip.
    open_fix("Jonh", "Jxxx").send_keys(Keys.ESCAPE)
    p.wait_until("return !document.querySelector('#fix-name')")
    p.wait_until(on_chip.format("Jonh"))
    assert p.texts("#sides .chip-name") == ["Jonh", "Bea", "Ana", "Cyril"]

    # Put right with Enter: the player is renamed, and said so.
    el = open_fix("Jonh", "John")
    p.shot("03d-name-put-right")
    el.send_keys(Keys.ENTER)
    p.wait_until("return !document.querySelector('#fix-name')")
    assert p.texts("#sides .chip-name") == ["John", "Bea", "Ana", "Cyril"]
    p.wait_until(on_chip.format("John"))
    p.wait_until("return document.querySelector('#announce').textContent === 'Jonh is now John'")
    people = lambda: {k["name"]: k["archived"] for k in ipc(p, "ipc.players()")}
    assert people() == {"Anna": False, "Cyril": False, "Dora": False, "John": False, "Bea": False, "Ana": False}

    # A name already in the line-up is refused, and the field stays open with what was typed.
    open_fix("Bea", "john").send_keys(Keys.ENTER)
    p.wait_css("#toast:not([hidden])")
    assert p.text("#toast") == "That name is already entered."
    assert p.d.execute_script("return document.querySelector('#fix-name').value") == "john"
    p.tap("#fix-cancel")
    p.wait_until("return !document.querySelector('#fix-name')")
    assert p.texts("#sides .chip-name") == ["John", "Bea", "Ana", "Cyril"]

    # "Ana" put right to "anna", a known player: Anna takes the place, in her own spelling, and
    # Ana, who never played, is archived (out of the known players).
    open_fix("Ana", "anna")
    p.tap("#fix-save")
    p.wait_until("return !document.querySelector('#fix-name')")
    assert p.texts("#sides .chip-name") == ["John", "Bea", "Anna", "Cyril"]
    assert p.d.execute_script(fixable) == ["John", "Bea"]
    p.wait_until("return document.activeElement?.getAttribute('aria-label') === 'Remove Anna'")
    p.wait_until("return document.querySelector('#announce').textContent === 'Ana is now Anna'")
    assert people() == {"Anna": False, "Cyril": False, "Dora": False, "John": False, "Bea": False}
    archived = ipc(p, "ipc.searchPlayers('Ana', true)")
    assert [(k["name"], k["archived"]) for k in archived if k["name"] == "Ana"] == [("Ana", True)], archived
    assert p.texts("#known-players .chip") == ["Dora"]

    # The match seats the names put right.
    p.begin()
    p.wait_until("return document.querySelector('#screen').innerText.includes('John')")
    match = ipc(p, "ipc.getMatch(Number(location.hash.split('/')[2]))")
    assert match["sides"] == [["John"], ["Bea"], ["Anna"], ["Cyril"]]


def test_names_typed_one_after_another_with_enter_keep_the_field(partie):
    """Enter adds the name typed and the field stays focused, never blurred: on a phone its
    keyboard stays up for the next name (the redraw used to take the field out of the page and
    back, and the focus went to the page). A redraw that comes while a name is typed (the known
    players' answer, the app back to the front) keeps it too, with every key typed."""
    p = partie
    p.start()
    quick = ["Anna", "Bea", "Cyril"]
    p.tap("#new-molkky")
    p.wait_css("#new-player")
    p.css("#new-player").click()
    p.d.execute_script("""window.__blurs = 0;
        document.querySelector('#new-player').addEventListener('blur', () => { window.__blurs += 1; });""")
    for n in quick:
        p.d.switch_to.active_element.send_keys(n, Keys.ENTER)
        p.wait_until(f"return document.querySelector('#sides').innerText.includes({n!r})")
        p.wait_until("return document.querySelector('#new-player').value === ''")
        assert p.d.execute_script("return document.activeElement.id") == "new-player"
    p.d.switch_to.active_element.send_keys("Do")
    p.d.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    p.d.switch_to.active_element.send_keys("ra")
    time.sleep(0.5)
    assert p.d.execute_script("return [document.activeElement.id, document.activeElement.value]") == ["new-player", "Dora"]
    assert p.d.execute_script("return window.__blurs") == 0
    assert p.texts("#sides .chip-name") == quick


def test_a_reload_that_comes_after_a_throw_is_not_drawn_over_it(partie):
    """The app comes back to the front and reloads the match; the answer is slow. Pins tapped
    meanwhile stay down (the match has not moved under them), and a throw confirmed meanwhile
    stays on the scorepad (the reload read the match before it, and used to be drawn over it,
    naming the thrower who had just thrown)."""
    p = scorepad(partie, "Anna", "Bea")
    p.slow_command("get_match", 1500, before=False)
    p.d.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    p.tap('[data-pin="3"]')
    time.sleep(2)                            # the reload's answer has come
    assert p.asked("get_match") == 1
    assert p.attr('[data-pin="3"]', "aria-pressed") == "true"
    p.d.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    p.tap("#confirm")
    p.wait_actions(1)
    time.sleep(2)
    assert p.asked("get_match") == 2
    assert p.actions() == 1 and p.scores() == [3, 0]
    assert p.text("#turn-banner") == "Bea to throw"


def test_start_then_back_stays_where_the_person_went(partie):
    """Start is tapped and the match takes a while to be made; the person goes Back meanwhile.
    The match is made (it is in the unfinished list), but the app does not take the person to
    it against their last tap."""
    p = partie
    p.start()
    p.tap("#new-molkky")
    add_players(p, "Anna", "Bea")
    p.slow_command("new_match", 1500, before=False)
    p.tap("#start")
    p.tap("#nav-back")
    p.wait_css("#new-molkky")
    time.sleep(2)                            # the new match's answer has come
    assert p.d.execute_script("return location.hash") in ("#/home", "#/", "")
    assert p.count("#pins") == 0
    p.wait_css("#unfinished .match-row")


def test_a_held_enter_is_one_press_where_a_repeat_would_act_again(partie):
    """A held Enter repeats its key, and each repeat is a click: on the new-game screen (the
    focus moves to the next chip: every known player was added, or the line-up taken away), on
    the scorepad, and on Discard. Each takes the first press and drops its repeats."""
    p = partie
    p.start()
    pressed = """
        const e = new KeyboardEvent('keydown', {key: 'Enter', repeat: arguments[1], bubbles: true, cancelable: true});
        document.querySelector(arguments[0]).dispatchEvent(e);
        return e.defaultPrevented;"""
    held = lambda sel: p.d.execute_script(pressed, sel, True)
    first = lambda sel: p.d.execute_script(pressed, sel, False)
    p.tap("#new-molkky")
    p.wait_css("#new-player")
    add_players(p, "Anna", "Bea")
    for sel in ("#new-player", "#sides .chip-x", "#start"):
        assert held(sel) and not first(sel), sel
    p.begin()
    p.wait_css("#pins")
    assert held('[data-pin="3"]') and not first('[data-pin="3"]')
    p.tap("#nav-back")
    p.wait_css("#unfinished [data-discard]")
    assert held("#unfinished [data-discard]") and not first("#unfinished [data-discard]")


def test_default_rules_of_two_games_saved_at_once_keep_each_others(partie):
    """Mölkky's default rules saved, and Crokinole's while that save is still on its way: each
    game keeps its own (the second sent the screen's whole copy, Mölkky's from before its save,
    and undid it). A new Mölkky starts with its saved target."""
    p = partie
    p.start()
    p.tap("#nav-settings")
    p.wait_css("#rule-molkky-target")
    p.wait_css("#rule-crokinole-target")
    set_number(p, "#rule-molkky-target", 40)
    set_number(p, "#rule-crokinole-target", 80)
    p.slow_command("set_setting", 500, before=False)
    p.d.execute_script("document.querySelector('#save-rules-molkky').click(); document.querySelector('#save-rules-crokinole').click();")
    p.wait_until("return window.__delivered.set_setting === 2")
    rules = p.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('./js/ipc.js').then(({ ipc }) => ipc.settings()).then((s) => done(s.rules), (e) => done(String(e)));""")
    assert rules["molkky"]["target"] == 40, rules
    assert rules["crokinole"]["target"] == 80, rules
    p.go_hash("#/setup/molkky")
    p.wait_css("#rule-target")
    assert p.d.execute_script("return document.querySelector('#rule-target').value") == "40"


def test_a_setup_left_for_settings_is_as_it_was_when_come_back_to(partie):
    """A line-up being built, a rule changed, then Settings (to look at the default rules) and
    Back: the setup is as it was left (it went back to the last match's line-up)."""
    p = partie
    p.start()
    p.tap("#new-molkky")
    p.wait_css("#new-player")
    clear_lineup(p)
    add_players(p, "Anna", "Bea", "Cyril")
    set_number(p, "#rule-target", 30)
    p.tap("#nav-settings")
    p.wait_css("#rule-molkky-target")
    p.tap("#nav-back")
    p.wait_css("#new-player")
    p.wait_until("return document.querySelectorAll('#sides .chip-name').length === 3")
    assert p.texts("#sides .chip-name") == ["Anna", "Bea", "Cyril"]
    p.wait_css("#rule-target")
    assert p.d.execute_script("return document.querySelector('#rule-target').value") == "30"
    p.begin()
    p.wait_css("#pins")


def put_right_then_settings(p, ms):
    """A Mölkky setup with Anna known and Jonh and Bea added here; "Jonh" put right to "John"
    with the store answering `ms` late, and Settings opened as soon as it is asked."""
    p.start()
    ipc(p, "ipc.addPlayer('Anna')")
    p.tap("#new-molkky")
    p.wait_until("return document.querySelectorAll('#known-players .chip').length === 1")
    add_players(p, "Jonh", "Bea")
    p.slow_command("put_right_player", ms)
    p.tap('[aria-label="Put right the spelling of Jonh"]')
    p.wait_until("return document.activeElement?.id === 'fix-name'")
    el = p.d.switch_to.active_element
    el.send_keys(Keys.CONTROL, "a")
    el.send_keys("John", Keys.ENTER)
    p.wait_until("return window.__asked.put_right_player === 1")
    p.tap("#nav-settings")
    p.wait_css("#rule-molkky-target")


def test_a_name_put_right_as_the_setup_is_left_comes_back_put_right(partie):
    """The store answers a name put right after the setup was left for Settings: the line-up
    come back to has the name put right (the draft took it), still correctable, and not the old
    spelling, which is no one's now and would have left the line-up."""
    p = partie
    put_right_then_settings(p, 1500)
    p.wait_until("return window.__delivered.put_right_player === 1")
    p.tap("#nav-back")
    p.wait_css("#new-player")
    p.wait_until("return document.querySelectorAll('#known-players .chip').length === 1")
    assert p.texts("#sides .chip-name") == ["John", "Bea"]
    fixable = "return [...document.querySelectorAll('#sides .chip-fix .chip-name')].map((c) => c.textContent)"
    assert p.d.execute_script(fixable) == ["John", "Bea"]
    assert sorted(k["name"] for k in ipc(p, "ipc.players()")) == ["Anna", "Bea", "John"]


def test_a_name_put_right_as_the_setup_is_left_and_come_back_to_shows_put_right(partie):
    """The setup left for Settings and come back to before the store answers a name put right:
    the screen come back to took the line-up with the old spelling; the answer reaches it, so
    it shows the name put right, still correctable, and its Start seats that player (not a new
    player made of the old spelling)."""
    p = partie
    put_right_then_settings(p, 2500)
    p.tap("#nav-back")
    p.wait_css("#new-player")
    # Come back before the answer: the old spelling, as the screen was left.
    assert p.d.execute_script("return window.__delivered.put_right_player ?? 0") == 0
    assert p.texts("#sides .chip-name") == ["Jonh", "Bea"]
    p.wait_until("return window.__delivered.put_right_player === 1")
    p.wait_until("return [...document.querySelectorAll('#sides .chip-name')].map((c) => c.textContent).join() === 'John,Bea'")
    fixable = "return [...document.querySelectorAll('#sides .chip-fix .chip-name')].map((c) => c.textContent)"
    assert p.d.execute_script(fixable) == ["John", "Bea"]
    p.tap("#start")
    p.wait_css("#pins")
    assert sorted(k["name"] for k in ipc(p, "ipc.players()")) == ["Anna", "Bea", "John"]


def test_default_rules_changed_during_a_setup_are_the_setups_rules_when_come_back(partie):
    """A setup whose rules were not touched, left for Settings to change the default rules:
    come back, it has the new defaults (a kept setup must not keep the defaults of before)."""
    p = partie
    p.start()
    p.tap("#new-molkky")
    p.wait_css("#rule-target")
    assert p.d.execute_script("return document.querySelector('#rule-target').value") != "45"
    save_default_rule(p, "molkky", "target", 45)
    p.wait_css("#rule-target")
    p.wait_until("return document.querySelector('#rule-target').value === '45'")
