"""Boulomania on the board: a whole game with the app's dice on a fixed seed, and a mène
played with real dice entered by hand, with a push chain and a carreau."""
import time

from test_molkky import add_players
from conftest import shoot


def actions(p):
    return int(p.attr("section.boulomania", "data-actions"))


def wait_more(p, n, timeout=10):
    p.wait_until(f"const s = document.querySelector('section.boulomania'); return s && Number(s.dataset.actions) > {n}", timeout)


def ball(p, square):
    """The side of the ball on a square, read from the drawn board (None when empty)."""
    return p.d.execute_script(f"""
        const g = document.querySelector('#bou-board [data-square="{square}"]');
        return g.classList.contains('side-0') ? 0 : g.classList.contains('side-1') ? 1 : null;""")


def new_game(p, dice, target=None, balls=None):
    p.tap("#new-boulomania")
    p.wait_css("#new-player")
    add_players(p, "Anne", "Bruno")
    p.tap(f"#dice-{dice}")
    p.wait_pressed(f"#dice-{dice}")
    if target:
        p.tap(f"#rule-target-{target}")
        p.wait_pressed(f"#rule-target-{target}")
    if balls:
        p.tap(f"#rule-balls-{balls}")
        p.wait_pressed(f"#rule-balls-{balls}")
    p.begin()
    p.wait_css("#bou-board")


def enter(p, *dice):
    p.wait_css("#dice-entry")
    for k, d in enumerate(dice):
        p.tap(f"#die-{k}-{d}")
        p.wait_until(f"return document.querySelector('#die-{k}-{d}').getAttribute('aria-pressed') === 'true'")
    p.tap("#dice-ok")


def test_a_whole_game_with_the_apps_dice_on_a_fixed_seed(partie, monkeypatch):
    monkeypatch.setenv("PARTIE_DICE_SEED", "2026")
    from conftest import Partie
    p = Partie()          # a profile whose app sees the fixed seed
    try:
        p.start()
        new_game(p, "app", target=5, balls=4)
        assert p.text("#status-line") == "Mène 1 · Anne rolls for the jack"
        p.shot("50-boulomania-start")
        # On a phone the turn's button comes first, the board right under it and mostly on
        # the screen (it began near the bottom, under the whole panel).
        r = p.d.execute_script("""
            const box = (s) => document.querySelector(s).getBoundingClientRect();
            return {button: box('#roll-jack'), board: box('#bou-board'), height: innerHeight};""")
        assert r["button"]["bottom"] <= r["board"]["top"] <= 0.55 * r["height"], r
        for turn in range(400):
            if p.attr("section.boulomania", "data-status") == "won":
                break
            n = actions(p)
            played = f"Number(document.querySelector('section.boulomania').dataset.actions) > {n}"
            if p.count("#bou-choices"):
                # A choice is played at once, and the list stays on screen until the answer is
                # drawn: only the new action count says the choice is done.
                p.tap("#bou-choices [data-choice]")
                p.wait_until(f"return {played}")
            else:
                p.tap("#roll-jack" if p.count("#roll-jack") else "#point-3" if turn % 3 else "#point-2")
                p.wait_until(f"return {played} || document.querySelector('#bou-choices') !== null")
            if turn == 6:
                assert p.text("#outcome-line"), "every throw is explained"
                p.shot("51-boulomania-play")
        p.wait_css('section.boulomania[data-status="won"]')
        scores = [int(x) for x in p.texts("[data-score]")]
        # The dice are fixed, and so is the game: Bruno's side takes it 5 - 0 in three mènes
        # and 27 actions (what the rules made of these dice when this test was written).
        assert scores == [0, 5]
        assert p.count("#mene-sheet tbody tr") == 3
        assert actions(p) == 27
        assert p.text("#status-line") == "Bruno wins!"
        # Where and how it was played, as after every game: saved with the match.
        p.type("#match-notes", "garden, Bruno's dice")
        p.tap("#save-notes")
        p.wait_text(".notes-status", "Saved")
        p.shot("52-boulomania-won")
        p.d.refresh()
        p.wait_css('section.boulomania[data-status="won"]')
        assert p.d.execute_script("return document.querySelector('#match-notes').value") == "garden, Bruno's dice"
    finally:
        p.close()


