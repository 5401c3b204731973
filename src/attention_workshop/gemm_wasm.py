"""The laboratory's matrix product in WebAssembly, committed compiled: ``book/_assets/lab/wasm.js`` is generated from
``book/_assets/lab/gemm.wat`` by wabt's ``wat2wasm`` and holds the module's bytes in base64, so that building the
book and running the laboratory's Node tests need neither wabt nor a compile step.

    .venv/bin/python -m attention_workshop.gemm_wasm           # compile gemm.wat again and write lab/wasm.js
    .venv/bin/python -m attention_workshop.gemm_wasm --check   # exit 1 if lab/wasm.js is not gemm.wat compiled

``lab/wasm.js`` is one of the laboratory's parts (``AE_LAB_PARTS`` in ``ae-lab-math.js``, first): it gives
``lab/kernels.js`` the bytes (``lab.wasm``), which compiles them where the engine has 128-bit SIMD. Its header
names its source, that source's SHA-256 and this command, so a test that needs only Python sees that gemm.wat has
changed since (``tests/workshop/test_gemm_wasm.py``); where wabt is fetched (``make assets``) the test compiles
gemm.wat again and compares the bytes.
"""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
import subprocess
import sys

from attention_core.files import write_text
from attention_workshop.command import OneLineParser, run
from attention_workshop.paths import ROOT

HERE = ROOT / "src" / "attention_workshop"
WABT = ROOT / "_vendor" / "node" / "wabt"  # wabt's wat2wasm (JavaScript and WebAssembly), fetched by `make assets`
LAB = ROOT / "book" / "_assets" / "lab"
GEMM_WAT = LAB / "gemm.wat"  # the product in WebAssembly's text format (not served)
PART = LAB / "wasm.js"  # the compiled product, a part of the laboratory (served)
COMMAND = "python -m attention_workshop.gemm_wasm"
HEAD = (
    "// lab/wasm.js: GENERATED from lab/gemm.wat (sha256 {digest}) by wabt's wat2wasm; do not edit.\n"
    f"// Regenerate: {COMMAND} (it needs Node.js and `make assets`).\n"
    "// The laboratory's matrix product compiled to WebAssembly, its bytes in base64: lab/kernels.js compiles them\n"
    "// where the engine has WebAssembly's 128-bit SIMD, and runs its larger products with them.\n"
)
BYTES = re.compile(r'lab\.wasm = "([A-Za-z0-9+/=]*)";')
DIGEST = re.compile(r"\(sha256 ([0-9a-f]{64})\)")


def source_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def compile_wat(text: str) -> bytes:
    """The WebAssembly module of ``text`` (WebAssembly's text format), compiled by wabt's wat2wasm under Node
    (``wat2wasm.js``). Raises RuntimeError with one line when wabt or Node is missing or the text does not
    compile."""
    if not (WABT / "index.js").exists():
        raise RuntimeError(f"wabt is missing at {WABT}: run `make assets`")
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("Node.js is needed to compile WebAssembly text with wabt")
    done = subprocess.run(
        [node, str(HERE / "wat2wasm.js"), str(WABT / "index.js")],
        input=text.encode("utf-8"),
        capture_output=True,
        check=False,
    )
    if done.returncode != 0 or not done.stdout.startswith(b"\0asm"):
        why = done.stderr.decode(errors="replace")[-3000:]
        raise RuntimeError(f"wabt could not compile the WebAssembly text:\n{why}")
    return done.stdout


def part_text(module: bytes, source: str) -> str:
    """The text of ``lab/wasm.js`` for ``module`` compiled from ``source`` (gemm.wat's text)."""
    encoded = base64.b64encode(module).decode("ascii")
    return (
        HEAD.format(digest=source_digest(source))
        + "function aeLabWasm(lab) {\n"
        + f'  lab.wasm = "{encoded}";\n'
        + "}\n\n"
        + 'if (typeof module === "object" && module.exports) module.exports = aeLabWasm;\n'
    )


def committed() -> tuple[str, str]:
    """``(base64 of the module, SHA-256 of the gemm.wat it was compiled from)``, as ``lab/wasm.js`` holds them."""
    text = PART.read_text(encoding="utf-8")
    found, digest = BYTES.search(text), DIGEST.search(text)
    if not found or not digest:
        raise RuntimeError(f"{PART.relative_to(ROOT)} is not what {COMMAND} writes: run it again")
    return found.group(1), digest.group(1)


def committed_base64() -> str:
    """The committed module's bytes in base64, as ``lab/kernels.js`` is given them (for the Node drivers)."""
    return committed()[0]


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if lab/wasm.js is not gemm.wat compiled")
    args = parser.parse_args(argv)
    source = GEMM_WAT.read_text(encoding="utf-8")
    try:
        module = compile_wat(source)
    except RuntimeError as error:
        print(f"{COMMAND}: error: {str(error).splitlines()[0]}", file=sys.stderr)
        return 1
    text = part_text(module, source)
    rel = PART.relative_to(ROOT)
    if PART.exists() and PART.read_text(encoding="utf-8") == text:
        print(f"{rel} is gemm.wat compiled ({len(module)} bytes)")
        return 0
    if args.check:
        print(f"{rel} is not gemm.wat compiled: run {COMMAND}", file=sys.stderr)
        return 1
    write_text(PART, text)
    print(f"wrote {rel}: gemm.wat compiled, {len(module)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(run(main, COMMAND))
