"""Print the website's budget figures (a script that prints numbers, not a timed test).

Per page of the built site, served from 127.0.0.1 and opened in Debian's Chromium with an empty cache: the
bytes transferred (sum of the responses' encoded sizes, until the network is idle) against the page budget
(1.5 MiB, or 2 MiB on a page with a live explorer; tests/site/test_site_budget.py enforces it) and the time to first
render (first-contentful-paint, median of RUNS cold loads; target: the median over pages <= 500 ms). The size
of the built site (target <= 12 MB). For the live explorers: the size of their script and the time from an
input event to the repaint, median and 90th percentile (target: 90th percentile <= 16 ms), for the question
explorer of lesson 01, the score explorer of lesson 04 and the state explorers of lessons 05 and 06.

Input to repaint is measured inside the page: at the start of a frame (in a requestAnimationFrame callback),
set the slider and dispatch 'input'; the handler recomputes and updates the DOM, then the browser renders that
frame (style, layout, paint); a message posted from the same callback runs after the rendering, and its
arrival time minus the start is one sample. Target: at most 16 ms (one frame at 60 Hz).

Usage: .venv/bin/python -m attention_workshop.bench_site [SITE]  (default _build/html; build it first with
``.venv/bin/jupyter-book build . -n --keep-going``).
"""

from __future__ import annotations

import functools
import http.server
import pathlib
import socketserver
import statistics
import sys
import threading

from playwright.sync_api import sync_playwright

from attention_workshop.chromium import CHROMIUM_ARGS as ARGS  # noqa: E402  (how the book drives Chromium: src/attention_workshop/chromium.py)
from attention_workshop.chromium import find_chromium  # noqa: E402
from attention_workshop.command import OneLineParser, add_site_argument, run

CHROMIUM = find_chromium() or "/usr/bin/chromium"
SAMPLES = 60
RUNS = 3  # cold loads per page for the first-paint median
MiB = 1024 * 1024

MEASURE = """
async ([selector, values]) => {
  const inputs = document.querySelectorAll(selector);
  const input = inputs[0];
  const times = [];
  for (let i = 0; i < values.length; i++) {
    times.push(await new Promise((done) => {
      requestAnimationFrame(() => {
        const t0 = performance.now();
        if (input.type === "radio") {  // a question explorer: switch the question
          const next = inputs[i % inputs.length];
          next.checked = true;
          next.dispatchEvent(new Event("change", { bubbles: true }));
        } else {
          input.value = String(values[i]);
          input.dispatchEvent(new Event("input", { bubbles: true }));
        }
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done(performance.now() - t0);  // runs after this frame is rendered
        channel.port2.postMessage(null);
      });
    }));
  }
  return times;
}
"""

PAGE_FIGURES = """
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  const bytes = [nav, ...resources].reduce((sum, e) => sum + (e.encodedBodySize || 0), 0);
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const loaded = new Set(resources.map((e) => e.name));
  const lazy = [...new Set([...document.images].map((i) => i.src))].filter((src) => !loaded.has(src));
  return { bytes, requests: resources.length + 1, fcp: fcp ? fcp.startTime : null, lazy };
}
"""


