"""Crokinole played by tapping: live 20s, the count at the end of each round, undo, formats."""
import time

from selenium.webdriver.common.keys import Keys
from conftest import shoot

from test_kill_loop import ipc
from test_molkky import add_players, set_number


def twenty(p, side):
    before = p.actions()
    p.tap(f'[data-twenty="{side}"]')
    p.wait_actions(before + 1)


def count_round(p, counts):
    """Opens the count, taps each side's discs per zone ({"15": [2, 1], ...}), and waits for
    Rust's preview of the round."""
    p.tap("#end-round")
    p.wait_css("#cro-count")
    for zone, per_side in counts.items():
        for side, n in enumerate(per_side):
            for _ in range(n):
                step(p, zone, side, +1)
    p.wait_until("const e = document.querySelector('#round-result'); return e && e.textContent !== '…'")


def step(p, zone, side, d):
    """One tap on a stepper, checked: the count moves by exactly one."""
    cell = f'[data-count="{zone}-{side}"]'
    want = int(p.text(cell)) + d
    p.tap(f'[data-step="{zone}-{side}-{"plus" if d > 0 else "minus"}"]')
    p.wait_until(f"return document.querySelector('{cell}').textContent === '{want}'")


def score_round(p):
    before = p.actions()
    p.tap("#score-round")
    p.wait_actions(before + 1)


def new_game(p, sides, teams=False, rounds=False, loser_chooses=False, shot=None, target=None):
    p.start()
    p.tap("#new-crokinole")
    p.wait_css("#new-player")
    if teams:
        p.tap("#team-mode")
        p.wait_css("#new-side")
    for i, side in enumerate(sides):
        if teams and i:
            p.tap("#new-side")
            # The tap redraws the screen with no side being formed: type only after that.
            p.wait_until("return document.querySelector('#sides .side-card.active') === null")
        add_players(p, *side)
    if rounds:
        p.tap("#rule-format-rounds")
        p.wait_pressed("#rule-format-rounds")
        p.wait_css("#rule-rounds")
    if target:
        set_number(p, "#rule-target", target)
    if loser_chooses:
        p.tap("#rule-start_rule-loser_chooses")
        p.wait_pressed("#rule-start_rule-loser_chooses")
    if shot:
        p.shot(shot)
    p.begin()
    p.wait_css("#end-round")


