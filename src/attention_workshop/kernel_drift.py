"""Measure by hand how far another BLAS kernel or SIMD level moves the book's trained figures.

Run it once with the machine's own kernels and once per forced setting, then compare. Set the environment
variables by hand for one run; never in a test, a script or CI:

    .venv/bin/python -m attention_workshop.kernel_drift dump /tmp/drift/native.npz
    OPENBLAS_CORETYPE=Haswell     .venv/bin/python -m attention_workshop.kernel_drift dump /tmp/drift/haswell.npz
    OPENBLAS_CORETYPE=Sandybridge .venv/bin/python -m attention_workshop.kernel_drift dump /tmp/drift/sandybridge.npz
    NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4 AVX512_ICL" \
        .venv/bin/python -m attention_workshop.kernel_drift dump /tmp/drift/nosimd.npz
    .venv/bin/python -m attention_workshop.kernel_drift compare /tmp/drift/native.npz /tmp/drift/*.npz

``dump`` evaluates every committed model on its test set in float32 and in float64 and stores the log-probability
gap and the attention-score gap of every teacher-forced decision and the greedy tokens; ``compare`` prints, per
model and precision, the largest change of a gap and whether any greedy token changed. The margins of
``attention_core.models.margins`` cite its output.

``live`` trains a committed model's recipe as lesson 07 does and prints its figures next to the committed ones
(the measurement behind ``attention_core.models.trained.LIVE_TOLERANCE``):

    OPENBLAS_CORETYPE=Haswell .venv/bin/python -m attention_workshop.kernel_drift live lesson07_attention_seed0
"""

from __future__ import annotations

import json
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

import numpy as np

from attention_core import files
from attention_core.models import data
from attention_core.models.train import splits_for, train
from attention_core.models.trained import TRAINED_DIR, live_differences, load_trained, trained_config
from attention_workshop.command import Failure, OneLineParser, run

PRECISIONS = ("float32", "float64")
DUMP_KINDS = {(dtype, kind) for dtype in PRECISIONS for kind in ("greedy", "alignment", "tokens")}  # a dump's keys
# are <model>/<precision>/<kind>


def _gaps(log_p: np.ndarray) -> np.ndarray:
    top = np.partition(log_p, -2, axis=-1)
    return top[..., -1] - top[..., -2]


def writable(out: str) -> None:
    """Refuse, before an evaluation of a minute or more, a dump that could not be written: a folder, or a place
    where no file can be made (a missing folder, one without write permission)."""
    if Path(out).is_dir():
        raise Failure(f"{out} is a folder; name the .npz file to write")
    if Path(out).exists() and not Path(out).is_file():  # a device (/dev/full), a pipe: never renamed over
        raise Failure(f"{out} is not a regular file; name the .npz file to write")
    try:
        with tempfile.NamedTemporaryFile(dir=Path(out).parent, prefix=".kernel_drift-"):
            pass
    except OSError as exc:
        raise Failure(f"{out}: cannot write there ({exc.strerror})") from None


def dump(out: str) -> None:
    writable(out)
    arrays = {}
    for name in sorted(p.stem for p in TRAINED_DIR.glob("*.json")):
        test = splits_for(trained_config(name)).test
        for dtype in PRECISIONS:
            model = load_trained(name, dtype=dtype)
            greedy, align, tokens = [], [], []
            for batch in data.length_batches(test, 256):
                T = batch.src.shape[1]
                _, probs, weights, _ = model.forward(batch)  # teacher forced: the same inputs everywhere
                with np.errstate(divide="ignore"):
                    greedy.append(_gaps(np.log(probs.astype(np.float64))).ravel())
                    if weights is not None:
                        align.append(_gaps(np.log(weights[:, :T, :].astype(np.float64))).ravel())
                tokens.append(model.greedy(batch.src)[0].ravel())
            arrays[f"{name}/{dtype}/greedy"] = np.concatenate(greedy)
            arrays[f"{name}/{dtype}/alignment"] = np.concatenate(align) if align else np.zeros(0)
            arrays[f"{name}/{dtype}/tokens"] = np.concatenate(tokens)
    with files.replacing(out, "wb") as f:  # the name as given (np.savez_compressed would add .npz to a bare name)
        np.savez_compressed(f, **arrays)
    print(f"wrote {out}", file=sys.stderr)


