"""Budgets of lesson 07's laboratory on the website (prints figures; a script, not a timed test).

    .venv/bin/python -m attention_workshop.bench_lab [SITE]      # default _build/html; build it first (make book)

In headless Chromium (Debian's, as the browser tests), on the built site served from 127.0.0.1:

1. Training in the page: the default run (attention model, seed 0, the page's default budget) started with
   the Train button; the wall-clock seconds until the first validation check with token accuracy >= 0.95
   (target: <= 60 s) and the milliseconds per step, beside the numpy trainer's on this machine (the same
   model and batch size, one BLAS thread, steps of the committed recipe). Screenshots of the heatmap during
   that run at 390 and 1280 px, light and dark, go to ``_build/screenshots/lab-training-*.png``.
2. Input to repaint, median and 90th percentile over SAMPLES inputs (target: p90 <= 16 ms) for Compose (a new
   sentence typed: parse, greedy decoding, the grid), Step (the step slider) and Watch (the snapshot scrubber),
   and for Compose and Watch again while the Worker trains (target: p90 <= 50 ms). Measured as
   ``attention_workshop.bench_site`` does: the input is dispatched at the start of a frame and the sample ends when a
   message posted then arrives, after that frame's rendering. The compose sentences are typed once unmeasured
   first: the lab's boxes keep the largest size they have had, so only the first long sentence lays the page out.
3. Weight of lesson 07's page in each edition, cold cache, with the lab's data and the figures loaded lazily
   (the lab's data load when the lab comes into view; target: <= 1.1 MiB on load), and the lab's own files.

Timings depend on the machine and on what else runs on it; the script prints the load average beside them.
"""

from __future__ import annotations

import os
import pathlib
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

from attention_workshop.bench_site import ARGS, CHROMIUM, PAGE_FIGURES, serve  # noqa: E402  (the same server, browser and page figures)
from attention_workshop.command import OneLineParser, add_site_argument, run
from attention_workshop.paths import ROOT

SHOTS = pathlib.Path(os.environ.get("AE_SCREENSHOTS", ROOT / "_build" / "screenshots"))
LESSON_07 = "notebooks/07_learning_without_labels.html"
LAB = '.ae-explorer.ae-lab-open[data-explorer="lab"]'  # opened: its data load when it comes into view
SAMPLES = 60
MiB = 1024 * 1024

# One sample: at the start of a frame, change the input and dispatch its event; the sample ends when a message
# posted in the same callback arrives, which is after the frame (style, layout, paint) is rendered.
REPAINT = """
async ([selector, values, event]) => {
  const input = document.querySelector(selector);
  const times = [];
  for (const value of values) {
    times.push(await new Promise((done) => {
      requestAnimationFrame(() => {
        const t0 = performance.now();
        input.value = String(value);
        input.dispatchEvent(new Event(event, { bubbles: true }));
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done(performance.now() - t0);
        channel.port2.postMessage(null);
      });
    }));
  }
  return times;
}
"""


def p90(times: list[float]) -> float:
    return sorted(times)[int(0.9 * len(times))]


def numpy_ms_per_step(steps: int = 60) -> float:
    """Median milliseconds of one numpy training step (the committed recipe's model and batches)."""
    from attention_core.models import data
    from attention_core.models.train import TrainConfig, train

    cfg = TrainConfig(steps=steps, eval_every=0)
    splits = data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test)
    stamps = []
    train(cfg, splits, callback=lambda *a: stamps.append(time.perf_counter()))
    return statistics.median(b - a for a, b in zip(stamps[5:], stamps[6:], strict=False)) * 1000


def open_lab(browser, base: str, path: str = LESSON_07, width: int = 1280, scheme: str = "light"):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{base}/{path}", wait_until="load")
    page.locator('.ae-explorer[data-explorer="lab"]').scroll_into_view_if_needed()  # as a reader reaches it
    root = page.locator(LAB)
    root.wait_for(timeout=20000)
    return context, page, root


def repaint(page, root, tab: int, selector: str, values, event: str = "input") -> list[float]:
    root.locator('[role="tab"]').nth(tab).click()
    root.scroll_into_view_if_needed()
    page.wait_for_timeout(100)
    return page.evaluate(REPAINT, [selector, list(values), event])


