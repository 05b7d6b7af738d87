"""A fresh server's first answer (open → answer, target ≤ 2 s, caches built), a law page warm (≤ 500 ms),
a wizard step (≤ 300 ms server time), 10 sessions asking at once (no errors), and the peak RSS of the app
process (≤ 600 MB). Prints figures, asserts nothing.

Fills the on-disk caches first, outside the app and not timed (the search index, the unpacked USE model,
jieba's dictionary, the clause ids, the citations: what a machine keeps after one `bridgelaw ask` and one
law page), opens headless chromium (not timed), then starts the server as the README serves it
(`python -m assistant.ui.serve`, which loads the resources before the server answers its health check;
`--plain` for a bare `streamlit run app.py`, which loads them when the first browser connects) and opens
?page=ask&q=… as soon as the health check answers (`--open-after 0`, the default) or some seconds later.
"Open → first answer" runs from the browser's request until the first result is on screen; "launch →
first answer" includes the server's start. Peak RSS is the app process's VmHWM after every page has
been shown. The machine's load average is worth printing beside the figures (2 cores, shared).
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
from typing import IO, Any
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


def _start(plain: bool, port: int, env: dict[str, str], log: IO[str]) -> tuple["subprocess.Popen[bytes]", float, float]:
    """The server as the README starts it (or a bare `streamlit run app.py`): the process, the launch time
    and the seconds until its health check answers."""
    t0 = time.perf_counter()
    launch = ["-m", "streamlit", "run", str(REPO / "app.py")] if plain else ["-m", "assistant.ui.serve"]
    proc = subprocess.Popen([sys.executable, *launch, "--server.headless",
                             "true", "--server.port", str(port), "--server.address", "127.0.0.1",
                             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
                             "--logger.level", "debug"],
                            cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as r:
                if r.status == 200:
                    return proc, t0, time.perf_counter() - t0
        except OSError:
            time.sleep(0.05)
        if time.perf_counter() - t0 > 120 or proc.poll() is not None:
            proc.kill()
            raise SystemExit("streamlit did not start")


def _median_ms(xs: list[float]) -> str:
    return f"median {sorted(xs)[len(xs) // 2] * 1000:4.0f} ms, max {max(xs) * 1000:4.0f} ms over {len(xs)}"


def _print(f: dict[str, Any], plain: bool, open_after: float) -> None:
    ok = {True: "OK", False: "OVER"}
    print(f"server: {'streamlit run app.py' if plain else 'python -m assistant.ui.serve'}; "
          f"page opened {open_after:g} s after the health check answered")
    print(f"server up (health), from launch:   {f['up']:6.2f} s")
    print(f"open -> page shell on screen:      {f['shell']:6.2f} s")
    print(f"open -> first answer:              {f['answer']:6.2f} s  (target ≤ {COLD_TARGET_S:.0f} s) "
          f"{ok[f['answer'] <= COLD_TARGET_S]}")
    print(f"launch -> first answer:            {f['launch_answer']:6.2f} s")
    print(f"second question, fresh session:    {f['second']:6.2f} s")
    print(f"law page warm, link in session:    {f['law_link']:6.2f} s  (click -> new heading on screen)")
    for i, what in ((1, "link Law 64 -> Law 65"), (2, "fresh tab, Law 63")):
        if len(f["law_runs"]) > i:
            print(f"law page warm, server time:        {f['law_runs'][i]:6.2f} s  ({what}; target ≤ 0.5 s)")
    print(f"law page warm, fresh tab:          {f['law_tab']:6.2f} s  (request -> page drawn)")
    if f["steps"]:
        print(f"wizard step (click -> next question on screen): {_median_ms(f['steps'])} steps")
    if f["runs"]:
        print(f"wizard step, server time per run:  {_median_ms(f['runs'])} runs (target ≤ 300 ms)")
    print(f"10 sessions asking at once:        {f['conc']:6.2f} s until all answered; {f['answered']} answered, "
          f"{f['failed']} with an error or no answer (target: 0)")
    print(f"peak RSS of the app process:       {f['rss']:6.0f} MB (target ≤ {RSS_TARGET_MB:.0f} MB) "
          f"{ok[f['rss'] <= RSS_TARGET_MB]}")


def _log_runs(log: IO[str], since: int) -> list[float]:
    log.flush()
    return _script_runs(Path(log.name).read_bytes()[since:].decode("utf-8", "replace"))


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--query", default=QUERY, help="the first question (default: an English one)")
    ap.add_argument("--plain", action="store_true", help="start a bare `streamlit run app.py` (no warm-up at start)")
    ap.add_argument("--open-after", type=float, default=0.0,
                    help="seconds between the health check's first answer and opening the page (default 0)")
    args = ap.parse_args(argv)
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
    f: dict[str, Any] = {}
    proc, t0, f["up"] = _start(args.plain, port, env, log)
    try:
        time.sleep(args.open_after)
        t_open = time.perf_counter()
        d.get(f"{base}/?page=ask&lang=en&q={quote(args.query)}")
        _wait(d, ".st-key-ask_q", 120)
        f["shell"] = time.perf_counter() - t_open
        _wait(d, ".st-key-ask_open_0", 300)
        f["answer"], f["launch_answer"] = time.perf_counter() - t_open, time.perf_counter() - t0
        t1 = time.perf_counter()
        d.get(f"{base}/?page=ask&lang=en&q={quote('revoke established declarer')}")
        _wait(d, ".st-key-ask_open_0", 120)
        f["second"] = time.perf_counter() - t1
        for path in ("?page=law&id=wbf2017/law/64", "?page=rule", "?page=compare", "?page=glossary"):
            d.get(f"{base}/{path}&lang=en")
            _wait(d, ".st-key-nav", 120)
            time.sleep(1.0)
        log.flush()
        mark = Path(log.name).stat().st_size
        f["law_link"], f["law_tab"] = _law_warm(d, base)
        time.sleep(0.5)
        f["law_runs"] = _log_runs(log, mark)
        mark = Path(log.name).stat().st_size
        f["steps"] = _wizard_steps(d, base)
        time.sleep(0.5)
        f["runs"] = _log_runs(log, mark)
        f["conc"], f["answered"], f["failed"] = _concurrent(d, base)
        f["rss"] = _peak_rss_mb(proc.pid)
    finally:
        d.quit()
        proc.terminate()
        proc.wait(timeout=15)
    _print(f, args.plain, args.open_after)


if __name__ == "__main__":
    main()
