"""A club night over the hub, through real windows: the organiser's desktop runs the hub and a
Swiss Crokinole tournament; two more app instances (their own data folders, phone-size windows)
join it, one by typing the address and the token, one with the join link; each scores its
table's match on the scorepad. The hub's big-screen page is open in a real browser (Chromium,
headless, 1920x1080) and shows each result; the time from a phone's last tap to the page
showing it is measured. The hub is stopped for a while: a phone plays on, shows what waits, and
its result goes out when the hub is back. Everything stays on 127.0.0.1."""
import json
import shutil
import socket
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

from conftest import DESKTOP, Partie, SHOTS, free_port, shoot
from test_crokinole import count_round, score_round
from test_tournament import add_entrants, pair, summary

BIG = (1920, 1080)


def ipc(p, call, *args):
    """Calls the app's own IPC module in the page and gives the answer (or {"error": ...})."""
    return json.loads(p.d.execute_async_script(f"""
        const done = arguments[arguments.length - 1];
        const args = Array.from(arguments).slice(0, -1);
        import('./js/ipc.js').then(({{ ipc }}) => ipc.{call}(...args))
          .then((v) => done(JSON.stringify(v ?? null)), (e) => done(JSON.stringify({{error: e}})));
    """, *args))


def chromium(lang="en-US"):
    """Headless Chromium from the system's packages (scripts/setup.sh installs it), asking for
    pages in `lang`."""
    binary = shutil.which("chromium")
    driver = shutil.which("chromedriver")
    assert binary and driver, "Chromium and its driver are missing: run ./scripts/setup.sh --tests"
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={BIG[0]},{BIG[1]}", "--hide-scrollbars", f"--lang={lang}"):
        opts.add_argument(arg)
    opts.add_experimental_option("prefs", {"intl.accept_languages": lang})
    browser = webdriver.Chrome(service=Service(driver), options=opts)
    # The page's own size, as a TV shows it (the window's frame is not part of it).
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": BIG[0], "height": BIG[1], "deviceScaleFactor": 1, "mobile": False})
    return browser


def page_result(browser, table):
    """What the big-screen page shows as the result of a table ('' while none)."""
    return browser.execute_script("""
        const row = [...document.querySelectorAll('#boards tr')]
          .find((tr) => tr.querySelector('.table-no')?.textContent === String(arguments[0]));
        return row?.querySelector('.result')?.textContent ?? '';""", table + 1)


def join_by_typing(phone, address, token):
    phone.tap("#open-club")
    phone.wait_css("#join-link")
    phone.type("#join-link", address)
    phone.type("#join-token", token)
    phone.tap("#join-hub")
    phone.wait_css("#joined", timeout=15)
    # The form went with the join: the focus is on the new panel's title.
    phone.wait_until("return document.activeElement?.id === 'joined-title'")


def play_table(phone, table):
    """Opens the pulled tournament, starts this phone's table and scores its four rounds, the
    first side winning each; the last tap's time is given (the result leaves with it)."""
    phone.wait_css("#tournament-list [data-tournament]", timeout=15)
    phone.tap("#tournament-list [data-tournament]")
    phone.wait_css("#hub-run")
    phone.tap(f"#start-{table}")
    phone.wait_css("#end-round")
    for _ in range(3):
        count_round(phone, {"15": [1, 0]})
        score_round(phone)
    count_round(phone, {"15": [1, 0]})
    before = phone.actions()
    last_tap = time.time()
    phone.tap("#score-round")
    phone.wait_actions(before + 1)
    phone.wait_css("#back-to-tournament")
    return last_tap


@pytest.fixture
def night(tmp_path):
    port = free_port()
    desk = Partie(env={"PARTIE_HUB_LISTEN": f"127.0.0.1:{port}"})
    phones = [Partie(), Partie()]
    try:
        yield desk, phones, chromium
    finally:
        for p in [desk, *phones]:
            p.close()


