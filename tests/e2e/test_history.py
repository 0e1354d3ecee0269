"""The club's memory: matches found in the history, a player's statistics and page."""
import time

from selenium.webdriver.common.keys import Keys

from test_molkky import add_players, clear_lineup, set_number


def quick_molkky(p, names, winner_first=True):
    p.tap("#new-molkky")
    p.wait_css("#new-player")
    clear_lineup(p)
    add_players(p, *names)
    set_number(p, "#rule-target", 10)
    p.begin()
    p.wait_css("#pins")
    if winner_first:
        p.throw(10)
    else:
        p.throw()
        p.throw(10)
    p.wait_css("#end-screen")
    p.tap("#go-home")
    p.wait_css("#new-molkky")


def test_a_screen_left_before_its_list_came_does_not_draw_over_the_next(partie):
    """Home asks for its lists; a person taps a game before they come. When they do, the new
    game's screen stays: the home screen, gone, draws no more (it used to, over the setup)."""
    p = partie
    p.start()
    quick_molkky(p, ["Anna", "Bea"])
    # The home list answers 3 s late, as a slow storage would.
    p.slow_command("home", 3000)
    p.go_hash("#/history")
    p.go_hash("#/home")
    p.wait_css("#new-molkky")
    assert p.count("#recent") == 0, "the home list came before the tap: the delay did not take"
    p.tap("#new-molkky")
    p.wait_css("#new-player")
    time.sleep(3.5)
    assert p.d.execute_script("return location.hash") == "#/setup/molkky"
    assert p.count("#new-player") == 1
    assert p.count("#new-molkky") == 0, "the home screen drew over the new game's screen"


def two_matches(p, second):
    """Anna beats Bea; then `second` loses to Cyril."""
    p.start()
    quick_molkky(p, ["Anna", "Bea"])
    quick_molkky(p, [second, "Cyril"], winner_first=False)


