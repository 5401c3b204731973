"""A translation is data, never code (attention_workshop.editions.code, issue 27 item 4).

A code string's translation may move the placeholders of its English (``{0}``, ``{1}``, ...), each once, and write
braces as ``{{``/``}}``; anything else in braces, a missing or repeated placeholder, a line break the English does
not have, is refused with the offending field. Whatever text passes is written back so that the new literal means
exactly that text: backslashes, quotes and newlines typed by a translator are text, not Python. Cells are read
with LibCST, whose parser is the same on Python 3.11, 3.12 and 3.13 (whose tokenizer splits f-strings), so every
version reads a cell the same way. Theme strings go into the built pages literally, HTML-escaped.
"""

from __future__ import annotations

import ast
import json
import os
import pathlib
import shutil
import subprocess

import pytest

from attention_workshop import ae_lang
from attention_workshop.editions import code

CELL = 'print(f"{name:>8}: most weight on h_{j + 1}", pad("token", 9))  # the weights\n'
FSTRING = "{0}: most weight on h_{1}"


def translated(cell: str, table: dict[str, str]) -> str:
    return code.translate_code(cell, table.get, "zh")


def value(cell: str, **names) -> str:
    """What the first argument of the cell's first call evaluates to."""
    call = ast.parse(cell).body[0].value
    return eval(compile(ast.Expression(call.args[0]), "<cell>", "eval"), {**names})


# ----------------------------------------------------------------------------------------------- refused
@pytest.mark.parametrize(
    ("translation", "field", "problem"),
    [
        ("{0}：权重 {1} {__import__('os').system('true')}", "{__import__('os').system('true')}", "not a placeholder"),
        ("{0}：权重 {1} {name}", "{name}", "not a placeholder"),
        ("{0}：权重 h_{1} }", "}", "no placeholder"),
        ("{0}：权重 h_{1} {", "{", "no placeholder"),
        ("{0}：权重 h_{1} {x", "{x", "no placeholder"),
        ("权重最大的是 h_{1}", "{0}", "missing"),
        ("{0}{0}：权重 h_{1}", "{0}", "used 2 times"),
        ("{0}：权重 h_{1} {2}", "{2}", "no such placeholder"),
        ("{0!r}：权重 h_{1}", "{0!r}", "not a placeholder"),
        ("{0:>9}：权重 h_{1}", "{0:>9}", "not a placeholder"),
        ("{0}：\n权重 h_{1}", "\n", "line break where the English has none"),
        ("{0}：\r权重 h_{1}", "\r", "line break where the English has none"),
        ("{0}：\u2028权重 h_{1}", "\u2028", "line break where the English has none"),
    ],
)
def test_a_translation_that_is_more_than_text_is_refused_with_its_field(translation, field, problem):
    with pytest.raises(code.TranslationRefused) as refused:
        translated(CELL, {FSTRING: translation})
    assert refused.value.field == field and problem in str(refused.value)
    assert refused.value.msgid == FSTRING
    [(lit, again)] = code.refusals(CELL, {FSTRING: translation}.get)
    assert lit.text == FSTRING and str(again) == str(refused.value)


@pytest.mark.parametrize("translation", ["权重\nimport os", "权重\rimport os", "权重\x00", "权重\u2029x"])
def test_a_comment_stays_one_line(translation):
    with pytest.raises(code.TranslationRefused, match="one line"):
        translated(CELL, {"the weights": translation})


@pytest.mark.parametrize("translation", ["{0}", "{{}} {x}", "}"])
def test_a_plain_string_has_no_placeholder_to_add(translation):
    cell = 'print("it is done")\n'
    if translation == "{{}} {x}":
        with pytest.raises(code.TranslationRefused, match="not a placeholder"):
            translated(cell, {"it is done": translation})
        return
    with pytest.raises(code.TranslationRefused):
        translated(cell, {"it is done": translation})


@pytest.mark.parametrize("translation", ["it's", 'say "yes"', "a\\b", "a\nb"])
def test_a_string_inside_a_field_holds_no_backslash_quote_or_line_break(translation):
    """Python 3.11 allows none of them inside an f-string's field, and every version must read the same code."""
    cell = "print(f\"{'yes' if ok else 'no'} and {x:>{w}}\")\n"
    with pytest.raises(code.TranslationRefused, match="inside an f-string's field|line break"):
        translated(cell, {"yes": translation})
    assert value(translated(cell, {"yes": "是的 {{好}}"}), ok=True, x=1, w=2) == "是的 {好} and  1"


