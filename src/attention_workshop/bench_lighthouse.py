"""Print Lighthouse's scores for the built website (a benchmark that prints numbers, never a test).

The intro, lessons 05 and 07 and their Chinese twins, as a phone (Lighthouse's default: simulated slow 4G and a
slowed CPU) and as a desktop (``--preset=desktop``), served compressed from 127.0.0.1 by
``attention_workshop.serve`` (``--plain``: Python's ``http.server``, uncompressed, as the site was served before
the build wrote compressed copies). For each: the four category scores (performance, accessibility, best
practices, SEO) and first contentful paint, largest contentful paint, total blocking time and cumulative layout
shift, and the KiB transferred. Targets (issue 33): performance >= 90 on a phone, the other three 100.

A phone's CPU is simulated as this machine's slowed down. Lighthouse's default slowdown (4x) turns a high-end desktop
into its mid-tier phone; on a slower host the same 4x models a slower phone. Lighthouse measures the host (its
"benchmark index", printed per run) and its documentation (docs/throttling.md, "Calibrating the CPU slowdown") says
to lower the slowdown on a weaker machine, pointing to a calculator from the index to the slowdown
(:func:`calibrated_slowdown`). ``--calibrated`` adds a phone row per page with that slowdown, the index measured
by a first run. ``--runs N`` audits each page N times in turn and prints each figure's median.

Lighthouse (npm, pinned in scripts/fetch_assets.sh) is fetched into ``_vendor/lighthouse`` on first use and
drives the headless Chromium the tests use (:func:`attention_workshop.chromium.find_chromium`).

    .venv/bin/python -m attention_workshop.bench_lighthouse [SITE] [--plain] [--only mobile|desktop] [--calibrated]
                                                            [--runs N]

SITE defaults to ``_build/html`` (build it first: ``make book``).

Every page is audited twice: as built, and from a copy of the site with ``render_when_parsed`` applied
(:func:`attention_workshop.theme_edits.render_when_parsed`, off by default in the build: it makes Chromium draw a
page once it is parsed, which lowers the blocking time and delays the first paint); the rows of the copy are marked
``+rwp``. ``--no-variant`` audits the site as built only.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from attention_core import files
from attention_workshop.chromium import find_chromium
from attention_workshop.command import OneLineParser, add_site_argument, run
from attention_workshop.paths import ROOT, translations

LIGHTHOUSE = ROOT / "_vendor" / "lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
PAGES = ("book/intro.html", "notebooks/05_additive_score.html", "notebooks/07_learning_without_labels.html")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (  # (audit, label, unit divisor, format)
    ("first-contentful-paint", "FCP s", 1000, "{:.1f}"),
    ("largest-contentful-paint", "LCP s", 1000, "{:.1f}"),
    ("total-blocking-time", "TBT ms", 1, "{:.0f}"),
    ("cumulative-layout-shift", "CLS", 1, "{:.3f}"),
    ("total-byte-weight", "KiB", 1024, "{:.0f}"),  # transferred, as served
    ("benchmark-index", "host index", 1, "{:.0f}"),  # Lighthouse's measure of this machine's CPU (not an audit)
)
DEFAULT_SLOWDOWN = 4.0  # Lighthouse's mobile CPU slowdown
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(site: pathlib.Path, plain: bool) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    module = "http.server" if plain else "attention_workshop.serve"
    args = [str(site), "--port", str(port)] if not plain else ["--directory", str(site), str(port)]
    args += ["--bind", "127.0.0.1"]
    process = subprocess.Popen(
        [sys.executable, "-m", module, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}/"
    for _ in range(100):
        try:
            urllib.request.urlopen(base, timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    return process, base


def calibrated_slowdown(index: float) -> float | None:
    """The CPU slowdown that makes a host with Lighthouse's benchmark ``index`` into Lighthouse's mid-tier phone, as
    the calculator Lighthouse's docs/throttling.md names (lighthouse-cpu-throttling-calculator) maps them: straight
    lines through index 150 at 1x, 800 at 2x and 1300 at 3x, then one more x per 233 (so 1533 gives the default
    4x); None below 150, a host too slow to stand in for the phone."""
    if index < 150:
        return None
    if index < 800:
        return 1 + (index - 150) / 650
    if index < 1300:
        return 2 + (index - 800) / 500
    return 3 + (index - 1300) / 233


def audit(url: str, chromium: str, desktop: bool, slowdown: float | None = None) -> dict:
    """One Lighthouse run: {category: score 0-100, metric label: value}; ``slowdown`` replaces the phone's 4x."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "report.json"
        command = [
            "node",
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags={CHROME_FLAGS}",
            *(["--preset=desktop"] if desktop else []),
            *([f"--throttling.cpuSlowdownMultiplier={slowdown:.2f}"] if slowdown else []),
        ]
        done = subprocess.run(command, capture_output=True, text=True, env={"CHROME_PATH": chromium, **_env()})
        if done.returncode != 0 or not out.exists():
            return {"error": (done.stderr.strip().splitlines() or ["no report"])[-1]}
        report = json.loads(out.read_text(encoding="utf-8"))
    row = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    for key, label, divisor, _ in METRICS:
        value = report["audits"].get(key, {}).get("numericValue")
        row[label] = None if value is None else value / divisor
    row["host index"] = report.get("environment", {}).get("benchmarkIndex")
    return row


