"""The translation mechanism is complete: a pseudo-language edition shows no English a reader could see.

The test writes the whole book in the pseudo-language (``attention_core.lang.PSEUDO``: every translatable text,
the package's messages and the theme's words in accented look-alike letters), executes its notebooks, stores them
as every edition is stored (``attention_workshop.execute``: each explorer's note, no widget view, an exercise's
check unrun) and builds its website with the editions' flags (``build_book.FLAGS``: a warning fails), then reads
everything a reader sees: page prose and headings, captions and alt text, printed outputs (as executed, exercises'
verdicts included), the words drawn in figures (kept in each figure output's metadata), self-check messages,
explorer labels and notes, the language switch and the search page. Any English word left is text that escaped the
mechanism; the only English allowed is code (identifiers, inline code, code cells), math, and the data the lessons
compute with (the toy languages' words, the named features of lesson 01).

Its cost (user+sys of pytest and its children, Python's byte-code caches on as in the gate, lesson 07's run in the
gate's run cache; 2026-12-07): 47 to 52 CPU-seconds (two runs), about what the English edition's strict nbval takes
(48, measured alike). 36 of them execute the 11 notebooks in one kernel (lesson 07 reads its training run back as
nbval's kernels do; the rest is the lessons' own work: figures, and evaluating the committed models, as each
edition's nbval does), 8 build the website, 3 write and read the edition. The build leaves formulas as TeX
(:func:`without_typeset_math`): typesetting them under Node took 7 of its 15 CPU-seconds, and the reading skips
math. It was 54 CPU-seconds before that; lesson 07's training adds about 17 where this is the gate's first kernel to
run it.
"""

from __future__ import annotations

import functools
import html
import json
import pathlib
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser

import pytest

from attention_core import files
from attention_workshop import ae_lang, execute
from attention_workshop.editions import pseudo
from tests.helpers import ROOT