def test_check_fields_counts_placeholders():
    code.check_fields("{1} 与 {0}", 2)
    for bad in ("{0}", "{0} {1} {1}", "{0} {1} {2}", "{0} {1} {x}"):
        with pytest.raises(ValueError):
            code.check_fields(bad, 2)


# ----------------------------------------------------------------------------------------------- written as text
TEXTS = [
    "\\d+ 匹配数字",
    "\\1 是第一组",
    'a "quoted" word',
    "it's",
    "\\n is not a newline",
    "ends with \\",
    "{{braces}}",
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("quote", ['"', "'"])
def test_backslashes_quotes_and_braces_are_written_as_the_text_they_are(text, quote):
    plain = f"print({quote}it is done{quote})\n"
    meant = text.replace("{{", "{").replace("}}", "}")
    assert value(translated(plain, {"it is done": text})) == meant
    fstring = f"print(f{quote}{{name}}: it is done{quote})\n"
    assert value(translated(fstring, {"{0}: it is done": "{0}：" + text}), name="N") == "N：" + meant


def test_a_line_break_is_text_where_the_english_has_one():
    cell = 'print("first line\\nsecond line")\n'
    assert value(translated(cell, {"first line\nsecond line": "第一行\n第二行 \\n"})) == "第一行\n第二行 \\n"
    triple = 'print("""first line\nsecond "line\\"""")\n'
    english = code.literals(triple)[0].text
    assert english == 'first line\nsecond "line"'
    assert value(translated(triple, {english: '第一行\n第二行 """ \\'})) == '第一行\n第二行 """ \\'


def test_a_long_translation_of_a_wrapped_run_is_wrapped_and_means_its_text():
    cell = 'x = print(\n    "a long caption "\n    "that spans two lines"\n)\n'
    english = "a long caption that spans two lines"
    text = '很长的说明 "引号" \\d ' * 12
    out = translated(cell, {english: text})
    assert out.count("\n") > 4 and value(out.replace("x = ", "", 1)) == text


def test_the_english_reads_escapes_as_python_does():
    cell = r"""print(f"tab\there \N{EM DASH} {x} \x7b \\{y}", "a\"b", r"\d+", b"bytes")""" + "\n"
    found = [(lit.kind, lit.text, lit.fields) for lit in code.literals(cell)]
    assert found == [
        ("string", "tab\there — {0} {{ \\{1}", ["{x}", "{y}"]),
        ("string", 'a"b', []),
        ("string", "\\d+", []),
        ("bytes", 'b"bytes"', []),
    ]


def test_an_untranslated_cell_is_kept_byte_for_byte():
    cell = 'print(f"{x!r:>{w}} \\N{EM DASH}", r"\\d", """a\n{b}""")  # note\n'
    assert code.translate_code(cell, lambda text: None, "zh") == cell
    assert code.translate_code(cell, lambda text: text, "zh") == cell


# ----------------------------------------------------------------------------------------------- fields as written
@pytest.mark.parametrize(
    "field",
    [
        "{x}",
        "{x!r}",
        "{a != b}",
        "{d['k']:>{w}}",
        "{'}' if a else '{'}",
        "{(lambda: 1)()}",
        "{x:%H:%M}",
        "{ {'a': 1}['a'] }",
        "{x=}",
    ],
)
def test_a_field_is_one_placeholder_and_its_source_as_written(field):
    """LibCST reads an f-string as its text and its fields, each kept as written (expression, conversion, spec,
    spaces), whatever braces, quotes, colons or ``!=`` the expression holds."""
    [lit, *inner] = code._code_literals(f'print(f"{field} tail")\n')
    assert (lit.text, lit.fields) == ("{0} tail", [field])
    assert all(i.enclosing == '"' for i in inner)  # the strings inside a field know the quotes around them
    assert code.translate_code(f'print(f"{field} tail")\n', {"{0} tail": "尾 {0}"}.get, "zh") == (
        f'print(f"尾 {field}")\n'
    )


TRICKY = [
    'print(f"{name:>8}: most weight on h_{j + 1}", sweep["mean"], pad("token", 9))  # a comment\n',
    "print(f\"{'yes' if ok else 'no'}: {x!r:>{width}} {d['k']:.3f} {a != b}\")\n",
    'print(f"""{x}\nline two {{kept}} {f"{y}"}""")\n',
    'caption = ("a long caption "\n           f"with {n} fields")\n',
    'print(f"{x:$>10} and {y:,}")\n',
]


def _read(cells: list[str]) -> list:
    return [
        [[lit.kind, lit.text, lit.fields, code.translatable(lit), lit.enclosing] for lit in code._code_literals(c)]
        for c in cells
    ]


def _other_pythons() -> list[str]:
    """Python 3.12+ interpreters with ``libcst`` on this machine (on PATH, installed by pyenv, or named in
    ``AE_OTHER_PYTHONS``, separated by the path separator), besides the one running."""
    found = [shutil.which(f"python3.{minor}") for minor in (12, 13, 14)]
    found += [str(p) for p in pathlib.Path.home().glob(".pyenv/versions/3.1[2-9]*/bin/python3")]
    found += os.environ.get("AE_OTHER_PYTHONS", "").split(os.pathsep)
    usable = []
    for python in sorted({p for p in found if p and "shims" not in p}):
        check = subprocess.run(
            [python, "-c", "import sys, libcst; print(sys.version_info >= (3, 12))"], capture_output=True
        )
        if check.returncode == 0 and check.stdout.strip() == b"True":
            usable.append(python)
    return usable


def test_every_python_reads_a_cell_the_same_way():
    """From 3.12 the tokenizer splits an f-string into parts; the literals and fields read from a cell must not
    change. LibCST parses with a grammar of its own on every version; run where another Python (3.12+) with
    ``libcst`` is installed."""
    others = _other_pythons()
    if not others:
        pytest.skip("no Python 3.12+ with libcst besides this one")
    src = str(pathlib.Path(code.__file__).resolve().parents[2])
    script = (
        "import json, sys; from attention_workshop.editions import code; cells = json.loads(sys.stdin.read()); "
        "print(json.dumps([[[l.kind, l.text, l.fields, code.translatable(l), l.enclosing] "
        "for l in code._code_literals(c)] for c in cells]))"
    )
    for python in others:
        run = subprocess.run(
            [python, "-c", script],
            input=json.dumps(TRICKY),
            capture_output=True,
            text=True,
            env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
            timeout=60,
        )
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout) == _read(TRICKY), python


