"""The language switch and the catalogs of reader-facing sentences."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import attention_core
from attention_core.lang import CATALOGS, Catalog, get_language, language, set_language


def test_language_switches_and_a_block_restores_it():
    assert get_language() == "en"
    with language("zh"):
        assert get_language() == "zh"
    assert get_language() == "en"
    with pytest.raises(ValueError, match="language"):
        set_language("fr")


def test_a_catalog_answers_in_the_current_language_and_fills_placeholders():
    text = Catalog({"w": {"en": "weight {w:.2f}", "zh": "权重 {w:.2f}"}})
    assert text("w", w=0.5) == "weight 0.50"
    with language("zh"):
        assert text("w", w=0.5) == "权重 0.50"


@pytest.mark.parametrize(
    "entries",
    [{"a": {"en": "x"}}, {"a": {"en": "x {n}", "zh": "x"}}, {"a": {"en": "{n}", "zh": "{m}"}}],
)
def test_a_catalog_refuses_a_missing_language_or_different_placeholders(entries):
    with pytest.raises(ValueError):
        Catalog(entries)


def test_every_module_imports_and_every_sentence_formats_in_both_languages():
    for info in pkgutil.walk_packages(attention_core.__path__, "attention_core."):
        if info.name != "attention_core.__main__":
            importlib.import_module(info.name)
    assert len(CATALOGS) >= 1
    for catalog in CATALOGS:
        for key, texts in catalog.entries.items():
            for code in texts:
                assert texts[code].strip(), (key, code)
