"""Each edition's glossary is its term list (``book/glossary.md``, ``<edition>/book/glossary.md``): a term in the
page's language is plain, one in another language names it (``<span lang="zh">注意力</span>``), and the aliases
readers may search with are ``<span class="aliases">Chinese aliases: <span lang="zh">打分, 注意力分数</span></span>``
(``attention_workshop.ae_lang.term_list``). Each text of a translated edition uses the term its glossary names first
in that edition's language, never one of its aliases (a
word in quotation marks is mentioned, not used; code, placeholders and obsolete entries are not text). The French
glossary names one term for each notion the lessons of training and experiments come back to (:data:`FRENCH_TERMS`),
so that the French text says it one way."""

from __future__ import annotations

import re

import polib
import pytest

from attention_workshop import ae_lang
from attention_workshop.paths import ENGLISH, editions, translations
from tests.helpers import ROOT

# a word named in quotation marks is mentioned, not used
QUOTED = re.compile(r"“[^”]*”|「[^」]*」|«[^»]*»")
# code is not text: inline code, and a message's fields ({seed}, {0}, {n:.3f})
CODE = re.compile(r"`[^`]*`|\{[\w.!:\[\]'\"]*\}")


def texts(edition: str) -> list[tuple[str, str, str]]:
    """(file, msgctxt, msgstr) of every translated text of ``edition`` but its glossary (which lists the aliases)."""
    files = sorted((ROOT / "locale" / edition).glob("LC_MESSAGES/**/*.po"))
    files += sorted((ROOT / "src" / "attention_core" / "locale" / edition).glob("LC_MESSAGES/*.po"))
    return [
        (str(f.relative_to(ROOT)), e.msgctxt or "", e.msgstr)
        for f in files
        if f.name != "glossary.po"
        for e in polib.pofile(str(f))
        if e.msgstr and not e.obsolete
    ]


def uses(text: str, word: str) -> bool:
    """``word`` is in ``text``: anywhere for Chinese, as a whole word (any case) for a language with spaces."""
    if re.search(r"[\u3400-\u9fff]", word):
        return word in text
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.I) is not None


def test_every_edition_has_its_term_list():
    english = ae_lang.term_list(ENGLISH)
    assert len(english) >= 50
    for edition in editions():
        terms = ae_lang.term_list(edition)
        assert len(terms) == len(english), f"{edition}: {len(terms)} glossary entries, the English has {len(english)}"
        for term in terms:
            assert set(term.terms) | set(term.aliases) <= set(editions()), f"{edition}: {term}"
            preferred = set(term.terms.get(edition, []))
            assert not preferred & set(term.aliases.get(edition, [])), f"{edition}: an alias is a term: {term}"


def test_the_chinese_term_list_has_the_aliases_readers_search_for():
    aliases = {a for t in ae_lang.term_list("zh") for a in t.aliases.get("zh", [])}
    assert {"源表示", "掩码", "加性注意力", "词元", "注意力分数", "打分"} <= aliases
    assert {a for t in ae_lang.term_list(ENGLISH) for a in t.aliases.get("zh", [])} == aliases
    preferred = {t.preferred("zh") for t in ae_lang.term_list("zh")}
    assert not aliases & preferred


# The notions of training and experiments the French text comes back to (issue 44): the English term -> the one French
# term the text writes, and words it must not write for it (the glossary lists them as aliases, so that the text
# check below holds them out of every French text). « référence » is also the reference translation, « conception »
# the act of designing, « enregistré » collided with « enregistrement » (a record), « exactitude de séquence exacte »
# repeated itself, and « scorer » is the verb the lessons write as « attribuer un score ».
FRENCH_TERMS = {
    "baseline": ("modèle témoin", {"modèle de référence", "référence à résumé fixe", "baseline"}),
    "design": ("architecture", {"conception"}),
    "run": ("exécution", {"run", "runs"}),
    "seed": ("graine", {"seed"}),
    "warm-up": ("échauffement", {"préchauffage", "warm-up"}),
    "thread": ("fil d'exécution", {"thread"}),
    "committed model": ("modèle archivé", {"modèle enregistré", "paramètres enregistrés", "exécution enregistrée"}),
    "record": ("enregistrement", {"fichier d'enregistrement"}),
    "test set": ("jeu de test", {"ensemble de test"}),
    "exact-sequence accuracy": ("exactitude par séquence", {"exactitude de séquence exacte"}),
    "score": ("score", {"scorer", "scoré", "scorés"}),
}


def test_the_french_term_list_names_one_term_per_recurring_notion():
    english = [t.preferred(ENGLISH) for t in ae_lang.term_list(ENGLISH)]
    french = dict(zip(english, ae_lang.term_list("fr"), strict=True))  # one entry each, in the same order
    for notion, (term, aliases) in FRENCH_TERMS.items():
        assert french[notion].preferred("fr") == term, notion
        assert aliases <= set(french[notion].aliases.get("fr", [])), notion


def test_a_word_in_code_or_a_field_is_not_text():
    assert uses("BLAS sur un seul thread", "thread")
    for text in ("votre exécution (graine {seed}, {steps} pas)", "`seed_study` lit `run`", "results/seed_study.json"):
        assert not uses(CODE.sub(" ", text), "seed") and not uses(CODE.sub(" ", text), "run"), text


def test_a_marked_line_and_aliases_are_read_by_their_language(tmp_path):
    page = tmp_path / "glossary.md"
    page.write_text(
        '# Glossaire\n\n<dl class="glossary">\n'
        '<dt>score · <span lang="en">score</span> · <span lang="zh">评分</span></dt>\n<dd>\n\nUn nombre réel. '
        '<span class="aliases">Termes chinois : <span lang="zh">打分, 注意力分数</span></span>. '
        '<span class="aliases">Autres termes : <span lang="fr">note</span></span>.\n\n</dd>\n'
        "<dt>softmax</dt>\n<dd>\n\nNormalise.\n\n</dd>\n</dl>\n",
        encoding="utf-8",
    )
    first, second = ae_lang.term_list("fr", page)
    assert first.terms == {"fr": ["score"], "en": ["score"], "zh": ["评分"]}
    assert first.aliases == {"zh": ["打分", "注意力分数"], "fr": ["note"]}
    assert second.preferred("fr") == "softmax" and second.preferred("zh") is None and second.aliases == {}


CASES = [
    (edition, term) for edition in translations() for term in ae_lang.term_list(edition) if term.aliases.get(edition)
]


@pytest.mark.parametrize(
    ("edition", "term"), CASES, ids=[f"{e}-{t.preferred(e) or t.preferred(ENGLISH)}" for e, t in CASES]
)
def test_each_edition_uses_its_preferred_term_not_an_alias(edition, term):
    found = []
    for name, context, text in texts(edition):
        bare = CODE.sub(" ", QUOTED.sub("", text))
        found += [f"{name} [{context}]: {alias}" for alias in term.aliases[edition] if uses(bare, alias)]
    preferred = term.preferred(edition) or term.preferred(ENGLISH)
    glossary = ae_lang.glossary_file(edition).relative_to(ROOT)
    assert not found, f"use {preferred} ({glossary}), not an alias:\n" + "\n".join(found)
