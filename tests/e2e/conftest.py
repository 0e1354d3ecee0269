"""End-to-end harness: the real app under Xvfb, driven through tauri-driver and WebKitWebDriver.

Each test gets its own XDG_DATA_HOME (so its own database and settings) and its own
tauri-driver. Screenshots go to tests/e2e/screenshots/ at phone (390x844) and desktop
(1280x800) size.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).resolve().parent / "screenshots"
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
APP = Path(os.environ.get("PARTIE_APP", TARGET / "debug" / "partie-app"))
PHONE = (390, 844)
DESKTOP = (1280, 800)
# axe-core, the accessibility rules every screenshot's screen is checked against (installed by
# scripts/setup.sh --tests from tests/e2e/package.json; it is a test tool, never shipped).
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


# WebKit's web process, not the app, crashed under the test: once in a CI run its compositor
# thread segfaulted in Mesa's software rasterizer (swrast_dri.so, on Xvfb), and WebKitWebDriver
# answered "session deleted because of page crash or hang". A test that met that is run once
# more, from its start with a new app, and says so; it must then pass whole. Anything else
# fails at once, and a crash the app causes would come back and fail the second run too.
ENGINE_CRASH = "session deleted because of page crash or hang"


def pytest_runtest_protocol(item, nextitem):
    from _pytest.runner import runtestprotocol
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    reports = runtestprotocol(item, nextitem=nextitem, log=False)
    if any(r.failed and ENGINE_CRASH in str(r.longrepr) for r in reports):
        # Said on the terminal (pytest holds what a hook prints).
        said = f"{item.nodeid}: the WebKit page crashed under the test; running it once more"
        reporter = item.config.pluginmanager.get_plugin("terminalreporter")
        if reporter:
            reporter.write_line("")
            reporter.write_line(said, yellow=True)
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
    for r in reports:
        item.ihook.pytest_runtest_logreport(report=r)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session", autouse=True)
def display():
    """A display for the window: the one we have, or a private Xvfb."""
    if os.environ.get("DISPLAY") and not os.environ.get("PARTIE_E2E_OWN_XVFB"):
        yield os.environ["DISPLAY"]
        return
    num = 90 + os.getpid() % 9
    xvfb = subprocess.Popen(["Xvfb", f":{num}", "-screen", "0", "1400x1000x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.environ["DISPLAY"] = f":{num}"
    time.sleep(1)
    yield os.environ["DISPLAY"]
    xvfb.terminate()


@pytest.fixture(scope="session", autouse=True)
def screenshots_dir():
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def accessibility_faults(driver):
    """What axe-core finds against WCAG 2.2 A and AA on the page as it is now: a list of
    [rule, impact, help, [each element's selector and what is wrong with it]]."""
    assert AXE.exists(), f"{AXE} is missing: run scripts/setup.sh --tests"
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(AXE.read_text(encoding="utf-8"))
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, { runOnly: { type: 'tag', values: arguments[0] }, resultTypes: ['violations'] })
          .then((r) => done(r.violations.map((v) => [v.id, v.impact, v.help,
             v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary.replace(/\\s+/g, ' '))])),
                (e) => done([['axe-failed', 'critical', String(e), []]]));""", AXE_RULES)


def screen_faults(faults):
    """The faults of the screen itself. axe-core measures a touch target by the part of it in
    sight, so a button scrolled half under the title bar or the sticky Start bar is "too small"
    until the person scrolls it out: that says where the page was scrolled, not how the button
    is made. A target too small or too close to another, in sight, still fails."""
    kept = []
    for rule, impact, help, nodes in faults:
        if rule == "target-size":
            nodes = [n for n in nodes if "because it is partially obscured" not in n]
        if nodes or rule == "axe-failed":
            kept.append([rule, impact, help, nodes])
    return kept


def check_accessible(driver, where):
    """Fails the test if the page as it is now breaks a WCAG 2.2 A or AA rule that axe-core
    checks (a button with no name, text too faint on its background, a field with no label,
    an ARIA role misused...). With PARTIE_E2E_A11Y_REPORT set to a file, the faults are added
    to it (one JSON line a screen) instead, to survey them all in one run."""
    faults = screen_faults(accessibility_faults(driver))
    report = os.environ.get("PARTIE_E2E_A11Y_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as f:
            f.write(json.dumps({"where": where, "faults": faults}) + "\n")
        return
    said = "\n".join(f"{rule} ({impact}): {help}\n    " + "\n    ".join(nodes)
                     for rule, impact, help, nodes in faults)
    assert not faults, f"{where}: accessibility faults\n{said}"


def shoot(driver, name):
    """Checks the page as it is now (`check_accessible`), then saves it as screenshot `name`."""
    check_accessible(driver, name)
    driver.save_screenshot(str(SHOTS / name))


class Partie:
    """One data folder, its tauri-driver, and the app sessions started on it."""

    def __init__(self, env=None):
        assert APP.exists(), f"build the app first: {APP} is missing (cargo build)"
        self.data_home = tempfile.mkdtemp(prefix="partie-e2e-")
        self.env = dict(env or {})
        self._start_driver()
        self.d = None

    def _start_driver(self):
        self.port = free_port()
        env = dict(os.environ, XDG_DATA_HOME=self.data_home, LANG="en_US.UTF-8", **self.env)
        self.driver_proc = subprocess.Popen(
            ["tauri-driver", "--port", str(self.port), "--native-port", str(free_port())],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait_port()

    def _stop_driver(self):
        self.driver_proc.terminate()
        try:
            self.driver_proc.wait(5)
        except subprocess.TimeoutExpired:
            self.driver_proc.kill()
        for pid in self.app_pid():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # it ended with its driver

    def _wait_port(self):
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.1)
        raise RuntimeError("tauri-driver did not start")

    def start(self):
        opts = ArgOptions()
        opts.set_capability("browserName", "wry")
        opts.set_capability("tauri:options", {"application": str(APP)})
        # WebKitWebDriver now and then drops the very first connection while it starts, and
        # once it has, it may drop the next ones too: a retry starts a fresh driver (same data).
        for attempt in range(3):
            try:
                self.d = webdriver.Remote(command_executor=f"http://127.0.0.1:{self.port}", options=opts)
                break
            except Exception:
                if attempt == 2:
                    raise
                self._stop_driver()
                time.sleep(1 + attempt)
                self._start_driver()
        self.size(*PHONE)
        self.wait_css("#screen > *")
        return self.d

    def go_hash(self, where):
        """Goes to a screen by its address, as the app's own links do, and waits for the new
        screen (the old one is marked first: the router mounts on `hashchange`, a moment after
        the address changes)."""
        moved = self.d.execute_script("""
            if (location.hash === arguments[0]) return false;
            document.querySelectorAll('#screen > *').forEach((e) => { e.dataset.leaving = '1'; });
            location.hash = arguments[0];
            return true;""", where)
        self.wait_until(f"return location.hash === {where!r}")
        if moved:
            self.wait_until("return document.querySelector('#screen > *:not([data-leaving])') !== null")
        self.wait_css("#screen > *")

    def import_record(self, record):
        """Imports one match record (a dict) as a file from another device would bring it, then
        opens Home afresh, which lists it."""
        error = self.d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('./js/ipc.js').then(({ ipc }) => ipc.importRecords(JSON.stringify(arguments[0])))
              .then(() => done(null), (e) => done(JSON.stringify(e)));""", record)
        assert error is None, error
        self.go_hash("#/settings")
        self.go_hash("#/home")

    def size(self, w, h):
        """Sets the window's size and waits until the page has taken it (two frames drawn at
        the new width): a tap that follows finds its element where it is drawn, not where the
        old size put it (WebKit resizes after the call returns, later under load)."""
        self.d.set_window_rect(x=0, y=0, width=w, height=h)
        WebDriverWait(self.d, 5).until(lambda d: d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const w = window.innerWidth;
            requestAnimationFrame(() => requestAnimationFrame(() => done(w === arguments[0] && window.innerWidth === w)));
        """, w))

    def wait_css(self, css, timeout=10):
        """Waits until `css` matches a node, asked in the page: WebKitWebDriver answers "stale"
        when a redraw replaces the node between finding it and handing it over."""
        WebDriverWait(self.d, timeout).until(
            lambda d: d.execute_script("return document.querySelector(arguments[0]) !== null", css))

    def wait_text(self, css, text, timeout=10):
        """Waits until the element's text contains `text` (read in the page, so redraws and
        accented letters are no trouble)."""
        WebDriverWait(self.d, timeout).until(lambda d: text in (self.text(css) or ""))

    def css(self, selector):
        return self.d.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector):
        return self.d.find_elements(By.CSS_SELECTOR, selector)

    def tap(self, selector):
        """Clicks like a finger, once: screens are patched in place, so the node found is the
        node tapped (no retry that would hide a tap lost to a redraw)."""
        el = WebDriverWait(self.d, 10).until(EC.element_to_be_clickable((By.CSS_SELECTOR, selector)))
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        self._settled(el)
        self._past_double_tap(el)
        el.click()

    def _past_double_tap(self, el):
        """Waits (half a second at most) while the Morris board would take a tap on `el` for
        the second of a double tap (its frame's `data-calm`: the point just played). A person's
        next tap there comes later than the answer; the driver's can come the moment it is
        drawn."""
        WebDriverWait(self.d, 2).until(lambda d: d.execute_script("""
            const el = arguments[0], frame = el.closest('[data-calm]');
            return !frame || el.closest('[data-point]')?.dataset.point !== frame.dataset.calm;""", el))

    def _settled(self, el):
        """Waits until an element has stood still for two frames (at most a second): the
        driver clicks where the element was when it looked, and a layout still moving (a toast
        making room, a list filled in) would take the tap somewhere else."""
        self.d.execute_async_script("""
            const el = arguments[0], done = arguments[arguments.length - 1];
            let last = '', still = 0, frames = 0;
            const look = () => {
                const r = el.getBoundingClientRect();
                const at = [r.x, r.y, r.width, r.height].join();
                still = at === last ? still + 1 : 0;
                last = at;
                if (still >= 2 || ++frames > 60 || !el.isConnected) done();
                else requestAnimationFrame(look);
            };
            look();""", el)

    def double_tap(self, selector):
        """Two clicks on `selector` a tenth of a second apart, as a double tap: timed in the page,
        since two taps from here can be further apart than a person's on a loaded machine."""
        self.d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            document.querySelector(arguments[0]).click();
            setTimeout(() => { document.querySelector(arguments[0])?.click(); done(); }, 100);
        """, selector)

    def double_tap_in_place(self, selector):
        """Two taps a tenth of a second apart at the place of `selector`, as a finger that does
        not move: the second lands on whatever the first one's answer put there."""
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", self.css(selector))
        self.d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const r = document.querySelector(arguments[0]).getBoundingClientRect();
            const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
            const tap = () => document.elementFromPoint(x, y)?.closest('button')?.click();
            tap();
            setTimeout(() => { tap(); done(); }, 100);
        """, selector)

    def _centre(self, selector):
        """Scrolls an element to the middle of the screen and gives its centre there."""
        return self.d.execute_script("""
            const el = document.querySelector(arguments[0]);
            el.scrollIntoView({block: 'center'});
            const r = el.getBoundingClientRect();
            return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];""", selector)

    def tap_at(self, selector):
        """Taps the middle of an element with a pointer at its place on the screen, as a finger
        does: for SVG shapes, which WebKitWebDriver's element click refuses as "not
        interactable"."""
        self.wait_css(selector)
        x, y = self._centre(selector)
        self._past_double_tap(self.css(selector))
        actions = ActionBuilder(self.d)
        actions.pointer_action.move_to_location(x, y).click()
        actions.perform()

    def tap_across_redraw(self, selector):
        """Presses a finger on an element, redraws the screen while it is down (the app coming
        back to the front reloads what Rust has), then lifts it: the tap must still land."""
        self.wait_css(selector)
        x, y = self._centre(selector)
        down = ActionBuilder(self.d)
        down.pointer_action.move_to_location(x, y).pointer_down()
        down.perform()
        self.d.execute_script("""
            document.querySelector('#status-line').dataset.before = 'yes';
            document.dispatchEvent(new Event('visibilitychange'));""")
        self.wait_until("return !document.querySelector('#status-line')?.dataset.before")
        up = ActionBuilder(self.d)
        up.pointer_action.pointer_up()
        up.perform()

    def wait_pressed(self, selector):
        """Waits until a toggle (a segmented control's button) shows pressed, or a tab selected."""
        self.wait_until(f"""const e = document.querySelector({selector!r});
            return !!e && (e.getAttribute('aria-pressed') === 'true'
                || (e.getAttribute('role') === 'tab' && e.getAttribute('aria-selected') === 'true'))""")

    def begin(self):
        """Taps Start on the new-game screen and waits for the match screen."""
        self.tap("#start")
        self.wait_until("return location.hash.startsWith('#/match/')")

    def type(self, selector, text):
        self.wait_css(selector)             # the screen may still be drawing after a tap
        self.d.find_element(By.CSS_SELECTOR, selector).send_keys(text)

    def slow_command(self, command, ms, before=True):
        """Makes one Rust command answer `ms` late in this window, as a slow search or a slow
        storage would: the delay comes before the command runs (`before`) or after it ran,
        before its answer is delivered. `asked(command)` counts its calls from then on, and
        `delivered(command)` the answers handed to the screen (the screen's own handling of an
        answer runs before any script the test runs next)."""
        self.d.execute_script("""
            const [command, ms, before] = arguments;
            window.__asked = { ...window.__asked, [command]: 0 };
            window.__delivered = { ...window.__delivered, [command]: 0 };
            const core = window.__TAURI__.core, invoke = core.invoke.bind(core);
            const later = (v) => new Promise((r) => setTimeout(() => r(v), ms));
            const done = (v) => { window.__delivered[command] += 1; return v; };
            const failed = (e) => { window.__delivered[command] += 1; throw e; };
            window.__TAURI__.core = { ...core, invoke: (cmd, args) => {
                if (cmd !== command) return invoke(cmd, args);
                window.__asked[command] += 1;
                return (before ? later().then(() => invoke(cmd, args)) : invoke(cmd, args).then(later)).then(done, failed);
            } };""", command, ms, before)

    def fail_command(self, command, error, times=1):
        """Makes one Rust command refuse with `error` ({kind, detail}) the next `times` times
        it is called in this window, without running, as a full disk would."""
        self.d.execute_script("""
            const [command, error, times] = arguments;
            const left = (window.__failing ??= {});
            left[command] = times;
            const core = window.__TAURI__.core, invoke = core.invoke.bind(core);
            window.__TAURI__.core = { ...core, invoke: (cmd, args) => {
                if (cmd !== command || !(left[command] > 0)) return invoke(cmd, args);
                left[command] -= 1;
                return Promise.reject(error);
            } };""", command, error, times)

    def mend(self, command):
        """`command`, made to fail by `fail_command`, runs again (the disk is back)."""
        self.d.execute_script("window.__failing[arguments[0]] = 0", command)

    def asked(self, command):
        """How many times the window called `command` since `slow_command` slowed it."""
        return self.d.execute_script("return window.__asked[arguments[0]]", command)

    def delivered(self, command):
        """How many answers to `command` reached the screen since `slow_command` slowed it."""
        return self.d.execute_script("return window.__delivered[arguments[0]]", command)

    def wait_until(self, script, timeout=10):
        WebDriverWait(self.d, timeout).until(lambda d: d.execute_script(script))

    def text(self, selector):
        """The visible text of the first element matching selector (None when absent)."""
        return self.d.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText.trim() : null", selector)

    def texts(self, selector):
        return self.d.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText.trim())", selector)

    def attr(self, selector, name):
        return self.d.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null",
            selector, name)

    def count(self, selector):
        return self.d.execute_script("return document.querySelectorAll(arguments[0]).length", selector)

    def scores(self):
        return [int(t) for t in self.texts("#scoreboard [data-score]")]

    def actions(self):
        return int(self.attr("section.scorepad", "data-actions"))

    def wait_actions(self, n):
        WebDriverWait(self.d, 10).until(lambda d: self.actions() == n)

    def throw(self, *pins, foul=False):
        """Taps the fallen pins then Confirm (Miss when none, Foul when asked), and waits until
        the app has committed the throw and redrawn."""
        before = self.actions()
        if foul:
            self.tap("#foul")
        elif pins:
            for p in pins:
                self.tap(f'[data-pin="{p}"]')
                self.wait_pressed(f'[data-pin="{p}"]')
            self.wait_text("#confirm", " pt")
            self.tap("#confirm")
        else:
            self.tap("#miss")
        self.wait_actions(before + 1)

    def undo(self, button="#undo"):
        before = self.actions()
        self.tap(button)
        self.wait_actions(before - 1)

    def shot(self, name, at=None):
        """Saves the current screen at phone and desktop size (back to phone size after),
        scrolled to the top, or with the element `at` (a selector) in the middle. The screen is
        checked for accessibility faults at each size, as it is shot (`check_accessible`)."""
        for label, (w, h) in (("phone", PHONE), ("desktop", DESKTOP)):
            self.size(w, h)
            time.sleep(0.35)
            if at:
                self.d.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", at)
            else:
                self.d.execute_script("window.scrollTo(0, 0)")
            time.sleep(0.1)
            shoot(self.d, f"{name}-{label}.png")
        self.size(*PHONE)
        time.sleep(0.2)

    def app_pid(self):
        """This instance's app processes: those started with its data folder (several instances
        run at once in the club-night test)."""
        out = subprocess.run(["pgrep", "-f", str(APP)], capture_output=True, text=True).stdout.split()
        mine = []
        for pid in map(int, out):
            try:
                environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            except OSError:
                continue  # it ended meanwhile
            if f"XDG_DATA_HOME={self.data_home}".encode() in environ:
                mine.append(pid)
        return mine

    def kill_app(self):
        """Kills the app the hard way (as a phone does), mid-whatever it was doing."""
        for pid in self.app_pid():
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        try:
            self.d.quit()
        except Exception:
            pass
        self.d = None

    def close(self):
        if self.d:
            try:
                self.d.quit()
            except Exception:
                pass
        self._stop_driver()
        shutil.rmtree(self.data_home, ignore_errors=True)


@pytest.fixture
def partie():
    p = Partie()
    yield p
    p.close()


def pytest_configure(config):
    # selenium's own use of a deprecated argument of its RemoteConnection: not ours to fix.
    config.addinivalue_line("filterwarnings", "ignore::DeprecationWarning:selenium.*")