def test_club_night_with_two_phones_and_the_big_screen(night):
    desk, (anna_phone, cyril_phone), open_browser = night

    # The organiser: four entrants, a Swiss Crokinole night, round 1 paired.
    desk.start()
    desk.size(*DESKTOP)
    desk.tap("#open-club")
    desk.wait_css("#host-start")
    desk.tap("#new-tournament")
    desk.wait_css("#entrant-name")
    desk.tap("#t-game-crokinole")
    desk.wait_pressed("#t-game-crokinole")
    desk.tap("#t-system-swiss")
    desk.wait_pressed("#t-system-swiss")
    add_entrants(desk, "Anna", "Bea", "Cyril", "Dora")
    desk.tap("#create-tournament")
    desk.wait_until("return location.hash.startsWith('#/tournament/')")
    pair(desk, 1)
    s = summary(desk)
    assert [x["sides"] for x in s["pairings"]] == [[0, 1], [2, 3]]
    tournament_hash = desk.d.execute_script("return location.hash")

    # The hub, started from the club-night screen: its address, token and QR code.
    desk.go_hash("#/club")
    desk.tap("#host-start")
    desk.wait_css("#host-qr")
    desk.wait_until("return document.activeElement?.id === 'host-title'")
    address = desk.text("#host-address")
    token = desk.text("#host-token")
    link = desk.text("#host-link")
    assert address.startswith("http://127.0.0.1:") and len(token) == 32
    assert link == f"partie://join?hub={address}&token={token}"
    assert desk.count("#host-qr path") == 1
    desk.wait_text("#sync-chip", "Hub on")
    shoot(desk.d, "70-club-host-desktop.png")
    # The app's own big screen has no title bar, but still says where sync stands, in a corner.
    desk.go_hash(tournament_hash.replace("#/tournament/", "#/wall/"))
    desk.wait_css("#wall")
    desk.wait_until("const c = document.querySelector('#sync-chip');"
                    " return c.getClientRects().length > 0 && c.textContent.includes('Hub on')")
    assert not desk.d.execute_script("return document.querySelector('#nav-settings').getClientRects().length > 0")
    shoot(desk.d, "70b-club-host-wall-desktop.png")
    desk.go_hash("#/club")
    desk.wait_css("#host-page")

    # The big screen in a real browser, with the token in its address.
    browser = open_browser()
    try:
        browser.get(desk.text("#host-page"))
        for _ in range(100):
            if page_result(browser, 0) == "" and browser.execute_script(
                    "return document.querySelectorAll('#boards tr').length") == 3:
                break
            time.sleep(0.1)
        assert "Anna" in browser.execute_script("return document.querySelector('#boards').innerText")

        # A device that has not joined gets nothing: the same page without the token.
        base = address + "/"
        other = chromium()
        try:
            other.get(base)
            # The hub's answer is its refusal, typed (not a page that has yet to ask).
            body = other.execute_script("return (document.querySelector('pre') || document.body).innerText")
            assert json.loads(body)["kind"] == "unauthorized", body
            assert "Anna" not in body
        finally:
            other.quit()

        # Anna's phone joins by typing the address and the token.
        anna_phone.start()
        anna_phone.tap("#open-club")
        anna_phone.wait_css("#join-link")
        anna_phone.shot("71-club-join")
        # A wrong token is refused, in words, and nothing is joined.
        anna_phone.type("#join-link", address)
        anna_phone.type("#join-token", "not-the-token")
        anna_phone.tap("#join-hub")
        anna_phone.wait_until("return !document.querySelector('#toast').hidden")
        assert "refused this club token" in anna_phone.text("#toast")
        assert anna_phone.count("#joined") == 0
        anna_phone.d.execute_script("document.querySelector('#join-link').value = ''")
        anna_phone.d.execute_script("document.querySelector('#join-token').value = ''")
        anna_phone.type("#join-link", address)
        anna_phone.type("#join-token", token)
        anna_phone.tap("#join-hub")
        anna_phone.wait_css("#joined", timeout=15)
        anna_phone.wait_text("#sync-chip", "Synced", timeout=10)

        # Cyril's phone joins with the join link alone, read from the QR code the desktop
        # shows: drawn on a canvas in the phone's page (no camera here) and read by the same
        # code a camera frame goes through (grey bytes to Rust, decoded there).
        cyril_phone.start()
        cyril_phone.tap("#open-club")
        cyril_phone.wait_css("#join-link")
        modules = ipc(desk, "clubStatus")["host"]["qr"]
        read = json.loads(cyril_phone.d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const modules = arguments[0], scale = 6, side = (modules.length + 8) * scale;
            const canvas = document.createElement('canvas');
            canvas.width = canvas.height = side;
            const ctx = canvas.getContext('2d');
            ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, side, side);
            ctx.fillStyle = '#000';
            modules.forEach((row, y) => row.forEach((on, x) => {
              if (on) ctx.fillRect((x + 4) * scale, (y + 4) * scale, scale, scale); }));
            import('./js/scan.js').then(({ readFrame }) => readFrame(canvas, side, side))
              .then((text) => done(JSON.stringify(text)), (e) => done(JSON.stringify({error: e})));
        """, modules))
        assert read == link, read
        cyril_phone.type("#join-link", read)
        cyril_phone.tap("#join-hub")
        cyril_phone.wait_css("#joined", timeout=15)

        # The phones pulled the tournament: a phone starts its table's match from the pairings;
        # the organiser's buttons are not there.
        anna_phone.wait_css("#tournament-list [data-tournament]", timeout=15)
        anna_phone.tap("#tournament-list [data-tournament]")
        anna_phone.wait_css("#hub-run")
        assert anna_phone.count("#pair") == 0 and anna_phone.count("#enter-0") == 0
        assert anna_phone.count("#undo-event") == 0
        assert anna_phone.count("#start-0") == 1
        anna_phone.shot("72-club-phone-tournament")
        anna_phone.go_hash("#/club")

        # Anna's table: scored on the phone; the big screen shows it within a second.
        last_tap = play_table(anna_phone, 0)
        seen = None
        while time.time() - last_tap < 10:
            if page_result(browser, 0):
                seen = time.time()
                break
            time.sleep(0.02)
        assert seen is not None, "the result never reached the big screen"
        latency = seen - last_tap
        print(f"\nphone's last tap to the big screen: {latency * 1000:.0f} ms")
        # The figure goes to docs/performance.md (target: under 1 s); the test only asks that
        # the result arrives by itself, promptly, whatever the machine's load.
        (SHOTS / "club-night-latency.txt").write_text(f"{latency * 1000:.0f} ms\n")
        assert latency < 5.0, f"{latency:.2f} s from the phone's tap to the big screen"
        assert page_result(browser, 0) == "8 – 0"
        # The winner is marked with a tick and, for a screen reader, the word.
        assert browser.execute_script("return document.querySelector('#boards td.winner').textContent") == "Anna ✓ (won)"
        # A screen whose browser asks for French gets the page in French.
        french = chromium("fr-FR")
        try:
            french.get(desk.text("#host-page"))
            WebDriverWait(french, 10).until(lambda b: b.execute_script(
                "return document.querySelector('#boards td.winner')?.textContent === 'Anna ✓ (gagné)'"))
            assert french.execute_script("return document.documentElement.lang") == "fr"
            assert french.execute_script("return document.querySelector('#title').textContent") == "Crokinole · Système suisse"
            # A Crokinole board is a planche (a Morris one, a plateau): the hub's summary says
            # where its game is played.
            assert french.execute_script("return document.querySelectorAll('#boards th')[1].textContent") == "Planche"
            assert french.execute_script("return document.querySelector('#standings-title').textContent") == "Classement"
            shoot(french, "75b-club-big-screen-fr-1920.png")
        finally:
            french.quit()
        anna_phone.wait_text("#sync-chip", "Synced", timeout=10)
        anna_phone.shot("73-club-phone-match-done")

        # The organiser's tournament screen took the result by itself.
        desk.go_hash(tournament_hash)
        desk.wait_css('[data-table="0"].done', timeout=10)
        assert "8 – 0" in desk.text('[data-table="0"] .table-result')

        # The hub goes away (the organiser stops it): Cyril plays on; the phone says what waits.
        desk.go_hash("#/club")
        # Two taps: the first asks again, and a double tap is one tap.
        desk.double_tap("#host-stop")
        desk.wait_text("#host-stop", "Tap again to stop the hub for every phone")
        time.sleep(0.3)
        assert desk.count("#host-qr") == 1, "a double tap stopped the hub"
        time.sleep(0.3)
        desk.tap("#host-stop")
        desk.wait_css("#host-start")
        # Cyril's phone finds the hub gone first: its club screen redraws its join panel then,
        # moving the list under a tap on its way (a CI run lost that tap).
        cyril_phone.wait_text("#sync-state", "Hub unreachable", timeout=15)
        play_table(cyril_phone, 1)
        cyril_phone.wait_text("#sync-chip", "Offline · 1 waiting", timeout=15)
        cyril_phone.go_hash("#/club")
        cyril_phone.wait_text("#sync-state", "Hub unreachable · 1 waiting", timeout=15)
        assert cyril_phone.text("#sync-waiting") == "1"
        cyril_phone.shot("74-club-phone-hub-away")

        # The hub is back on the same address: the waiting result goes out by itself.
        desk.tap("#host-start")
        desk.wait_css("#host-qr")
        assert desk.text("#host-address") == address
        cyril_phone.wait_text("#sync-chip", "Synced", timeout=15)
        for _ in range(150):
            if page_result(browser, 1):
                break
            time.sleep(0.1)
        assert page_result(browser, 1) == "8 – 0"
        shoot(browser, "75-club-big-screen-1920.png")

        # The organiser pairs round 2; the phones pull it.
        desk.go_hash(tournament_hash)
        desk.wait_css('[data-table="1"].done', timeout=10)
        pair(desk, 2)
        desk.shot("76-club-desk-round-2")
        anna_phone.tap("#back-to-tournament")
        cyril_phone.tap("#tournament-list [data-tournament]")
        for phone in (anna_phone, cyril_phone):
            phone.wait_text("#round-title", "Round 2 of", timeout=15)

        # Every device holds the same tournament: the same pairings, results and standings.
        tid = {p: int(p.d.execute_script("return location.hash.split('/')[2]")) for p in (desk, anna_phone, cyril_phone)}
        views = {p: ipc(p, "getTournament", tid[p]) for p in tid}
        for phone in (anna_phone, cyril_phone):
            assert views[phone]["uid"] == views[desk]["uid"]
            assert views[phone]["summary"]["standings"] == views[desk]["summary"]["standings"]
            assert views[phone]["summary"]["pairings"] == views[desk]["summary"]["pairings"]
            assert views[phone]["hub"] == address
        assert views[desk]["hub"] is None
        standings = views[desk]["summary"]["standings"]
        assert [r["name"] for r in standings[:2]] == ["Anna", "Cyril"]
        assert ipc(desk, "clubStatus")["host"]["address"] == address

        # The organiser's app is killed mid-night: started again, its hub is back on the same
        # address by itself, and the phones find it.
        desk.kill_app()
        for phone in (anna_phone, cyril_phone):
            phone.wait_text("#sync-chip", "Offline", timeout=15)
        desk.start()
        desk.size(*DESKTOP)
        desk.wait_text("#sync-chip", "Hub on", timeout=15)
        assert ipc(desk, "clubStatus")["host"]["address"] == address
        for phone in (anna_phone, cyril_phone):
            phone.wait_text("#sync-chip", "Synced", timeout=15)
        browser.refresh()
        for _ in range(100):
            if "Round 2" in browser.execute_script("return document.body.innerText"):
                break
            time.sleep(0.1)
        assert "Round 2" in browser.execute_script("return document.body.innerText")
    finally:
        browser.quit()


def test_an_old_status_that_comes_after_the_hub_started_is_not_shown():
    """The 1.5 s status poll asked just before Start answers late (the hub still off); the poll
    Start asks for overtakes it. The late one is dropped: the title bar's chip says "Hub on" and
    never goes back to nothing meanwhile (a slow answer used to be drawn over the newer one)."""
    desk = Partie(env={"PARTIE_HUB_LISTEN": f"127.0.0.1:{free_port()}"})
    try:
        desk.start()
        desk.tap("#open-club")
        desk.wait_css("#host-start")
        desk.d.execute_script("""
            window.__asked = { club_status: 0 };
            const core = window.__TAURI__.core, invoke = core.invoke.bind(core);
            let first = true;
            window.__TAURI__.core = { ...core, invoke: (cmd, args) => {
                if (cmd !== 'club_status') return invoke(cmd, args);
                window.__asked.club_status += 1;
                if (!first) return invoke(cmd, args);
                first = false;   // read now, with the hub off, and answered 2.5 s later
                return invoke(cmd, args).then((v) => new Promise((r) => setTimeout(() => r(v), 2500)))
                    .then((v) => { window.__old_delivered = true; return v; });
            } };
            const chip = document.querySelector('#sync-chip');
            window.__chips = [];
            setInterval(() => window.__chips.push(chip.hidden ? '' : chip.textContent), 40);""")
        desk.wait_until("return window.__asked.club_status === 1", timeout=5)
        desk.tap("#host-start")
        desk.wait_text("#sync-chip", "Hub on")
        desk.wait_until("return window.__old_delivered === true", timeout=5)   # the old answer came
        time.sleep(0.3)                          # and the chip had time to show it, were it to
        chips = desk.d.execute_script("return window.__chips")
        shown = chips.index(next(c for c in chips if "Hub on" in c))
        assert all("Hub on" in c for c in chips[shown:]), chips[shown:]
        assert desk.asked("club_status") >= 2
    finally:
        desk.close()


def joined_as(p, status, sync):
    """Makes the app's club status say, from now on, that this device joined a hub (at a port
    nothing answers on) with `status` (a JS object: keys of the status) and `sync` (a JS
    object: keys of its sync part) laid over what the app says."""
    p.d.execute_script("""
        const core = window.__TAURI__.core, invoke = core.invoke.bind(core);
        window.__TAURI__.core = { ...core, invoke: (cmd, args) => {
            if (cmd !== 'club_status') return invoke(cmd, args);
            return invoke(cmd, args).then((s) => ({ ...s, ...(%s),
                joined: { hub: 'http://127.0.0.1:9', joined_at: Date.now() },
                sync: { ...s.sync, hub: 'http://127.0.0.1:9', ...(%s) } }));
        } };""" % (status, sync))


def test_joining_says_so_while_the_hub_is_asked_and_leaving_takes_two_taps(partie):
    """A join says "Joining…" on its button (disabled) for as long as the hub is asked: here an
    address that takes the connection and never answers, so up to the client's time (it used to
    show nothing, and further taps were dropped without a word). Leaving a hub takes two taps,
    the second not the second of a double tap: nothing takes a leave back."""
    p = partie
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    try:
        p.start()
        p.tap("#open-club")
        p.wait_css("#join-link")
        # Join with no link: said (it only moved the focus to the field, told as its name).
        p.tap("#join-hub")
        p.wait_text("#toast-text", "Type or paste the join link")
        assert p.d.execute_script("return document.activeElement.id") == "join-link"
        p.type("#join-link", f"http://127.0.0.1:{silent.getsockname()[1]}")
        p.type("#join-token", "t")
        p.tap("#join-hub")
        p.wait_text("#join-hub", "Joining…", timeout=2)
        assert p.d.execute_script("return document.querySelector('#join-hub').disabled")
        p.wait_text("#toast-text", "No club hub answers", timeout=20)
        p.wait_text("#join-hub", "Join")
        assert not p.d.execute_script("return document.querySelector('#join-hub').disabled")
        # The focus is back on Join (Join disabled had sent it to the token field, where a
        # phone's keyboard came up over "Joining…").
        p.wait_until("return document.activeElement?.id === 'join-hub'")
    finally:
        silent.close()
    joined_as(p, "{ waiting: 0 }", "{ state: 'ok', refused: [], last_sync: Date.now() }")
    p.d.execute_script("""
        window.__leaves = 0;
        const core = window.__TAURI__.core, invoke = core.invoke.bind(core);
        window.__TAURI__.core = { ...core, invoke: (cmd, args) => {
            if (cmd === 'club_leave') window.__leaves += 1;
            return invoke(cmd, args);
        } };""")
    p.go_hash("#/")
    p.go_hash("#/club")
    p.wait_css("#leave-hub")
    p.double_tap("#leave-hub")
    p.wait_text("#leave-hub", "Tap again to leave the hub")
    time.sleep(0.3)
    assert p.d.execute_script("return window.__leaves") == 0, "a double tap left the hub"
    p.shot("73d-club-leave-armed", at="#leave-hub")
    # Left alone, it asks no more after four seconds; two taps then leave.
    p.wait_until("return document.querySelector('#leave-hub').textContent.trim() === 'Leave'", timeout=8)
    assert p.d.execute_script("return window.__leaves") == 0
    p.tap("#leave-hub")
    p.wait_text("#leave-hub", "Tap again to leave the hub")
    time.sleep(0.6)
    p.tap("#leave-hub")
    p.wait_until("return window.__leaves === 1")


def test_records_refused_either_way_are_listed_apart_in_words(partie):
    """The club screen of a joined phone lists the records the hub refused and, apart, those
    this device could not take from the hub (a newer app's game), each in words by its kind
    with the other side's detail under it. The status is the app's own, with the refusals the
    sync thread keeps in the database (tests in partie-hub/tests/client.rs) set in it."""
    p = partie
    p.start()
    joined_as(p, "{}", """{ state: 'ok', last_sync: Date.now(), refused: [
        { id: 'm-3', by: 'hub', kind: 'conflict', detail: 'another setup', at: 3, record: 'match', game: 'molkky', names: 'Anna · Bea' },
        { id: 'm-1', by: 'hub', kind: 'not_found', detail: 'no tournament t-9', at: 2 },
        { id: 'm-2', by: 'device', kind: 'bad_setup', detail: 'unknown game "petanque"', at: 1 },
    ] }""")
    p.tap("#open-club")
    p.wait_css("#sync-not-taken")
    assert p.text("#sync-refused h3") == "Refused by the hub"
    # A record on this device is named by its game and players; one known by its id alone
    # (the status gives no more) by that id.
    assert p.texts("#sync-refused .refused-what") == [
        "Mölkky · Anna · Bea: the hub holds another version of it", "m-1: its tournament is not on the hub"]
    assert p.texts("#sync-refused .refused-detail") == ["another setup", "no tournament t-9"]
    assert p.text("#sync-not-taken h3") == "Not taken from the hub"
    assert p.texts("#sync-not-taken .refused-what") == [
        "m-2: this app does not know its game or rules (an update may)"]
    assert p.texts("#sync-not-taken .refused-detail") == ['unknown game "petanque"']
    p.shot("73b-club-refused", at="#sync-refused")


def test_a_hub_in_trouble_is_said_as_trouble_not_as_a_refusal(partie):
    """A hub that answers 5xx (its disk full) is said as in trouble, with the records waiting
    and the promise that they are kept, in the user's language: not as "Hub refused a sync"
    (partie-hub/tests/client.rs has the sync thread's part; the status is set in the page)."""
    p = partie
    p.start()
    joined_as(p, "{ waiting: 3 }", """{ state: 'failing', refused: [], error: { kind: 'storage', code: 'hub_failing',
        detail: 'the hub at http://127.0.0.1:9 could not do it: 500 Internal Server Error: database or disk is full' } }""")
    p.wait_text("#sync-chip", "Hub error · 3 waiting")
    assert p.d.execute_script("return document.querySelector('#sync-chip').dataset.state") == "bad"
    p.tap("#open-club")
    p.wait_css("#sync-error")
    said = p.text("#sync-error")
    assert said.startswith("The hub has a problem of its own. Nothing on this device is lost"), said
    # The hub's own words come after, quoted as its (they are English in every language).
    assert said.endswith("The hub says: “the hub at http://127.0.0.1:9 could not do it: 500 Internal Server Error: database or disk is full”"), said
    assert p.text("#sync-state") == "Hub in trouble · 3 waiting"
    assert p.d.find_elements("css selector", "#sync-refused") == []
    p.shot("73c-club-hub-failing", at="#sync-error")
    p.tap("#nav-settings")
    p.tap("#set-language-fr")
    p.wait_text("#sync-chip", "Erreur du hub · 3 en attente")


def test_this_devices_own_trouble_is_not_blamed_on_the_hub_and_leaving_says_what_waits(partie):
    """The sync thread stopped on this device (its database, a crash of its own) is said as
    this device's trouble, on the chip and the club screen, not as "Hub refused a sync". With
    results still waiting, the second tap of Leave says how many stay behind. The chip, tapped
    on the club screen itself, leads to the status line instead of loading the screen again."""
    p = partie
    p.start()
    joined_as(p, "{ waiting: 2 }", """{ state: 'device', refused: [], error: { kind: 'storage', code: 'sync_crashed',
        detail: 'the sync stopped on an error inside the app: a bug' } }""")
    p.wait_text("#sync-chip", "Sync paused")
    assert "on this device" not in p.text("#sync-chip"), "the chip's short words fit a phone's title bar"
    assert p.d.execute_script("return document.querySelector('#sync-chip').dataset.state") == "bad"
    p.tap("#open-club")
    p.wait_css("#sync-error")
    assert p.text("#sync-state") == "Sync paused: a problem on this device"
    assert p.text("#sync-error").startswith("Sync stopped on an error inside the app. Nothing on this device is lost")
    # A mark on the button's node itself (an attribute would go at the screen's next redraw,
    # which patches attributes in place): a screen loaded again has a new node without it.
    p.d.execute_script("document.querySelector('#leave-hub').partieMark = 'still'")
    p.tap("#sync-chip")
    p.wait_until("return document.activeElement?.id === 'sync-state'")
    assert p.d.execute_script("return document.querySelector('#leave-hub').partieMark") == "still", "the screen was loaded again"
    # Kept over the screen's next redraw (which took away the tabindex the chip gave it).
    p.d.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    time.sleep(0.5)
    assert p.d.execute_script("return document.activeElement?.id") == "sync-state"
    p.tap("#leave-hub")
    p.wait_text("#leave-hub", "2 results have not reached the hub yet: tap again to leave anyway")
    p.shot("73e-club-device-trouble-leave-armed", at="#leave-hub")


def test_a_device_running_the_hub_offers_no_join_and_says_why_phones_may_not_reach_it():
    """The device that runs the hub offers no join form (it would push to a hub, its own
    included, what the phones push to it), says so, and warns that its address works on this
    machine only (the hub here listens on the loopback)."""
    p = Partie(env={"PARTIE_HUB_LISTEN": f"127.0.0.1:{free_port()}"})
    try:
        p.start()
        p.tap("#open-club")
        p.wait_css("#join-hub")
        p.tap("#host-start")
        p.wait_css("#host-qr")
        assert p.count("#join-hub") == 0
        assert p.text("#host-no-join") == "While this device runs the hub it does not join another."
        assert p.text("#host-loopback").startswith("This address only works on this computer: phones cannot reach it.")
        p.shot("70c-club-host-loopback", at="#host-loopback")
        p.tap("#host-stop")
        p.wait_text("#host-stop", "Tap again to stop the hub for every phone")
        time.sleep(0.6)
        p.tap("#host-stop")
        p.wait_css("#join-hub")
        assert p.count("#host-loopback") == 0
    finally:
        p.close()
