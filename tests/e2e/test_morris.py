"""Nine Men's Morris on the board: placing, moving and removing by tapping (and dragging),
undo and redo, the computer's replies, a game resumed after the app was killed, a tap held
across a redraw, and play with the keyboard."""
import json
import time

from selenium.webdriver.common.keys import Keys

from test_molkky import add_players
from conftest import shoot


def actions(p):
    return int(p.attr("section.morris", "data-actions"))


def wait_actions(p, n, timeout=10):
    p.wait_until(f"const s = document.querySelector('section.morris'); return s && Number(s.dataset.actions) === {n}", timeout)


def wait_actions_above(p, n, timeout=10):
    p.wait_until(f"const s = document.querySelector('section.morris'); return s && Number(s.dataset.actions) > {n}", timeout)


def point(name):
    return f'#mor-board [data-point="{name}"]'


def play(p, token):
    """Plays one token the way a finger does: a tap on the point (place, remove), or a tap on
    the piece then on its highlighted target (move). Waits until the app has committed it."""
    before = actions(p)
    if token.startswith("x"):
        p.tap_at(point(token[1:]))
    elif "-" in token:
        a, b = token.split("-")
        select(p, point(a))
        p.tap_at(point(b))
    else:
        p.tap_at(point(token))
    wait_actions(p, before + 1)


def select(p, selector):
    """Taps a piece and waits until the board shows it selected."""
    p.tap_at(selector)
    p.wait_until("return document.querySelector('#mor-board .selected') !== null", 5)


def board(p):
    """Point → side, read from the drawn board."""
    return p.d.execute_script("""
        const out = {};
        for (const g of document.querySelectorAll('#mor-board [data-point]')) {
          if (g.classList.contains('side-0')) out[g.dataset.point] = 0;
          if (g.classList.contains('side-1')) out[g.dataset.point] = 1;
        }
        return out;""")


def new_game(p, names, pieces=None, computer=None, colour=None):
    p.start()
    p.tap("#new-morris")
    p.wait_css("#new-player")
    if computer:
        p.tap("#opponent-computer")
        p.wait_pressed("#opponent-computer")
        p.tap(f"#level-{computer}")
        p.wait_pressed(f"#level-{computer}")
        if colour is not None:
            p.tap(f"#colour-{colour}")
            p.wait_pressed(f"#colour-{colour}")
    add_players(p, *names)
    if pieces:
        p.tap(f"#rule-pieces-{pieces}")
        p.wait_pressed(f"#rule-pieces-{pieces}")
    return p


GAME = ["f4", "d1", "c3", "d2", "c4", "f6", "b6", "f2", "c5", "xd1", "d3", "b2", "g1",
        "c4-b4", "xg1", "f6-d6", "b4-c4", "xd2", "d6-d5", "c4-b4", "xd3"]


