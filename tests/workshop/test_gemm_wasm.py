"""The laboratory's compiled matrix product, committed as the part ``book/_assets/lab/wasm.js``
(``attention_workshop.gemm_wasm``): it names the gemm.wat it was compiled from, and it is that file compiled.

The first test needs only Python (it compares gemm.wat's SHA-256 with the one in the part's header), so
`make check` sees a gemm.wat changed without its part; the second compiles gemm.wat again with wabt and compares
the bytes, where wabt is fetched (`make assets`); without it, it is skipped with that reason, except under
``CI=true``, where it must run."""

from __future__ import annotations

import base64
import os
import shutil

import pytest

from attention_workshop import gemm_wasm


def test_the_part_was_compiled_from_the_committed_gemm_wat():
    encoded, digest = gemm_wasm.committed()
    assert base64.b64decode(encoded).startswith(b"\0asm\x01\0\0\0"), "not a WebAssembly module"
    source = gemm_wasm.GEMM_WAT.read_text(encoding="utf-8")
    assert digest == gemm_wasm.source_digest(source), (
        f"lab/gemm.wat changed since lab/wasm.js was generated: run {gemm_wasm.COMMAND}"
    )


def test_the_part_is_gemm_wat_compiled_by_wabt():
    if shutil.which("node") is None or not (gemm_wasm.WABT / "index.js").exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but Node.js or wabt is missing (make assets fetches wabt)")
        pytest.skip("Node.js or wabt is missing (make assets fetches wabt): gemm.wat cannot be compiled again")
    source = gemm_wasm.GEMM_WAT.read_text(encoding="utf-8")
    module = gemm_wasm.compile_wat(source)
    assert base64.b64encode(module).decode("ascii") == gemm_wasm.committed_base64()
    assert gemm_wasm.PART.read_text(encoding="utf-8") == gemm_wasm.part_text(module, source)


def test_a_part_that_is_not_what_the_command_writes_says_so_in_one_line(tmp_path, monkeypatch):
    part = tmp_path / "wasm.js"
    part.write_text("function aeLabWasm(lab) {}\n", encoding="utf-8")
    monkeypatch.setattr(gemm_wasm, "PART", part)
    monkeypatch.setattr(gemm_wasm, "ROOT", tmp_path)
    with pytest.raises(RuntimeError, match=r"wasm.js is not what python -m attention_workshop.gemm_wasm writes"):
        gemm_wasm.committed()


def test_check_reports_a_stale_part_and_writes_nothing(tmp_path, monkeypatch, capsys):
    if shutil.which("node") is None or not (gemm_wasm.WABT / "index.js").exists():
        pytest.skip("Node.js or wabt is missing (make assets fetches wabt)")
    part = tmp_path / "wasm.js"
    part.write_text("stale\n", encoding="utf-8")
    monkeypatch.setattr(gemm_wasm, "PART", part)
    monkeypatch.setattr(gemm_wasm, "ROOT", tmp_path)
    assert gemm_wasm.main(["--check"]) == 1
    assert part.read_text(encoding="utf-8") == "stale\n"
    assert "is not gemm.wat compiled" in capsys.readouterr().err
    assert gemm_wasm.main([]) == 0 and part.read_text(encoding="utf-8").startswith("// lab/wasm.js: GENERATED")
