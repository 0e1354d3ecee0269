"""The big-screen page the hub serves (src-tauri/partie-hub/src/page.html, fetched from a real
hub), in headless Chromium at 1920x1080, against a stand-in for the hub on loopback that answers what the test
says: a field too long for the screen is shown a page at a time at a size that fits, withdrawn
entrants and walkovers are said in words, and a hub that answers an error or goes away leaves
the page marked stale (in its header, always on screen) until the hub answers again. The
stand-in lets the test choose the moment each answer changes, which the real hub cannot."""
import json
import queue
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, TARGET, free_port, shoot
from test_club_night import BIG, chromium

HUB = TARGET / "debug" / "partie-hub"


def served_page():
    """The page as a real hub serves it (the words the core registers written in), fetched once
    from `partie-hub` (built by `cargo test --workspace`) on a throwaway database. A hub built
    before the page or the code that serves it last changed would serve an older page: refused."""
    sources = [ROOT / "src-tauri" / "partie-hub" / "src" / f for f in ("page.html", "lib.rs")]
    newest = max(f.stat().st_mtime for f in sources)
    assert HUB.exists() and HUB.stat().st_mtime >= newest, \
        f"{HUB} is missing or older than the hub's page: cargo build -p partie-hub first"
    with tempfile.TemporaryDirectory() as d:
        port = free_port()
        hub = subprocess.Popen([str(HUB), "--db", f"{d}/club.db", "--listen", f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            end = time.time() + 30
            while True:
                try:
                    token = Path(f"{d}/hub-token").read_text().strip()
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/?token={token}", timeout=5) as r:
                        return r.read()
                except (OSError, urllib.error.URLError):
                    if time.time() > end or hub.poll() is not None:
                        raise
                    time.sleep(0.1)
        finally:
            hub.kill()
            hub.wait()


PAGE = served_page()


def summary(n):
    """A Swiss Mölkky tournament of `n` entrants in round 2: entrant 3 withdrew, entrant 5 is
    through without a match (as a knockout's walkover would be), the last one has the bye."""
    names = [f"Player {i + 1}" for i in range(n)]
    standings = [{"rank": i + 1, "entrant": i, "name": names[i], "match_points": 2 * (i < n // 2),
                  "game_points": n - i, "wins": int(i < n // 2), "draws": 0, "losses": int(i >= n // 2),
                  "withdrawn": i == 3}
                 for i in range(n)]
    playing = [e for e in range(n - 1) if e not in (3, 5)]
    pairings = [{"table": t, "sides": [playing[2 * t], playing[2 * t + 1]], "result": None}
                for t in range(len(playing) // 2)]
    return {"status": "playing", "game": "molkky", "place": "court", "system": "swiss", "round": 2, "rounds": 5,
            "pairings": pairings, "bye": n - 1, "walkovers": [5], "standings": standings,
            "champion": None, "entrants": names, "ranking_keys": ["match_points"], "boards": []}


class Hub:
    """What the stand-in answers: `answer` is a summary, or an HTTP status to refuse with."""

    def __init__(self):
        self.answer = summary(4)
        self.events = queue.Queue()
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer_json(self, status, value):
                body = json.dumps(value).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if hub.refuse and self.path.startswith("/v1/"):
                    self.answer_json(401, {"kind": "unauthorized", "detail": "token"})
                    return
                if self.path.startswith("/v1/events"):
                    hub.listens += 1
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    end = time.time() + 60
                    pinged = 0
                    while time.time() < end and not hub.closed and not hub.refuse:
                        try:
                            hub.events.get(timeout=0.2)
                            self.wfile.write(b"event: record\ndata: {}\n\n")
                        except queue.Empty:
                            if hub.silent:
                                # A network gone quiet: not a byte, and no error either.
                                continue
                            if hub.every and time.time() - pinged >= hub.every:
                                pinged = time.time()
                                self.wfile.write(f'event: ping\ndata: {{"every": {hub.every}}}\n\n'.encode())
                            else:
                                self.wfile.write(b": still here\n\n")
                        self.wfile.flush()
                    return
                if self.path.startswith("/v1/tournaments/current"):
                    hub.asked += 1
                    # A summary slow to come (a TV on a weak Wi-Fi, a long field).
                    time.sleep(hub.delay)
                    # A network gone quiet: the request is held, answered at most 30 s later.
                    end = time.time() + 30
                    while hub.hold and time.time() < end and not hub.closed:
                        time.sleep(0.1)
                    answer = hub.answer
                    if isinstance(answer, int):
                        self.answer_json(answer, {"kind": "storage", "detail": "disk"})
                    else:
                        self.answer_json(200, answer)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(PAGE)))
                self.end_headers()
                self.wfile.write(PAGE)

        self.closed = False
        self.listens = 0
        # Seconds between the stream's pings (None: comments only, as an older hub), and a
        # stream that sends nothing at all.
        self.every = None
        self.silent = False
        self.refuse = False
        self.hold = False
        self.delay = 0
        self.asked = 0
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/?token=t"

    def tell(self):
        """A `record` event on the stream: the page asks for the summary again."""
        self.events.put(1)

    def stop(self):
        self.closed = True
        self.server.shutdown()
        self.server.server_close()


def opened(b, hub):
    """Opens the page in `b` and waits until it has drawn the hub's first summary."""
    b.get(hub.url)
    WebDriverWait(b, 15).until(lambda b: b.execute_script(
        "return document.querySelector('#note').textContent.startsWith('Updated')"))


def test_a_long_field_fits_the_screen_and_a_stale_page_says_so():
    hub = Hub()
    hub.answer = summary(40)
    b = chromium()
    try:
        wait = WebDriverWait(b, 15)
        b.get(hub.url)
        wait.until(lambda b: b.execute_script("return document.querySelector('#note').textContent.startsWith('Updated')"))
        rows = b.execute_script("return document.querySelectorAll('#standings tr').length - 1")
        assert 10 <= rows < 40, f"{rows} standings rows on one page"
        pages = -(-40 // rows)
        assert b.execute_script("return document.querySelector('#standings-page').textContent") == f"1/{pages}"
        # Read from five metres: no text of the tables, nor the line that says how fresh they
        # are, under 3% of the screen's height (2.2% before: 24 px on a TV).
        smallest = b.execute_script("return Math.min(...[...document.querySelectorAll('main td, main th, #note')].map((e) => parseFloat(getComputedStyle(e).fontSize)))")
        assert smallest >= 0.03 * BIG[1] - 0.5, f"text of {smallest}px"
        # Nothing runs off the bottom of the screen: every table and line ends above it.
        bottom = b.execute_script("""return Math.max(...[...document.querySelectorAll('main tr, #bye, #walkovers, #note')]
                                        .map((e) => e.getBoundingClientRect().bottom))""")
        assert bottom <= BIG[1], f"the page runs to {bottom}px"
        names = b.execute_script("return [...document.querySelectorAll('#standings td:nth-child(2)')].map((td) => td.textContent)")
        assert "Player 4 (withdrawn)" in names
        assert b.execute_script("return document.querySelector('#walkovers').textContent") == "Through without a match: Player 6"
        assert b.execute_script("return document.querySelector('#bye').textContent") == "Bye: Player 40"
        # Mölkky is played on courts: the column says so (the summary's `place`).
        assert b.execute_script("return [...document.querySelectorAll('#boards th')].map((th) => th.textContent).slice(0, 2)") == ["Table", "Court"]
        # The game's and the system's titles, as the core registers them.
        assert b.execute_script("return document.querySelector('#title').textContent") == "Mölkky · Swiss"
        shoot(b, "77-big-screen-long-field-1920.png")
        # The pages take turns.
        WebDriverWait(b, 13).until(lambda b: b.execute_script("return document.querySelector('#standings-page').textContent") == f"2/{pages}")
        first = b.execute_script("return document.querySelector('#standings td:nth-child(2)').textContent")
        assert first == f"Player {rows + 1}"

        # The hub answers an error: the page keeps what it showed, dimmed, and says so on top.
        hub.answer = 500
        hub.tell()
        wait.until(lambda b: b.execute_script("return document.body.classList.contains('stale')"))
        assert "error (500)" in b.execute_script("return document.querySelector('#note').textContent")
        note_top = b.execute_script("return document.querySelector('#note').getBoundingClientRect().top")
        assert note_top < 150, "the stale notice is in the header"
        shoot(b, "77b-big-screen-stale-1920.png")
        # It answers again: fresh.
        hub.answer = summary(6)
        hub.tell()
        wait.until(lambda b: not b.execute_script("return document.body.classList.contains('stale')"))
        assert b.execute_script("return document.querySelectorAll('#standings tr').length - 1") == 6
        assert b.execute_script("return document.querySelector('#standings-page').textContent") == ""

        # A pools tournament while its pools play: the standings go pool by pool, each ranked
        # within itself (a pool's winner is not 4th of the field).
        # Player 7 withdrew before the pools were dealt: in none, listed after them.
        pools = summary(7)
        pools["standings"][6]["withdrawn"] = True
        pools.update(system="pools_knockout", pools=[[0, 3, 4], [1, 2, 5]], bracket={"main": [], "consolation": []},
                     pairings=[{"table": 0, "sides": [0, 4], "result": None}, {"table": 1, "sides": [1, 2], "result": None}],
                     bye=[5], walkovers=[])
        hub.answer = in_pools(pools, pools["pools"])
        hub.tell()
        wait.until(lambda b: b.execute_script("return document.querySelectorAll('#standings th.pool').length") == 3)
        rows = b.execute_script(
            "return [...document.querySelectorAll('#standings tr')].slice(1).map((tr) => tr.querySelector('th.pool')?.textContent"
            " ?? tr.children[0].textContent + ' ' + tr.children[1].textContent)")
        assert rows == ["Pool A", "1 Player 1", "– Player 4 (withdrawn)", "2 Player 5",
                        "Pool B", "1 Player 2", "2 Player 3", "3 Player 6",
                        "Withdrawn", "– Player 7 (withdrawn)"], rows
        # The tables say their pool too.
        tables = "return [...document.querySelectorAll('#boards tr')].slice(1).map((tr) => tr.querySelector('th.pool')?.textContent ?? tr.children[0].textContent)"
        assert b.execute_script(tables) == ["Pool A", "1", "Pool B", "2"]
        # And the bye, its pool.
        assert b.execute_script("return document.querySelector('#bye').textContent") == "Bye: Player 6 (Pool B)"
        shoot(b, "77c-big-screen-pools-1920.png")
        # In the knockouts the tables say which one they are part of, and the standings are
        # the field's again.
        knockouts = dict(summary(6), system="pools_knockout", pools=pools["pools"], round=3, bye=[], walkovers=[],
                         bracket={"main": [[{"sides": [0, 1], "winner": None}]],
                                  "consolation": [[{"sides": [2, 4], "winner": None}]]},
                         pairings=[{"table": 0, "sides": [0, 1], "result": None},
                                   {"table": 1, "sides": [2, 4], "result": None}],
                         table_groups=[{"bracket": "main", "tables": [0]}, {"bracket": "consolation", "tables": [1]}])
        hub.answer = knockouts
        hub.tell()
        wait.until(lambda b: b.execute_script("return document.querySelectorAll('#standings th.pool').length") == 0)
        assert b.execute_script(tables) == ["Main knockout", "1", "Consolation", "2"]
        shoot(b, "77d-big-screen-knockouts-1920.png")

        # The hub goes away: the event stream breaks and the page says it is stale at once.
        hub.stop()
        wait.until(lambda b: b.execute_script("return document.body.classList.contains('stale')"))
        assert b.execute_script("return document.querySelector('#note').textContent") == "The hub does not answer; trying again…"
    finally:
        b.quit()
        if not hub.closed:
            hub.stop()


def in_pools(s, pools):
    """`s` while its `pools` play, grouped as the hub's core groups it (tournament/pools.rs): a
    standings row's pool and its place in it, in the standings' order, and each pool's tables."""
    pool_of = {e: i for i, p in enumerate(pools) for e in p}
    placed = [0] * len(pools)
    for r in s["standings"]:
        i = pool_of.get(r["entrant"])
        if i is None:                    # withdrawn before the pools were dealt
            continue
        r["pool"] = i
        if not r["withdrawn"]:          # a withdrawn entrant has no place in its pool
            placed[i] += 1
            r["pool_rank"] = placed[i]
    tables = {}
    for p in s["pairings"]:
        tables.setdefault(pool_of[p["sides"][0]], []).append(p["table"])
    s["table_groups"] = [{"pool": i, "tables": t} for i, t in sorted(tables.items())]
    return s


def pools_round(n, size):
    """A pools tournament of `n` entrants in pools of `size` (entrant e in pool e // size), in
    its first round: each pool's first two play, the others wait."""
    s = summary(n)
    pools = [list(range(i, min(i + size, n))) for i in range(0, n, size)]
    s.update(system="pools_knockout", pools=pools, bracket={"main": [], "consolation": []}, round=1, walkovers=[],
             pairings=[{"table": i, "sides": [p[0], p[1]], "result": None} for i, p in enumerate(pools)],
             bye=[e for p in pools for e in p[2:]])
    return in_pools(s, pools)


def test_pools_of_a_big_field_page_with_their_heads_and_a_wrong_token_is_said():
    hub = Hub()
    hub.answer = pools_round(48, 3)
    b = chromium()
    try:
        wait = WebDriverWait(b, 15)
        b.get(hub.url)
        wait.until(lambda b: b.execute_script("return document.querySelector('#note').textContent.startsWith('Updated')"))
        # Sixteen pools: sixteen tables and sixteen heads do not fit one screen; they page, and
        # nothing runs off the bottom.
        bottom = b.execute_script("""return Math.max(...[...document.querySelectorAll('main tr, #bye, #walkovers, #note')]
                                        .map((e) => e.getBoundingClientRect().bottom))""")
        assert bottom <= BIG[1], f"the page runs to {bottom}px"
        title = b.execute_script("return document.querySelector('#round-title').textContent")
        # Sixteen tables, sixteen heads and the bye line of sixteen pools (it wraps, and its
        # lines come out of the tables' room): three pages or more, as the font wraps it.
        of = int(title.rsplit("/", 1)[1])
        assert title.endswith(f" · 1/{of}") and of >= 3, title
        rows = "return [...document.querySelectorAll('#boards tr')].slice(1).map((tr) => tr.querySelector('th.pool')?.textContent ?? 'table ' + tr.children[0].textContent)"
        first = b.execute_script(rows)
        assert first[:4] == ["Pool A", "table 1", "Pool B", "table 2"], first
        shoot(b, "77e-big-screen-sixteen-pools-1920.png")
        # The next page starts with its group's head.
        WebDriverWait(b, 13).until(lambda b: b.execute_script("return document.querySelector('#round-title').textContent").endswith(f"2/{of}"))
        second = b.execute_script(rows)
        assert second[0].startswith("Pool ") and second[1] == "table " + str(len(first) // 2 + 1), (first, second)
        standing = b.execute_script("return [...document.querySelectorAll('#standings tr')].slice(1).map((tr) => tr.querySelector('th.pool')?.textContent ?? tr.children[0].textContent)")
        assert standing[0].startswith("Pool ") and standing[1] == "1", standing

        # Beyond 26 pools the names go on with two letters, never twice the same.
        hub.answer = pools_round(60, 2)
        hub.tell()
        wait.until(lambda b: b.execute_script("return last.pairings.length") == 30)
        seen = set()
        for _ in range(4):
            seen |= set(b.execute_script("return [...document.querySelectorAll('#boards th.pool')].map((th) => th.textContent)"))
            b.execute_script("turn += 1; show(last)")
        assert {"Pool Z", "Pool AA", "Pool AD"} <= seen, sorted(seen)

        # The hub refuses the token: the page says so, and the stream's refusals, tried again
        # and again, do not turn it into "does not answer".
        hub.refuse = True
        hub.tell()
        b.execute_script("refresh()")
        wait.until(lambda b: b.execute_script("return document.querySelector('#note').textContent") == "The club token is missing or wrong: open the address the app shows.")
        # (The stream ended: the browser opens it again and is refused, then the page does,
        # after 1 s, 2 s, ...)
        time.sleep(6)
        assert b.execute_script("return document.querySelector('#note').textContent") == "The club token is missing or wrong: open the address the app shows."
    finally:
        b.quit()
        if not hub.closed:
            hub.stop()


def test_a_summary_that_never_comes_is_given_up_without_abort_signal_timeout():
    """An older TV's browser has no AbortSignal.timeout: a request the network holds is still
    given up after 10 s, and the page says the hub does not answer (it waited for ever, showing
    its last time as if all were well)."""
    hub = Hub()
    b = chromium()
    try:
        b.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete AbortSignal.timeout;"})
        opened(b, hub)
        assert b.execute_script("return typeof AbortSignal.timeout") == "undefined"
        hub.hold = True
        hub.tell()
        started = time.time()
        WebDriverWait(b, 20).until(lambda b: b.execute_script("return document.body.classList.contains('stale')"))
        assert time.time() - started >= 9, "given up before its 10 s"
        assert b.execute_script("return document.querySelector('#note').textContent") == "The hub does not answer; trying again…"
    finally:
        hub.hold = False
        b.quit()
        hub.stop()


def test_a_summary_that_never_comes_is_given_up_with_nothing_to_abort_it():
    """A TV's browser older still, with no AbortController at all: a request the network holds
    is given up after its time all the same, the page says the hub does not answer, and the
    next result is drawn (one request at a time: one held for ever held every later one)."""
    hub = Hub()
    b = chromium()
    try:
        b.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                          {"source": "delete AbortSignal.timeout; delete window.AbortController;"})
        opened(b, hub)
        assert b.execute_script("return typeof AbortController") == "undefined"
        hub.hold = True
        hub.tell()
        WebDriverWait(b, 20).until(lambda b: b.execute_script("return document.body.classList.contains('stale')"))
        assert b.execute_script("return document.querySelector('#note').textContent") == "The hub does not answer; trying again…"
        hub.hold = False
        hub.answer = leading(1)
        hub.tell()
        WebDriverWait(b, 15).until(lambda b: b.execute_script(
            "return document.querySelector('#standings td:nth-child(2)').textContent") == "Lead 1")
        assert not b.execute_script("return document.body.classList.contains('stale')")
    finally:
        hub.hold = False
        b.quit()
        hub.stop()


def test_a_summary_the_page_cannot_draw_is_said_as_that_not_as_a_hub_away():
    """A summary the page cannot draw (a newer hub's, its standings in another shape) leaves the
    page marked stale with words that say so and point to a reload; it said the hub does not
    answer, which sends the organiser to the wrong place. A summary it can draw then comes back."""
    hub = Hub()
    b = chromium()
    try:
        opened(b, hub)
        newer = summary(4)
        newer["standings"] = {"groups": newer["standings"]}
        hub.answer = newer
        hub.tell()
        WebDriverWait(b, 15).until(lambda b: b.execute_script("return document.body.classList.contains('stale')"))
        note = b.execute_script("return document.querySelector('#note').textContent")
        assert note.startswith("This page cannot show what the hub sent"), note
        assert "reload" in note
        # The last summary it drew is back up whole (not half of each), marked as old.
        drawn = b.execute_script("return [document.querySelector('#boards').textContent, document.querySelector('#standings').textContent]")
        assert "Player 1" in drawn[0] and "Player 2" in drawn[0], drawn
        assert "Player 4" in drawn[1], drawn
        hub.answer = summary(4)
        hub.tell()
        WebDriverWait(b, 15).until(lambda b: b.execute_script(
            "return !document.body.classList.contains('stale') && document.querySelector('#note').textContent.startsWith('Updated')"))
    finally:
        b.quit()
        hub.stop()


def leading(k):
    """The summary of 4 entrants whose leader is named after `k`: each version tells itself."""
    s = summary(4)
    s["standings"][0]["name"] = f"Lead {k}"
    return s


def test_a_steady_stream_of_results_keeps_the_page_drawing():
    """Results announced faster than the TV reads the summary (every board's phone pushes each
    throw): each answer is drawn, one request at a time. When each event started a request of
    its own and an answer was dropped once a later one had been asked, the page drew nothing
    for as long as the events came, its time still saying all was well."""
    hub = Hub()
    b = chromium()
    try:
        opened(b, hub)
        hub.delay = 0.4
        leader = "return document.querySelector('#standings td:nth-child(2)').textContent"
        drawn = set()
        asked = hub.asked
        k = 0
        end = time.time() + 4
        while time.time() < end:
            k += 1
            hub.answer = leading(k)
            hub.tell()
            time.sleep(0.15)
            drawn.add(b.execute_script(leader))
        during = sorted(x for x in drawn if x.startswith("Lead "))
        assert len(during) >= 3, f"drawn while results came: {during}"
        # One request at a time: about one per answer's time, not one per event.
        assert hub.asked - asked <= 4 / 0.4 + 2, f"{hub.asked - asked} requests for {k} events"
        WebDriverWait(b, 10).until(lambda b: b.execute_script(leader) == f"Lead {k}")
        assert not b.execute_script("return document.body.classList.contains('stale')")
    finally:
        b.quit()
        hub.stop()


def test_long_names_and_a_long_champion_stay_on_the_screen():
    """Sixty-four teams of two with long names, and a champion's in the header: the rows wrap,
    so the page shrinks its text (and pages fewer rows) until every line is on the 1920x1080
    screen, and nothing runs off its side."""
    hub = Hub()
    s = summary(64)
    names = [f"Marie-Christine Lefebvre-Duval {i} & Jean-Baptiste Rousseau-Leclerc {i}" for i in range(64)]
    s["entrants"] = names
    for r in s["standings"]:
        r["name"] = names[r["entrant"]]
    s["status"] = "finished"
    s["champion"] = 0
    hub.answer = s
    b = chromium()
    try:
        opened(b, hub)
        bottom = b.execute_script("""return Math.max(...[...document.querySelectorAll('main tr, #bye, #walkovers, #note, header')]
                                        .map((e) => e.getBoundingClientRect().bottom))""")
        assert bottom <= BIG[1], f"the page runs to {bottom}px"
        wide = b.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], f"the page is {wide[0]}px wide on a {wide[1]}px screen"
        status = b.execute_script("return document.querySelector('#status').textContent")
        assert status == f"Finished · {names[0]} wins", status
        rows = b.execute_script("return document.querySelectorAll('#standings tr').length - 1")
        # (Four: each name takes three lines at the smallest size read from five metres.)
        assert rows >= 4, f"{rows} standings rows on a page"
        shoot(b, "77f-big-screen-long-names-1920.png")
        # The other pages come in turn, each on the screen too.
        first = b.execute_script("return document.querySelector('#standings-page').textContent")
        WebDriverWait(b, 15).until(lambda b: b.execute_script(
            "return document.querySelector('#standings-page').textContent") != first)
        bottom = b.execute_script("""return Math.max(...[...document.querySelectorAll('main tr, #bye, #walkovers')]
                                        .map((e) => e.getBoundingClientRect().bottom))""")
        assert bottom <= BIG[1], f"the next page runs to {bottom}px"
    finally:
        b.quit()
        hub.stop()


def test_a_stream_gone_silent_is_opened_again():
    """The hub pings a silent stream every `every` seconds. A stream that then sends nothing
    (a TV's Wi-Fi lost and back: the browser sees no error for many minutes) is opened again
    after two and a half of those silences, and the results it announces reach the screen. The
    page waited on the dead stream before, its results a minute late at best."""
    hub = Hub()
    hub.every = 1
    b = chromium()
    try:
        opened(b, hub)
        time.sleep(5)
        assert hub.listens == 1, f"a stream that pings is kept: opened {hub.listens} times"
        hub.silent = True
        WebDriverWait(b, 12).until(lambda _: hub.listens >= 3)
        hub.silent = False
        listens = hub.listens
        time.sleep(5)
        assert hub.listens <= listens + 1, "a stream that pings again is kept"
        hub.answer = leading(1)
        hub.tell()
        leader = "return document.querySelector('#standings td:nth-child(2)').textContent"
        WebDriverWait(b, 5).until(lambda b: b.execute_script(leader) == "Lead 1")
        assert not b.execute_script("return document.body.classList.contains('stale')")
    finally:
        b.quit()
        hub.stop()