def test_two_matches_in_the_history_and_a_players_statistics(partie):
    p = partie
    two_matches(p, "Anna")
    p.tap("#open-history")
    p.wait_css("#history-list")
    assert p.count("#history-list .match-row") == 2
    assert p.texts("#history-list .match-sides") == ["Anna\nCyril", "Anna\nBea"] or \
        [t.split() for t in p.texts("#history-list .match-sides")] == [["Anna", "Cyril"], ["Anna", "Bea"]]
    p.shot("30-history")
    # The players of the filter come from their own answer, maybe a frame after the list.
    p.wait_until("return [...document.querySelectorAll('#filter-player option')].some(o => o.textContent === 'Cyril')")
    cyril = p.d.execute_script("return Array.from(document.querySelectorAll('#filter-player option')).find(o => o.textContent === 'Cyril').value")
    p.d.execute_script(f"const s = document.querySelector('#filter-player'); s.value = '{cyril}'; s.dispatchEvent(new Event('change'))")
    p.wait_until("return document.querySelectorAll('#history-list .match-row').length === 1")
    p.tap("#history-list .match-open")
    p.wait_css("#end-screen")
    assert p.text("#end-title") == "Cyril wins!"

    # Where it was played and a remark, kept with the match.
    p.type("#match-place", "Parc de la Tête d'Or")
    p.type("#match-notes", "windy, Cyril's first win")
    p.tap("#save-notes")
    p.wait_text(".notes-status", "Saved")
    assert p.count("#notes-local") == 0, "played here: its notes go with it"
    # Share says the place just saved (it said it only once the screen was read again).
    p.tap("#share")
    p.wait_css("#notice:not([hidden])")
    assert "(Parc de la Tête d'Or)" in p.text("#notice"), p.text("#notice")
    p.shot("32-match-notes")
    p.d.execute_script("location.hash = '#/history'")
    p.wait_css("#history-list")
    p.d.execute_script("const s = document.querySelector('#filter-when'); s.value = '7'; s.dispatchEvent(new Event('change'))")
    # Two rows were there before the filter: its answer is waited for by what it says.
    p.wait_until("return document.querySelector('#announce').textContent === '2 matches shown'")
    p.wait_until("return document.querySelectorAll('#history-list .match-row').length === 2")
    p.tap("#history-list .match-open")
    p.wait_css("#match-place")
    assert p.d.execute_script("return document.querySelector('#match-place').value") == "Parc de la Tête d'Or"
    assert p.d.execute_script("return document.querySelector('#match-notes').value") == "windy, Cyril's first win"

    p.tap("#nav-back")
    p.wait_css("#new-molkky")
    p.tap("#open-players")
    # The list is drawn empty at once and filled when the players come.
    p.wait_until("return document.querySelectorAll('#player-list [data-player]').length === 3")
    assert sorted(p.texts("#player-list .match-game")) == ["Anna", "Bea", "Cyril"]
    anna = p.d.execute_script("return Array.from(document.querySelectorAll('#player-list [data-player]')).find(b => b.textContent === 'Anna').dataset.player")
    p.tap(f'#player-list [data-player="{anna}"]')
    p.wait_css('[data-stats="molkky"]')
    assert p.text("#title") == "Anna"
    # Anna: one throw of 10 (a win), one miss (a loss): 5 points per throw, half missed.
    assert p.text('[data-stats="molkky"] .stats-line') == "2 matches · 1 won · 1 lost · 0 drawn · 50 % won"
    assert p.text('[data-rate="points_per_throw"]') == "5.0"
    assert p.text('[data-rate="miss_rate"]') == "50 %"
    assert p.count('[data-stats="molkky"] .form-dot') == 2
    p.shot("31-player-statistics")
    # Her History is her matches (it was everyone's).
    p.tap("#player-history")
    p.wait_until(f"return location.hash === '#/history/{anna}'")
    p.wait_until("return document.querySelectorAll('#history-list .match-row').length === 2")
    assert p.d.execute_script("return document.querySelector('#filter-player').value") == anna
    p.d.execute_script("history.back()")
    p.wait_css('[data-stats="molkky"]')

    # A new name being typed stays when the app comes back to the front and the page reloads
    # (it went back to the stored name, and Save then saved that).
    p.d.execute_script("const i = document.querySelector('#rename'); i.value = 'Annie'; i.dispatchEvent(new Event('input')); i.blur()")
    p.d.execute_script("""
        document.querySelector('#rename-save').dataset.before = 'yes';
        document.dispatchEvent(new Event('visibilitychange'));""")
    p.wait_until("return !document.querySelector('#rename-save').dataset.before")
    assert p.d.execute_script("return document.querySelector('#rename').value") == "Annie"
    # Rename her everywhere.
    p.tap("#rename-save")
    p.wait_text("#title", "Annie")
    p.d.execute_script("location.hash = '#/history'")
    p.wait_css("#history-list")
    assert "Annie" in p.text("#history-list")
    # The last line-up (Anna, Cyril) no longer names her: she is not brought back as a new
    # "Anna" at the next Start; she is among the known players as Annie.
    p.d.execute_script("location.hash = '#/home'")
    p.tap("#new-molkky")
    p.wait_until("return !!document.querySelector('#known-players [data-player=\"Annie\"]')")
    assert p.texts("#sides .chip-name") == ["Cyril"]


