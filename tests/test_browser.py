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


def _history(d) -> int:  # type: ignore[no-untyped-def]
    return int(d.execute_script("return window.history.length"))


def _lang(d) -> str:  # type: ignore[no-untyped-def]
    return str(d.execute_script("return document.documentElement.lang"))


def _wait_lang(d, lang: str, timeout: float = STEP_TIMEOUT) -> None:  # type: ignore[no-untyped-def]
    deadline = time.time() + timeout
    while time.time() < deadline:
        if _lang(d) == lang:
            return
        time.sleep(0.2)
    raise AssertionError(f"<html lang> is {_lang(d)!r}, not {lang!r}, at {d.current_url}")


def _wait_title(d, pred, timeout: float = STEP_TIMEOUT) -> str:  # type: ignore[no-untyped-def]
    deadline = time.time() + timeout
    while time.time() < deadline:
        if pred(d.title):
            return str(d.title)
        time.sleep(0.2)
    raise AssertionError(f"page title {d.title!r} not as expected at {d.current_url}")


def _in_viewport(d, el) -> bool:  # type: ignore[no-untyped-def]
    """The element's first line is on screen without scrolling."""
    return bool(d.execute_script("const r = arguments[0].getBoundingClientRect();"
                                 "return r.top >= 0 && r.top + 16 <= window.innerHeight && r.height > 0;", el))


