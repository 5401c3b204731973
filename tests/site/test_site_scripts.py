"""The site's own scripts as served: minified by esbuild (``attention_workshop.ae_assets._slim_scripts``), which
parses them, so what a script does is what its source does, ``//`` inside strings and template literals included
(the line-dropping this replaced cut such a line), and nothing else: no placeholder is stamped into a served file.
On the built site every one of them parses and names its source, and each page names each script by its content
(Sphinx's ``?v=``), so a page never runs a script of another build.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess

import pytest

from attention_workshop import ae_assets
from tests.helpers import ROOT

TRICKY = (ROOT / "tests" / "site" / "minify_sample.js").read_text(encoding="utf-8")  # // in strings, a comment


def _tools():
    node = shutil.which("node")
    if node is None or not ae_assets.ESBUILD.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but node or esbuild is missing (make assets fetches esbuild)")
        pytest.skip("node or esbuild is missing (make assets fetches esbuild)")
    return node


def _run(node: str, path: pathlib.Path) -> str:
    return subprocess.run([node, str(path)], capture_output=True, text=True, check=True).stdout


def test_minified_scripts_do_what_their_sources_do(tmp_path):
    node = _tools()
    source = tmp_path / "source.js"
    source.write_text(TRICKY, encoding="utf-8")
    assets, static = tmp_path / "_assets", tmp_path / "_static"
    for folder in (assets, static):
        (folder / "lab").mkdir(parents=True)
    for rel in ("ae-site.js", "ae-explorers.js", "lab/part.js"):
        (assets / rel).write_text(TRICKY, encoding="utf-8")
    ae_assets._slim_scripts(static, assets)
    want = _run(node, source)
    assert "// not a comment" in want
    for rel in ("ae-site.js", "ae-explorers.js", "lab/part.js"):
        served = static / rel
        assert served.read_text(encoding="utf-8").startswith(f"// {rel}: book/_assets/{rel} in the book's repository")
        assert _run(node, served) == want, rel
        assert "a comment line" not in served.read_text(encoding="utf-8"), f"{rel} keeps its comments"
        assert (assets / rel).read_text(encoding="utf-8") == TRICKY, f"the source {rel} is left as it was"


def test_minifying_again_serves_the_same_bytes(tmp_path):
    """A build with no page to write copies no static file, and its ``_static`` holds the last build's minified
    scripts: minifying again must serve the same bytes. It did not when the served file was minified a second
    time: esbuild names a function's variables by how often they occur, so ae-site.js minified twice has other
    names for the same variables."""
    _tools()
    assets, static = tmp_path / "_assets", tmp_path / "_static"
    for folder in (assets, static):
        (folder / "lab").mkdir(parents=True)
    shutil.copy(ROOT / "book" / "_assets" / "ae-site.js", assets / "ae-site.js")
    (assets / "lab" / "part.js").write_text(TRICKY, encoding="utf-8")
    ae_assets._slim_scripts(static, assets)
    first = {rel: (static / rel).read_bytes() for rel in ("ae-site.js", "lab/part.js")}
    ae_assets._slim_scripts(static, assets)
    assert {rel: (static / rel).read_bytes() for rel in first} == first


def test_no_source_script_holds_a_placeholder_for_the_build():
    """The build stamps nothing into a served script: none of ours holds a ``__AE_...__`` mark, and the lab's
    WebAssembly is the committed part lab/wasm.js (tests/workshop/test_gemm_wasm.py)."""
    assets = ROOT / "book" / "_assets"
    for path in [*assets.glob("*.js"), *(assets / "lab").glob("*.js")]:
        assert "__AE_" not in path.read_text(encoding="utf-8"), path.name


def test_every_served_script_of_ours_parses_and_names_its_source(site):
    node = _tools()
    static = pathlib.Path(site) / "_static"
    served = [static / name for name in ae_assets.SCRIPTS] + sorted((static / "lab").glob("*.js"))
    assert len(served) == len(ae_assets.SCRIPTS) + 12, "the scripts and the lab's twelve parts"
    for path in served:
        rel = path.relative_to(static).as_posix()
        text = path.read_text(encoding="utf-8")
        assert text.startswith(f"// {rel}: book/_assets/{rel}"), rel
        assert "__AE_" not in text, rel
        run = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, check=False)
        assert run.returncode == 0, f"{rel}: {run.stderr[-500:]}"


def test_every_page_names_our_scripts_by_their_content(site):
    """Each page names ae-explorers.js (and every script of ours it loads) with Sphinx's ``?v=<checksum>`` of its
    content: a page and the script it runs come from one build, so the script can read the parameters' layout
    version from the page (``attention_core.explorers.site.SCHEMA``) without a copy of its own."""
    from tests.site.conftest import reader_pages

    names = "|".join(re.escape(n) for n in ae_assets.SCRIPTS)
    seen = 0
    for path in reader_pages(site):
        text = (pathlib.Path(site) / path).read_text(encoding="utf-8")
        for src in re.findall(rf'<script[^>]*src="[^"]*_static/((?:{names})[^"]*)"', text):
            assert re.fullmatch(rf"(?:{names})\?v=[0-9a-f]{{8}}", src), f"{path}: {src}"
            seen += 1
    assert seen > 10
