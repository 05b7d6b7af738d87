"""Cold start of the app to its first answer, with the search index cached (target ≤ 2 s), a law page
warm (≤ 500 ms), a wizard step (≤ 300 ms), and the peak RSS of the app process (target ≤ 600 MB).
Prints figures, asserts nothing.

Fills the on-disk caches first, outside the app and not timed (the search index, the unpacked USE model,
jieba's dictionary, the clause ids, the citations: what a machine keeps after one `bridgelaw ask` and one
law page), opens headless chromium (not timed), then times `streamlit run app.py` from launch until the first search result of ?page=ask&q=… is on screen.
Peak RSS is the app process's VmHWM after the answer, a law page and a ruling page.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

REPO = Path(__file__).resolve().parent.parent
QUERY = "dummy points at a card and declarer plays it"
COLD_TARGET_S = 2.0
RSS_TARGET_MB = 600.0


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _driver():  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--no-first-run", f"--user-data-dir={tempfile.mkdtemp(prefix='bridgelaw-bench-')}",
              "--window-size=1280,1000"):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def _wait(d, css: str, timeout: float) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(d, timeout, poll_frequency=0.05).until(ec.presence_of_element_located((By.CSS_SELECTOR, css)))


def _changed(d, js: str, before: str, timeout: float = 30) -> float:  # type: ignore[no-untyped-def]
    """Seconds until the script `js` returns something other than `before`."""
    t = time.perf_counter()
    while time.perf_counter() - t < timeout:
        if d.execute_script(js) not in (before, None):
            return time.perf_counter() - t
        time.sleep(0.01)
    return float("nan")


_H2 = "const h = document.querySelector('h2'); return h ? h.textContent : '';"
_STEP = "const q = document.querySelectorAll('[class*=\"st-key-rule_opt_\"] button, .st-key-rule_cite_0');" \
        "return location.search + '|' + (q.length ? q[0].textContent : '') + '|' + " \
        "(document.querySelector('[data-stale=\"true\"]') ? 'stale' : '');"


def _script_runs(log: str) -> list[float]:
    """Server time of each script (or fragment) run in a Streamlit debug log: 'Running script' to the
    end-of-run housekeeping ('Removing orphaned files')."""
    from datetime import datetime

    out: list[float] = []
    start = None
    for line in log.splitlines():
        stamp = line[:23]
        if "Running script" in line:
            start = datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S.%f")
        elif "Removing orphaned files" in line and start is not None:
            out.append((datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S.%f") - start).total_seconds())
            start = None
    return out


def _law_warm(d, base: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """A law page opened warm: by a link inside the session (Law 64 -> Law 65) and in a fresh tab."""
    from selenium.webdriver.common.by import By

    d.get(f"{base}/?page=law&id=wbf2017/law/64&lang=en")
    _wait(d, ".st-key-law_next a", 120)
    time.sleep(0.5)
    before = d.execute_script(_H2)
    d.find_element(By.CSS_SELECTOR, ".st-key-law_next a").click()
    t_link = _changed(d, _H2, before)
    t = time.perf_counter()
    d.get(f"{base}/?page=law&id=wbf2017/law/63&lang=en")
    _wait(d, ".st-key-law_next a", 120)
    return t_link, time.perf_counter() - t


def _wizard_steps(d, base: str, n: int = 8) -> list[float]:  # type: ignore[no-untyped-def]
    """Each answer of a revoke walk: from the click until the next question (or the ruling) is drawn."""
    from selenium.webdriver.common.by import By

    d.get(f"{base}/?page=rule&topic=revoke&lang=en")
    _wait(d, ".st-key-rule_opt_0 button", 120)
    time.sleep(0.5)
    out: list[float] = []
    for _ in range(n):
        buttons = d.find_elements(By.CSS_SELECTOR, ".st-key-rule_opt_0 button")
        if not buttons:
            break
        before = d.execute_script(_STEP)
        buttons[0].click()
        t = time.perf_counter()
        while time.perf_counter() - t < 30:
            now = d.execute_script(_STEP)
            if now != before and not now.endswith("stale"):
                break
            time.sleep(0.01)
        out.append(time.perf_counter() - t)
        time.sleep(0.3)
    return out


QUESTIONS = ("declarer revoked", "明手指向一张牌", "lead out of turn by defender", "不足叫牌", "claim disputed",
             "夢家指出藏牌", "insufficient bid accepted", "出牌过早", "exposed card during the auction", "慢打")


def _concurrent(d, base: str, n: int = 10) -> tuple[float, int, int]:  # type: ignore[no-untyped-def]
    """n sessions (tabs) asking n different questions at once: seconds until all answered, answers, errors."""
    from selenium.webdriver.common.by import By

    first = d.current_window_handle
    tabs = []
    t = time.perf_counter()
    for i in range(n):
        d.switch_to.new_window("tab")
        d.get(f"{base}/?page=ask&lang=en&q={quote(QUESTIONS[i % len(QUESTIONS)])}")
        tabs.append(d.current_window_handle)
    done: dict[str, str] = {}
    while len(done) < n and time.perf_counter() - t < 300:
        for h in tabs:
            if h in done:
                continue
            d.switch_to.window(h)
            if d.find_elements(By.CSS_SELECTOR, "[data-testid='stException'], [data-testid='stAlertContentError']"):
                done[h] = "error"
            elif d.find_elements(By.CSS_SELECTOR, ".st-key-ask_open_0, .st-key-ask_details, [data-testid='stAlertContentWarning']"):
                done[h] = "answer"
        time.sleep(0.1)
    elapsed = time.perf_counter() - t
    for h in tabs:
        d.switch_to.window(h)
        d.close()
    d.switch_to.window(first)
    return elapsed, sum(v == "answer" for v in done.values()), n - sum(v == "answer" for v in done.values())


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--query", default=QUERY, help="the first question (default: an English one)")
    query = ap.parse_args(argv).query
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from assistant.resources import resources; "
                    "resources().searcher().search('declarer revoked'); "
                    "from assistant.corpus import load_corpus; from assistant.graph.citations import cached_citations; "
                    "cached_citations(load_corpus())"], cwd=REPO, env=env, check=True)
    print(f"caches ready (read or built): {time.perf_counter() - t:.1f} s (not counted)")
    d = _driver()
    port = _port()
    base = f"http://127.0.0.1:{port}"
    log = open(tempfile.mktemp(prefix="bridgelaw-bench-", suffix=".log"), "w+")
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(REPO / "app.py"), "--server.headless",
                             "true", "--server.port", str(port), "--server.address", "127.0.0.1",
                             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
                             "--logger.level", "debug"],
                            cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/_stcore/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.05)
            if time.perf_counter() - t0 > 120 or proc.poll() is not None:
                raise SystemExit("streamlit did not start")
        t_up = time.perf_counter() - t0
        d.get(f"{base}/?page=ask&lang=en&q={quote(query)}")
        _wait(d, ".st-key-ask_q", 120)
        t_shell = time.perf_counter() - t0
        _wait(d, ".st-key-ask_open_0", 300)
        t_answer = time.perf_counter() - t0
        t1 = time.perf_counter()
        d.get(f"{base}/?page=ask&lang=en&q={quote('revoke established declarer')}")
        _wait(d, ".st-key-ask_open_0", 120)
        t_second = time.perf_counter() - t1
        for path in ("?page=law&id=wbf2017/law/64", "?page=rule", "?page=compare", "?page=glossary"):
            d.get(f"{base}/{path}&lang=en")
            _wait(d, ".st-key-nav", 120)
            time.sleep(1.0)
        log.flush()
        mark_law = Path(log.name).stat().st_size
        t_law_link, t_law_tab = _law_warm(d, base)
        time.sleep(0.5)
        law_runs = _script_runs(Path(log.name).read_bytes()[mark_law:].decode("utf-8", "replace"))
        mark = Path(log.name).stat().st_size
        steps = _wizard_steps(d, base)
        time.sleep(0.5)
        log.flush()
        runs = _script_runs(Path(log.name).read_bytes()[mark:].decode("utf-8", "replace"))
        t_conc, answered, failed = _concurrent(d, base)
        rss = _peak_rss_mb(proc.pid)
    finally:
        d.quit()
        proc.terminate()
        proc.wait(timeout=15)
    print(f"server up (health):                {t_up:6.2f} s")
    print(f"page shell on screen:              {t_shell:6.2f} s")
    print(f"cold start to first answer:        {t_answer:6.2f} s  (target ≤ {COLD_TARGET_S:.0f} s) "
          f"{'OK' if t_answer <= COLD_TARGET_S else 'OVER'}")
    print(f"second question, fresh session:    {t_second:6.2f} s")
    print(f"law page warm, link in session:    {t_law_link:6.2f} s  (target ≤ 0.5 s)")
    if len(law_runs) >= 2:
        print(f"law page warm, server time:        {law_runs[1]:6.2f} s  (link Law 64 -> Law 65)")
    print(f"law page warm, fresh tab:          {t_law_tab:6.2f} s")
    if steps:
        print(f"wizard step (click -> next question on screen): median {sorted(steps)[len(steps) // 2] * 1000:4.0f} ms, "
              f"max {max(steps) * 1000:4.0f} ms over {len(steps)} steps (target ≤ 300 ms)")
    if runs:
        print(f"wizard step, server time per run:  median {sorted(runs)[len(runs) // 2] * 1000:4.0f} ms, "
              f"max {max(runs) * 1000:4.0f} ms over {len(runs)} runs (target ≤ 300 ms)")
    print(f"10 sessions asking at once:        {t_conc:6.2f} s until all answered; {answered} answered, "
          f"{failed} with an error or no answer (target: 0)")
    print(f"peak RSS of the app process:       {rss:6.0f} MB (target ≤ {RSS_TARGET_MB:.0f} MB) "
          f"{'OK' if rss <= RSS_TARGET_MB else 'OVER'}")


if __name__ == "__main__":
    main()
