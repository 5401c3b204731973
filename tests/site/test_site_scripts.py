"""The site's own scripts as served: minified by esbuild (``attention_workshop.ae_site._slim_scripts``), which
parses them, so what a script does is what its source does, ``//`` inside strings and template literals included
(the line-dropping this replaced cut such a line). On the built site every one of them parses and names its source.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest

from attention_workshop import ae_site

TRICKY = r"""
// a comment line, dropped
var url = "https://example.org/a//b";
var text = `first line
  // not a comment: part of the text
last line`;
var re = /\/\//g;
console.log(JSON.stringify([url, text, "a//b".replace(re, "-"), typeof __AE_SCHEMA__]));
"""


def _tools():
    node = shutil.which("node")
    if node is None or not ae_site.ESBUILD.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but node or esbuild is missing (make assets fetches esbuild)")
        pytest.skip("node or esbuild is missing (make assets fetches esbuild)")
    return node


def _run(node: str, path: pathlib.Path) -> str:
    return subprocess.run([node, str(path)], capture_output=True, text=True, check=True).stdout


def test_minified_scripts_do_what_their_sources_do(tmp_path):
    node = _tools()
    source = tmp_path / "source.js"
    source.write_text(TRICKY.replace("typeof __AE_SCHEMA__", "typeof undefined"), encoding="utf-8")
    static = tmp_path / "_static"
    (static / "lab").mkdir(parents=True)
    (static / "ae-site.js").write_text(TRICKY.replace("typeof __AE_SCHEMA__", "typeof undefined"), encoding="utf-8")
    (static / "lab" / "part.js").write_text(TRICKY.replace("typeof __AE_SCHEMA__", "typeof undefined"), "utf-8")
    (static / "ae-explorers.js").write_text(TRICKY.replace("typeof __AE_SCHEMA__", "Number('__AE_SCHEMA__')"), "utf-8")
    ae_site._slim_scripts(static)
    want = _run(node, source)
    assert "// not a comment" in want
    for rel in ("ae-site.js", "lab/part.js"):
        served = static / rel
        assert served.read_text(encoding="utf-8").startswith(f"// {rel}: book/_assets/{rel} in the book's repository")
        assert _run(node, served) == want, rel
        assert "a comment line" not in served.read_text(encoding="utf-8"), f"{rel} keeps its comments"
    from attention_core.explorers.site import SCHEMA

    assert _run(node, static / "ae-explorers.js") == want.replace('"undefined"', str(SCHEMA))


ENGINE = "const lab = {}; require(process.argv[1])(lab); process.stdout.write(lab.kernels.engine());"


def test_the_served_kernels_carry_the_compiled_product(tmp_path):
    """The build writes lab/gemm.wat, compiled, into the served lab/kernels.js, whose products then run in
    WebAssembly; a build with nothing to do (the served file already finished) leaves it so."""
    node = _tools()
    kernels = tmp_path / "_static" / "lab" / "kernels.js"
    kernels.parent.mkdir(parents=True)
    shutil.copy(ae_site.ROOT / "book" / "_assets" / "lab" / "kernels.js", kernels)
    engine = [node, "-e", ENGINE, str(kernels)]
    assert subprocess.run(engine, capture_output=True, text=True, check=True).stdout == "javascript"
    ae_site._slim_scripts(kernels.parent.parent)
    assert subprocess.run(engine, capture_output=True, text=True, check=True).stdout == "webassembly"
    ae_site._slim_scripts(kernels.parent.parent)  # again, on the served file
    assert subprocess.run(engine, capture_output=True, text=True, check=True).stdout == "webassembly"


def test_kernels_without_the_place_for_the_product_stop_the_build(tmp_path):
    kernels = tmp_path / "_static" / "lab" / "kernels.js"
    kernels.parent.mkdir(parents=True)
    text = (ae_site.ROOT / "book" / "_assets" / "lab" / "kernels.js").read_text(encoding="utf-8")
    kernels.write_text(text.replace(ae_site.GEMM_MARK, '""'), encoding="utf-8")
    with pytest.raises(RuntimeError, match="lab/kernels.js must hold"):
        ae_site._slim_scripts(kernels.parent.parent)
    assert kernels.read_text(encoding="utf-8") == text.replace(ae_site.GEMM_MARK, '""')  # unchanged


def test_every_served_script_of_ours_parses_and_names_its_source(site):
    node = _tools()
    static = pathlib.Path(site) / "_static"
    served = [static / name for name in ae_site.SCRIPTS] + sorted((static / "lab").glob("*.js"))
    assert len(served) == len(ae_site.SCRIPTS) + 8, "the scripts and the lab's eight parts"
    for path in served:
        rel = path.relative_to(static).as_posix()
        text = path.read_text(encoding="utf-8")
        assert text.startswith(f"// {rel}: book/_assets/{rel}"), rel
        assert "__AE_SCHEMA__" not in text and "__AE_GEMM_WASM__" not in text, rel
        run = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, check=False)
        assert run.returncode == 0, f"{rel}: {run.stderr[-500:]}"