def test_a_duplicate_player_merged_into_the_right_one(partie):
    """Anne was typed for Anna once: on Anna's page, Anne is chosen to merge; the page reloads
    (the app back to the front) and the choice is still the one shown; Merge moves Anne's
    match to Anna, says so, and Anne is gone from the list."""
    p = partie
    two_matches(p, "Anne")
    p.tap("#open-players")
    p.wait_until("return document.querySelectorAll('#player-list [data-player]').length === 4")
    anna = p.d.execute_script("return [...document.querySelectorAll('#player-list [data-player]')].find(b => b.textContent === 'Anna').dataset.player")
    p.tap(f'#player-list [data-player="{anna}"]')
    p.wait_css("#merge-with")
    # The figures come after the page (their own read).
    p.wait_until("""return document.querySelector('[data-stats="molkky"] .stats-line')?.textContent.startsWith('1 match')""")
    anne = p.d.execute_script("return [...document.querySelectorAll('#merge-with option')].find(o => o.textContent === 'Anne').value")
    p.d.execute_script(f"const s = document.querySelector('#merge-with'); s.value = '{anne}'; s.dispatchEvent(new Event('change'))")
    p.d.execute_script("""
        document.querySelector('#merge').dataset.before = 'yes';
        document.dispatchEvent(new Event('visibilitychange'));""")
    p.wait_until("return !document.querySelector('#merge').dataset.before")
    assert p.d.execute_script("return document.querySelector('#merge-with').value") == anne
    # A merge cannot be taken back: the first tap says who goes into whom and asks again, and
    # the second tap of a double tap is not the confirmation.
    p.double_tap("#merge")
    p.wait_until("return document.querySelector('#merge').classList.contains('armed')")
    assert p.text("#merge") == "Tap again: Anne’s matches become Anna’s"
    time.sleep(0.6)
    assert p.text('[data-stats="molkky"] .stats-line').startswith("1 match"), "nothing merged yet"
    assert p.attr("#merge", "class") == "btn armed"
    p.tap("#merge")
    p.wait_until("return document.querySelector('#announce').textContent === 'Players merged'")
    p.wait_until("return (document.querySelector('[data-stats=\"molkky\"] .stats-line')?.textContent || '').startsWith('2 matches')")
    # Her form: one picture that says it, newest first.
    assert p.attr('[data-stats="molkky"] .form', "role") == "img"
    assert p.attr('[data-stats="molkky"] .form', "aria-label") == "lost, won"
    assert "Anne" not in p.texts("#merge-with option")
    # Anne's page, reached again (Back, a link kept): she is no longer a player, and the page
    # says so with a way back, where it stayed on "Loading…".
    p.d.execute_script(f"location.hash = '#/players/{anne}'")
    p.wait_text("#no-player", "That player is no longer in the history.")
    p.shot("33b-player-gone")
    p.tap("#to-players")
    p.wait_until("return document.querySelectorAll('#player-list [data-player]').length === 3")
    assert sorted(p.texts("#player-list .match-game")) == ["Anna", "Bea", "Cyril"]