def test_a_mene_with_real_dice_a_push_chain_and_a_carreau(partie):
    p = partie
    p.start()
    new_game(p, "real")
    p.tap("#roll-jack")
    enter(p, 3)
    # Every square has its jack, hidden but on the one it is on.
    p.wait_until("return document.querySelector('#bou-board [data-square=\"3\"] .bou-jack:not([display])') !== null")
    p.tap("#point-2")
    # Back to the app halfway through entering the dice: the die entered stays (the screen,
    # reloaded from Rust, used to drop the entry and ask for the throw again).
    p.wait_css("#dice-entry")
    p.tap("#die-0-3")
    p.wait_until("return document.querySelector('#die-0-3').getAttribute('aria-pressed') === 'true'")
    p.slow_command("get_match", 0, before=False)
    p.d.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    p.wait_until("return window.__delivered.get_match === 1")
    assert p.count("#dice-entry") == 1
    assert p.attr("#die-0-3", "aria-pressed") == "true"
    enter(p, 3, 4)                          # 7, beside the jack
    wait_more(p, 1)
    assert ball(p, 7) == 0
    # Taken back and played again, with another trip to the background halfway: the entry
    # stays this time too (the screen compared with the count before the undo).
    p.tap("#undo")
    p.wait_until("return Number(document.querySelector('section.boulomania').dataset.actions) === 1")
    p.tap("#point-2")
    p.wait_css("#dice-entry")
    p.tap("#die-0-3")
    p.wait_until("return document.querySelector('#die-0-3').getAttribute('aria-pressed') === 'true'")
    p.d.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    p.wait_until("return window.__delivered.get_match === 2")
    assert p.attr("#die-0-3", "aria-pressed") == "true"
    enter(p, 3, 4)
    wait_more(p, 1)
    assert ball(p, 7) == 0
    p.tap("#point-2")
    enter(p, 3, 5)                          # Bruno on 8: as close, so he plays again
    wait_more(p, 2)
    assert p.text("#status-line").startswith("Mène 1 · Bruno to play")
    p.tap("#point-2")
    enter(p, 4, 3)                          # 7 again: Anne's ball goes to 8, Bruno's from 8 on
    p.wait_css("#bou-choices")              # 8 has an arrow: straight to 9, or to 12
    assert p.count("#bou-choices [data-choice]") == 2
    p.shot("53-boulomania-choice")
    straight = p.d.execute_script(
        "return [...document.querySelectorAll('#bou-choices [data-choice]')].find(b => b.textContent.startsWith('straight')).dataset.choice")
    p.tap(f'#bou-choices [data-choice="{straight}"]')
    wait_more(p, 3)
    assert [ball(p, s) for s in (7, 8, 9)] == [1, 0, 1]
    assert "pushed" in p.text("#outcome-line")
    # Bruno shoots Anne's ball on 8 with a 6: a carreau. His finger is still down on the ball
    # when the screen redraws, and the tap lands all the same.
    p.tap_across_redraw('#bou-board [data-square="8"]')
    enter(p, 6)
    wait_more(p, 4)
    assert ball(p, 8) == 1
    assert "6 — carreau!" in p.text("#outcome-line")
    assert p.texts("[data-lost]") == ["tray: 1", "tray: 0"]
    p.shot("54-boulomania-carreau")


def test_undo_while_the_dice_roll_drops_the_roll(partie):
    """Undo stays at hand while the dice are on their way. Tapped then, it takes the last throw
    back, and the dice that come after it are no one's: no throw, no error (the roll used to go
    on for a plan the undo had cleared, and the screen showed a raw error)."""
    p = partie
    p.start()
    new_game(p, "app")
    p.tap("#roll-jack")
    wait_more(p, 0)
    p.wait_css("#point-2")
    p.slow_command("roll_dice", 1000, before=False)
    p.tap("#point-2")
    p.wait_until("return window.__asked.roll_dice === 1", 2)   # the dice are on their way
    p.tap("#undo")
    p.wait_until("return Number(document.querySelector('section.boulomania').dataset.actions) === 0")
    p.wait_until("return window.__delivered.roll_dice === 1", 15)   # the late dice have come
    time.sleep(0.5)                         # and anything they would draw or say is there
    assert p.delivered("roll_dice") == 1
    assert actions(p) == 0
    assert p.d.execute_script("return document.querySelector('#toast').hidden"), p.text("#toast")
    assert p.count("#roll-jack") == 1
    assert p.count("#bou-choices") == 0


def test_the_dice_from_the_keyboard_keep_the_focus_on_the_turn(monkeypatch):
    """Roll the jack, pressed with the keyboard, swaps the panel for the dice, then for the
    next turn's buttons: the focus follows (the roll, then Point with 2 dice), never lost to the
    page. A roll that asks where the ball goes puts the focus on the first way and says the
    dice."""
    from selenium.webdriver.common.keys import Keys
    monkeypatch.setenv("PARTIE_DICE_SEED", "2026")
    from conftest import Partie
    p = Partie()          # the same dice every run
    try:
        keyboard_turns(p, Keys)
    finally:
        p.close()


