"""`make book` on a machine without Chromium: the website is built and the print step says, in one line, that the
PDFs need Chromium and how to get it, and exits 0 (README: the two commands on the README's prerequisites)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers import ROOT


def test_the_pdfs_without_chromium_are_one_line_and_no_failure():
    env = {**os.environ, "CHROMIUM": str(ROOT / "no-such-browser")}  # as if none were installed
    run = subprocess.run(
        [sys.executable, "-m", "attention_workshop.build_pdf"], env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == "" and run.stdout.count("\n") == 1, (run.stdout, run.stderr)
    assert "need Chromium" in run.stdout and "apt-get install chromium-headless-shell" in run.stdout
