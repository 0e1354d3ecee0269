"""The club's memory: matches found in the history, a player's statistics and page."""
from test_molkky import add_players, set_number


def quick_molkky(p, names, winner_first=True):
    p.tap("#new-molkky")
    p.wait_css("#new-player")
    while p.count("#sides .chip-x"):
        n = p.count("#sides .chip-x")
        p.tap_until("#sides .chip-x", f"return document.querySelectorAll('#sides .chip-x').length < {n}")
    add_players(p, *names)
    set_number(p, "#rule-target", 10)
    p.tap("#start")
    p.wait_css("#pins")
    if winner_first:
        p.throw(10)
    else:
        p.throw()
        p.throw(10)
    p.wait_css("#end-screen")
    p.tap("#go-home")
    p.wait_css("#new-molkky")


def test_two_matches_in_the_history_and_a_players_statistics(partie):
    p = partie
    p.start()
    quick_molkky(p, ["Anna", "Bea"])
    quick_molkky(p, ["Anna", "Cyril"], winner_first=False)
    p.tap("#open-history")
    p.wait_css("#history-list")
    assert p.count("#history-list .match-row") == 2
    assert p.texts("#history-list .match-sides") == ["Anna\nCyril", "Anna\nBea"] or \
        [t.split() for t in p.texts("#history-list .match-sides")] == [["Anna", "Cyril"], ["Anna", "Bea"]]
    p.shot("30-history")
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
    p.shot("32-match-notes")
    p.d.execute_script("location.hash = '#/history'")
    p.wait_css("#history-list")
    p.d.execute_script("const s = document.querySelector('#filter-when'); s.value = '7'; s.dispatchEvent(new Event('change'))")
    p.wait_until("return document.querySelectorAll('#history-list .match-row').length === 2")
    p.tap("#history-list .match-open")
    p.wait_css("#match-place")
    assert p.d.execute_script("return document.querySelector('#match-place').value") == "Parc de la Tête d'Or"
    assert p.d.execute_script("return document.querySelector('#match-notes').value") == "windy, Cyril's first win"

    p.tap("#nav-back")
    p.wait_css("#new-molkky")
    p.tap("#open-players")
    p.wait_css("#player-list")
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

    # Rename her everywhere.
    p.d.execute_script("const i = document.querySelector('#rename'); i.value = 'Annie'; i.dispatchEvent(new Event('input'))")
    p.tap("#rename-save")
    p.wait_text("#title", "Annie")
    p.d.execute_script("location.hash = '#/history'")
    p.wait_css("#history-list")
    assert "Annie" in p.text("#history-list")
