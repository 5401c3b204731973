"""The website's checker (book/_assets/ae-checks.js) against the Python self-checks, under Node: the same findings
and the same verdicts, on every typable answer of the value exercises' bank in every language, and on answers drawn
at random; its helpers against Python's and numpy's (repr, str.format, numpy's array printing and rounding, the
quotation of a reader's value).

Everything runs in one Node process per test (tests/site/checks/checks_node.js). The same bank in the built pages,
through the boxes' own data and messages, in Chromium: tests/site/test_site_checks.py.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_core.checks.base import fmt, quote
from attention_core.checks.declare import page_text
from attention_core.checks.site import checks
from attention_core.lang import languages
from tests.helpers import ROOT
from tests.site.exercise_answers import (
    WEB,
    answers,
    boxes,
    differences,
    parameters,
    python_side,
    python_value,
    same_keys,
)

ASSETS = ROOT / "book" / "_assets"
DRIVER = ROOT / "tests" / "site" / "checks" / "checks_node.js"
LANGUAGES = languages()  # English, each edition's language, and the pseudo-language

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (the README lists it)")


def run_node(tasks: list[dict], langs=LANGUAGES, assets=ASSETS) -> list[dict]:
    job = {"assets": str(assets), "params": {lang: parameters(lang) for lang in langs}, "tasks": tasks}
    run = subprocess.run(["node", str(DRIVER)], input=json.dumps(job), capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def compare(cases: list[tuple[str, str, list[str]]], langs=LANGUAGES, assets=ASSETS) -> tuple[int, list[str]]:
    """Run ``cases`` (exercise, label, typed texts) through the page's checker and Python's in each language;
    return how many answers were compared and every difference."""
    made = {lang: boxes(lang) for lang in langs}
    tasks = [{"lang": lang, "box": made[lang][key], "texts": texts} for lang in langs for key, _, texts in cases]
    results = iter(run_node(tasks, langs, assets))
    found = []
    for lang in langs:
        for key, label, texts in cases:
            page = next(results)
            where = f"{lang} {key} {label!r} {texts}: "
            if "error" in page:
                found.append(where + page["error"])
                continue
            found += differences(python_side(key, texts, lang), page, where)
    return len(tasks), found


def test_every_value_check_has_its_twin_and_its_bank():
    """Every check with a ``given`` (a value answer) has its twin in the page's checker, and a bank the tests run."""
    values = sorted(name for name, check in checks().items() if check.given is not None)
    names = run_node([{"fn": "checkNames", "args": []}], langs=("en",))[0]["value"]
    assert sorted(names) == values
    assert sorted(box["check"] for box in boxes("en").values()) == values


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_the_whole_bank_gets_the_notebooks_verdicts_in_every_language():
    cases = answers()
    assert len(cases) == sum(len(r) + len(w) for _, r, w in WEB.values()), "every bank answer can be typed"
    compared, found = compare(cases)
    assert compared == len(cases) * len(LANGUAGES)
    assert not found, "\n".join(found[:20])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_a_typed_answer_is_the_same_mistake_as_the_banks_value():
    """Typing a numpy value as its list (or a numpy number as a Python one) changes no verdict key."""
    for key, (_, right, wrong) in WEB.items():
        for label, args in [*right, *wrong]:
            assert same_keys(key, label, args), (key, label)


def test_a_broken_twin_fails_the_comparison(tmp_path):
    """The negative control: the page's checker with one rule changed (06.2's mirror test dropped, 08.5's window
    one position wider, 09.1's division by d not named, 09.2's inverse taken for the reversed order) differs from
    Python on the bank."""
    source = (ASSETS / "ae-checks.js").read_text(encoding="utf-8")
    for old, new in (
        ("if (accepts(precision, -s, sBest) &&", "if (false && accepts(precision, -s, sBest) &&"),
        ("if (sameList(got, exp)) return right(", "if (sameList(got.slice(1), exp)) return right("),
        ('"tries_left_page"', '"tries_left"'),
        ("if (near(g.by_d)) return", "if (false && near(g.by_d)) return"),
        ("if (same(got, g.inverse)) return", "if (same(got, order.slice().reverse())) return"),
    ):
        assert old in source, old
        (tmp_path / "ae-checks.js").write_text(source.replace(old, new), encoding="utf-8")
        _, found = compare(answers(), langs=("en",), assets=tmp_path)
        assert found, f"the comparison does not see {new!r}"


# ------------------------------------------------------------------------------------ random answers
def floats():
    return st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.floats(-5, 5),
        st.integers(-3000, 3000).map(lambda n: n / 1000),
        st.sampled_from([0.0, -0.0, 0.5, 1.4554, -1.455, 0.41512, 0.4151, 1.25, -0.75, 1e-7, 1e16, 5e-324]),
    )


def scalars():
    return st.one_of(
        floats(),
        st.integers(-20, 20),
        st.integers(-(2**70), 2**70),
        st.sampled_from([None, True, False, "", "640", "x\u202ey", "'", '"', "a'b\"c", "\u3000 \n\t"]),
        st.text(max_size=12),
    )


def values():
    return st.recursive(
        scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=9),
            st.lists(inner, max_size=4).map(tuple),
            st.lists(floats(), min_size=0, max_size=8),
            st.tuples(st.integers(-3, 9), st.integers(-3, 12)).map(lambda ab: range(*ab)),
        ),
        max_leaves=12,
    )


def answer_for(key: str):
    """Random answers for one exercise, as typed: anything at all, and near misses of its right answers."""
    _, right, _ = WEB[key]
    n = len(right[0][1])
    near = st.sampled_from(right).flatmap(lambda r: st.tuples(*(_near(a) for a in r[1])))
    anything = st.tuples(*([values()] * n))
    return (
        st.one_of(near, anything)
        .map(lambda args: [page_text(a, limit=10_000) for a in args])
        .filter(lambda texts: None not in texts)
    )


