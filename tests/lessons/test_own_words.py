"""The sources' facts carry over, their sentences do not: the Chinese text is written in the book's own words.

Every translation (``locale/*/LC_MESSAGES/*.po`` and the package's messages) is compared with the source article
(``../shared/seeds/000_c29f874a3821f074.txt``): no run of 16 or more Chinese characters (ideographs and Chinese
punctuation) may appear in both, except inside a quotation the book marks and attributes as one (the article's
title and section headings, which the book cites by name, and the example sentences lesson 01 quotes).

The article is not part of the repository, so ``tests/data/article_runs.txt`` holds a fingerprint of it: a short
hash of every run of 16 characters. The check reads the fingerprint; where the article itself is present, a test
confirms the fingerprint is the article's (``.venv/bin/python -m tests.lessons.test_own_words`` writes it again).
"""

from __future__ import annotations

import hashlib
import re
import sys

import polib
import pytest

from tests.helpers import ROOT

RUN = 16  # characters
CHINESE = "\u3400-\u9fff\u3000-\u303f\uff00-\uffef"  # ideographs, Chinese punctuation, full-width forms
ARTICLE = ROOT.parent / "shared" / "seeds" / "000_c29f874a3821f074.txt"
FINGERPRINT = ROOT / "tests" / "data" / "article_runs.txt"
QUOTED = (  # attributed quotations: the book names the article's sections and quotes its example sentences
    "Attention：模型怎样决定该看哪里？",
    "从人的注意力，到按需要读取信息",
    "没有 Attention，模型也可以处理上下文",
    "把“只能使用摘要”改成“可以重新读取”",
    "从当前需求，到一组读取权重",
    "早期 Attention 怎样计算“匹配”？",
    "同一份内容，换一种状态就换一种读取",
    "没有人标注“应该看哪里”，它怎样学会？",
    "从早期 Attention，走向下一种结构",
    "从选择信息的直觉，到循环网络中的动态读取",
    "Felix昨天把蓝色笔记本留在会议室",
    "Felix昨天没有把蓝色笔记本留在会议室",
)


def runs(text: str) -> list[tuple[int, str]]:
    """The maximal runs of Chinese characters in ``text``, with their offsets."""
    return [(m.start(), m.group()) for m in re.finditer(f"[{CHINESE}]+", text)]


def fingerprint(window: str) -> str:
    return hashlib.sha256(window.encode("utf-8")).hexdigest()[:12]


def article_grams(text: str) -> set[str]:
    """The fingerprints of every run of RUN Chinese characters in ``text``."""
    return {fingerprint(run[i : i + RUN]) for _, run in runs(text) for i in range(len(run) - RUN + 1)}


def shared_runs(text: str, grams: set[str]) -> list[str]:
    """The stretches of ``text`` (Chinese only) made of windows the article also has, outside quotations."""
    allowed = [(m.start(), m.end()) for q in QUOTED for m in re.finditer(re.escape(q), text)]
    found = []
    for start, run in runs(text):
        hit = [i for i in range(len(run) - RUN + 1) if fingerprint(run[i : i + RUN]) in grams]
        hit = [i for i in hit if not any(a <= start + i and start + i + RUN <= b for a, b in allowed)]
        if hit:
            found.append(run[hit[0] : hit[-1] + RUN])
    return found


def translations() -> list[tuple[str, str, str]]:
    """(file, context, translated text) of every translation entry of every language."""
    files = sorted((ROOT / "locale").glob("*/LC_MESSAGES/**/*.po"))
    files += sorted((ROOT / "src" / "attention_core" / "locale").glob("*/LC_MESSAGES/*.po"))
    return [
        (str(f.relative_to(ROOT)), e.msgctxt or "", e.msgstr) for f in files for e in polib.pofile(str(f)) if e.msgstr
    ]


@pytest.fixture(scope="module")
def grams():
    lines = FINGERPRINT.read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def test_the_fingerprint_is_the_articles(grams):
    if not ARTICLE.exists():
        return  # a clone without the sources beside it: the committed fingerprint is the reference
    again = "run `.venv/bin/python -m tests.lessons.test_own_words`"
    assert grams == article_grams(ARTICLE.read_text(encoding="utf-8")), again
    assert len(grams) > 2000


def test_no_chinese_sentence_is_copied_from_the_article(grams):
    copied = [
        f"{name} [{context}]: {run}" for name, context, text in translations() for run in shared_runs(text, grams)
    ]
    assert not copied, f"{len(copied)} runs of >= {RUN} characters shared with the article:\n" + "\n".join(copied)


def test_the_check_finds_a_copied_run_and_allows_a_marked_quotation(grams):
    copied = "它还不是概率，也没有天然的语义单位。"  # from section 四
    assert shared_runs(f"我们说：{copied}", grams)
    assert not shared_runs("本书的说法：分数不是概率，它没有单位。", grams)
    assert not shared_runs("文章的例句是“Felix昨天把蓝色笔记本留在会议室”。", grams)


if __name__ == "__main__":  # write the fingerprint of the article
    sys.path.insert(0, str(ROOT))
    FINGERPRINT.parent.mkdir(exist_ok=True)
    header = f"# sha256[:12] of every run of {RUN} Chinese characters of {ARTICLE.name} "
    header += "(tests/lessons/test_own_words.py)\n"
    FINGERPRINT.write_text(header + "".join(f"{g}\n" for g in sorted(article_grams(ARTICLE.read_text("utf-8")))))