def test_a_full_game_by_tapping_with_mills_removals_undo_and_redo(partie):
    p = new_game(partie, ["Alice", "Bruno"], pieces=6)
    p.shot("40-morris-setup")
    p.begin()
    p.wait_css("#mor-board")
    assert p.text("#status-line") == "Alice to place a piece"
    assert p.count("#mor-board .target") == 24
    for t in GAME[:9]:
        play(p, t)
    # c3-c4-c5: a mill. Only Bruno's pieces outside mills are offered, and the board says so.
    assert p.text("#status-line").startswith("Alice closed a mill")
    assert sorted(p.d.execute_script(
        "return [...document.querySelectorAll('#mor-board .removable')].map(g => g.dataset.point)")) == ["d1", "d2", "f2", "f6"]
    p.tap_at(point("b6"))                   # her own piece: nothing happens
    time.sleep(0.5)                         # (a token sent by mistake would have landed by now)
    assert actions(p) == 9
    assert p.count("#mor-board .removable") == 4
    p.shot("41-morris-removal")
    # A phone held sideways: the board beside the players and the actions, all in view.
    p.size(844, 390)
    time.sleep(0.4)
    r = p.d.execute_script("""
        const box = (s) => document.querySelector(s).getBoundingClientRect();
        return {board: box('#mor-board'), panel: box('.mor-panel'), status: box('#status-line'),
                undo: box('#undo'), height: innerHeight};""")
    assert r["board"]["right"] <= r["status"]["left"] and r["board"]["right"] <= r["panel"]["left"], r
    assert r["board"]["bottom"] <= r["height"] and r["undo"]["bottom"] <= r["height"], r
    assert r["board"]["height"] >= 250, r
    shoot(p.d, "41b-morris-landscape-phone.png")
    p.size(390, 844)
    play(p, "xd1")
    assert p.texts('[data-on-board] b') == ["5", "3"]
    # Undo takes the removal back, redo plays it again.
    p.tap("#undo")
    wait_actions(p, 9)
    assert "d1" in board(p)
    p.tap("#redo")
    wait_actions(p, 10)
    assert "d1" not in board(p)
    for t in GAME[10:16]:
        play(p, t)
    # A move by dragging: b4 to c4.
    before = actions(p)
    p.d.execute_script("""
        const from = document.querySelector('[data-point="b4"]'), to = document.querySelector('[data-point="c4"]');
        const at = (el) => { const r = el.getBoundingClientRect(); return {clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, bubbles: true, pointerType: 'touch'}; };
        from.dispatchEvent(new PointerEvent('pointerdown', at(from)));
        to.dispatchEvent(new PointerEvent('pointerup', at(to)));""")
    wait_actions(p, before + 1)
    assert board(p).get("c4") == 0
    for t in GAME[17:]:
        play(p, t)
    p.wait_css('section.morris[data-status="won"]')
    assert p.text("#status-line") == "Alice wins! · Bruno has only two pieces left"
    assert p.count("#mor-board .target, #mor-board .removable") == 0
    moves = p.d.execute_script("return document.querySelector('#mor-move-list').value")
    assert moves == ("1. f4 d1 2. c3 d2 3. c4 f6 4. b6 f2 5. c5xd1 d3 6. b2 g1 7. c4-b4xg1 f6-d6 "
                     "8. b4-c4xd2 d6-d5 9. c4-b4xd3 1-0")
    p.shot("42-morris-won")


def test_against_the_easiest_computer_to_the_end(partie):
    p = new_game(partie, ["Alice"], computer=1)
    p.begin()
    p.wait_css("#mor-board")
    assert p.texts(".mor-side-name small")[1] == "computer · level 1"
    for turn in range(300):
        status = p.attr("section.morris", "data-status")
        if status != "playing":
            break
        n = actions(p)
        # Alice's turn: remove, place, or move a piece (the first one offered).
        if p.count("#mor-board .removable"):
            p.tap_at("#mor-board .removable")
        elif p.count("#mor-board .target"):
            p.tap_at("#mor-board .target")
        else:
            select(p, "#mor-board [data-point][tabindex='0']")
            p.tap_at("#mor-board .target")
        # Her token, then the computer's reply (or the end): until Alice acts again.
        wait_actions_above(p, n)
        p.wait_until("const s = document.querySelector('section.morris'); return s && (s.dataset.status !== 'playing' "
                     "|| (document.querySelector('.mor-side.active[data-side=\"0\"]') && "
                     "!document.querySelector('#status-line').textContent.includes('thinking')))", 20)
        if turn == 3:
            p.shot("43-morris-computer")
            # Undo takes back the computer's reply and Alice's move together.
            # A double tap on it takes back one turn, not two.
            before = actions(p)
            p.double_tap("#undo")
            p.wait_until(f"return Number(document.querySelector('section.morris').dataset.actions) < {before - 1}")
            after = actions(p)
            time.sleep(0.8)
            assert actions(p) == after, "a double tap took back two turns"
            assert p.text("#status-line").startswith("Alice"), "back to a position where Alice acts"
            assert p.count("#mor-board .target, #mor-board .removable") > 0
    p.wait_css("#rematch")
    assert p.attr("section.morris", "data-status") in ("won", "drawn")
    # The computer is nobody's name: not among the players, not offered at the next setup.
    p.go_hash("#/players")
    p.wait_until("return document.querySelectorAll('#player-list [data-player]').length > 0")
    assert p.texts("#player-list .match-game") == ["Alice"]
    p.go_hash("#/setup/molkky")
    # The last line-up (Alice) is taken back out, so that every known player is offered.
    p.wait_css('[data-key="x-0-0"]')
    p.tap('[data-key="x-0-0"]')
    p.wait_until("return !!document.querySelector('#known-players [data-player=\"Alice\"]')")
    assert p.texts("#known-players .chip") == ["Alice"]