def _near(value):
    """A value like ``value``: each number moved a little (or a lot), a position added or dropped."""
    if isinstance(value, range):
        value = list(value)
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, list | tuple):
        items = [_near(v) for v in value]
        return st.one_of(
            st.tuples(*items).map(list), st.tuples(*items, st.integers(0, 12)).map(list), st.just(list(value[1:]))
        )
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return st.just(value)
    x = float(value)
    return st.one_of(
        st.just(value),
        st.floats(-0.02, 0.02).map(lambda d: x + d),
        st.floats(-1, 1).map(lambda d: x * (1 + d)),
        st.just(-x),
        st.integers(-2, 2).map(lambda d: int(round(x)) + d),
    )


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_random_answers_get_the_notebooks_verdicts():
    """150 answers per exercise, anything a reader can type and near misses of the right answers, in English and in
    Chinese."""
    cases = [(key, "drawn", texts) for key in sorted(WEB) for texts in drawn(answer_for(key), 150)]
    _, found = compare(cases, langs=("en", "zh"))
    assert not found, "\n".join(found[:20])


# ------------------------------------------------------------------------------------ the helpers
def test_reading_a_typed_answer_is_pythons():
    texts = ["640", "40 * 2 * 8", "2**-1", "-2**2", "1/3", "0.1 + 0.2", "[4, 5] + [6]", "4, 5,", "(12,)", "()", "1e400",
             "range(7, 0, -2)", "'a\\x41\\101\\u00e9'", "float('-inf')", "True + 1", "10**30 * 3", "1_000.5", "0x1f",
             "[[1, 2], [3]]", "- -3", "+.5", "5.", "2 ** 0.5", "[]", "-0.0", "(1, [2, (3,)])"]  # fmt: skip
    got = run_node([{"fn": "reprOf", "args": [t]} for t in texts], langs=("en",))
    assert [g.get("value") for g in got] == [repr(python_value(t)) for t in texts]
    refused = ["np.array([1])", "1/0", "[1", "012", "1.5j", "x", "'a' * 2", "(-8) ** 0.5", "2 ** 10000000"]
    got = run_node([{"fn": "reprOf", "args": [t]} for t in refused], langs=("en",))
    assert all(g.get("value") is None for g in got), got


def drawn(strategy, n: int) -> list:
    """``n`` examples of a hypothesis strategy, drawn once (deterministic): the tests hand them all to one Node
    process instead of starting one per example."""
    found = []

    @settings(max_examples=n, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(x):
        found.append(x)

    draw()
    return found


def test_floats_are_written_as_python_writes_them():
    xs = [x for batch in drawn(st.lists(st.one_of(floats(), st.floats(-1e12, 1e12), st.floats(-1e-3, 1e-3))), 200)
          for x in batch]  # fmt: skip
    specs = ["", ".3f", ".4f", ".2f", ".6f", "g", ".3g", ".6g", "e", ".2e", ">10.3f", "+.1f"]
    tasks = [{"fn": "floatRepr", "args": [_json_float(x)]} for x in xs]
    tasks += [{"fn": "formatValue", "args": [_json_float(x), spec]} for x in xs for spec in specs]
    got = [g.get("value", g.get("error")) for g in run_node(tasks, langs=("en",))]
    want = [repr(x) for x in xs] + [format(x, spec) for x in xs for spec in specs]
    assert len(xs) > 500 and got == want


def test_vectors_are_printed_as_numpy_prints_them():
    number = st.one_of(
        st.floats(-1e10, 1e10), st.floats(-2, 2), st.sampled_from([0.0, -0.0, 0.03125, 0.99996, 1e8, 5e-324, -1.5e-320])
    )
    vectors = drawn(st.lists(number, min_size=2, max_size=3), 400)
    tasks = [{"fn": "fmt", "args": [xs, cut]} for xs in vectors for cut in (True, False)]
    tasks += [
        {"fn": name, "args": [x, d]} for xs in vectors for x in xs for name, d in (("npRound", 3), ("pyRound", 2))
    ]
    tasks += [{"fn": "npSum", "args": [xs]} for xs in vectors]
    tasks += [{"fn": "npSum", "args": [list(np.random.default_rng(n).normal(size=n) * 10.0**n)]} for n in range(8, 40)]
    got = iter(g.get("value", g.get("error")) for g in run_node(tasks, langs=("en",)))
    for xs in vectors:
        assert [next(got), next(got)] == [fmt(np.array(xs)), fmt(np.array(xs), cut=False)], xs
    for xs in vectors:
        for x in xs:
            assert [next(got), next(got)] == [float(np.round(x, 3)), round(x, 2)], x
    # JSON writes a whole float as an int: compared as floats
    assert [float(next(got)) for _ in vectors] == [float(np.sum(xs)) for xs in vectors]
    assert [float(next(got)) for _ in range(8, 40)] == [float(np.sum(t["args"][0])) for t in tasks[-32:]]


def test_a_readers_value_is_quoted_as_python_quotes_it():
    texts = [t for t in (page_text(v, limit=100_000) for v in drawn(values(), 600)) if t is not None]
    got = run_node([{"fn": "quoteOf", "args": [t]} for t in texts], langs=("en",))
    assert len(texts) > 400
    for text, g in zip(texts, got, strict=True):
        assert g.get("value") == quote(python_value(text)), (text, g)


def _json_float(x: float):
    return {"float": "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")} if not math.isfinite(x) else x