def test_replay_share_export_and_import_into_an_empty_profile(tmp_path, monkeypatch):
    """Two matches, one replayed step by step, shared, exported; a discard taken back; the
    statistics' charts, head to head and leaderboard; the export imported on a fresh profile."""
    from conftest import Partie
    monkeypatch.setenv("PARTIE_EXPORT_DIR", str(tmp_path))
    p = Partie()
    try:
        p.start()
        quick_molkky(p, ["Anna", "Bea"], winner_first=False)
        quick_molkky(p, ["Anna", "Bea"])
        p.tap("#open-history")
        p.wait_css("#history-list")
        p.tap("#history-list .match-row:last-child .match-open")   # the first match: Bea won
        p.wait_css("#end-screen")
        assert p.text("#end-title") == "Bea wins!"

        # Replay, its first step refused once (a database that failed): said, with Retry, not
        # "Loading…" for ever; Retry brings it.
        p.fail_command("summary_at", {"kind": "storage", "detail": "disk I/O error"})
        p.tap("#replay")
        p.wait_css("#load-failed")
        # A read that failed is told as one, not as a save that failed.
        assert p.text("#load-failed .warning") == "The history could not be read. Nothing was changed. (disk I/O error)"
        assert p.d.execute_script("return document.querySelector('#toast').hidden || !document.querySelector('#toast').textContent"), "said twice"
        p.shot("35a-replay-failed")
        p.tap("#retry")
        # Replay: the start, each throw, back again.
        p.wait_css("#replay-list")
        assert p.text("#replay-step") == "Step 0 of 2"
        assert p.texts("#replay-scores [data-score]") == ["0", "0"]
        p.tap("#replay-next")
        p.wait_text("#replay-step", "Step 1 of 2")
        assert p.text("#replay-action") == "Miss"
        p.tap("#replay-last")
        p.wait_text("#replay-step", "Step 2 of 2")
        assert p.text("#replay-action") == "pins 10"
        assert p.texts("#replay-scores [data-score]") == ["0", "10"]
        p.tap("#replay-prev")
        p.wait_text("#replay-step", "Step 1 of 2")
        assert p.texts("#replay-scores [data-score]") == ["0", "0"]
        p.shot("35-replay")
        # With the keyboard: the slider keeps the focus while each step redraws the screen.
        p.d.execute_script("document.querySelector('#replay-slider').focus()")
        for key, step in [(Keys.ARROW_LEFT, 0), (Keys.ARROW_RIGHT, 1), (Keys.ARROW_RIGHT, 2)]:
            p.d.switch_to.active_element.send_keys(key)
            p.wait_text("#replay-step", f"Step {step} of 2")
            assert p.d.execute_script("return document.activeElement.id") == "replay-slider"

        # Share the result as a short text; export this match to a file.
        p.tap("#nav-back")
        p.wait_css("#share")
        p.tap("#share")
        p.wait_css("#notice:not([hidden])")
        assert "Mölkky" in p.text("#notice") and "Anna 0 – Bea 10. Bea wins!" in p.text("#notice")
        p.tap("#export-match")
        p.wait_until("return document.querySelector('#notice').textContent.startsWith('Written')")
        assert len(list(tmp_path.glob("partie-match-*.json"))) == 1

        # A match started then discarded comes back with Undo.
        p.d.execute_script("location.hash = '#/home'")
        p.tap("#new-molkky")
        p.wait_css("#new-player")
        p.begin()
        p.wait_css("#pins")
        p.throw(3)
        p.tap("#nav-back")
        p.wait_css("#unfinished")
        # From the keyboard: Discard, Discard again; the row goes and its Undo has the focus.
        p.css("#unfinished [data-discard]").send_keys(Keys.ENTER)
        p.wait_until("return document.querySelector('#unfinished [data-discard]').classList.contains('armed')")
        time.sleep(0.6)                      # a second press at once is not the second asking
        p.css("#unfinished [data-discard]").send_keys(Keys.ENTER)
        p.wait_until("return !document.querySelector('#unfinished')")
        p.wait_until("return document.activeElement?.id === 'undo-last'")
        p.d.switch_to.active_element.send_keys(Keys.ENTER)
        p.wait_css("#unfinished .match-row")
        # The bar went with the focus in it: the focus is back on the screen, not the page.
        p.wait_until("return document.querySelector('#screen').contains(document.activeElement)")
        p.tap("#unfinished .match-open")
        p.wait_css("#pins")
        assert p.scores() == [3, 0], "the discarded match is back with its throw"

        # Two discards in a row: Undo takes back the latest, then offers the one before it (a
        # second discard used to make the first one final).
        p.tap("#nav-back")
        p.wait_css("#unfinished")
        p.tap("#new-molkky")
        p.wait_css("#new-player")
        p.begin()
        p.wait_css("#pins")
        p.throw(5)
        p.tap("#nav-back")
        p.wait_until("return document.querySelectorAll('#unfinished .match-row').length === 2")
        scores = sorted(p.texts("#unfinished .match-score"))
        for left in (2, 1):
            p.tap("#unfinished [data-discard]")
            p.wait_until("return document.querySelector('#unfinished [data-discard]').classList.contains('armed')")
            time.sleep(0.6)
            p.tap("#unfinished [data-discard]")
            p.wait_until(f"return document.querySelectorAll('#unfinished .match-row').length === {left - 1}")
        p.wait_css("#undo-bar:not([hidden])")
        p.shot("34b-undo-two-discards")
        # A double tap: the second tap lands on the Undo offered next, as soon as it is there;
        # it takes back nothing.
        second = p.d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const first = document.querySelector('#undo-last');
            first.click();
            const start = performance.now();
            (function poll() {
              const next = document.querySelector('#undo-last');
              if (next && next !== first) { next.click(); done(true); }
              else if (performance.now() - start > 5000) done(false);
              else setTimeout(poll, 5);
            })();""")
        assert second, "the bar offered the first discard after the second was taken back"
        p.wait_until("return document.querySelectorAll('#unfinished .match-row').length === 1")
        time.sleep(0.3)
        assert p.count("#unfinished .match-row") == 1, "a double tap takes back one discard"
        assert not p.d.execute_script("return document.querySelector('#undo-bar').hidden"), "the first discard is still offered"
        time.sleep(0.5)
        # An undo that fails (the disk is full) says why and stays offered: the next tap tries
        # it again; it does not bring back another match.
        p.fail_command("import_records", {"kind": "storage", "detail": "disk full"})
        p.tap("#undo-last")
        p.wait_until("return !document.querySelector('#toast').hidden && document.querySelector('#toast').textContent.includes('disk full')")
        time.sleep(0.7)
        assert p.count("#unfinished .match-row") == 1
        assert not p.d.execute_script("return document.querySelector('#undo-bar').hidden"), "the failed undo is still offered"
        p.tap("#undo-last")
        p.wait_until("return document.querySelectorAll('#unfinished .match-row').length === 2")
        p.wait_until("return document.querySelector('#undo-bar').hidden")
        assert sorted(p.texts("#unfinished .match-score")) == scores, "both matches are back as they were"

        # Anna's statistics: the charts, head to head with Bea, the leaderboard.
        p.d.execute_script("location.hash = '#/players'")
        p.wait_css("#leaderboard")
        # One win each: both on the board, once each, and nobody else.
        rows = p.texts("#leaderboard li")
        assert sorted(r.split()[0] for r in rows) == ["Anna", "Bea"], rows
        anna = p.d.execute_script("return Array.from(document.querySelectorAll('#player-list [data-player]')).find(b => b.textContent === 'Anna').dataset.player")
        p.tap(f'#player-list [data-player="{anna}"]')
        p.wait_css('[data-charts="molkky"]')
        assert p.count('[data-charts="molkky"] .chart-bar') == 2
        assert p.count('[data-charts="molkky"] .chart-dot') == 2
        bea = p.d.execute_script("return Array.from(document.querySelectorAll('#versus-player option')).find(o => o.textContent === 'Bea').value")
        p.d.execute_script(f"const s = document.querySelector('#versus-player'); s.value = '{bea}'; s.dispatchEvent(new Event('change'))")
        p.wait_css("#versus-result")
        assert p.text("#versus-result") == "Anna 1 – 1 Bea · 0 drawn"
        p.shot("36-player-charts")

        # The whole history exported, and a backup, from the settings.
        p.tap("#nav-settings")
        p.wait_css("#export-all")
        p.tap("#export-all")
        p.wait_until("return document.querySelectorAll('#file-list [data-import]').length === 2")
        # Tapped twice at once (a double tap), Backup writes one file.
        p.d.execute_script("const b = document.querySelector('#backup'); b.click(); b.click();")
        p.wait_until("return document.querySelectorAll('#file-list [data-restore]').length === 1")
        time.sleep(1)
        assert p.count("#file-list [data-restore]") == 1
        # Each row's button names its file (every row has the same button).
        for b in p.d.find_elements("css selector", "#file-list [data-import], #file-list [data-restore]"):
            name = b.get_attribute("data-import") or b.get_attribute("data-restore")
            assert b.get_attribute("aria-label") == f"{b.text}: {name}"
        # Restore asks twice, and a double tap is one (its second tap restored at once, with no
        # way back); the question goes after a few seconds if not answered.
        p.double_tap("#file-list [data-restore]")
        p.wait_until("return document.querySelector('#file-list [data-restore]').classList.contains('armed')")
        time.sleep(0.6)
        assert "armed" in p.attr("#file-list [data-restore]", "class"), "still asking"
        assert p.text("#notice") != "History restored from the backup."
        p.wait_until("return !document.querySelector('#file-list [data-restore]').classList.contains('armed')", 8)
        p.shot("37-your-data")
    finally:
        p.close()

    # A fresh profile on the same device: empty, then the export imported.
    q = Partie()
    try:
        q.start()
        q.tap("#open-history")
        q.wait_text("#screen", "No match here.")
        q.tap("#nav-settings")
        q.wait_css("#file-list")
        whole = q.d.execute_script(
            "return Array.from(document.querySelectorAll('#file-list [data-import]')).map(b => b.dataset.import).find(n => !n.includes('-match-'))")
        q.tap(f'#file-list [data-import="{whole}"]')
        # (Four matches: two finished, and two left unfinished above.)
        q.wait_until("return document.querySelector('#notice').textContent.startsWith('4 imported')")
        q.tap(f'#file-list [data-import="{whole}"]')     # again: nothing is duplicated
        q.wait_until("return document.querySelector('#notice').textContent.startsWith('0 imported, 4 already here')")
        q.d.execute_script("location.hash = '#/history'")
        q.wait_until("return document.querySelectorAll('#history-list .match-row').length === 4")
        q.shot("38-imported-history")
        # A match imported was not started here: its notes form says they stay on this device.
        finished = q.d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('./js/ipc.js').then(({ ipc }) => ipc.history({}))
              .then((rows) => done(rows.find((r) => r.status !== 'playing').id), (e) => done(String(e)));""")
        q.go_hash(f"#/match/{finished}")
        q.wait_css("#end-screen")
        q.wait_css("#notes-local")
        assert q.text("#notes-local") == "What you write here stays on this device: it is not sent to the club’s hub."
        assert q.attr("#match-notes", "aria-describedby") == "notes-local"
        assert q.attr("#match-place", "aria-describedby") == "notes-local"
        q.shot("38b-imported-match-notes", at="#notes-form")
    finally:
        q.close()