def median_row(rows: list[dict]) -> dict:
    """Each score and figure's median over runs of one page (a failed run is left out; all failed: the last)."""
    import statistics

    good = [r for r in rows if "error" not in r]
    if not good:
        return rows[-1]
    return {
        key: (statistics.median(vals) if (vals := [r[key] for r in good if r[key] is not None]) else None)
        for key in good[0]
    }


def _runs(text: str) -> int:
    import argparse

    try:
        runs = int(text)
    except ValueError:
        runs = 0
    if not 1 <= runs <= 20:
        raise argparse.ArgumentTypeError(f"--runs must be a whole number from 1 to 20, not {text!r}")
    return runs


def _env() -> dict:
    import os

    return dict(os.environ)


def render_when_parsed_copy(site: pathlib.Path, into: pathlib.Path) -> pathlib.Path:
    """A copy of ``site`` whose pages carry the render_when_parsed edit (the build's own function), each edited page's
    compressed copies written again (``ae_seo.compress``: the others are kept, as they are newer than their files)."""
    from attention_workshop.ae_seo import compress
    from attention_workshop.theme_edits import render_when_parsed

    copy = into / "site"
    shutil.copytree(site, copy)  # shutil.copy2: each file keeps its time, so compress redoes only the edited pages
    for page in copy.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        files.write_text(page, render_when_parsed(text))
    compress(copy)
    return copy


def table(rows: list[tuple[str, str, dict]]) -> str:
    head = ["page", "form", "perf", "a11y", "bp", "seo", *[m[1] for m in METRICS]]
    lines = [" | ".join(head), " | ".join("---" for _ in head)]
    for page, form, row in rows:
        if "error" in row:
            lines.append(f"{page} | {form} | error: {row['error']}")
            continue
        cells = [page, form, *(f"{row[c]:g}" for c in CATEGORIES)]
        cells += [fmt.format(row[label]) if row[label] is not None else "-" for _, label, _, fmt in METRICS]
        lines.append(" | ".join(cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m attention_workshop.bench_lighthouse", description=__doc__.splitlines()[0])
    add_site_argument(parser)
    parser.add_argument("--plain", action="store_true", help="serve uncompressed (python -m http.server)")
    parser.add_argument("--only", choices=("mobile", "desktop"), help="one form factor")
    parser.add_argument("--calibrated", action="store_true", help="add phone rows, CPU slowdown set for this host")
    parser.add_argument("--runs", type=_runs, default=1, help="audits of each page, medians printed (default 1)")
    parser.add_argument("--no-variant", action="store_true", help="only the site as built (no +rwp copy)")
    parser.add_argument("--pages", nargs="+", metavar="PAGE", help="pages of SITE (default: intro, 05, 07 of each)")
    args = parser.parse_args(argv)
    print("Lighthouse (scores 0-100; targets: performance >= 90 on mobile, the others 100)")
    if not (args.site / "index.html").exists():
        print(f"  skipped: no built site at {args.site} (make book)")
        return 0
    chromium = find_chromium()
    if chromium is None:
        print("  skipped: no Chromium (apt-get install chromium-headless-shell, or set CHROMIUM=...)")
        return 0
    if not LIGHTHOUSE.exists():
        fetched = subprocess.run(["bash", str(ROOT / "scripts" / "fetch_assets.sh"), "lighthouse"], check=False)
        if fetched.returncode != 0 or not LIGHTHOUSE.exists():
            print("  skipped: Lighthouse could not be fetched (npm)")
            return 0
    missing = [page for page in args.pages or () if not (args.site / page).is_file()]
    if missing:
        parser.error(f"--pages: {missing[0]} is not a page of {args.site}")
    pages = args.pages or [*PAGES, *(f"{lang}/{p}" for lang in translations() for p in PAGES)]
    forms = {"mobile": (False, None), "desktop": (True, None)}
    forms = {name: how for name, how in forms.items() if args.only in (None, name)}
    scratch = tempfile.TemporaryDirectory()
    sites = {"": args.site.resolve()}
    if not args.no_variant:
        sites["+rwp"] = render_when_parsed_copy(args.site.resolve(), pathlib.Path(scratch.name))
    served = {mark: serve(site, args.plain) for mark, site in sites.items()}
    process, base = served[""]
    rows = []
    try:
        if args.calibrated and args.only != "desktop":
            index = audit(base + pages[0], chromium, False).get("host index")
            slowdown = calibrated_slowdown(index) if index else None
            if slowdown is None:
                print(f"  --calibrated: no slowdown for a host benchmark index of {index} (too slow or not measured)")
            else:
                print(f"  this host's benchmark index: {index:.0f}; phone CPU slowdown {slowdown:.2f}x instead of 4x")
                forms[f"mobile {slowdown:.1f}x"] = (False, slowdown)
        for form, (desktop, slowdown) in forms.items():
            for page in pages:
                runs: dict[str, list[dict]] = {mark: [] for mark in served}
                for _ in range(args.runs):  # the site and its copy in turn: a busy spell of the host hits both
                    for mark, (_, url) in served.items():
                        runs[mark].append(audit(url + page, chromium, desktop, slowdown))
                        print("  " + table([(page, form + mark, runs[mark][-1])]).splitlines()[-1], flush=True)
                rows.extend((page, form + mark, median_row(found)) for mark, found in runs.items())
    finally:
        for running, _ in served.values():
            running.terminate()
            running.wait()
        scratch.cleanup()
    medians = f", median of {args.runs} runs each" if args.runs > 1 else ""
    print(f"\nServed {'uncompressed' if args.plain else 'compressed (attention_workshop.serve)'}{medians}:")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.bench_lighthouse"))
