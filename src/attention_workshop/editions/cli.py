"""The command line: ``python -m attention_workshop.editions update|status|generate [--lang LANG]``."""

from __future__ import annotations

import argparse

from attention_workshop.editions.catalog import status, update
from attention_workshop.editions.sources import sources
from attention_workshop.paths import ROOT, translations


# ----------------------------------------------------------------------------------------------- command line
def _print_status(lang: str) -> int:
    problems = 0
    for source in sources():
        st = status(source, lang)
        for name in ("missing", "stale", "unused"):
            for context, msgid in getattr(st, name):
                first = msgid.strip().splitlines()[0] if msgid.strip() else msgid
                print(f"{lang}: {source.name}: {name}: [{context}] {first[:90]}")
        problems += st.count()
    print(f"{lang}: {problems} missing, stale or unused entr{'y' if problems == 1 else 'ies'}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("update", "status", "generate"))
    parser.add_argument("--lang", action="append", help="only this language (default: every language in locale/)")
    args = parser.parse_args(argv)
    problems = 0
    for lang in args.lang or translations():
        if args.command == "update":
            for source in sources():
                update(source, lang)
        if args.command in ("update", "status"):
            problems += _print_status(lang)
            continue
        changed = []
        for source in sources():
            what = source.write(lang)
            if what != "unchanged":
                print(f"{lang}: {source.target(lang).relative_to(ROOT)}: {what} changed")
            if what == "code":
                changed.append(source.target(lang).relative_to(ROOT).as_posix())
        (ROOT / "_build").mkdir(exist_ok=True)
        (ROOT / "_build" / f"editions-{lang}-to-execute.txt").write_text("".join(f"{p}\n" for p in changed))
    return 1 if problems else 0
