"""Command line of the package.

python -m attention_core example --s -1 1     # the lesson-06 worked example for the states s
python -m attention_core train [--baseline]    # train the lesson-07 model (or the fixed summary), print figures
"""

from __future__ import annotations

import argparse
import math
import os
import sys

from .example import H_EXAMPLE, TOKENS, worked_example


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2, with no traceback."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _finite_float(text: str) -> float:
    text = text.strip()  # see _negative_numbers_as_values
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def format_example(s: float) -> str:
    """The worked example for one state as a small table: scores and weights to 4 decimals, context to 6."""
    read = worked_example(s)
    lines = [f"s = {s:g}", "  position  h_j        score   weight"]
    for j, token in enumerate(TOKENS):
        h = "(" + ", ".join(f"{x:g}" for x in H_EXAMPLE[j]) + ")"
        lines.append(f"  {token:<8}  {h:<9} {read.scores[j]:7.4f}  {read.weights[j]:7.4f}")
    c1, c2 = read.context
    lines.append(f"  context c = ({c1:.6f}, {c2:.6f})")
    return "\n".join(lines)


def _negative_numbers_as_values(argv: list[str]) -> list[str]:
    """Protect negative numbers such as ``-1e3``, ``-1e-3`` and ``-1.`` from being read as options.

    argparse only takes ``-1`` and ``-1.5`` for numbers; a leading space keeps the others from looking like
    an option (``float(" -1e3")`` is still -1000.0).
    """

    def is_number(text: str) -> bool:
        try:
            float(text)
        except ValueError:
            return False
        return True

    return [f" {a}" if a.startswith("-") and is_number(a) else a for a in argv]


def _write(text: str) -> int:
    """Print ``text``; a closed pipe (``| head``) ends quietly, a failed write (a full disk, a closed stdout)
    in one line."""
    if sys.stdout is None:  # Python found no stdout at start-up (``>&-``): there is nowhere to write
        print("python -m attention_core: error: could not write the output: stdout is closed", file=sys.stderr)
        return 1
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except OSError as exc:
        return _output_failed(exc)
    return 0


def _output_failed(exc: OSError) -> int:
    """The exit status after a write to stdout failed: 0 for a closed pipe (the reader stopped reading), else 1
    with one line on stderr naming the cause (a full disk)."""
    if isinstance(exc, BrokenPipeError):
        status = 0
    else:
        print(f"python -m attention_core: error: could not write the output: {exc.strerror}", file=sys.stderr)
        status = 1
    # Python flushes stdout again at exit; point it at /dev/null so that flush cannot fail a second time.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return status


def main(argv: list[str] | None = None) -> int:
    parser = _OneLineParser(prog="python -m attention_core", description="The numpy core of Attention, executable.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser)
    example = commands.add_parser("example", help="print the lesson-06 worked example for one or more states s")
    example.add_argument(
        "--s", type=_finite_float, nargs="+", action="extend", metavar="S",
        help="reading states (default: -1 1); a repeated --s adds its values",
    )  # fmt: skip
    train = commands.add_parser("train", help="train the lesson-07 translation model and print its test figures")
    train.add_argument("--baseline", action="store_true", help="train the fixed-summary baseline instead")
    train.add_argument("--steps", type=int, default=1000, help="maximum optimiser steps (>= 1)")
    train.add_argument("--seed", type=int, default=0, help="initialisation and batch-order seed (>= 0)")
    train.add_argument("--target", type=float, default=None, help="stop at this validation token accuracy")
    args = parser.parse_args(_negative_numbers_as_values(sys.argv[1:] if argv is None else argv))
    if args.command == "train":
        return _train(parser, args)
    states = args.s or [-1.0, 1.0]  # the article's two states
    return _write("\n\n".join(format_example(s) for s in states))


def _train(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from .figures.training import progress_printer, report  # the drawing libraries load only for this command
    from .models.seq2seq import ModelConfig
    from .models.train import TrainConfig, evaluate, train

    try:
        cfg = TrainConfig(
            model=ModelConfig(attention=not args.baseline),
            steps=args.steps,
            seed=args.seed,
            target_accuracy=args.target,
        )
    except (TypeError, ValueError) as exc:
        parser.error(str(exc))  # one line and exit status 2, no traceback
    if sys.stdout is None:
        return _write("")  # nowhere to print the progress: one line, before any training
    try:
        result = train(cfg, callback=progress_printer(cfg.model.attention, cfg.steps))
    except OSError as exc:  # a progress line could not be written (closed pipe, full disk): training stops
        return _output_failed(exc)
    return _write(report(evaluate(result.model, result.splits.test), cfg.model.attention, result.steps))


if __name__ == "__main__":
    sys.exit(main())