# ----------------------------------------------------------------------------------------------- the parse guard
def test_the_guard_reads_cells_as_ipython_does_and_names_the_breaking_entry(monkeypatch):
    assert code.syntax_error("%matplotlib inline\nx = 1\n") is None
    assert code.syntax_error("x = 1\x00\n") is not None
    assert isinstance(code.syntax_error('print("a)\n'), SyntaxError)
    monkeypatch.setattr(code, "_escape", lambda text, quote, fstring: text)  # a writer that forgot the quotes
    broken = {FSTRING: '{0} "unclosed {1}'}
    assert code.syntax_error(translated(CELL, broken)) is not None
    assert code.culprit(CELL, broken.get, "zh").text == FSTRING


# ----------------------------------------------------------------------------------------------- theme strings
PAGE = (
    '<input placeholder="Search this book..." aria-label="Search this book...">'
    '<span class="x">Contents</span><p> Back to top </p>'
)


@pytest.mark.parametrize("translation", ["\\d 目录", "\\1 目录", "A & B", "<b>目录</b>", "\"引号\" 与 '单引号'"])
def test_theme_strings_are_inserted_literally_and_html_escaped(translation):
    import html

    out = ae_lang._translated_page(PAGE, {"Contents": translation, "Search this book...": translation})
    assert f'<span class="x">{html.escape(translation, quote=False)}</span>' in out
    assert f'placeholder="{html.escape(translation)}"' in out
    assert "<b>目录" not in out and "<p> Back to top </p>" in out


def test_theme_strings_from_a_translation_file(tmp_path, monkeypatch):
    import polib

    folder = tmp_path / "locale" / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    po.append(polib.POEntry(msgctxt="theme", msgid="Contents", msgstr="\\1 & <b>目录</b>"))
    po.append(polib.POEntry(msgctxt="theme", msgid="Back to top", msgstr="回到 \\d 顶部"))
    po.save(str(folder / "theme.po"))
    monkeypatch.setattr(ae_lang, "ROOT", tmp_path)
    table = ae_lang._theme_translation("xx")
    assert table == {"Contents": "\\1 & <b>目录</b>", "Back to top": "回到 \\d 顶部"}
    out = ae_lang._translated_page(PAGE, table)
    assert '<span class="x">\\1 &amp; &lt;b&gt;目录&lt;/b&gt;</span>' in out
    assert "<p> 回到 \\d 顶部 </p>" in out
