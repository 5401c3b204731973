r"""The registry of designs: every design of the translation model that the book trains, compares or offers, once.

A design chooses the parts of lesson 07's encoder–decoder: the encoder (today lesson 07's bidirectional GRU,
:mod:`.encoder`), the decoder's order (:data:`.orders.ORDERS`: does a step read before or after its state update?)
and its score, or none, the fixed summary (:data:`.scorers.SCORES`). Each :class:`Design` of :data:`REGISTRY` has

- ``name``, how the seed study, the website's laboratory, the lessons and the benches call it ("attention",
  "Luong", ...);
- its parts, which give its :class:`~.seq2seq.ModelConfig` fields (:meth:`Design.fields`) and the formulas of one
  decoder step in TeX, in the order the step computes them (:attr:`Design.formulas`, made from the parts' own
  ``tex``, ``query_tex``, ``update_tex`` and ``output_tex``);
- ``label``, the key of its menu label in the website's labels (``attention_core.explorers.site.LABELS``), or None
  for its parts' names (their own ``label`` keys: "Bahdanau, additive score");
- whether the seed study trains it (``study``), the laboratory offers it (``lab``) and a committed model has it
  (``committed``).

The rest derives from :data:`REGISTRY`: the seed study's designs (:data:`.sweep.DESIGNS`, the names and fields
``results/seed_study.json`` records), the laboratory's exported data, its design menu and its step panel's
equations (``attention_core.explorers.site.lab_data``), the lab's bench (``attention_workshop.bench_lab``) and the
tests. The website's laboratory computes with a second implementation of the parts, ``book/_assets/lab/scorers.js``,
``orders.js``, ``seq2seq.js`` and ``positions.js``, whose ``SCORES``, ``ORDERS``, ``ENCODERS`` and ``POSITIONS``
``tests/site/test_lab_parts.py`` holds equal to the package's.
CONTRIBUTING.md ("Adding a score") says which files a new score touches, in which order.

Lesson 09 replaces the encoder by self-attention layers (:data:`~.seq2seq.ENCODERS`), with or without position
information (``positions``) and with the values tied to the keys or not (``tied``); :meth:`Design.fields` names
them for a design that does not use the recurrent encoder. The decoder stays lesson 07's.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Template

from .._validate import one_of, require
from .orders import ORDERS
from .positions import POSITIONS
from .scorers import SCORES, FixedSummary
from .seq2seq import ENCODERS, ModelConfig

RECURRENT, SELF_ATTENTION = "recurrent", "self_attention"  # names of ENCODERS

# The seed study's names of the designs of lessons 07 and 08 (lessons and tests read the study by these).
ATTENTION, FIXED_SUMMARY, GENERAL_SCORE, LUONG = "attention", "fixed summary", "general score", "Luong"
LUONG_ADDITIVE = "Luong, additive score"  # offered by the laboratory only: the reader trains it
# Lesson 09's: lesson 07's attention model with an encoder of self-attention layers instead of the recurrent one.
SELF_ATTENTION_DESIGN = "self-attention"  # with sinusoidal positions and separate keys and values
NO_POSITIONS = "self-attention, no positions"  # the same, told nothing about the order of the words
TIED = "self-attention, tied keys and values"  # the same, reading back the vectors it matched (v_j = k_j)


@dataclass(frozen=True)
class Design:
    """One design: its name, its parts, its menu label's key, and who uses it (the module's docstring)."""

    name: str  # the study's, the laboratory's and the lessons' name for it
    order: str  # a key of orders.ORDERS: "bahdanau" reads with s_{t-1}, then updates; "luong" updates, then reads
    score: str | None  # a key of scorers.SCORES; None: no score, every step reads the fixed summary m
    label: str | None = None  # the key of its menu label in explorers/site.LABELS; None: its parts' names
    study: bool = False  # the seed study trains it (results/seed_study.json, models/sweep.py)
    lab: bool = False  # the website's laboratory offers it (lessons 07 to 09)
    committed: bool = False  # a committed model has it (models/trained/)
    encoder: str = RECURRENT  # a name of seq2seq.ENCODERS
    positions: str = ModelConfig.positions  # the self-attention encoder's: a name of positions.POSITIONS
    tied: bool = ModelConfig.tied  # the self-attention encoder's layers read back their keys

    def __post_init__(self):
        require(isinstance(self.name, str) and self.name.strip() == self.name != "", f"a design's name must be a "
                f"non-empty str without surrounding spaces, got {self.name!r}")  # fmt: skip
        one_of(self.order, "order", sorted(ORDERS))
        if self.score is not None:
            one_of(self.score, "score", sorted(SCORES))
        one_of(self.encoder, "encoder", list(ENCODERS))
        one_of(self.positions, "positions", sorted(POSITIONS))
        require(isinstance(self.tied, bool), f"design {self.name!r}: tied must be True or False, got {self.tied!r}")
        require(self.encoder == SELF_ATTENTION or (self.positions, self.tied) == (ModelConfig.positions, False),
                f"design {self.name!r}: positions and tied are the self-attention encoder's")  # fmt: skip
        require(self.label is None or isinstance(self.label, str) and self.label != "",
                f"design {self.name!r}: label must be a label key or None, got {self.label!r}")  # fmt: skip

    def fields(self) -> dict:
        """The :class:`~.seq2seq.ModelConfig` fields that choose its parts (the rest is the lesson-07 recipe); the
        fixed summary in the default order names no order and no score, as the seed study records it."""
        fields: dict = {"attention": self.score is not None}
        if self.score is not None or self.order != ModelConfig.order:
            fields["order"] = self.order
        if self.score is not None:
            fields["score"] = self.score
        if self.encoder != RECURRENT:
            fields["encoder"] = self.encoder
            if self.positions != ModelConfig.positions:
                fields["positions"] = self.positions
            if self.tied:
                fields["tied"] = True
        return fields

    def config(self, **sizes) -> ModelConfig:
        """Its :class:`~.seq2seq.ModelConfig`, with ``sizes`` (``d_emb=6``, ``dtype="float64"``, ...) for the rest."""
        return ModelConfig(**self.fields(), **sizes)

    @property
    def aligns(self) -> bool:
        """Whether its weights name source positions (:attr:`~.seq2seq.ModelConfig.aligns`): alignment accuracy and
        misreads are counted for it."""
        return self.config().aligns

    def parts(self) -> tuple[type, type]:
        """Its order's and its score's classes (:class:`~.scorers.FixedSummary` for no score)."""
        return ORDERS[self.order], FixedSummary if self.score is None else SCORES[self.score]

    @property
    def formulas(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """One decoder step in TeX, in the order the step computes it: ``(what, formulas)`` pairs, ``what`` one of
        "scores", "weights", "context" (a score's read) or "summary" (the fixed summary's), "update", "output".

        The score gives its read for the state its order reads with (``query_tex``); the order its update and its
        output, naming what was read (the score's ``context_tex``), and whether the read comes first."""
        order, score = self.parts()
        read = tuple((what, (tex,)) for what, tex in score.read_tex(order.query_tex))
        c = score.context_tex
        update = ("update", (Template(order.update_tex).substitute(c=c),))
        output = ("output", tuple(Template(tex).substitute(c=c) for tex in order.output_tex))
        return (*read, update, output) if order.reads_first else (update, *read, output)


# Every design, in the order the study, the laboratory's menu and the benches list them: lesson 07's two, then
# lesson 08's (its Bahdanau design is lesson 07's attention model), then the one only the laboratory offers, then
# lesson 09's three (lesson 07's attention model with an encoder of self-attention layers).
REGISTRY = (
    Design(ATTENTION, "bahdanau", "additive", "lab_design_additive_bahdanau", study=True, lab=True, committed=True),
    Design(FIXED_SUMMARY, "bahdanau", None, "lab_design_fixed", study=True, lab=True, committed=True),
    Design(GENERAL_SCORE, "bahdanau", "general", "lab_design_general_bahdanau", study=True, lab=True, committed=True),
    Design(LUONG, "luong", "general", "lab_design_general_luong", study=True, lab=True, committed=True),
    Design(LUONG_ADDITIVE, "luong", "additive", "lab_design_additive_luong", lab=True),
    Design(SELF_ATTENTION_DESIGN, "bahdanau", "additive", "lab_design_self_attention", study=True, lab=True,
           committed=True, encoder=SELF_ATTENTION),
    Design(NO_POSITIONS, "bahdanau", "additive", "lab_design_no_positions", study=True, lab=True, committed=True,
           encoder=SELF_ATTENTION, positions="none"),
    Design(TIED, "bahdanau", "additive", "lab_design_tied", study=True, lab=True, encoder=SELF_ATTENTION, tied=True),
)  # fmt: skip


def where(*, study: bool | None = None, lab: bool | None = None, committed: bool | None = None) -> list[Design]:
    """The designs of :data:`REGISTRY` (read when called), in its order; with ``study``, ``lab`` or ``committed``,
    only those whose flag has that value."""
    wanted = {"study": study, "lab": lab, "committed": committed}
    return [d for d in REGISTRY if all(v is None or getattr(d, k) is v for k, v in wanted.items())]


def named(name: str) -> Design:
    """The design called ``name``."""
    found = [d for d in REGISTRY if d.name == name]
    require(len(found) == 1, lambda: f"design must be one of {[d.name for d in REGISTRY]}, got {name!r}")
    return found[0]


def of_config(cfg: ModelConfig) -> Design:
    """The design whose parts ``cfg`` has (its sizes and dtype aside)."""
    own = (cfg.encoder, cfg.positions, cfg.tied) if cfg.encoder != RECURRENT else (RECURRENT,)
    found = [
        d
        for d in REGISTRY
        if (d.score is not None, d.order) == (cfg.attention, cfg.order)
        and (d.encoder, d.positions, d.tied)[: len(own)] == own
        and (d.score is None or d.score == cfg.score)
    ]
    require(len(found) == 1, lambda: f"no single design has the parts of {cfg} (found {[d.name for d in found]})")
    return found[0]