def serve(site: pathlib.Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    class Server(socketserver.ThreadingTCPServer):
        def handle_error(self, request, client_address):
            pass  # a browser closing a connection early (e.g. after a favicon 404) is not a result

    httpd = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def pages(site: pathlib.Path) -> list[str]:
    found = (p.relative_to(site) for p in site.rglob("*.html"))
    return sorted(str(p) for p in found if p.parts[0] not in ("_static", "_sources"))


def site_bytes(site: pathlib.Path) -> int:
    return sum(p.stat().st_size for p in site.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m attention_workshop.bench_site", description=__doc__.splitlines()[0])
    add_site_argument(parser)
    site = parser.parse_args(argv).site.resolve()
    if not (site / "index.html").exists():
        parser.error(f"no built site at {site}: run `make book` first")
    httpd, base = serve(site)
    size = site_bytes(site)
    print(f"built site: {size / 1e6:.1f} MB on disk (target <= 12 MB)")
    script = site / "_static" / "ae-explorers.js"
    print(f"explorer script: {script.stat().st_size} bytes (target <= 30720)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        print("\nKiB: transferred on load (cold cache); read: plus the figures loaded lazily while scrolling")
        print(f"\n{'page':<52} {'KiB':>8} {'read':>8} {'budget':>7} {'requests':>9} {'first paint ms':>15}")
        paints = []
        for path in pages(site):
            runs = []
            for _ in range(RUNS):
                context = browser.new_context(viewport={"width": 1280, "height": 900})  # a fresh, empty cache
                page = context.new_page()
                page.goto(f"{base}/{path}", wait_until="load")
                page.wait_for_load_state("networkidle")
                page.wait_for_timeout(100)
                runs.append(page.evaluate(PAGE_FIGURES))
                explorer = page.locator(".ae-explorer").count() > 0
                context.close()
            f = runs[0]
            lazy = [site / src.removeprefix(base + "/").split("?")[0] for src in f["lazy"] if src.startswith(base)]
            read = f["bytes"] + sum(p.stat().st_size for p in lazy if p.is_file())
            budget = 2 * MiB if explorer else 1.5 * MiB
            mark = "ok" if read <= budget else "OVER"
            fcps = [r["fcp"] for r in runs if r["fcp"] is not None]
            fcp = f"{statistics.median(fcps):.0f}" if fcps else "n/a"
            if fcps:
                paints.append(statistics.median(fcps))
            print(f"{path:<52} {f['bytes'] / 1024:8.1f} {read / 1024:8.1f} {mark:>7} {f['requests']:9d} {fcp:>15}")
        if paints:
            print(f"first paint, median over pages: {statistics.median(paints):.0f} ms (target <= 500 ms)")
        slow = "notebooks/05_additive_score.html"
        if (site / slow).exists():  # the measure: a 9 Mbit/s link with 20 ms latency
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            link = {"offline": False, "latency": 20, "downloadThroughput": 9e6 / 8, "uploadThroughput": 9e6 / 8}
            cdp.send("Network.emulateNetworkConditions", link)
            page.goto(f"{base}/{slow}", wait_until="load")
            page.wait_for_load_state("networkidle")
            f = page.evaluate(PAGE_FIGURES)
            context.close()
            print(f"first paint of {slow} over a 9 Mbit/s link: {f['fcp']:.0f} ms")

        print(f"\ninput event to repaint, {SAMPLES} samples (target: 90th percentile <= 16 ms):")
        cases = [
            ("notebooks/01_reading_on_demand.html", '.ae-explorer input[type="radio"]', (0.0, 1.0)),
            ("notebooks/04_from_scores_to_weights.html", '.ae-explorer input[type="range"]', (-4.0, 4.0)),
            ("notebooks/05_additive_score.html", '.ae-explorer input[type="range"]', (-4.0, 4.0)),
            ("notebooks/06_same_content_different_state.html", '.ae-explorer input[type="range"]', (-4.0, 4.0)),
        ]
        for path, selector, (lo, hi) in cases:
            if not (site / path).exists():
                continue
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.goto(f"{base}/{path}", wait_until="load")
            page.wait_for_selector(".ae-explorer.ae-x-ready")
            page.locator(".ae-explorer").first.scroll_into_view_if_needed()  # measure with the drawing on screen
            values = [round(lo + (hi - lo) * ((7 * i) % SAMPLES) / SAMPLES, 2) for i in range(SAMPLES)]
            times = page.evaluate(MEASURE, [selector, values])
            print(
                f"  {path:<50} median {statistics.median(times):5.2f} ms, "
                f"90th percentile {sorted(times)[int(0.9 * len(times))]:5.2f} ms"
            )
            context.close()
        browser.close()
    httpd.shutdown()


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.bench_site"))
