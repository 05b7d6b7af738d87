"""A real browser (Debian's chromium, headless) drives the app: ask a question, open a law from the
result, follow a citation, answer a ruling wizard to the end (with one step back), at desktop and
phone width. Screenshots go to artifacts/browser/*.png for a person to look at.

Needs /usr/bin/chromium and /usr/bin/chromedriver (scripts/install-browser.sh installs them); fails,
never skips, when they are missing. The search index is taken from $BRIDGELAW_CACHE (built if absent).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parent.parent
SHOTS = REPO / "artifacts" / "browser"
CHROMIUM = os.environ.get("BRIDGELAW_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("BRIDGELAW_CHROMEDRIVER", "/usr/bin/chromedriver")
START_TIMEOUT = 60          # streamlit up
ANSWER_TIMEOUT = 400        # first answer (builds the search index when it is not cached)
STEP_TIMEOUT = 60


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server():
    """`streamlit run app.py` on a free port, with the project's cache; stopped after the module."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    if missing:
        pytest.fail(f"browser test needs {', '.join(missing)} — not installed — "
                    "run scripts/install-browser.sh (apt-get install chromium chromium-driver fonts-noto-cjk)")
    port = _free_port()
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               BRIDGELAW_CACHE=os.environ.get("BRIDGELAW_CACHE") or str(Path.home() / ".cache" / "bridgelaw"))
    log = open(tempfile.mktemp(prefix="bridgelaw-streamlit-", suffix=".log"), "w+")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(REPO / "app.py"), "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + START_TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(base + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            log.seek(0)
            proc.kill()
            pytest.fail(f"streamlit did not start on port {port}:\n{log.read()[-3000:]}")
        time.sleep(0.3)
    yield base
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="module")
def driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="bridgelaw-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--no-first-run", f"--user-data-dir={profile}", "--window-size=1280,1000", "--lang=en"):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    d.set_page_load_timeout(60)
    yield d
    d.quit()
    shutil.rmtree(profile, ignore_errors=True)


# ---------------------------------------------------------------------------------- helpers


def _find(d, css: str, timeout: float = STEP_TIMEOUT):  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    if css.endswith(" button"):       # the widget's own button, not a tooltip's hidden one
        css = css[:-len(" button")] + " button[data-testid^='stBaseButton']"
    def shown(drv):  # type: ignore[no-untyped-def]
        # a button with a tooltip is rendered twice (desktop and phone layouts): take the visible one
        return next((e for e in drv.find_elements(By.CSS_SELECTOR, css) if e.is_displayed() and e.is_enabled()), False)

    try:
        from selenium.common.exceptions import StaleElementReferenceException

        return WebDriverWait(d, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(shown)
    except Exception:  # noqa: BLE001 - re-raised with what the page shows
        _shot(d, "failure")
        raise AssertionError(f"{css!r} did not appear within {timeout}s at {d.current_url}; "
                             f"page says: {_text(d)[:1500]}") from None


def _text(d) -> str:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    return d.find_element(By.TAG_NAME, "body").text


def _params(d) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {k: v[0] for k, v in parse_qs(urlparse(d.current_url).query).items()}


def _wait_url(d, key: str, pred, timeout: float = STEP_TIMEOUT) -> str:  # type: ignore[no-untyped-def]
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = _params(d).get(key, "")
        if pred(v):
            return v
        time.sleep(0.2)
    raise AssertionError(f"URL parameter {key!r} did not change as expected: {d.current_url}")


def _idle(d, timeout: float = STEP_TIMEOUT) -> None:
    """Wait until the script run finished: no 'Running'/'Stop' in the status widget, no stale elements."""
    from selenium.webdriver.common.by import By

    deadline = time.time() + timeout
    time.sleep(0.3)
    from selenium.common.exceptions import StaleElementReferenceException

    while time.time() < deadline:
        try:
            status = " ".join(e.text or "" for e in d.find_elements(By.CSS_SELECTOR, '[data-testid="stStatusWidget"]'))
            stale = d.find_elements(By.CSS_SELECTOR, '[data-stale="true"]')
            if "Stop" not in status and "Running" not in status and not stale:
                return
        except StaleElementReferenceException:
            pass                        # the widget was replaced while we looked: look again
        time.sleep(0.2)


def _shot(d, name: str) -> Path:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    d.save_screenshot(str(path))
    return path


def _no_traceback(d) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    assert not d.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]'), _text(d)[:2000]
    assert "Traceback" not in _text(d)