def test_more_tapped_while_a_filters_first_page_is_coming_waits_for_it(partie):
    """31 Mölkky matches, then 31 Crokinole ones: the first page shows Crokinole. Mölkky is
    chosen with the answer slow, and More tapped before it comes: More waits (it used to fetch
    the page after the Crokinole rows and add it to them, so the list mixed both games)."""
    p = partie
    p.start()
    p.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('./js/ipc.js').then(async ({ ipc }) => {
          for (const game of ['molkky', 'crokinole'])
            for (let i = 0; i < 31; i++) await ipc.newMatch(game, {}, [['Anna'], ['Bea']]);
        }).then(() => done(), (e) => done(String(e)));""")
    p.go_hash("#/history")
    p.wait_until("return document.querySelectorAll('#history-list [data-match]').length === 30")
    assert set(p.texts("#history-list .match-game")) == {"Crokinole"}
    p.slow_command("history", 1500, before=False)
    p.d.execute_script("""
        const s = document.querySelector('#filter-game');
        s.value = 'molkky'; s.dispatchEvent(new Event('change'));
        document.querySelector('#more').click();""")
    p.wait_until("return window.__delivered.history >= 1", 15)
    time.sleep(0.5)                          # drawn, and any other page asked meanwhile asked
    assert p.asked("history") == 1, "More asked while the filter's first page was coming"
    assert set(p.texts("#history-list .match-game")) == {"Mölkky"}
    assert p.count("#history-list [data-match]") == 30
    p.tap("#more")
    p.wait_until("return document.querySelectorAll('#history-list [data-match]').length === 31")
    assert set(p.texts("#history-list .match-game")) == {"Mölkky"}
    assert p.count("#more") == 0
    # Back to the front: the rows shown are read again, all of them (it went back to the first
    # page, the scroll and the focus with it).
    p.slow_command("history", 0)
    p.d.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    p.wait_until("return window.__delivered.history >= 1", 15)
    time.sleep(0.3)                          # drawn at the next frame
    assert p.count("#history-list [data-match]") == 31
    assert p.count("#more") == 0


def test_a_match_another_device_scores_is_followed_here_until_taken_over(partie):
    """A match that came from elsewhere (here a file; a pull from the club's hub is the same)
    is listed apart on Home, and its screen says another device scores it: a throw there is
    refused in words and nothing is written (two devices scoring one match used to lose one's
    throws at the hub). "Score it here", tapped twice, makes this device its scorer."""
    p = partie
    p.start()
    record = {"format": 1, "id": "from-anna-phone", "revision": 1, "game": "molkky",
              "sides": [["Anna"], ["Bea"]], "actions": [{"pins": [5]}]}
    p.import_record(record)
    p.wait_css("#unfinished-elsewhere .match-row")
    assert p.count("#unfinished") == 0, "not among this device's own to carry on"
    assert p.text("#unfinished-elsewhere") is not None
    assert "Being scored on other devices" in p.texts(".home h2")
    p.shot("39-home-scored-elsewhere", at="#unfinished-elsewhere")
    p.tap("#unfinished-elsewhere .match-open")
    p.wait_css("#pins")
    p.wait_until("return !document.querySelector('#elsewhere').hidden")
    assert p.text("#elsewhere-text") == "Scored on another device: it follows here as the club’s hub sends it."
    assert p.attr("#elsewhere-text", "role") == "status"
    p.shot("39b-match-scored-elsewhere")
    # A throw is refused, said in words, and nothing is written.
    p.tap('[data-pin="3"]')
    p.wait_pressed('[data-pin="3"]')
    p.tap("#confirm")
    p.wait_until("return !document.querySelector('#toast').hidden")
    assert p.text("#toast-text") == "This match is scored on another device. To score it on this one, tap “Score it here”."
    assert p.actions() == 1
    # Score it here: the first tap asks again, the second takes it over.
    assert p.text("#take-over") == "Score it here"
    p.tap("#take-over")
    p.wait_until("return document.querySelector('#take-over').classList.contains('armed')")
    assert p.text("#take-over") == "Tap again: the other device’s next throws will not count"
    time.sleep(0.6)
    p.tap("#take-over")
    p.wait_until("return document.querySelector('#elsewhere').hidden")
    p.wait_until("return document.querySelector('#announce').textContent === 'This match is scored here from now on.'")
    # The pins chosen are still down: Confirm now scores them.
    assert p.attr('[data-pin="3"]', "aria-pressed") == "true"
    p.tap("#confirm")
    p.wait_actions(2)
    # Home lists it with this device's own now.
    p.go_hash("#/home")
    p.wait_css("#unfinished .match-row")
    assert p.count("#unfinished-elsewhere") == 0


def test_a_match_that_cannot_be_read_says_why_where_it_would_be(partie):
    """A match asked for that is not there (an old link, a match discarded on another screen)
    says so in its place, with a way to try again, rather than "Loading…" for good."""
    p = partie
    p.start()
    p.go_hash("#/match/9999")
    p.wait_css("#load-failed")
    assert p.text("#load-failed .warning") == "That match is no longer in the history."
    assert p.attr("#load-failed .warning", "role") == "alert"
    assert p.d.execute_script("return document.querySelector('#toast').hidden || !document.querySelector('#toast').textContent"), "said twice"
    p.tap("#retry")
    p.wait_css("#load-failed")
    assert p.text("#load-failed .warning") == "That match is no longer in the history."
    assert p.count("#elsewhere:not([hidden])") == 0


def test_an_archived_player_is_marked_and_comes_back_in_one_tap(partie):
    """Archive keeps a player out of the pickers (the setup's known players) and in the
    players' list, marked; Undo is offered at once, and the player's page brings them back."""
    p = partie
    two_matches(p, "Dora")
    p.tap("#open-players")
    p.wait_until("return document.querySelectorAll('#player-list [data-player]').length === 4")
    cyril = p.d.execute_script("return [...document.querySelectorAll('#player-list [data-player]')].find(b => b.textContent === 'Cyril').dataset.player")
    p.tap(f'#player-list [data-player="{cyril}"]')
    p.wait_css("#archive")
    # A double tap on a slow disk archives once (it archived twice, and offered an Undo that
    # undid nothing).
    p.slow_command("archive_player", 300)
    p.double_tap("#archive")
    p.wait_css(f'[data-archived="{cyril}"]')
    assert p.text(f'[data-archived="{cyril}"]') == "archived"
    p.wait_until("return !document.querySelector('#undo-bar').hidden")
    assert "Cyril archived" in p.text("#undo-bar")
    assert p.asked("archive_player") == 1
    p.tap("#undo-last")
    p.wait_until(f"return location.hash === '#/players/{cyril}'")
    p.wait_css("#archive")
    assert p.count("#archived-note") == 0
    # Archived, then Undo from another screen: it stays there (it went to the player's page).
    p.tap("#archive")
    p.wait_css(f'[data-archived="{cyril}"]')
    p.go_hash("#/history")
    p.tap("#undo-last")
    p.wait_until("return document.querySelector('#announce').textContent === 'Cyril is offered in the pickers again'")
    assert p.d.execute_script("return location.hash") == "#/history"
    p.go_hash(f"#/players/{cyril}")
    p.wait_css("#archive")
    # Archived again, and brought back from the player's page.
    p.tap("#archive")
    p.wait_css(f'[data-archived="{cyril}"]')
    p.tap(f'#player-list [data-player="{cyril}"]')
    p.wait_css("#unarchive")
    assert p.text("#archived-note") == "Archived: not offered when you pick players. Matches and statistics stay."
    p.shot("36b-player-archived", at="#archived-note")
    p.tap("#unarchive")
    p.wait_css("#archive")
    p.go_hash("#/players")
    p.wait_until("return document.querySelectorAll('#player-list [data-player]').length === 4")
    assert p.count("[data-archived]") == 0


def test_the_page_may_call_the_apps_own_commands_and_nothing_of_tauri_s(partie):
    """The window's capability grants no permission (src-tauri/capabilities/default.json): the
    app's own commands answer, while Tauri's built-in plugins (the app's version, a tray icon,
    a menu, reading an image from any path) are refused to any script in the page."""
    p = partie
    p.start()
    answers = p.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const call = (cmd, args) => window.__TAURI__.core.invoke(cmd, args)
          .then(() => 'answered', (e) => 'refused: ' + (typeof e === 'string' ? e : JSON.stringify(e)));
        Promise.all([
          call('app_status'),
          call('plugin:app|version'),
          call('plugin:tray|new', { options: {} }),
          call('plugin:menu|new', { kind: 'Menu', options: {} }),
          call('plugin:image|from_path', { path: '/etc/hostname' }),
        ]).then(done);""")
    assert answers[0] == "answered", answers
    for a in answers[1:]:
        assert a.startswith("refused") and "not allowed" in a, answers


def test_lists_that_could_not_be_read_say_so_with_retry(partie):
    """Home, the club's tournaments and a player's figures, each read refused once (a database
    that failed): said in their place, with Retry. Home said "Nothing yet. Start a game!" (and
    hid the unfinished matches), the club said "Loading…" for ever, and a player's page said
    "No finished match yet"; Retry brings each."""
    p = partie
    p.start()
    # No player yet: said (the list was blank).
    p.go_hash("#/players")
    p.wait_text("#no-players", "No player yet")
    p.go_hash("#/home")
    quick_molkky(p, ["Anna", "Bea"])
    failed = "The history could not be read. Nothing was changed. (disk I/O error)"
    disk = {"kind": "storage", "detail": "disk I/O error"}

    p.go_hash("#/history")
    # Failing until mended: the app reads its lists again by itself (back to the front, data
    # come in), and one of those reads could bring them before Retry is tapped.
    p.fail_command("home", disk, times=1000)
    p.go_hash("#/home")
    p.wait_css("#load-failed")
    assert p.text("#load-failed .warning") == failed
    assert "Nothing yet" not in p.text("#screen")
    p.shot("16a-home-read-failed")
    assert p.count("#load-failed") == 1
    p.mend("home")
    p.tap("#retry")
    p.wait_css("#recent .match-row")
    assert p.count("#load-failed") == 0

    p.fail_command("list_tournaments", disk, times=1000)
    p.tap("#open-club")
    p.wait_css("#load-failed")
    assert p.text("#load-failed .warning") == failed
    assert "Loading" not in p.text("#screen")
    p.mend("list_tournaments")
    p.tap("#retry")
    p.wait_text("#screen", "No tournament yet.")
    assert p.count("#load-failed") == 0

    anna = p.d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('./js/ipc.js').then(({ ipc }) => ipc.searchPlayers('Anna', true))
          .then((l) => done(l.find((x) => x.name === 'Anna').id), (e) => done(String(e)));""")
    p.fail_command("player_stats", disk, times=1000)
    p.go_hash(f"#/players/{anna}")
    p.wait_css("#load-failed")
    assert p.text("#load-failed .warning") == failed
    assert "No finished match yet" not in p.text("#screen")
    p.mend("player_stats")
    p.tap("#retry")
    p.wait_until("return !document.querySelector('#load-failed') && document.querySelector('[data-stats=\"molkky\"] .stats-line')")
    assert p.text('[data-stats="molkky"] .stats-line').startswith("1 match")

    # The history: its first page refused says so in the list's place ("No match here" before,
    # as if there were none), and Retry brings it.
    p.fail_command("history", disk, times=1000)
    p.go_hash("#/history")
    p.wait_css("#load-failed")
    assert p.text("#load-failed .warning") == failed
    assert "No match here" not in p.text("#screen")
    p.shot("16b-history-read-failed")
    p.mend("history")
    p.tap("#retry")
    p.wait_css("#history-list [data-match]")
    assert p.count("#load-failed") == 0
    # A filter whose page is refused: not the rows of the filter before under the new one.
    p.fail_command("history", disk, times=1000)
    p.d.execute_script("""
        const s = document.querySelector('#filter-game');
        s.value = 'crokinole'; s.dispatchEvent(new Event('change'));""")
    p.wait_css("#load-failed")
    assert p.count("#history-list [data-match]") == 0
    p.mend("history")
    p.tap("#retry")
    p.wait_text("#screen", "No match here")

    # The leaderboard: refused, said in its place with its own Retry ("Loading…" for ever).
    p.fail_command("rating_leaderboard", disk, times=1000)
    p.go_hash("#/players")
    p.wait_css("#load-failed-board")
    assert p.text("#load-failed-board .warning") == failed
    assert p.count("#load-failed") == 0
    p.mend("rating_leaderboard")
    p.tap("#retry-board")
    p.wait_css("#leaderboard li")
    assert p.count("#load-failed-board") == 0
