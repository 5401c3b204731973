"""The English sources of an edition (lessons, pages, the configuration, the package's and the theme's messages),
each with its translation file per language and the translated copy it writes."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import pathlib

from attention_core import files
from attention_workshop.editions.blocks import BlockError
from attention_workshop.editions.catalog import Translation, load_translation
from attention_workshop.editions.code import _code_literals, translatable, translate_code
from attention_workshop.editions.markdown import _lines, markdown_units, translate_markdown
from attention_workshop.editions.units import Unit, brace_format
from attention_workshop.execute import EXERCISE_CHECK, dumps
from attention_workshop.paths import LOCALE, ROOT


def notebook_units(nb: dict) -> list[Unit]:
    """The translatable units of an English notebook, in order."""
    units = []
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            units.extend(markdown_units(source, cell["id"]))
            continue
        if cell["cell_type"] != "code":
            continue
        try:
            found = _code_literals(source)
        except BlockError as error:  # not Python LibCST reads
            raise BlockError(f"[{cell['id']}] {error}") from None
        for lit in found:
            if translatable(lit):
                note = "; ".join(f"{{{n}}} = {f[1:-1]}" for n, f in enumerate(lit.fields))
                flag = brace_format(lit.text) if lit.fields else ""
                units.append(Unit(cell["id"], lit.text, lit.kind, note, flag))
    return _unique(units)


def _unique(units: list[Unit]) -> list[Unit]:
    seen, out = set(), []
    for u in units:
        if (u.context, u.msgid) not in seen:
            seen.add((u.context, u.msgid))
            out.append(u)
    return out


class Source:
    """One English source and its translation file per language; ``edition`` writes the translated copy."""

    name: str  # the source's path relative to the repository (what the reports name)
    generates = True  # whether the edition has a file made from this source (the package's messages have none)

    def units(self) -> list[Unit]:
        raise NotImplementedError

    def po_path(self, lang: str) -> pathlib.Path:
        return LOCALE / lang / "LC_MESSAGES" / pathlib.Path(self.name).with_suffix(".po")

    def translation(self, lang: str) -> Translation:
        return load_translation(self.po_path(lang), lang)

    def edition(self, lang: str, translation: Translation | None = None):
        """The translated copy (a notebook dict, a page's text, ...), or ``None`` if there is none to write."""
        return None

    def target(self, lang: str) -> pathlib.Path:
        return ROOT / lang / self.name

    def write(self, lang: str, made=None) -> str:
        """Write the edition (``made``: the one :meth:`edition` already built); return "unchanged", "text" or "code"
        (executed code changed: run it again)."""
        new = self.edition(lang) if made is None else made
        if new is None:
            return "unchanged"
        target = self.target(lang)
        if target.exists() and target.read_text(encoding="utf-8") == new:
            return "unchanged"
        target.parent.mkdir(parents=True, exist_ok=True)
        files.write_text(target, new)
        return "text"


class NotebookSource(Source):
    def __init__(self, path: pathlib.Path):
        self.path, self.name = path, path.relative_to(ROOT).as_posix()

    def units(self) -> list[Unit]:
        return notebook_units(json.loads(self.path.read_text(encoding="utf-8")))

    def edition(self, lang: str, translation: Translation | None = None) -> dict:
        nb = json.loads(self.path.read_text(encoding="utf-8"))
        return translate_notebook(nb, translation or self.translation(lang), lang)

    def write(self, lang: str, made: dict | None = None) -> str:
        """Write the edition's notebook (``made``: the one :meth:`edition` already built); return "unchanged",
        "text" (only Markdown or metadata changed: the outputs, and the stamp of what they were computed from, are
        kept) or "code" (written without outputs: it owes an execution, :func:`owed`). A generated notebook that
        cannot be read (half written, not JSON, not a notebook) is a product, never a source: it is written again
        from the English, and the answer says so (``"unreadable (...): regenerated"``)."""
        target, new = self.target(lang), self.edition(lang) if made is None else made
        old, problem = read_generated(target)
        if old is not None and same_sources(old, new):
            return "unchanged"
        old_code = {c["id"]: c for c in (old or {"cells": []})["cells"] if c["cell_type"] == "code"}
        new_code = [c for c in new["cells"] if c["cell_type"] == "code"]
        code_same = (
            old is not None
            and len(old_code) == len(new_code)
            and all(c["id"] in old_code and old_code[c["id"]]["source"] == c["source"] for c in new_code)
        )
        if code_same:  # only markdown or metadata changed: keep the executed outputs (and their timing)
            for cell in new_code:
                done = old_code[cell["id"]]
                cell["outputs"], cell["execution_count"] = done.get("outputs", []), done.get("execution_count")
                if "execution" in done["metadata"]:
                    cell["metadata"]["execution"] = done["metadata"]["execution"]
            if STAMP in old["metadata"]:
                new["metadata"][STAMP] = old["metadata"][STAMP]
        target.parent.mkdir(parents=True, exist_ok=True)
        files.write_text(target, dumps(new))  # as attention_workshop.execute stores a notebook
        if problem:
            return f"unreadable ({problem}): regenerated"
        return "text" if code_same else "code"


def read_generated(path: pathlib.Path) -> tuple[dict | None, str]:
    """A generated notebook as parsed JSON, or ``None`` and why it cannot be used (``""`` when it does not exist):
    not UTF-8, not JSON (a write cut short), or not a notebook (no list of cells, each with a type, an id, a
    source and metadata)."""
    if not path.exists():
        return None, ""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as error:
        return None, f"not UTF-8: {error.reason} at byte {error.start}"
    except ValueError as error:
        return None, f"not JSON: {error}"
    cells = nb.get("cells") if isinstance(nb, dict) else None
    keys = ("cell_type", "id", "source", "metadata")
    if not isinstance(nb.get("metadata") if isinstance(nb, dict) else None, dict) or not isinstance(cells, list):
        return None, "not a notebook: no cells or no metadata"
    if not all(isinstance(c, dict) and all(k in c for k in keys) for c in cells):
        return None, "not a notebook: a cell without its type, id, source or metadata"
    return nb, ""


# ----------------------------------------------------------------------------------------------- what is owed
# A generated notebook's metadata records what its outputs were computed from: {"executed_from": <SHA-256>}, written
# by ``python -m attention_workshop.editions execute`` (make editions) right after it executes the notebook.
STAMP = "edition"


def executed_from(nb: dict, messages: list) -> str:
    """The SHA-256 of what a generated notebook's outputs are computed from: its code cells (each id and source:
    the English code with the edition's translated strings and comments) and ``messages``, the package's
    translations the code prints in the edition's language (:func:`package_messages`). Markdown is not in it: a
    changed paragraph changes no output."""
    code = [(c["id"], "".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "code"]
    return hashlib.sha256(json.dumps([code, messages], ensure_ascii=False).encode("utf-8")).hexdigest()


def package_messages(lang: str) -> list:
    """The package's current translations into ``lang`` (``attention_core.po``: msgctxt, msgid, msgstr, sorted),
    which the lessons' code prints: a changed one changes the outputs of the edition's notebooks."""
    return sorted([*key, text] for key, text in PackageSource().translation(lang).table.items())


def owed(lang: str) -> list[tuple[pathlib.Path, str]]:
    """The generated notebooks of ``lang`` that must be executed, each with why: one that has no outputs (a code
    cell never run: the generator wrote it without them), or whose code or package messages differ from those its
    outputs were computed from (its stamp, :data:`STAMP`). Derived from the files alone, so a second ``generate``,
    a failed or interrupted execution, or a merge forgets nothing. A notebook that cannot be read is listed too,
    to be generated again first."""
    messages, found = package_messages(lang), []
    for source in sources():
        if not isinstance(source, NotebookSource):
            continue
        target = source.target(lang)
        nb, problem = read_generated(target)
        if nb is None:
            found.append((target, f"{problem or 'missing'}: run generate first"))
            continue
        record = nb["metadata"].get(STAMP)
        done = record.get("executed_from") if isinstance(record, dict) else None
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        unrun_by_design = {"skip-execution", EXERCISE_CHECK}  # a check cell is stored without its verdict
        if any(
            c.get("execution_count") is None and not unrun_by_design & set(c["metadata"].get("tags", ())) for c in code
        ):
            found.append((target, "it has no outputs (generated with new code, not executed since)"))
        elif done is None:
            found.append((target, "no record of what its outputs were computed from"))
        elif done != executed_from(nb, messages):
            found.append((target, "its code or the package's messages changed since it was executed"))
    return found


def stamp(path: pathlib.Path, lang: str) -> None:
    """Record in the notebook at ``path`` (just executed) what its outputs were computed from (:data:`STAMP`)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["metadata"][STAMP] = {"executed_from": executed_from(nb, package_messages(lang))}
    files.write_text(path, dumps(nb))


class PageSource(Source):
    """A Markdown page: its blocks are units with the page's name as msgctxt (``glossary``), which no neighbouring
    block's change moves."""

    def __init__(self, path: pathlib.Path):
        self.path, self.name = path, path.relative_to(ROOT).as_posix()
        self.context = path.stem

    def units(self) -> list[Unit]:
        return markdown_units(self.path.read_text(encoding="utf-8"), self.context, lines=True)

    def edition(self, lang: str, translation: Translation | None = None) -> str:
        text = self.path.read_text(encoding="utf-8")
        return translate_markdown(text, self.context, translation or self.translation(lang))


class ConfigSource(Source):
    """The book's ``_config.yml`` and ``_toc.yml``: the title, the part captions, the words of the code folds,
    and two settings a translator chooses (Sphinx's ``language`` code and the search index's language)."""

    name = "_config.yml"
    SETTINGS = {  # sphinx.config key -> the English value a translation replaces
        "language": "en",
        "html_search_language": "en",
        "nb_code_prompt_show": "Show code cell {type}",
        "nb_code_prompt_hide": "Hide code cell {type}",
    }
    PATHS = ("favicon", "html_static_path")  # relative paths, one folder deeper in an edition
    NOTES = {  # for the translator ("#." in _config.po)
        "title": "the book's title",
        "author": "the book's authors, as the title page and the PDFs name them",
        "sphinx:language": "Sphinx's code for this edition's language (zh_CN, de, fr): Sphinx's own words follow it",
        "sphinx:html_search_language": "the search index's language (zh, de, fr; Sphinx's html_search_language)",
        "sphinx:nb_code_prompt_show": (
            "a hidden code cell's fold; myst-nb puts the English word source, outputs or content in place of {type}, "
            "so a translation may leave {type} out"
        ),
        "toc:caption": "a part's caption in the table of contents",
    }
    NOTES["sphinx:nb_code_prompt_hide"] = NOTES["sphinx:nb_code_prompt_show"]

    def _english(self):
        import yaml

        return (
            yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8")),
            yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8")),
        )

    def units(self) -> list[Unit]:
        config, toc = self._english()
        sphinx = config["sphinx"]["config"]
        found = [("title", config["title"], "setting"), ("author", config["author"], "setting")]
        found += [(f"sphinx:{key}", sphinx.get(key, english), "setting") for key, english in self.SETTINGS.items()]
        found += [("toc:caption", part["caption"], "caption") for part in toc["parts"]]
        return _unique([Unit(c, text, kind, self.NOTES.get(c, ""), self._flag(c, text)) for c, text, kind in found])

    @staticmethod
    def _flag(context: str, text: str) -> str:
        """The code folds' words may drop ``{type}`` (myst-nb fills it with an English word): not a format msgfmt
        should hold the translation to; every other setting with a field is."""
        if context.startswith("sphinx:nb_code_prompt"):
            return "no-python-brace-format"
        return brace_format(text)

    def edition(self, lang: str, translation: Translation | None = None, folder: pathlib.Path | None = None) -> str:
        import yaml

        translation = translation or self.translation(lang)
        config, _ = self._english()
        config["title"] = translation("title", config["title"]) or config["title"]
        config["author"] = translation("author", config["author"]) or config["author"]
        config["exclude_patterns"] = ["_build/*", "**.ipynb_checkpoints"]
        sphinx = config["sphinx"]["config"]
        for key, english in self.SETTINGS.items():
            value = translation(f"sphinx:{key}", sphinx.get(key, english))
            if value is not None:
                sphinx[key] = value
        sphinx["ae_edition"] = lang
        _rebase(config, self.PATHS, os.path.relpath(ROOT, folder or ROOT / lang).replace(os.sep, "/") + "/")
        return self._header(lang, "_config.yml") + yaml.safe_dump(
            config, sort_keys=False, allow_unicode=True, width=120
        )

    def toc(self, lang: str, translation: Translation | None = None) -> str:
        import yaml

        translation = translation or self.translation(lang)
        _, toc = self._english()
        for part in toc["parts"]:
            part["caption"] = translation("toc:caption", part["caption"]) or part["caption"]
        return self._header(lang, "_toc.yml") + yaml.safe_dump(toc, sort_keys=False, allow_unicode=True, width=120)

    def _header(self, lang: str, name: str) -> str:
        return (
            f"# Generated by attention_workshop.editions from ../{name} and "
            f"{self.po_path(lang).relative_to(ROOT)}: do not edit; run `make editions`.\n"
        )

    def write(self, lang: str, made=None) -> str:
        changed = "unchanged"
        for target, text in ((self.target(lang), self.edition(lang)), (ROOT / lang / "_toc.yml", self.toc(lang))):
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                target.parent.mkdir(parents=True, exist_ok=True)
                files.write_text(target, text)
                changed = "text"
        return changed


def _rebase(node, keys: tuple[str, ...], up: str) -> None:
    """Prefix ``up`` (``../``) to the relative paths under ``keys``: an edition lives in a folder below the English."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in keys:
                node[key] = _up(value, up)
            else:
                _rebase(value, keys, up)


def _up(value, up: str):
    if isinstance(value, str):
        return up + value
    if isinstance(value, list):
        return [_up(v, up) for v in value]
    if isinstance(value, dict):
        return {k: _up(v, up) for k, v in value.items()}
    return value


class PackageSource(Source):
    """The sentences ``attention_core`` writes for readers (every :class:`attention_core.lang.Messages`): their
    translation ships with the package, so it has no edition to write."""

    name = "src/attention_core (package messages)"
    generates = False

    def units(self) -> list[Unit]:
        import importlib
        import pkgutil

        import attention_core
        from attention_core.lang import DOMAIN, LOCALE_DIR, MESSAGES

        for module in pkgutil.walk_packages(attention_core.__path__, "attention_core."):
            if not module.name.endswith("__main__"):
                importlib.import_module(module.name)
        ours = [
            m
            for m in MESSAGES
            if m.domain == DOMAIN and m.localedir == LOCALE_DIR and m.context.startswith("attention_core")
        ]
        return _unique(
            [
                Unit(m.msgctxt(key), text, "message", self.NOTES.get(m.msgctxt(key), ""), brace_format(text))
                for m in ours
                for key, text in m.entries.items()
            ]
        )

    NOTES: dict[str, str] = {}  # for the translator ("#." in attention_core.po), by msgctxt

    def po_path(self, lang: str) -> pathlib.Path:
        from attention_core.lang import DOMAIN, LOCALE_DIR

        return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


class ThemeSource(Source):
    """The theme's fixed words (``attention_workshop.theme.THEME_STRINGS``), put into every page by the build."""

    name = "src/attention_workshop/ae_lang.py (theme strings)"
    generates = False

    def units(self) -> list[Unit]:
        from attention_workshop.theme import THEME_STRINGS

        note = "a word of the website's frame (the book theme's), which Sphinx's catalogs do not translate"
        return [Unit("theme", text, "theme", note) for text in THEME_STRINGS]

    def po_path(self, lang: str) -> pathlib.Path:
        return LOCALE / lang / "LC_MESSAGES" / "theme.po"


def sources() -> list[Source]:
    found: list[Source] = [
        NotebookSource(p) for p in sorted([*ROOT.glob("book/*.ipynb"), *ROOT.glob("notebooks/*.ipynb")])
    ]
    found += [PageSource(p) for p in sorted(ROOT.glob("book/*.md"))]
    return [*found, ConfigSource(), ThemeSource(), PackageSource()]


def translate_notebook(nb: dict, translation: Translation, lang: str) -> dict:
    """The edition of an English notebook in ``lang``: same cells, ids, tags and metadata; translated text;
    no outputs (the edition is executed afterwards)."""
    out = copy.deepcopy(nb)
    for cell in out["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            cell["source"] = _lines(translate_markdown(source, cell["id"], translation))
        elif cell["cell_type"] == "code":
            try:
                cell["source"] = _lines(translate_code(source, lambda text, c=cell["id"]: translation(c, text), lang))
            except BlockError as error:  # not Python LibCST reads
                raise BlockError(f"[{cell['id']}] {error}") from None
            cell["outputs"], cell["execution_count"] = [], None
            cell["metadata"].pop("execution", None)
    out["metadata"].pop("widgets", None)
    return out


def same_sources(a: dict, b: dict) -> bool:
    """Two notebooks have the same cells (type, id, source, metadata but the execution's timing), whatever their
    outputs."""

    def shape(nb):
        return [
            (
                c["cell_type"],
                c.get("id"),
                "".join(c["source"]),
                json.dumps({k: v for k, v in c.get("metadata", {}).items() if k != "execution"}, sort_keys=True),
            )
            for c in nb["cells"]
        ]

    return shape(a) == shape(b)


def completeness(lang: str) -> tuple[int, int]:
    """How much of the edition is translated: (entries with a current translation, entries the English asks for)."""
    from attention_workshop.editions.catalog import status

    found = [status(source, lang) for source in sources()]
    return sum(st.translated for st in found if not st.errors), sum(st.total for st in found)