def gap_drift(a: np.ndarray, b: np.ndarray) -> float:
    """The largest change between two dumps of the same gaps: infinite where a gap is finite in one and not in the
    other (it became infinite, or stopped being) or where the two are different non-finite values; 0 for two
    empty arrays."""
    if a.shape != b.shape:
        return float("inf")  # not the same decisions at all
    a, b = a.astype(float), b.astype(float)
    finite_a, finite_b = np.isfinite(a), np.isfinite(b)
    if np.any(finite_a != finite_b):
        return float("inf")
    nonfinite = ~finite_a
    if np.any(nonfinite & ~((a == b) | (np.isnan(a) & np.isnan(b)))):
        return float("inf")
    both = finite_a & finite_b
    return float(np.abs(a[both] - b[both]).max()) if both.any() else 0.0


def read_dump(path: str) -> dict[str, np.ndarray]:
    """The arrays of a file ``dump`` wrote, by key (``<model>/<precision>/<greedy|alignment|tokens>``); a
    :class:`~attention_workshop.command.Failure` naming the file if it is missing, not an .npz file, or holds
    anything else."""
    try:
        saved = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:  # missing, unreadable, not .npz (text, cut)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not an .npz file, or a truncated one"
        raise Failure(f"{path}: not a dump made by `kernel_drift dump` ({reason})") from None
    if not isinstance(saved, np.lib.npyio.NpzFile):
        raise Failure(f"{path}: not a dump made by `kernel_drift dump` (one .npy array, not an .npz file)")
    try:
        with saved:
            arrays = {key: saved[key] for key in saved.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        raise Failure(f"{path}: a damaged .npz file ({exc})") from None
    wrong = [key for key in arrays if key.count("/") != 2 or tuple(key.split("/")[1:]) not in DUMP_KINDS]
    if wrong or not arrays:
        held = f"holds {wrong[0]!r}" if wrong else "holds nothing"
        raise Failure(f"{path}: not a dump made by `kernel_drift dump` ({held})")
    return arrays


def compare(reference: str, others: list[str]) -> None:
    ref = read_dump(reference)
    dumps = {path: read_dump(path) for path in others}  # every file read before the first line is printed
    for path, other in dumps.items():
        missing = sorted(set(ref) - set(other))
        if missing:
            raise Failure(f"{path} has no {missing[0]!r}, which {reference} has: dumps of different models")
    worst: dict[str, float] = {}
    for path, other in dumps.items():
        for key in sorted(k for k in ref if not k.endswith("/tokens")):
            drift = gap_drift(ref[key], other[key])
            model, dtype, kind = key.split("/")
            same = np.array_equal(ref[f"{model}/{dtype}/tokens"], other[f"{model}/{dtype}/tokens"])
            print(f"{path}: {model} {dtype} {kind}: largest change of a gap {drift:.2e}; greedy tokens same: {same}")
            worst[f"{dtype} {kind}"] = max(worst.get(f"{dtype} {kind}", 0.0), drift)
    for key, value in sorted(worst.items()):
        print(f"largest over all: {key} {value:.2e}")


def live(name: str) -> None:
    try:  # an unknown name is a FileNotFoundError naming the models there are (one line through command.run)
        cfg = trained_config(name)
    except ValueError as exc:  # not a plain name ("../x"), or a record whose configuration is not valid
        raise Failure(str(exc)) from None
    result = train(cfg, splits_for(cfg))
    print(json.dumps({"model": name, "live vs committed": live_differences(result, name)}))


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog="python -m attention_workshop.kernel_drift", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("dump").add_argument("out")
    cmp = sub.add_parser("compare")
    cmp.add_argument("reference")
    cmp.add_argument("others", nargs="+")
    sub.add_parser("live").add_argument("name")
    args = parser.parse_args(argv)
    if args.command == "dump":
        dump(args.out)
    elif args.command == "compare":
        compare(args.reference, args.others)
    else:
        live(args.name)


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.kernel_drift"))
