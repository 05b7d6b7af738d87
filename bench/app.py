"""Cold start of the app to its first answer, with the search index cached (target ≤ 3 s), and the
peak RSS of the app process (target ≤ 600 MB). Prints figures, asserts nothing.

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
COLD_TARGET_S = 3.0
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
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(REPO / "app.py"), "--server.headless",
                             "true", "--server.port", str(port), "--server.address", "127.0.0.1",
                             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
    print(f"peak RSS of the app process:       {rss:6.0f} MB (target ≤ {RSS_TARGET_MB:.0f} MB) "
          f"{'OK' if rss <= RSS_TARGET_MB else 'OVER'}")


if __name__ == "__main__":
    main()