def test_ask_then_open_the_law_and_back(server: str, driver) -> None:  # type: ignore[no-untyped-def]
    """A question, its first result followed as a link (one history entry), Back to the results; the
    result's href opens the law in a new session."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d = driver
    d.set_window_size(1366, 900)
    d.get(server + "/?lang=en")
    box = _find(d, ".st-key-ask_q input", timeout=START_TIMEOUT)
    _idle(d)
    h0 = _history(d)
    box.send_keys("declarer revokes and the revoke is established", Keys.ENTER)
    _wait_url(d, "q", lambda v: "revoke" in v)
    _find(d, ".st-key-ask_open_0 a", timeout=ANSWER_TIMEOUT)
    _idle(d)
    _no_traceback(d)
    assert "Results for" in _text(d)
    assert _history(d) == h0 + 1, "a search is one history entry"
    _wait_lang(d, "en")
    _wait_title(d, lambda t: "declarer revokes" in t)
    _shot(d, "01-ask")

    a = _find(d, ".st-key-ask_open_0 a")
    href = a.get_attribute("href")
    assert "?page=law" in href and "id=" in href and "lang=en" in href, href
    h1 = _history(d)
    _click(d, ".st-key-ask_open_0 a")
    _wait_url(d, "id", lambda v: "/law/" in v or "/article/" in v or "/definition/" in v)
    _find(d, ".st-key-law_back a")
    _idle(d)
    _no_traceback(d)
    assert _history(d) == h1 + 1, "following a link is one history entry"
    _shot(d, "02-law")
    d.back()
    _wait_url(d, "page", lambda v: v in ("", "ask"))
    _find(d, ".st-key-ask_open_0 a", timeout=ANSWER_TIMEOUT)
    assert "revoke" in _params(d).get("q", "") and "Results for" in _text(d)

    first = d.current_window_handle
    d.switch_to.new_window("tab")
    d.get(href)
    _find(d, ".st-key-law_back a", timeout=START_TIMEOUT)
    _idle(d)
    assert _params(d)["page"] == "law" and d.find_element(By.CSS_SELECTOR, "h2").text
    d.close()
    d.switch_to.window(first)


def test_law_links_citations_and_back(server: str, driver) -> None:  # type: ignore[no-untyped-def]
    """A law page: titled with the law's number and name, lang set; citations are links with an href;
    each followed link is one history entry; Back returns to the previous law with its content."""
    from selenium.webdriver.common.by import By

    d = driver
    d.set_window_size(1366, 900)
    d.get(server + "/?page=law&id=wbf2017/law/64&lang=zh-Hant")
    _find(d, ".st-key-law_back a", timeout=START_TIMEOUT)
    _idle(d)
    _no_traceback(d)
    _wait_lang(d, "zh-Hant")
    title = _wait_title(d, lambda t: t.startswith("第64條"))
    law_head = d.find_element(By.CSS_SELECTOR, "h2").text
    link = _find(d, ".st-key-law_cite_0 a, .st-key-law_citedby_0 a")
    href = link.get_attribute("href")
    assert "?page=law" in href and "id=" in href and "lang=zh-Hant" in href, href
    h0 = _history(d)
    _click(d, ".st-key-law_cite_0 a, .st-key-law_citedby_0 a")
    target = _wait_url(d, "id", lambda v: bool(v) and v != "wbf2017/law/64")
    _find(d, ".st-key-law_back a")
    _idle(d)
    _no_traceback(d)
    assert target.split("/")[0] in ("ccba1999", "ccba2018", "wbf2017", "guandan2017")
    assert _history(d) == h0 + 1, "one history entry per link followed"
    _wait_title(d, lambda t: t != title)
    _shot(d, "03-citation")
    _click(d, ".st-key-law_next a")
    _wait_url(d, "id", lambda v: v != target)
    _idle(d)
    assert _history(d) == h0 + 2
    d.back()
    _wait_url(d, "id", lambda v: v == target)
    _idle(d)
    d.back()
    _wait_url(d, "id", lambda v: v == "wbf2017/law/64")
    _find(d, ".st-key-law_back a")
    _idle(d)
    assert d.find_element(By.CSS_SELECTOR, "h2").text == law_head
    _wait_title(d, lambda t: t == title)


def test_wizard_on_the_phone(server: str, driver) -> None:  # type: ignore[no-untyped-def]
    _wizard_phone(driver, server)


def test_glossary_and_compare(server: str, driver) -> None:  # type: ignore[no-untyped-def]
    d = driver
    d.set_window_size(1366, 900)
    d.get(server + "/?page=glossary&lang=zh-Hant&q=明手")
    _find(d, ".st-key-gloss_q input", timeout=START_TIMEOUT)
    _idle(d)
    assert "夢家" in _text(d)
    _wait_lang(d, "zh-Hant")
    _no_traceback(d)
    _shot(d, "07-glossary-zh-Hant")
    d.get(server + "/?page=compare&lang=en&class=substantive&chapter=6")
    first_row = _find(d, ".st-key-cmp_open_0 a")
    _idle(d)
    _no_traceback(d)
    key = _find(d, ".st-key-cmp_key_1")
    assert key.location["y"] < first_row.location["y"], "the key changes come first"
    assert "?page=law" in _find(d, ".st-key-cmp_key_1_old_0 a").get_attribute("href")
    _shot(d, "08-compare")


def _wizard_phone(d, server: str) -> None:  # type: ignore[no-untyped-def]
    """A ruling in the wizard at phone width: answers in a fixed order (yes before no) on every step, one
    history entry per answer, one step back, the ruling on top when reached."""
    from selenium.webdriver.common.by import By

    d.set_window_size(390, 844)
    d.get(server + "/?page=rule&lang=en")
    _find(d, "[class*='st-key-rule_topic_'] a")
    preferred = d.find_elements(By.CSS_SELECTOR, ".st-key-rule_topic_revoke a")
    _click(d, ".st-key-rule_topic_revoke a" if preferred else "[class*='st-key-rule_topic_'] a")
    _wait_url(d, "topic", lambda v: bool(v))
    _find(d, ".st-key-rule_opt_0 button")
    _idle(d)
    _shot(d, "04-rule-first-question-phone")
    steps = 0
    went_back = False
    orders: dict[frozenset[str], list[str]] = {}
    while True:
        _idle(d)
        if d.find_elements(By.CSS_SELECTOR, ".st-key-rule_cite_0"):
            break
        assert steps < 30, "the wizard did not reach a ruling in 30 answers"
        labels = [e.text for e in d.find_elements(By.CSS_SELECTOR, "[class*='st-key-rule_opt_'] button") if e.text]
        if "Yes" in labels and "No" in labels:
            assert labels.index("Yes") < labels.index("No"), labels
        assert orders.setdefault(frozenset(labels), labels) == labels, "the same answers in another order"
        before, h = _params(d).get("a", ""), _history(d)
        _click(d, ".st-key-rule_opt_0 button")
        after = _wait_url(d, "a", lambda v, b=before: v != b)
        assert _history(d) == h + 1, "one history entry per answer"
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
    outcome = d.find_element(By.CSS_SELECTOR, "[data-testid='stAlertContentSuccess'], [data-testid='stAlert']")
    assert _in_viewport(d, outcome), "the ruling is on screen when reached"
    _shot(d, "05-ruling-phone")

    # the ruling's citation opens the clause it rests on
    _click(d, ".st-key-rule_cite_0 a")
    _wait_url(d, "page", lambda v: v == "law")
    _find(d, ".st-key-law_back a")
    _idle(d)
    _no_traceback(d)
    _shot(d, "06-ruling-citation-phone")


@pytest.mark.parametrize("lang, words", [("zh-Hans", "明手指向一张牌"), ("zh-Hant", "夢家指向一張牌")])
def test_phone_answer_first_clause_on_screen(server: str, driver, lang: str, words: str) -> None:  # type: ignore[no-untyped-def]
    """At 390×844 the first answer's clause text is visible without scrolling; the page is titled and
    tagged in the interface language; the other editions are folded."""
    from urllib.parse import quote

    from selenium.webdriver.common.by import By

    d = driver
    d.set_window_size(390, 844)
    d.get(f"{server}/?page=ask&lang={lang}&q={quote(words)}")
    _find(d, ".st-key-ask_open_0 a", timeout=ANSWER_TIMEOUT)
    _idle(d)
    _no_traceback(d)
    d.execute_script("window.scrollTo(0, 0)")
    paras = [e for e in d.find_elements(By.CSS_SELECTOR, ".st-key-ask_card_0 [data-testid='stMarkdownContainer']")
             if e.is_displayed() and e.text.strip()]
    assert len(paras) >= 2, "the card shows its edition and the clause text"
    assert _in_viewport(d, paras[1]), "the first clause starts inside the phone's viewport"
    _wait_lang(d, lang)
    _wait_title(d, lambda t: words[:10] in t)
    _shot(d, f"09-ask-phone-{lang}")


PAGES = ["page=ask", "page=ask&q=%E6%98%8E%E6%89%8B%E6%8C%87%E5%90%91%E4%B8%80%E5%BC%A0%E7%89%8C",
         "page=law&id=wbf2017/law/64", "page=law", "page=rule&topic=revoke", "page=compare",
         "page=glossary&q=%E8%B3%BD%E5%93%A1", "page=exam", "page=score&c=4HX%2B1"]


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
@pytest.mark.parametrize("width, height", [(390, 844), (1366, 900)])
@pytest.mark.parametrize("path", PAGES)
def test_every_page_at_both_widths(server: str, driver, path: str, width: int, height: int, lang: str) -> None:  # type: ignore[no-untyped-def]
    """Every page renders at both widths in each language, titled and tagged; a screenshot of the first
    screen for a person to look at (artifacts/browser/page-<page>-<width>-<lang>.png)."""
    from assistant.ui.i18n import t

    d = driver
    d.set_window_size(width, height)
    d.get(f"{server}/?{path}&lang={lang}")
    _find(d, ".st-key-nav", timeout=ANSWER_TIMEOUT if "q=" in path else START_TIMEOUT)
    if "page=ask&q=" in path:
        _find(d, ".st-key-ask_open_0 a", timeout=ANSWER_TIMEOUT)
    _idle(d)
    _no_traceback(d)
    _wait_lang(d, lang)
    _wait_title(d, lambda title: t("app_title", lang) in title)
    name = path.split("&")[0].split("=")[1] + ("-" + path.split("id=")[1].replace("/", "_") if "id=" in path else "")
    name += "-answer" if "page=ask&q=" in path else ""
    _shot(d, f"page-{name}-{width}-{lang}")


def test_the_browser_language_is_the_default(server: str, driver) -> None:  # type: ignore[no-untyped-def]
    """Without ?lang= the interface follows the browser's language (this chromium runs with --lang=en,
    the app's own default is zh-Hans), and the language switch in the header writes ?lang= to the URL."""
    d = driver
    first = d.current_window_handle
    d.switch_to.new_window("tab")       # a fresh history (chromium caps history.length at 50)
    d.set_window_size(390, 844)
    d.get(server + "/")
    _find(d, ".st-key-hdr_lang", timeout=START_TIMEOUT)
    _idle(d)
    _wait_lang(d, "en")
    _wait_title(d, lambda t: "Bridge laws assistant" in t)
    h = _history(d)
    _click(d, ".st-key-hdr_lang button:nth-of-type(2)")
    _wait_url(d, "lang", lambda v: v == "zh-Hant")
    _idle(d)
    _wait_lang(d, "zh-Hant")
    _wait_title(d, lambda t: "橋牌規則助手" in t)
    assert _history(d) == h + 1
    _shot(d, "10-language-switch-phone")
    d.close()
    d.switch_to.window(first)