def sentences() -> list[str]:
    from attention_core.models import data

    test = data.make_splits(seed=0).test
    return [" ".join(p.words()[0]) for p in test[:SAMPLES]]


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m attention_workshop.bench_lab", description=__doc__.splitlines()[0])
    add_site_argument(parser)
    site = parser.parse_args(argv).site.resolve()
    if not (site / LESSON_07).exists():
        parser.error(f"no built lesson 07 at {site}: run `make book` first")
    httpd, base = serve(site)
    load = os.getloadavg()
    print(f"Lesson 07's laboratory (load average {load[0]:.1f}, {os.cpu_count()} cores)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)

        # 2. input to repaint, nothing training
        context, page, root = open_lab(browser, base)
        texts = sentences()
        repaint(page, root, 0, f"{LAB} input[type=text]", texts)  # once unmeasured: the boxes reach their size
        compose = repaint(page, root, 0, f"{LAB} input[type=text]", texts)
        root.locator('[role="tab"]').nth(0).click()
        root.locator("input[type=text]").fill(texts[3])  # a sentence to step through
        steps = [1 + (7 * i) % 10 for i in range(SAMPLES)]
        step = repaint(page, root, 1, f"{LAB} .ae-lab-stepper input[type=range]", steps)
        snapshots = [(7 * i) % 51 for i in range(SAMPLES)]
        scrub = repaint(page, root, 2, f"{LAB} .ae-lab-scrubber input[type=range]", snapshots)
        root.locator('[role="tab"]').nth(2).click()
        root.locator(".ae-lab-scrubber").locator("xpath=..").locator("select").select_option("2")  # 27 words
        scrub27 = page.evaluate(REPAINT, [f"{LAB} .ae-lab-scrubber input[type=range]", snapshots, "input"])
        context.close()

        # 1. training to 0.95 in the page, with repaint figures and screenshots while it runs
        context, page, root = open_lab(browser, base)
        root.locator('[role="tab"]').nth(3).click()
        root.scroll_into_view_if_needed()
        root.locator(".ae-lab-primary").click()
        started = time.perf_counter()
        page.wait_for_function(f"() => (document.querySelector('{LAB}').aeLab.run.step || 0) >= 150", timeout=600000)
        shots = []
        for width, scheme in ((1280, "light"), (1280, "dark"), (390, "light"), (390, "dark")):
            page.set_viewport_size({"width": width, "height": 900})
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(700)
            root.locator(".ae-lab-panel").nth(3).locator(".ae-lab-gridbox").first.scroll_into_view_if_needed()
            name = SHOTS / f"lab-training-{width}-{scheme}.png"
            page.screenshot(path=str(name))
            shots.append(name)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.emulate_media(color_scheme="light")
        busy_compose = repaint(page, root, 0, f"{LAB} input[type=text]", texts[: SAMPLES // 2])
        busy_scrub = repaint(page, root, 2, f"{LAB} .ae-lab-scrubber input[type=range]", snapshots[: SAMPLES // 2])
        root.locator('[role="tab"]').nth(3).click()
        page.wait_for_function(
            f"() => {{ const r = document.querySelector('{LAB}').aeLab.run; return r.reached || r.done; }}",
            timeout=600000,
        )
        run = root.evaluate(
            "el => { const r = el.aeLab.run; "
            "return {reached: r.reached, step: r.step, ms: r.msPerStep, steps: r.steps}; }"
        )
        wall = time.perf_counter() - started
        context.close()

        # 3. page weight, cold cache, both editions
        weights = {}
        for path in (LESSON_07, f"zh/{LESSON_07}"):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.goto(f"{base}/{path}", wait_until="load")
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(200)
            f = page.evaluate(PAGE_FIGURES)
            lazy = [site / s.removeprefix(base + "/").split("?")[0] for s in f["lazy"] if s.startswith(base)]
            weights[path] = (f["bytes"], f["bytes"] + sum(q.stat().st_size for q in lazy if q.is_file()))
            context.close()
        browser.close()
    httpd.shutdown()

    numpy_ms = numpy_ms_per_step()
    print("\n1. Training in the page (attention model, seed 0, default budget of", run["steps"], "steps)")
    if run["reached"]:
        print(
            f"  validation token accuracy >= 0.95 at step {run['reached']['step']}, after "
            f"{run['reached']['seconds']:.1f} s in the page (target <= 60 s; {wall:.1f} s from the click, as seen here)"
        )
    else:
        print(f"  did not reach 0.95 within {run['steps']} steps")
    ratio = run["ms"] / numpy_ms
    print(f"  ms per step: {run['ms']:.1f} in Chromium's Worker, {numpy_ms:.1f} with numpy (ratio {ratio:.1f})")
    print("  screenshots of the heatmap during training: " + ", ".join(str(s.relative_to(ROOT)) for s in shots))
    print(f"\n2. Input to repaint, {SAMPLES} samples (target: p90 <= 16 ms; <= 50 ms while training)")
    for name, times in (
        ("compose (parse, greedy decoding, grid)", compose),
        ("step slider", step),
        ("snapshot scrubber (6 words)", scrub),
        ("snapshot scrubber (27 words)", scrub27),
        ("compose while training", busy_compose),
        ("snapshot scrubber while training", busy_scrub),
    ):
        print(f"  {name:<42} median {statistics.median(times):5.1f} ms, p90 {p90(times):5.1f} ms")
    print("\n3. Lesson 07's page, cold cache (target <= 1.1 MiB on load; the lab's data and the figures lazily)")
    for path, (loaded, read) in weights.items():
        print(f"  {path:<46} {loaded / MiB:5.2f} MiB on load, {read / MiB:5.2f} MiB with every figure")
    names = ("ae-lab-data.js", "ae-lab-math.js", "ae-lab.js", "ae-lab-worker.js", "ae-lab.css")
    files = {name: (site / "_static" / name).stat().st_size for name in names}
    files["lab/*.js"] = sum(path.stat().st_size for path in (site / "_static" / "lab").glob("*.js"))
    print("  the lab's files: " + ", ".join(f"{k} {v / 1024:.0f} KiB" for k, v in files.items()))


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.bench_lab"))