def test_killed_mid_game_resumes_on_the_same_board(partie):
    p = new_game(partie, ["Alice", "Bruno"])
    p.begin()
    p.wait_css("#mor-board")
    for t in ["a1", "d6", "a4", "f4", "a7"]:
        play(p, t)
    before = board(p)
    p.kill_app()
    p.start()
    p.wait_css("#unfinished")
    p.tap("#unfinished .match-open")
    p.wait_css("#mor-board")
    assert board(p) == before
    assert p.text("#status-line").startswith("Alice closed a mill")
    play(p, "xf4")
    assert p.text("#status-line") == "Bruno to place a piece"
    # The French board, in the outdoor theme.
    p.tap("#nav-settings")
    p.tap("#set-language-fr")
    p.wait_until("return document.documentElement.lang === 'fr'")
    p.tap("#set-theme-outdoor")
    p.wait_until("return document.documentElement.dataset.theme === 'outdoor'")
    p.tap("#nav-back")                      # back to the board
    p.wait_css("#mor-board")
    assert p.text("#status-line") == "À Bruno de poser un pion"
    p.shot("44-morris-fr-outdoor")


def test_a_tap_held_across_a_redraw_still_lands(partie):
    """A finger pressed on a point while the screen redraws (here: the app comes back to the
    front and reloads the match) still plays there when it lifts: the board's points are kept,
    not drawn anew. The move list opened for export stays open as moves come."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.begin()
    p.wait_css("#mor-board")
    p.tap_across_redraw(point("d6"))
    wait_actions(p, 1)
    assert board(p) == {"d6": 0}
    # The move list, opened for export, stays open while the game goes on.
    p.tap(".mor-export summary")
    p.wait_until("return document.querySelector('.mor-export').open")
    play(p, "f4")
    assert p.d.execute_script("return document.querySelector('.mor-export').open")
    assert p.d.execute_script("return document.querySelector('#mor-move-list').value") == "1. d6 f4"


def test_a_hint_that_comes_after_a_move_is_dropped(partie):
    """The hint's search takes a while and the board stays in play. A hint that comes back after
    a move is for a position gone: it is neither shown nor announced (it used to be, and the
    next player saw the last one's best move). Asked for in the position on screen, it shows."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.begin()
    p.wait_css("#mor-board")
    p.slow_command("hint", 1500, before=False)
    p.tap("#hint")
    p.wait_until("return window.__asked.hint === 1", 2)   # the hint is on its way
    play(p, "d6")
    p.wait_until("return window.__delivered.hint === 1", 15)   # the old hint has come back
    time.sleep(0.5)                         # and anything it would draw or say is there
    assert p.delivered("hint") == 1
    assert p.count("#mor-board .hint") == 0
    assert "Hint" not in p.d.execute_script("return document.querySelector('#announce').textContent")
    p.tap("#hint")
    p.wait_until("return document.querySelectorAll('#mor-board .hint').length === 1", 10)
    p.wait_until("return document.querySelector('#announce').textContent.startsWith('Hint: ')")


def test_resigning_asks_first_and_the_keyboard_follows_the_question(partie):
    """Resign asks for a second word. The question takes the focus (its Yes), Cancel gives it
    back to Resign, and Yes ends the game for the other side and puts the focus on the line
    that says so."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.begin()
    p.wait_css("#mor-board")
    play(p, "d6")
    active = "return document.activeElement?.id ?? null"
    p.tap("#resign")
    p.wait_until("return document.activeElement?.id === 'confirm-yes'")
    assert p.d.execute_script("return document.querySelector('[role=alertdialog]').getAttribute('aria-label')")
    p.tap("#confirm-no")
    p.wait_until("return document.activeElement?.id === 'resign'")
    assert p.count("[role=alertdialog]") == 0
    assert p.d.execute_script(active) == "resign"
    p.tap("#resign")
    p.wait_until("return document.activeElement?.id === 'confirm-yes'")
    p.d.switch_to.active_element.send_keys(Keys.ENTER)
    p.wait_until("return document.querySelector('section.morris').dataset.status !== 'playing'")
    assert p.text("#status-line") == "Alice wins! · Bruno resigned"
    # The question went with its Yes: the focus is on the line that says how the game ended.
    p.wait_until("return document.activeElement?.id === 'status-line'")


def test_the_board_is_played_with_the_keyboard(partie):
    """Tab reaches the points that can be played, Enter or Space plays one, and the focus stays
    on that point while the board redraws, so the next key goes on from there."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.begin()
    p.wait_css("#mor-board")
    focused = "return document.activeElement?.dataset?.point ?? null"
    p.d.execute_script("document.querySelector('#mor-board [data-point=\"a1\"]').focus()")
    assert p.d.execute_script(focused) == "a1"
    p.d.switch_to.active_element.send_keys(Keys.ENTER)
    wait_actions(p, 1)
    assert p.d.execute_script(focused) == "a1", "the focus stays on the point just played"
    p.d.switch_to.active_element.send_keys(Keys.TAB)
    nxt = p.d.execute_script(focused)
    assert nxt not in (None, "a1"), "Tab goes on to the next point Bruno can take"
    p.d.switch_to.active_element.send_keys(" ")
    wait_actions(p, 2)
    assert board(p) == {"a1": 0, nxt: 1}
    assert p.d.execute_script(focused) == nxt


def test_an_answer_of_the_computer_that_comes_after_an_undo_is_dropped(partie):
    """The computer has moved and its answer is on its way when Alice takes her move back: the
    answer that comes after the undo is no one's, and the board stays at the position the undo
    went back to (the undone move used to be drawn over it, so the screen showed what was no
    longer in the record)."""
    p = new_game(partie, ["Alice"], computer=1)
    p.begin()
    p.wait_css("#mor-board")
    p.slow_command("computer_move", 2500, before=False)
    play(p, "d6")
    p.wait_until("return window.__asked.computer_move === 1")
    time.sleep(0.5)                          # level 1 has moved: its answer is on its way
    p.tap("#undo")
    p.wait_until("return Number(document.querySelector('section.morris').dataset.actions) === 0")
    time.sleep(3)                            # the late answer has come
    assert actions(p) == 0
    assert p.count("#mor-board .side-0, #mor-board .side-1") == 0
    assert p.text("#status-line").startswith("Alice")
    assert p.count("#mor-board .target") == 24


def test_a_reload_that_comes_after_a_move_is_not_drawn_over_it(partie):
    """The app comes back to the front and reloads the match; the answer is slow, and a move is
    made meanwhile: the reload read the board before the move, and is not drawn over it (the
    move used to vanish from the screen while it stood in the record)."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.begin()
    p.wait_css("#mor-board")
    p.slow_command("get_match", 2000, before=False)
    p.d.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    play(p, "d6")
    time.sleep(2.5)                          # the reload's answer has come
    assert p.asked("get_match") == 1
    assert actions(p) == 1
    assert p.count("#mor-board .side-0") == 1
    assert p.text("#status-line").startswith("Bruno")


def test_the_computers_answer_to_a_draw_offer_counts_only_where_it_was_asked(partie):
    """Alice offers a draw to the computer and takes her last move back before its answer
    comes: the answer judged another position, and is dropped (no draw is committed, no
    refusal shown); a notice says the offer lapsed."""
    p = new_game(partie, ["Alice"], computer=1)
    p.begin()
    p.wait_css("#mor-board")
    p.tap_at(point("d6"))
    wait_actions_above(p, 1)                  # Alice's placement and the computer's reply
    p.wait_until("return !document.querySelector('#status-line').textContent.includes('thinking')")
    p.slow_command("draw_offer", 2000, before=False)
    p.tap("#offer-draw")
    p.wait_css("#confirm-yes")
    p.tap("#confirm-yes")
    p.wait_until("return window.__asked.draw_offer === 1 && !document.querySelector('[role=alertdialog]')")
    p.tap("#undo")
    p.wait_until("return Number(document.querySelector('section.morris').dataset.actions) === 0")
    time.sleep(2.5)                          # the answer has come
    assert p.attr("section.morris", "data-status") == "playing"
    assert actions(p) == 0
    assert p.d.execute_script("return document.querySelector('#toast').hidden"), p.text("#toast")
    # ...and Alice is told that her offer lapsed, rather than left waiting for an answer.
    assert p.text("#notice") == "The draw offer lapsed: the position changed before the computer answered."


def test_redo_tapped_while_an_undo_is_on_its_way_waits_and_loses_no_move(partie):
    """Two moves taken back, the second undo slow: Redo tapped before its answer does nothing
    (it used to send the first move taken back into the middle of the undo, and one move was
    lost). Both moves then come back with two taps of Redo, in their order."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.begin()
    p.wait_css("#mor-board")
    play(p, "d6")
    play(p, "d1")
    p.tap("#undo")
    wait_actions(p, 1)
    p.slow_command("undo_to_person", 1500, before=False)
    time.sleep(0.7)                          # a second undo is a second tap, not a double tap
    p.d.execute_script("document.querySelector('#undo').click(); document.querySelector('#redo').click()")
    p.wait_until("return window.__asked.undo_to_person === 1")
    wait_actions(p, 0, timeout=5)
    time.sleep(0.7)                          # a Redo sent meanwhile would have landed by now
    assert actions(p) == 0                   # (and a tap comes after the undo's calm)
    assert board(p) == {}
    p.tap("#redo")
    wait_actions(p, 1)
    assert board(p) == {"d6": 0}
    p.tap("#redo")
    wait_actions(p, 2)
    assert board(p) == {"d6": 0, "d1": 1}
    assert p.attr("#redo", "disabled") is not None


def test_a_move_list_typed_is_imported_and_a_wrong_word_is_named(partie):
    """A move list typed in: a word that is not a move, or a move the rules refuse, is named
    with the reason in the user's words (it was told in Rust's English as a bad file); the
    list corrected opens as a match at its position."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.d.execute_script("document.querySelector('.mor-import').open = true")
    field = "#import-moves"
    for typed, said in (("1. a1 a1", "a1 — That point is taken."),
                        ("1. a1 d6 2. a4 f4 3. a7xa1", "xa1 — Remove one of your opponent’s pieces."),
                        ("1. a1 d6?", "d6? — This is not a Nine Men’s Morris move.")):
        p.d.execute_script(f"const i = document.querySelector('{field}'); i.value = ''; i.dispatchEvent(new Event('input'))")
        p.type(field, typed)
        p.tap("#import-moves-go")
        p.wait_until(f"return document.querySelector('#toast').textContent === {said!r}")
        assert p.count("#mor-board") == 0, "no match made"
    p.d.execute_script(f"const i = document.querySelector('{field}'); i.value = ''; i.dispatchEvent(new Event('input'))")
    p.type(field, "1. a1 d6 2. a4 f4 3. a7xd6")
    p.tap("#import-moves-go")
    p.wait_css("#mor-board")
    wait_actions(p, 6)
    assert board(p) == {"a1": 0, "a4": 0, "a7": 0, "f4": 1}


def test_a_redo_refused_keeps_its_move_to_redo(partie):
    """Redo refused by the store (a full disk): nothing was played, the move taken back is still
    there to redo (it used to be dropped from the stack), and the next Redo plays it."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.begin()
    p.wait_css("#mor-board")
    play(p, "d6")
    p.tap("#undo")
    wait_actions(p, 0)
    p.fail_command("play", {"kind": "storage", "detail": "disk full"})
    p.tap("#redo")
    p.wait_until("return !document.querySelector('#toast').hidden")
    assert actions(p) == 0
    p.wait_until("return !document.querySelector('#redo').disabled")
    p.tap("#redo")
    wait_actions(p, 1)
    assert board(p) == {"d6": 0}


def test_the_computer_does_not_think_for_a_match_another_device_scores(partie):
    """A match against the computer that came from elsewhere, at the computer's turn: its move
    is made where the match is scored. The screen asks nothing of the computer here and shows no
    refusal (it used to think, be refused, reload and think again, for ever)."""
    p = partie
    p.start()
    p.slow_command("computer_move", 0)
    record = {"format": 1, "id": "alice-vs-computer", "revision": 1, "game": "morris",
              "sides": [["Alice"], ["Computer"]], "computer": {"1": 1}, "actions": ["d6"]}
    p.import_record(record)
    p.wait_css("#unfinished-elsewhere .match-open")
    p.tap("#unfinished-elsewhere .match-open")
    p.wait_css("#mor-board")
    p.wait_until("return !document.querySelector('#elsewhere').hidden")
    time.sleep(1.5)                          # long enough for the computer to have been asked
    assert p.asked("computer_move") == 0
    assert p.d.execute_script("return document.querySelector('#toast').hidden"), p.text("#toast")
    assert actions(p) == 1


def test_the_computer_is_named_in_the_language_of_today(partie):
    """A match against the computer started in English, reopened after the language became
    French: the computer is 'Ordinateur' on the board (it said 'Computer' there for good, and
    'Computer gagne !' at the end)."""
    p = new_game(partie, ["Alice"], computer=1)
    p.begin()
    p.wait_css("#mor-board")
    assert p.texts(".mor-side-name strong") == ["Alice", "Computer"]
    p.tap("#nav-settings")
    p.tap("#set-language-fr")
    p.wait_until("return document.documentElement.lang === 'fr'")
    p.tap("#nav-back")
    p.wait_css("#mor-board")
    p.wait_until("return [...document.querySelectorAll('.mor-side-name strong')].map((e) => e.textContent).join() === 'Alice,Ordinateur'")
    assert p.texts(".mor-side-name small")[1] == "ordinateur · niveau 1"


def test_the_computer_chosen_benches_the_other_players_and_a_person_brings_them_back(partie):
    """Choosing the computer as opponent takes every place but the first: who had them is
    said, and choosing a person again brings them back (they were dropped without a word)."""
    p = partie
    p.start()
    p.tap("#new-morris")
    p.wait_css("#new-player")
    add_players(p, "Anna", "Bea")
    p.tap("#opponent-computer")
    p.wait_pressed("#opponent-computer")
    p.wait_until("return document.querySelectorAll('#sides .chip-name').length === 1")
    assert p.texts("#sides .chip-name") == ["Anna"]
    p.wait_until("return document.querySelector('#announce').textContent === 'Removed: Bea'")
    p.tap("#opponent-person")
    p.wait_pressed("#opponent-person")
    p.wait_until("return document.querySelectorAll('#sides .chip-name').length === 2")
    assert p.texts("#sides .chip-name") == ["Anna", "Bea"]
    p.wait_until("return document.querySelector('#announce').textContent === 'Added: Bea'")
    # A full line-up: a third name takes the last place, and who had it is said.
    add_players(p, "Cyril")
    assert p.texts("#sides .chip-name") == ["Anna", "Cyril"]
    p.wait_until("return document.querySelector('#announce').textContent === 'Added: Cyril, in place of Bea'")


def test_an_undo_back_to_the_computers_first_move_asks_it_again(partie):
    """Alice plays dark: the computer opens. Undo before her first move takes the record back to
    its start, the computer to play; the computer is asked again and the board is Alice's (it
    stayed frozen: nothing asked the computer, Undo greyed, no way on but leaving). A computer's
    move that fails offers Retry."""
    p = new_game(partie, ["Alice"], computer=1, colour=1)
    p.begin()
    p.wait_css("#mor-board")
    wait_actions(p, 1)
    p.wait_until("return document.querySelectorAll('#mor-board .target').length > 0")
    p.slow_command("computer_move", 800, before=False)
    p.tap("#undo")
    wait_actions(p, 0)
    wait_actions(p, 1)
    p.wait_until("return document.querySelectorAll('#mor-board .target').length > 0")
    assert p.text("#status-line") == "Alice to place a piece"
    # The next computer's move fails once: said, and Retry asks it again.
    p.fail_command("computer_move", {"kind": "storage", "detail": "disk full"})
    play(p, p.d.execute_script("return document.querySelector('#mor-board .target').dataset.point"))
    p.wait_css("#retry-computer")
    assert actions(p) == 2
    assert p.count("#mor-board .target") == 0, "the board waits for the computer"
    p.shot("47-morris-computer-failed")
    p.tap("#retry-computer")
    wait_actions(p, 3)
    assert p.count("#retry-computer") == 0


def click_twice(p, selector, gap_ms=100):
    """Two clicks on the node `selector` finds at each moment, `gap_ms` apart, timed in the
    page: a finger's double tap on one place (the second lands on what the first's answer
    put there)."""
    p.d.execute_async_script("""
        const [sel, gap] = arguments, done = arguments[arguments.length - 1];
        const click = () => document.querySelector(sel)?.dispatchEvent(new MouseEvent('click', {bubbles: true, detail: 1}));
        click();
        setTimeout(() => { click(); setTimeout(done, 50); }, gap);
    """, selector, gap_ms)


def test_a_double_tap_or_a_held_key_is_one_move(partie):
    """Alice closes a mill and takes Bruno's piece with Enter held down: its repeats land on the
    point just emptied, Bruno's to place on, and are no taps. Her next mill's removal is a
    double tap: the second tap lands there too and is not a move of Bruno's. A deliberate tap
    on that point later plays."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.begin()
    p.wait_css("#mor-board")
    for t in ["a7", "b6", "d7", "c5", "g7"]:
        play(p, t)
    assert p.count("#mor-board .removable") == 2
    p.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const g = document.querySelector('#mor-board [data-point="b6"]');
        g.focus();
        const key = (repeat) => g.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', repeat, bubbles: true}));
        key(false);
        // A key held: its repeats come after the system's delay, the removal answered by then.
        setTimeout(() => { key(true); key(true); key(true); setTimeout(done, 300); }, 700);""")
    assert actions(p) == 6, "one removal, not a piece placed for Bruno on top"
    assert "b6" not in board(p)
    # The turn shows whole: the piece placed, the point it took marked, said at once.
    classes = "return document.querySelector(arguments[0]).getAttribute('class')"
    assert "last" in p.d.execute_script(classes, point("g7")).split()
    assert "taken" in p.d.execute_script(classes, point("b6")).split()
    assert "taken last turn" in p.attr(point("b6"), "aria-label")
    p.wait_until("return document.querySelector('#announce').textContent === 'Alice: g7xb6'")
    for t in ["b4", "a4", "c4", "a1"]:
        play(p, t)
    assert p.count("#mor-board .removable") == 3
    p.slow_command("play", 150, before=False)
    click_twice(p, point("c5"), 300)
    time.sleep(0.8)
    assert actions(p) == 11, "one removal, not a piece placed for Bruno on top"
    assert "c5" not in board(p)
    # Later, a tap on the point emptied is a move of its own.
    play(p, "c5")
    assert board(p).get("c5") == 1


