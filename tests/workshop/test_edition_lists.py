"""The two lists of edition folders a tool cannot read from ``locale/editions.toml`` (static configuration files)
name every translated edition: ruff's ``exclude`` in ``pyproject.toml`` (a generated edition's code is the English
code, linted there) and ``exclude_patterns`` in ``_config.yml`` (the English build does not read the other
editions' pages). Adding a language to ``locale/editions.toml`` without them fails here, naming the file."""

from __future__ import annotations

import tomllib

import yaml

from attention_workshop.paths import translations
from tests.helpers import ROOT


def test_ruff_excludes_every_generated_edition():
    excluded = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["exclude"]
    missing = [code for code in translations() if code not in excluded]
    assert not missing, f"pyproject.toml [tool.ruff] exclude lacks the generated editions {missing}"


def test_the_english_build_excludes_every_generated_edition():
    patterns = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["exclude_patterns"]
    missing = [code for code in translations() if f"{code}/*" not in patterns]
    assert not missing, f"_config.yml exclude_patterns lacks {[f'{code}/*' for code in missing]}"
