r"""The design registry's formulas, TeX, as the pieces the website's laboratory draws in its step panel.

The step panel of ``book/_assets/ae-lab.js`` shows each decoder step's equations, which the registry
(:mod:`attention_core.models.designs`) declares in TeX. The page loads no TeX typesetter (the book's pages carry
their math typeset at build time), so :func:`pieces` reads the small part of TeX those formulas use into what the
page draws with HTML: runs of upright text, and symbols (italic: a Latin or Greek letter, an accented one) or upright
names (``\operatorname``, ``\mathrm``, ``\text``) with a subscript and a superscript::

    pieces(r"e_{tj} = v^\top \tanh(W_s s_{t-1} + b)")
    [{"base": "e", "sub": "tj"}, " = ", {"base": "v", "sup": "⊤"}, " tanh(", {"base": "W", "sub": "s"}, " ",
     {"base": "s", "sub": "t−1"}, " + ", {"base": "b"}, ")"]

A symbol is ``{"base": ..., "sub": ..., "sup": ...}`` (``sub`` and ``sup`` only when present), with ``"upright":
true`` for a name. Spaces are kept as the page's spaces (TeX ignores them, so the TeX still typesets the same);
``-`` is a minus sign. A command outside :data:`SYMBOLS`, :data:`ACCENTS` and :data:`NAMES`, a brace left open or
a script with nothing to attach to is refused with one line naming the formula and what is wrong.
"""

from __future__ import annotations

import re

# Commands that stand for one character or word: letters are italic symbols, the rest upright text.
SYMBOLS = {
    r"\alpha": "α", r"\beta": "β", r"\gamma": "γ", r"\delta": "δ", r"\epsilon": "ε", r"\eta": "η", r"\theta": "θ",
    r"\lambda": "λ", r"\mu": "μ", r"\pi": "π", r"\sigma": "σ", r"\tau": "τ", r"\phi": "φ", r"\omega": "ω",
    r"\top": "⊤", r"\sum": "Σ", r"\tanh": "tanh", r"\exp": "exp", r"\log": "log", r"\max": "max", r"\mid": "|",
    r"\cdot": "·", r"\times": "×", r"\odot": "⊙", r"\le": "≤", r"\ge": "≥", r"\in": "∈", r"\to": "→",
    r"\,": " ", r"\;": " ",
}  # fmt: skip
GREEK = {"α", "β", "γ", "δ", "ε", "η", "θ", "λ", "μ", "π", "σ", "τ", "φ", "ω"}
ACCENTS = {r"\tilde": ("", "\u0303"), r"\hat": ("", "\u0302"), r"\bar": ("", "\u0304"),
           r"\overrightarrow": ("→", ""), r"\overleftarrow": ("←", "")}  # fmt: skip  # (before, after) the letter
NAMES = {r"\operatorname", r"\mathrm", r"\text"}  # their argument, upright
TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\s+|.", re.S)


def pieces(tex: str) -> list:
    """The pieces the laboratory's page draws for the formula ``tex`` (the module's docstring)."""
    if not isinstance(tex, str):
        raise TypeError(f"a formula must be a TeX str, got {type(tex).__name__}")
    tokens = TOKEN.findall(tex)
    atoms, end = _sequence(tex, tokens, 0, top=True)
    out: list = []
    for atom in atoms:
        if isinstance(atom, str) and out and isinstance(out[-1], str):
            out[-1] += atom  # one run of upright text
        else:
            out.append(atom)
    return out


def _fail(tex: str, problem: str):
    raise ValueError(f"formula {tex!r}: {problem}")


def _sequence(tex: str, tokens: list[str], i: int, top: bool) -> tuple[list, int]:
    """The atoms from ``tokens[i]`` to the end (``top``) or to the brace that closes the group; and where it ended."""
    atoms: list = []
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if tok == "}":
            if top:
                _fail(tex, "a } closes no group")
            return atoms, i
        if tok in ("_", "^"):
            if not atoms or isinstance(atoms[-1], str) and not atoms[-1].strip():
                _fail(tex, f"{tok} follows nothing it could attach to")
            script, i = _argument(tex, tokens, i)
            atom = atoms[-1] if isinstance(atoms[-1], dict) else {"base": atoms[-1], "upright": True}
            key = "sub" if tok == "_" else "sup"
            if key in atom:
                _fail(tex, f"a second {tok} on {atom['base']!r}")
            atoms[-1] = {**atom, key: script}
        elif tok == "{":
            inner, i = _sequence(tex, tokens, i, top=False)
            atoms.append(_text(tex, inner) if len(inner) != 1 else inner[0])
        elif tok.isspace():
            atoms.append(" ")
        elif tok in ACCENTS:
            letter, i = _argument(tex, tokens, i)
            before, after = ACCENTS[tok]
            atoms.append({"base": before + letter + after})
        elif tok in NAMES:
            name, i = _argument(tex, tokens, i)
            atoms.append(name)
        elif tok in SYMBOLS:
            sign = SYMBOLS[tok]
            atoms.append({"base": sign} if sign in GREEK else sign)
        elif tok.startswith("\\"):
            _fail(tex, f"{tok} is not a command the laboratory's page draws (explorers/formulas.py)")
        elif tok.isalpha():
            atoms.append({"base": tok})
        else:
            atoms.append("−" if tok == "-" else tok)
    if not top:
        _fail(tex, "a { is never closed")
    return atoms, i


def _argument(tex: str, tokens: list[str], i: int) -> tuple[str, int]:
    """A command's or a script's argument as text: one token, or a group; and where it ended."""
    if i >= len(tokens) or tokens[i].isspace() or tokens[i] == "}":
        _fail(tex, "a command or script has no argument")
    if tokens[i] != "{":
        atoms, _ = _sequence(tex, [tokens[i]], 0, top=True)
        return _text(tex, atoms), i + 1
    atoms, i = _sequence(tex, tokens, i + 1, top=False)
    return _text(tex, atoms), i


def _text(tex: str, atoms: list) -> str:
    """Atoms as plain text (a script, a name, an accented letter): a symbol with scripts of its own is refused."""
    out = ""
    for atom in atoms:
        if isinstance(atom, dict):
            if "sub" in atom or "sup" in atom:
                _fail(tex, f"a script inside a script or name ({atom['base']!r}) is more than the page draws")
            atom = atom["base"]
        out += atom
    return out