def test_the_resign_question_goes_with_a_move_and_a_hint_is_asked_once(partie):
    """Resign asked, then a move played instead of Cancel: the question was Alice's and goes
    (it stayed, and then asked Bruno to resign). Hint is greyed while its search runs, so that
    taps on it start no more searches, and says it is looking."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.begin()
    p.wait_css("#mor-board")
    p.tap("#resign")
    p.wait_css("[role=alertdialog]")
    play(p, "d6")
    p.wait_until("return document.querySelectorAll('[role=alertdialog]').length === 0")
    p.slow_command("hint", 1500, before=True)
    p.tap("#hint")
    p.wait_until("return document.querySelector('#hint').disabled")
    assert p.text("#hint") == "Looking for a hint…"
    p.double_tap("#hint")
    p.wait_until("return document.querySelectorAll('#mor-board .hint').length > 0", 10)
    assert p.asked("hint") == 1, "one search for several taps"
    assert not p.d.execute_script("return document.querySelector('#hint').disabled")


def test_leaving_a_board_lets_the_screen_sleep(partie):
    """The board keeps the screen awake while a game is on; leaving it lets it go (the screen
    stayed lit on Home for as long as the app was in front)."""
    p = new_game(partie, ["Alice", "Bruno"])
    p.d.execute_script("""
        window.__locks = 0;
        Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
          request: async () => { window.__locks += 1; const l = { released: false,
            release: async () => { if (!l.released) { l.released = true; window.__locks -= 1; } },
            addEventListener() {} }; return l; } }});""")
    p.begin()
    p.wait_css("#mor-board")
    play(p, "d6")
    p.wait_until("return window.__locks === 1")
    p.d.execute_script("history.back()")
    p.wait_until("return !document.querySelector('section.morris')")
    p.wait_until("return window.__locks === 0")