def _click(d, css: str) -> None:  # type: ignore[no-untyped-def]
    """Click the visible element; retried when a rerun replaces it between finding and clicking."""
    from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException

    for attempt in range(4):
        try:
            el = _find(d, css)
            d.execute_script("arguments[0].scrollIntoView({block: 'center'});", el)
            el.click()
            return
        except (StaleElementReferenceException, ElementClickInterceptedException):
            if attempt == 3:
                raise
            time.sleep(0.5)


# ---------------------------------------------------------------------------------- the walk


def test_ask_law_citation_ruling(server: str, driver) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.keys import Keys

    d = driver
    d.get(server + "/?lang=en")
    box = _find(d, ".st-key-ask_q input", timeout=START_TIMEOUT)
    box.send_keys("declarer revokes and the revoke is established", Keys.ENTER)
    _wait_url(d, "q", lambda v: "revoke" in v)
    _find(d, ".st-key-ask_open_0 button", timeout=ANSWER_TIMEOUT)
    _idle(d)
    _no_traceback(d)
    assert "Results for" in _text(d)
    _shot(d, "01-ask")

    # open the law of the first result
    _click(d, ".st-key-ask_open_0 button")
    law_id = _wait_url(d, "id", lambda v: "/law/" in v or "/article/" in v or "/definition/" in v)
    assert _params(d)["page"] == "law"
    _find(d, ".st-key-law_back button")
    _idle(d)
    _no_traceback(d)
    _shot(d, "02-law")

    # follow a citation (cites first, else cited-by)
    from selenium.webdriver.common.by import By

    _click(d, ".st-key-law_cite_0 button[data-testid^='stBaseButton'], "
              ".st-key-law_citedby_0 button[data-testid^='stBaseButton']")
    target = _wait_url(d, "id", lambda v: bool(v) and v != law_id)
    _find(d, ".st-key-law_back button")
    _idle(d)
    _no_traceback(d)
    assert target.split("/")[0] in ("ccba1999", "ccba2018", "wbf2017", "guandan2017")
    _shot(d, "03-citation")

    # a ruling in the wizard, at phone width: topic list -> answer to the end, one step back
    d.set_window_size(390, 844)
    d.get(server + "/?page=rule&lang=en")
    _find(d, "[class*='st-key-rule_topic_'] button")
    preferred = d.find_elements(By.CSS_SELECTOR, ".st-key-rule_topic_insufficient_bid button")
    _click(d, ".st-key-rule_topic_insufficient_bid button" if preferred else "[class*='st-key-rule_topic_'] button")
    _wait_url(d, "topic", lambda v: bool(v))
    _find(d, ".st-key-rule_opt_0 button")
    _idle(d)
    _shot(d, "04-rule-first-question-phone")
    steps = 0
    went_back = False
    while True:
        _idle(d)
        if d.find_elements(By.CSS_SELECTOR, ".st-key-rule_cite_0"):
            break
        assert steps < 30, "the wizard did not reach a ruling in 30 answers"
        before = _params(d).get("a", "")
        _click(d, ".st-key-rule_opt_0 button")
        after = _wait_url(d, "a", lambda v, b=before: v != b)
        steps += 1
        if steps == 2 and not went_back:
            _click(d, ".st-key-rule_back button")
            _wait_url(d, "a", lambda v, a=after: v != a and len(v) < len(a))
            went_back = True
            steps -= 1
    _idle(d)
    _no_traceback(d)
    body = _text(d)
    assert "Ruling" in body and "Based on" in body, body[:1500]
    _shot(d, "05-ruling-phone")

    # the ruling's citation opens the clause it rests on
    _click(d, ".st-key-rule_cite_0 button")
    _wait_url(d, "page", lambda v: v == "law")
    _find(d, ".st-key-law_back button")
    _idle(d)
    _no_traceback(d)
    _shot(d, "06-ruling-citation-phone")

    # glossary at desktop width, traditional script, searched in simplified
    d.set_window_size(1280, 1000)
    d.get(server + "/?page=glossary&lang=zh-Hant&q=明手")
    _find(d, ".st-key-gloss_q input")
    _idle(d)
    assert "夢家" in _text(d)
    _no_traceback(d)
    _shot(d, "07-glossary-zh-Hant")

    # compare editions, filtered by a shared URL, and a question asked at phone width
    d.get(server + "/?page=compare&lang=en&class=substantive&chapter=6")
    _find(d, ".st-key-cmp_open_0 button")
    _idle(d)
    _no_traceback(d)
    _shot(d, "08-compare")
    d.set_window_size(390, 844)
    d.get(server + "/?page=ask&lang=zh-Hans&q=" + "明手指向一张牌")
    _find(d, ".st-key-ask_open_0 button", timeout=ANSWER_TIMEOUT)
    _idle(d)
    _no_traceback(d)
    _shot(d, "09-ask-phone-zh-Hans")
