"""Ratings through the real window: after a few matches, the leaderboard ranks by rating with
its range and the provisional mark, a player's page charts the rating and gives the expected
result against another player, and a tournament's seed order follows the ratings in one tap."""
from test_history import quick_molkky
from test_tournament import add_entrants


def test_leaderboard_chart_expected_result_and_seeding_by_rating(partie):
    p = partie
    p.start()
    for _ in range(3):
        quick_molkky(p, ["Anna", "Bea"])          # Anna wins three
    quick_molkky(p, ["Cyril", "Bea"])             # Cyril wins one

    p.tap("#open-players")
    p.wait_css("#leaderboard li")
    rows = p.texts("#leaderboard li")
    assert [r.split("\n")[0] for r in rows] == ["Anna", "Cyril", "Bea"], rows
    assert "Rating 1" in rows[0] and "rated matches: 3" in rows[0]
    assert all("provisional" in r for r in rows), "fewer than 5 rated matches: provisional"
    # Anna's range lies above Bea's rating: three wins against her.
    ratings = [int(r.split("Rating ")[1].split(" ")[0]) for r in rows]
    assert ratings[0] > 1500 > ratings[2]
    p.shot("60-leaderboard-by-rating")

    # A season that ended before today holds no match.
    p.d.execute_script("const s = document.querySelector('#board-to'); s.value = '2001-01-01'; s.dispatchEvent(new Event('change'))")
    p.wait_until("return document.querySelector('#leaderboard') === null")
    p.d.execute_script("const s = document.querySelector('#board-to'); s.value = ''; s.dispatchEvent(new Event('change'))")
    p.wait_css("#leaderboard li")

    p.tap('#leaderboard li[data-player] .link')
    p.wait_css('[data-rating="molkky"] svg.line-chart')
    assert "Rating" in p.text('[data-rating="molkky"]')
    # The chart is heard: where the rating started and ended, and its range, with the figures
    # drawn beside it.
    said = p.attr('[data-rating="molkky"] svg.line-chart', "aria-label")
    drawn = p.d.execute_script("return [...document.querySelectorAll('[data-rating=\"molkky\"] svg.line-chart text')].map((e) => e.textContent)")
    assert said.startswith("Rating over time: from ") and ", lowest " in said and ", highest " in said, said
    assert f"highest {drawn[0]}" in said, (said, drawn)
    bea = p.d.execute_script("return Array.from(document.querySelectorAll('#versus-player option')).find(o => o.textContent === 'Bea').value")
    p.d.execute_script(f"const s = document.querySelector('#versus-player'); s.value = '{bea}'; s.dispatchEvent(new Event('change'))")
    p.wait_css("#versus-expected")
    expected = p.text("#versus-expected")
    a, b = [int(x.split(" %")[0].split(" ")[-1]) for x in expected.split("·")]
    assert a > 50 > b and a + b in (99, 100, 101), expected
    p.shot("61-player-rating-chart")

    # A tournament seeded by rating in one tap: Bea, Cyril, Anna become Anna, Cyril, Bea.
    p.tap("#nav-back")
    # history.back() lands after the tap returns: wait for it, or it would land after our hash.
    p.wait_css("#leaderboard li")
    open_new_tournament_here(p)
    add_entrants(p, "Bea", "Cyril", "Anna")
    p.tap("#seed-by-rating")
    p.wait_until("return document.querySelector('#entrants li:first-child').innerText.includes('Anna')")
    assert p.texts("#entrants .side-players") == ["Anna", "Cyril", "Bea"]
    p.shot("62-tournament-seeded-by-rating")


def open_new_tournament_here(p):
    p.d.execute_script("location.hash = '#/tournament-new'")
    p.wait_css("#entrant-name")