def test_doubles_to_100_with_live_twenties_and_an_undone_round(partie):
    p = partie
    new_game(p, [["Alice", "Ada"], ["Bob", "Bea"]], teams=True, shot="19-crokinole-setup-doubles")
    assert p.text("#status-line") == "Round 1 · first to 100"
    assert p.text("#cro-starter") == "Alice shoots first"
    assert p.text("#cro-hammer") == "Bea has the hammer (shoots last)"
    twenty(p, 0)
    twenty(p, 0)
    assert p.text('[data-live="0"]') == "2"
    # Heard too: the button's name and what is said after a tap give the round's tally.
    # The name begins with what the button shows ("+20"), for those who speak to their device.
    assert p.attr('[data-twenty="0"]', "aria-label") == "+20 Alice · Ada, 2 this round"
    p.wait_until("return document.querySelector('#announce').textContent === '20 for Alice · Ada: 2 this round'")
    assert p.scores() == [0, 0]          # a live 20 scores only when the round is scored
    p.shot("20-crokinole-live-round")
    count_round(p, {"15": [2, 1], "10": [0, 2]})
    assert p.text('[data-count="20-0"]') == "2"      # prefilled from the live tally
    assert p.text("#round-result") == "Alice · Ada 70 · Bob · Bea 35"
    p.shot("21-crokinole-count")
    p.tap("#board-view")
    p.wait_css("#cro-board")
    p.tap('[data-board-side="1"]')
    p.wait_until("return document.querySelector('[data-board-side=\"1\"]').getAttribute('aria-pressed') === 'true'")
    p.d.execute_script("document.querySelector('#cro-board [data-zone=\"5\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    p.wait_until("return document.querySelector('[data-count=\"5-1\"]').textContent === '1'")
    p.wait_text("#round-result", "Bob · Bea 40")
    # Every zone is a finger wide on a phone: the 20 hole and each ring 44 px or more across.
    widths = p.d.execute_script("""
        const r = (z) => document.querySelector(`#cro-board [data-zone="${z}"]`).getBoundingClientRect().width / 2;
        return [2 * r('20'), r('15') - r('20'), r('10') - r('15'), r('5') - r('10')];""")
    assert min(widths) >= 44, widths
    # The 20 hole, tapped where a finger would, counts a 20.
    before = int(p.text('[data-count="20-1"]'))
    p.tap_at('#cro-board [data-zone="20"]')
    p.wait_until(f"return document.querySelector('[data-count=\"20-1\"]').textContent === '{before + 1}'")
    step(p, "20", 1, -1)
    p.wait_text("#round-result", "Bob · Bea 40")
    p.shot("22-crokinole-board-view")
    step(p, "5", 1, -1)
    p.wait_text("#round-result", "Bob · Bea 35")
    score_round(p)
    assert p.scores() == [35, 0]
    assert p.text("#cro-starter") == "Bob shoots first"
    # Said aloud: the score the round leaves.
    p.wait_until("return document.querySelector('#announce').textContent === 'Alice · Ada 35 · Bob · Bea 0.'")

    # Round 2 scored wrong, undone, and scored again.
    twenty(p, 1)
    count_round(p, {"15": [0, 3]})
    score_round(p)
    assert p.scores() == [35, 65]
    p.undo()
    assert p.scores() == [35, 0]
    assert p.text('[data-live="1"]') == "1"          # the round's live 20 is back
    assert p.text("#cro-starter") == "Bob shoots first"
    count_round(p, {"10": [1, 0], "15": [0, 1]})
    score_round(p)
    assert p.scores() == [35, 25]
    assert p.text("#cro-starter") == "Ada shoots first"

    # A refused count says why and scores nothing.
    p.tap("#end-round")
    p.wait_css("#cro-count")
    for _ in range(13):
        step(p, "15", 1, +1)
    p.wait_text("#round-result", "More discs counted than that side plays.")
    assert p.attr("#score-round", "disabled") is not None
    # While discs are counted, Undo does not take back the round before and drop the count.
    assert p.attr("#undo", "disabled") is not None
    p.shot("23-crokinole-refused-count")
    p.tap("#cancel-count")
    p.wait_css("#end-round")

    for _ in range(3):
        twenty(p, 0)
    count_round(p, {"15": [1, 0], "5": [0, 2]})
    score_round(p)
    p.wait_css("#end-screen")
    assert p.text("#end-title") == "Alice · Ada win!"
    assert p.scores() == [100, 25]
    assert p.count("#cro-sheet tbody tr") == 3
    assert p.texts("#cro-sheet tfoot td") == ["5", "1"]
    p.shot("24-crokinole-end")


def test_tournament_four_rounds_ending_in_a_draw_then_found_in_history(partie):
    p = partie
    new_game(p, [["Alice"], ["Bob"]], rounds=True)
    assert p.text("#status-line") == "Round 1 of 4"
    for counts, scores in (({"15": [2, 0]}, [2, 0]), ({"15": [0, 2]}, [2, 2]),
                           ({"10": [1, 1]}, [3, 3]), ({"5": [3, 3]}, [4, 4])):
        count_round(p, counts)
        score_round(p)
        assert p.scores() == scores
    p.wait_css("#end-screen")
    assert p.text("#end-title") == "A draw!"
    assert p.count("#cro-sheet tbody tr") == 4
    p.shot("25-crokinole-tournament-draw")

    p.tap("#go-home")
    p.wait_css("#recent")
    assert "Crokinole" in p.text("#recent")
    p.tap("#recent .match-open")
    p.wait_css("#cro-sheet")
    assert p.count("#cro-sheet tbody tr") == 4
    assert p.text("#end-title") == "A draw!"


def test_loser_chooses_then_resumes_after_a_kill(partie):
    p = partie
    new_game(p, [["Alice"], ["Bob"]], loser_chooses=True)
    count_round(p, {"15": [1, 0]})
    score_round(p)
    assert p.text("#cro-choose p") == "Bob lost the round: who starts this one?"
    assert p.text("#cro-starter") == "Bob shoots first"      # the rotation, unless Bob chooses
    p.shot("27-crokinole-loser-chooses")
    before = p.actions()
    p.tap('[data-starter="0"]')
    p.wait_actions(before + 1)
    assert p.text("#cro-starter") == "Alice shoots first"
    assert p.count("#cro-choose") == 0
    twenty(p, 1)
    p.kill_app()
    p.start()
    p.wait_css("#unfinished")
    p.tap("#unfinished .match-open")
    p.wait_css("#end-round")
    assert p.scores() == [15, 0]
    assert p.text('[data-live="1"]') == "1"
    assert p.text("#cro-starter") == "Alice shoots first"
    p.shot("26-crokinole-resumed")


def test_a_stepper_pressed_while_the_count_redraws_still_lands(partie):
    """The count of a round: a finger down on a stepper, the screen redrawn under it, the
    finger up: the count moves by exactly one."""
    p = partie
    new_game(p, [["Alice"], ["Bob"]])
    p.tap("#end-round")
    p.wait_css("#cro-count")
    before = int(p.text('[data-count="15-0"]'))
    p.tap_across_redraw('[data-step="15-0-plus"]')
    p.wait_until(f"return document.querySelector('[data-count=\"15-0\"]').textContent === '{before + 1}'", 5)
    time.sleep(0.3)
    assert int(p.text('[data-count="15-0"]')) == before + 1


def enter_on(p, selector):
    """Focuses a control and presses Enter on it, as a keyboard user does."""
    p.d.execute_script("document.querySelector(arguments[0]).focus()", selector)
    p.d.switch_to.active_element.send_keys(Keys.ENTER)


def focus_is(p, element_id):
    p.wait_until(f"return document.activeElement?.id === '{element_id}'")


def count_15_and_score(p):
    """From the count's title: one 15 for the first side, then Score the round, by keyboard."""
    focus_is(p, "count-title")
    enter_on(p, '[data-step="15-0-plus"]')
    p.wait_until("return !document.querySelector('#score-round').disabled")


def test_a_panel_changed_from_the_keyboard_keeps_the_focus_on_the_screen(partie):
    """End round, pressed with the keyboard, opens the count in its place: the button goes, and
    the focus goes to the count's title (it used to be lost to the page), so a screen reader
    says where it is and the next Tab goes on through the count. Back returns it to End round,
    and so does a round scored; the last round scored puts it on the winner."""
    p = partie
    new_game(p, [["Alice"], ["Bob"]], target=20)
    enter_on(p, "#end-round")
    p.wait_css("#cro-count")
    focus_is(p, "count-title")
    p.d.switch_to.active_element.send_keys(Keys.TAB)
    assert p.d.execute_script("return document.querySelector('#cro-counting').contains(document.activeElement)")
    enter_on(p, "#cancel-count")
    p.wait_css("#end-round")
    focus_is(p, "end-round")
    # A round counted and scored from the keyboard: back on End round for the next one.
    p.d.switch_to.active_element.send_keys(Keys.ENTER)
    count_15_and_score(p)
    # − back to 0 goes grey: the focus goes to its + beside it, not to the page.
    enter_on(p, '[data-step="10-0-plus"]')
    p.wait_until("return !document.querySelector('[data-step=\"10-0-minus\"]').disabled")
    enter_on(p, '[data-step="10-0-minus"]')
    p.wait_until("return document.querySelector('[data-step=\"10-0-minus\"]').disabled")
    p.wait_until("return document.activeElement?.dataset.step === '10-0-plus'")
    enter_on(p, "#score-round")
    focus_is(p, "end-round")
    assert "15" in p.text('[data-score="0"]')
    # The round that ends the game: the focus is on who won.
    p.d.switch_to.active_element.send_keys(Keys.ENTER)
    count_15_and_score(p)
    enter_on(p, "#score-round")
    p.wait_css("#end-screen")
    focus_is(p, "end-title")
    assert "Alice" in p.d.execute_script("return document.activeElement.textContent")


def test_a_target_is_a_multiple_of_5_in_the_rules_range(partie):
    """The target is a multiple of 5 (the rules' word, and Rust's check at Start): 12 is said
    at the field, in words, and so is 3 (out of range); 15 is taken and the match starts
    with it."""
    p = partie
    p.start()
    p.tap("#new-crokinole")
    p.wait_css("#new-player")
    for wrong in (12, 3):
        set_number(p, "#rule-target", wrong)
        p.wait_css("#rule-target-error")
        assert p.text("#rule-target-error") == "Other score (multiple of 5): a multiple of 5 from 5 to 1000.", wrong
        if wrong == 12:
            p.shot("19b-crokinole-target-refused", at="#rule-target")
            assert p.text("#rule-target-error") == "Other score (multiple of 5): a multiple of 5 from 5 to 1000."
        set_number(p, "#rule-target", 100)
        p.wait_until("return !document.querySelector('#rule-target-error')")
    set_number(p, "#rule-target", 15)
    add_players(p, "Alice", "Bob")
    p.begin()
    p.wait_css("#end-round")
    m = ipc(p, "ipc.getMatch(Number(location.hash.split('/').pop()))")
    assert m["rules"]["target"] == 15, m


def test_three_sides_count_on_a_phone_without_scrolling_sideways(partie):
    """Three players: their steppers side by side were wider than a phone (the page scrolled
    sideways and the third player's + was off screen). Each stepper stands upright (+ over the
    count over −, in that order to the keyboard too): the table fits, every button is a finger
    wide, and the count of each side, the third's too, moves by the tap. The board's side
    switch says what it does."""
    p = partie
    new_game(p, [["Alice"], ["Bob"], ["Cyril"]])
    p.tap("#end-round")
    p.wait_css("#cro-count")
    fit = p.d.execute_script("""
        const box = (s) => document.querySelector(s).getBoundingClientRect();
        const steps = [...document.querySelectorAll('#cro-count .step')].map((b) => b.getBoundingClientRect());
        return {page: document.documentElement.scrollWidth, width: innerWidth,
                table: box('#cro-count').right, plus: box('[data-step="20-2-plus"]'), minus: box('[data-step="20-2-minus"]'),
                smallest: Math.min(...steps.map((r) => Math.min(r.width, r.height)))};""")
    assert fit["page"] <= fit["width"] and fit["table"] <= fit["width"], fit
    assert fit["plus"]["right"] <= fit["width"] and fit["smallest"] >= 44, fit
    assert fit["plus"]["bottom"] <= fit["minus"]["top"], fit        # + over −
    for side in range(3):
        step(p, "15", side, +1)
    step(p, "20", 2, +1)
    p.wait_text("#round-result", "Cyril 35")
    p.d.execute_script("document.querySelector('#cro-count').scrollIntoView({block: 'start'})")
    shoot(p.d, "27c-crokinole-three-count-phone.png")
    # The keyboard meets + first, as the eye does.
    assert p.d.execute_script("""
        const [plus, minus] = ['[data-step="20-2-plus"]', '[data-step="20-2-minus"]'].map((s) => document.querySelector(s));
        return !!(plus.compareDocumentPosition(minus) & Node.DOCUMENT_POSITION_FOLLOWING);""")
    p.tap("#board-view")
    p.wait_css("#cro-board")
    assert p.d.execute_script("return document.querySelector('.cro-board [role=group]').getAttribute('aria-label')") \
        == "Whose discs the board counts"