WORD = re.compile(r"(?<![\w/.-])[A-Za-z]{3,}(?![\w/.-])")  # an English-looking word, not part of a path or name
DROP = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$|`[^`]*`|\{[^{}]*\}|https?://\S+|\S+\.(?:py|json|npz|ipynb|html|md)\b", re.S)


def allowed_words() -> set[str]:
    """English a pseudo edition may show: the data the lessons compute with (the toy sentences' tokens and named
    features, the toy language pair's words), terms the glossary writes in English in every language, the names
    of the other editions in the language switch, how Python prints a number that is not one (nan, inf), the
    words myst-nb itself puts into a code fold's label, and the names of functions, symbols and programs.
    Identifiers need no entry: a word joined to another by ``_`` or ``.`` is never taken for prose."""
    from attention_core import example, toy_sentences
    from attention_core.models import data

    words = set(toy_sentences._TOKEN_FEATURES) | set(toy_sentences.FEATURES) | set(example.TOKENS)
    words |= set(toy_sentences.SOURCE_TOKENS + toy_sentences.LONG_TOKENS + toy_sentences.MAT_TOKENS)
    words |= set(data.SRC_WORDS + data.TGT_WORDS)
    words |= {term for entry in ae_lang.term_list() if "zh" not in entry.terms for term in entry.terms["en"]}
    words |= {"English", "nan", "inf", "Ctrl"}
    words |= {"source", "outputs", "content"}  # myst-nb's words for a code fold's {type} (the Chinese omits {type})
    words |= {"tanh", "softmax", "eos", "python"}  # math functions, lesson 04's end symbol <eos>, a printed command
    return {w.lower() for word in words for w in re.split(r"[\s/]+", word) if w}


@functools.cache
def catalog_strings() -> tuple[str, ...]:
    """What Sphinx and the book theme translate themselves, from their own Chinese catalogs: a real edition gets
    these words from there, and the pseudo-language has no such catalog. (The theme's words that no catalog
    translates are ours to translate: THEME_STRINGS in src/attention_workshop/ae_lang.py.) Longest first."""
    import polib
    import sphinx
    import sphinx_book_theme

    catalogs = [
        pathlib.Path(sphinx.__file__).parent / "locale" / "zh_CN" / "LC_MESSAGES" / "sphinx.po",
        pathlib.Path(sphinx_book_theme.__file__).parent
        / "theme" / "sphinx_book_theme" / "static" / "locales" / "zh_CN" / "LC_MESSAGES" / "booktheme.po",
    ]  # fmt: skip
    found = {e.msgid for path in catalogs for e in polib.pofile(str(path)) if e.msgstr and "%" not in e.msgid}
    return tuple(sorted(found, key=len, reverse=True))


def without_catalog_strings(line: str) -> str:
    """``line`` without the parts that are a catalog's string whole (a button's word, a page title's "Index")."""
    parts = re.split(r"(\s+[—-]\s+)", line.strip())
    return "".join(" " if part in catalog_strings() else part for part in parts)


def escaped(text: str, allowed: set[str]) -> list[str]:
    return [w for w in WORD.findall(DROP.sub(" ", text)) if w.lower() not in allowed]


@pytest.fixture(scope="session")
def pseudo_book(tmp_path_factory):
    """The pseudo edition: written below the repository (its configuration points at ../../book), executed, stored
    and built as every edition is; returns its folder, its notebooks as executed (path -> notebook, every output
    still in them) and its website."""
    from attention_workshop import build_book  # imported here: make check collects this module (0.1 s saved)

    folder = ROOT / "_build" / "pseudo-edition"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    executed = execute_in_one_kernel(pseudo.write_pseudo_edition(folder))
    for path, notebook in executed.items():  # stored as every edition is: explorers' notes, no verdict, no view
        files.write_text(path, execute.dumps(execute.normalise(notebook, str(path))))
    without_typeset_math(folder / "_config.yml")
    out = tmp_path_factory.mktemp("pseudo")
    build = subprocess.run(
        [str(pathlib_bin("jupyter-book")), "build", str(folder), "--path-output", str(out), *build_book.FLAGS],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    return folder, executed, out / "_build" / "html"


def without_typeset_math(config: pathlib.Path) -> None:
    """Let the edition's build (``config``, its ``_config.yml``) write each formula as Sphinx's own MathJax renderer
    does, its TeX in a ``<span class="math">``, instead of typesetting every page's formulas under Node
    (``attention_workshop.ae_math``): that was 7 of the build's 15 CPU-seconds, and the reading skips math either
    way (:class:`Visible`: the ``math`` class, ``mjx-container``, ``svg``). Every page's visible text is the same
    with either renderer (compared page by page)."""
    import yaml

    settings = yaml.safe_load(config.read_text(encoding="utf-8"))
    sphinx = settings["sphinx"]
    sphinx["extra_extensions"].remove("attention_workshop.ae_math")
    sphinx["config"]["html_math_renderer"] = "mathjax"
    files.write_text(config, yaml.safe_dump(settings, allow_unicode=True, sort_keys=False))


def execute_in_one_kernel(notebooks: list[pathlib.Path]) -> dict[pathlib.Path, dict]:
    """Execute ``notebooks`` one after the other in one kernel, each from its own folder, in a namespace emptied
    first (``%reset -f``), and each notebook sets its language in its first cell; return them executed (path ->
    notebook as parsed JSON), every output in them. Only the words they show are read here (the notebooks
    themselves are tested under nbval), and starting one kernel instead of one per notebook saves about 13 of 38
    CPU-seconds: the kernel's start and the imports every notebook repeats. The kernel reads lesson 07's training
    run back from the gate's run cache like nbval's kernels (the root conftest.py: it inherits ``IPYTHONDIR``)."""
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    kernel, executed = KernelManager(kernel_name="python3"), {}
    kernel.start_kernel()
    try:
        for path in notebooks:
            fresh = kernel.client()
            fresh.start_channels()
            try:
                fresh.wait_for_ready(timeout=60)
                reply = fresh.execute_interactive(f"%reset -f\nimport os\nos.chdir({str(path.parent)!r})", timeout=60)
            finally:
                fresh.stop_channels()
            assert reply["content"]["status"] == "ok", f"{path.name}: the kernel could not be reset: {reply['content']}"
            notebook = nbformat.read(path, as_version=4)
            client = NotebookClient(notebook, km=kernel, timeout=600)  # not its kernel: it leaves it running
            try:
                client.execute()
            except CellExecutionError as error:
                pytest.fail(f"the pseudo-language notebook {path.name} failed to run:\n{str(error)[-4000:]}")
            finally:
                if client.kc is not None:
                    client.kc.stop_channels()
            executed[path] = json.loads(nbformat.writes(notebook))
    finally:
        kernel.shutdown_kernel(now=True)
    return executed


def pathlib_bin(name: str):
    return pathlib.Path(sys.executable).parent / name


class Visible(HTMLParser):
    """The text of a page a reader sees: no scripts, styles, code cells' source, typeset math, or elements marked
    with another language."""

    SKIP_TAGS = {"script", "style", "code", "mjx-container", "svg", "kbd"}
    SKIP_CLASSES = {"cell_input", "ae-lang-switch", "highlight", "headerlink", "math"}

    def __init__(self):
        super().__init__()
        self.stack, self.text = [], []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "meta", "link", "input", "hr", "source", "wbr"):
            a = dict(attrs)
            for key in ("alt", "placeholder", "title", "aria-label"):
                if a.get(key) and not self._skipping():
                    self.text.append(a[key])
            return
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        skip = tag in self.SKIP_TAGS or bool(classes & self.SKIP_CLASSES) or (a.get("lang") not in (None, "en"))
        self.stack.append((tag, skip))
        if not self._skipping():
            for key in ("title", "aria-label", "placeholder"):
                if a.get(key):
                    self.text.append(a[key])

    def handle_endtag(self, tag):
        while self.stack:
            top, _ = self.stack.pop()
            if top == tag:
                break

    def handle_data(self, data):
        if not self._skipping():
            self.text.append(data)

    def _skipping(self) -> bool:
        return any(skip for _, skip in self.stack)


def visible_text(page: str) -> str:
    parser = Visible()
    parser.feed(page)
    return html.unescape("\n".join(parser.text))


@pytest.mark.slow
def test_the_pseudo_notebooks_print_and_draw_no_english(pseudo_book):
    _, executed, _ = pseudo_book
    allowed, found = allowed_words(), []
    for path, notebook in executed.items():
        for cell in notebook["cells"]:
            tags = cell["metadata"].get("tags", [])
            # An exercise's verdict on its starting answer is read here, though nbval ignores its output: it is
            # stored unrun (attention_workshop.execute), so the website never shows it.
            if cell["cell_type"] != "code" or ("nbval-ignore-output" in tags and execute.EXERCISE_CHECK not in tags):
                continue
            for out in cell.get("outputs", []):
                texts = ["".join(out.get("text", ""))]
                data = out.get("data", {})
                texts.append("".join(data.get("text/plain", "")))
                texts.append(re.sub(r"<[^>]+>", " ", re.sub(r'src="[^"]*"', "", "".join(data.get("text/html", "")))))
                texts += out.get("metadata", {}).get("attention_core", {}).get("figure_text", [])
                for text in texts:
                    for word in escaped(text, allowed):
                        found.append(f"{path.name} [{cell['id']}]: {word!r} in {text.strip()[:80]!r}")
    assert not found, f"{len(found)} English words escaped the translation mechanism:\n" + "\n".join(found[:60])


@pytest.mark.slow
def test_the_pseudo_website_shows_no_english(pseudo_book):
    _, _, site = pseudo_book
    allowed, found = allowed_words(), []
    pages = [p for p in sorted(site.rglob("*.html")) if "_static" not in p.parts and "_sources" not in p.parts]
    assert any(p.name == "search.html" for p in pages)
    for page in pages:
        text = visible_text(page.read_text(encoding="utf-8"))
        for line in text.splitlines():
            for word in escaped(without_catalog_strings(line), allowed):
                found.append(f"{page.relative_to(site)}: {word!r} in {line.strip()[:80]!r}")
    assert not found, f"{len(found)} English words on the pseudo website:\n" + "\n".join(found[:80])


def test_the_scan_sees_english_and_ignores_code_math_and_data():
    allowed = {"felix", "attend"}
    assert escaped("Ŵéíĝĥţš at s", allowed) == []  # two letters are not a word
    assert escaped("the weights sum to one", allowed) == ["the", "weights", "sum", "one"]
    assert escaped("`attend` $\\tanh$ Felix results/length_sweep.json", allowed) == []
    page = '<p>shown <code>hidden</code> <a class="ae-lang-switch" lang="zh-CN">中文</a><img alt="picture"></p>'
    assert visible_text(page).split() == ["shown", "picture"]


def test_a_pseudo_link_keeps_its_target_and_its_text_is_translated():
    text = "a vector [[4]](../book/references.md#references), [the score](05_additive_score.md#eq-score) and `code`"
    made = pseudo.pseudo_inline(text)
    assert "](../book/references.md#references)" in made and "](05_additive_score.md#eq-score)" in made
    assert "[[4]]" in made and "`code`" in made
    assert made.startswith(pseudo.pseudo_text("a vector ")) and f"[{pseudo.pseudo_text('the score')}](" in made