def keyboard_turns(p, Keys):
    p.start()
    new_game(p, "app")
    # A phone held sideways: the board is not shrunk below a finger's width a square.
    p.size(844, 390)
    time.sleep(0.3)
    cells = p.d.execute_script(
        "return [...document.querySelectorAll('#bou-board rect.bou-cell')].map(c => c.getBoundingClientRect().width)")
    assert cells and min(cells) >= 44, cells
    # ...and stands beside the players and the actions, its squares in view.
    r = p.d.execute_script("""
        const box = (s) => document.querySelector(s).getBoundingClientRect();
        return {board: box('#bou-board'), panel: box('.mor-panel'), roll: box('#roll-jack'), height: innerHeight};""")
    assert r["board"]["right"] <= r["panel"]["left"] and r["roll"]["bottom"] <= r["height"], r
    shoot(p.d, "55-boulomania-landscape-phone.png")
    p.size(390, 844)
    p.css("#roll-jack").send_keys(Keys.ENTER)
    wait_more(p, 0)
    p.wait_until("return document.activeElement?.id === 'point-2'")
    for _ in range(12):
        n = actions(p)
        p.d.switch_to.active_element.send_keys(Keys.ENTER)
        p.wait_until(f"return Number(document.querySelector('section.boulomania').dataset.actions) > {n}"
                     " || !!document.querySelector('#bou-choices')")
        if p.count("#bou-choices"):
            p.wait_until("return document.activeElement?.dataset.choice === '0'")
            assert p.d.execute_script("return document.querySelector('#announce').textContent").startswith("Dice: ")
            return
        # A throw with one way only was played: the next turn's buttons have the focus.
        p.wait_until("return ['point-2', 'roll-jack'].includes(document.activeElement?.id)")
        if p.d.execute_script("return document.activeElement.id") == "roll-jack":
            p.d.switch_to.active_element.send_keys(Keys.ENTER)
            p.wait_until("return document.activeElement?.id === 'point-2'")
    raise AssertionError("no roll asked where the ball goes in 12 throws")


def test_after_the_computers_turn_the_focus_comes_back_to_the_players_buttons(monkeypatch):
    """Against the computer, from the keyboard: the computer's turn takes the person's buttons
    away (the focus had nowhere to go but the top of the screen), and when the turn comes back
    the focus is on them again, not left at the top for a Tab through the header and the
    board."""
    from selenium.webdriver.common.keys import Keys
    monkeypatch.setenv("PARTIE_DICE_SEED", "2026")
    from conftest import Partie
    p = Partie()
    try:
        p.start()
        p.tap("#new-boulomania")
        p.wait_css("#new-player")
        p.tap("#opponent-computer")
        p.wait_pressed("#opponent-computer")
        add_players(p, "Anne")
        p.tap("#dice-app")
        p.wait_pressed("#dice-app")
        p.begin()
        p.wait_css("#bou-board")
        mine = "return ['point-2', 'roll-jack'].includes(document.activeElement?.id)"
        # The person's first button, focused as from the keyboard.
        p.wait_until("return !!document.querySelector('#roll-jack, #point-2')", timeout=15)
        p.d.execute_script("document.querySelector('#roll-jack, #point-2').focus()")
        came_back = 0
        for _ in range(16):
            if p.count("#bou-choices") or p.d.execute_script("return document.querySelector('section.boulomania').dataset.status") != "playing":
                break
            p.wait_until(mine + " || !!document.querySelector('#bou-choices')", timeout=15)
            if p.count("#bou-choices"):
                break
            n = actions(p)
            p.d.switch_to.active_element.send_keys(Keys.ENTER)
            wait_more(p, n)
            # The computer's turn (if it comes) ends with the person's buttons focused.
            p.wait_until(mine + " || !!document.querySelector('#bou-choices')"
                         " || document.querySelector('section.boulomania').dataset.status !== 'playing'", timeout=15)
            if actions(p) > n + 1:
                came_back += 1
                if p.d.execute_script(mine):
                    break
        assert came_back >= 1, "the computer never played between two of the person's throws"
    finally:
        p.close()


def test_teams_as_the_game_takes_them(partie):
    """Boulomania is two teams of at most four: a fifth player for a team is refused in words
    (Start used to refuse it later, in English), and once there are two teams there is no
    "+ New side"."""
    p = partie
    p.start()
    p.tap("#new-boulomania")
    p.wait_css("#new-player")
    p.tap("#team-mode")
    p.wait_css("#new-side")
    add_players(p, "Anne", "Bruno", "Chloé", "Denis")
    p.type("#new-player", "Emma")
    p.tap("#add-player")
    p.wait_until("return document.querySelector('#toast').textContent === 'This team is full: at most 4 players.'")
    assert p.count("#sides .chip-name") == 4
    p.d.execute_script("const i = document.querySelector('#new-player'); i.value = ''; i.dispatchEvent(new Event('input'))")
    p.tap("#new-side")
    p.wait_until("return document.querySelector('#sides .side-card.active') === null")
    add_players(p, "Farid")
    p.wait_until("return !document.querySelector('#new-side')")
    assert p.count("#sides .side-card") == 2
