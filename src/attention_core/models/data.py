"""A synthetic language pair whose true word alignment is known (lesson 07).

A toy, not a natural language. The target language is made up: invented words on French-like stems ("voit",
"riviere", "chat"), with no agreement of gender or number, so that no reader's knowledge of a real language helps or
misleads, and so that the task stays small and controlled (38 source and 40 target words, one target word per
source word). The source side has English-like word order::

    sentence    = NP VERB NP (PREP NP)*          up to MAX_PP prepositional phrases
    NP          = DET ADJ* NOUN                   0 to MAX_ADJ adjectives, none repeated

The target side translates word for word with its own vocabulary (French-like spellings) and one
deterministic reordering inside every noun phrase: the noun moves in front of its adjectives and the adjectives
come out in reverse order, as "European Economic Area" becomes "zone économique européenne"::

    the european economic area  ->  la zone economique europeenne

Because every target word comes from exactly one source word, the source position each target token should
be read from is known (``align``), and alignment accuracy can be measured. The model never sees ``align``.

Two target languages share that source grammar, the vocabularies and the noun-phrase rule (``LANGUAGES``):

    "svo"          lesson 07's: every phrase stays where it is (subject, verb, object, the prepositional phrases)
    "verb_final"   the verb moves to the end and the prepositional phrases come in reverse order:
                   NP_subj NP_obj (PREP NP)_k .. (PREP NP)_1 VERB

    the cat sees the house near the red river   ->  svo:         la chat voit la maison pres la riviere rouge
                                                    verb_final:  la chat la maison pres la riviere rouge voit

so in the verb-final language the true alignment jumps across the whole sentence, far from the diagonal. The
sampler draws the same random numbers for both: one seed gives the same source sentences (and the same splits)
in either language, only the targets and alignments differ.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import integer, one_of

# (source word, target word) pairs by part of speech; the translation is one to one.
DETERMINERS = (("the", "la"), ("a", "une"), ("every", "chaque"), ("this", "cette"))
ADJECTIVES = (
    ("european", "europeenne"), ("economic", "economique"), ("red", "rouge"), ("big", "grande"),
    ("old", "vieille"), ("small", "petite"), ("green", "verte"), ("quiet", "calme"),
    ("dark", "sombre"), ("new", "neuve"), ("cold", "froide"), ("happy", "heureuse"),
)  # fmt: skip
NOUNS = (
    ("area", "zone"), ("cat", "chat"), ("house", "maison"), ("river", "riviere"), ("city", "ville"),
    ("car", "voiture"), ("garden", "jardin"), ("teacher", "prof"), ("bird", "pie"), ("book", "page"),
    ("child", "fille"), ("road", "route"),
)  # fmt: skip
VERBS = (("sees", "voit"), ("likes", "aime"), ("follows", "suit"), ("finds", "trouve"), ("paints", "peint"))
PREPOSITIONS = (("near", "pres"), ("behind", "derriere"), ("with", "avec"), ("under", "sous"), ("from", "de"))
MAX_ADJ = 3  # adjectives per noun phrase: 0..MAX_ADJ
MAX_PP = 5  # prepositional phrases per sentence: 0..MAX_PP
MAX_LEN = 30  # longest source sentence kept, in tokens
BOS, EOS = "<s>", "</s>"  # target start symbol y_0 and end symbol
LANGUAGES = ("svo", "verb_final")  # target word orders (module docstring); "svo" is lesson 07's
# Lesson 09's word-order probe: one sentence and the same words in another order (the subject and the object
# swapped), which mean different things. Source words, the same in every edition (data that data.parse reads).
WORD_ORDER_PROBE = (("the", "cat", "sees", "the", "bird"), ("the", "bird", "sees", "the", "cat"))

_GROUPS = (DETERMINERS, ADJECTIVES, NOUNS, VERBS, PREPOSITIONS)
SRC_WORDS = tuple(s for group in _GROUPS for s, _ in group)  # source vocabulary, id = index
TGT_WORDS = (BOS, EOS) + tuple(t for group in _GROUPS for _, t in group)  # target vocabulary, id = index
BOS_ID, EOS_ID = 0, 1
_CLASSES = ("determiner", "adjective", "noun", "verb", "preposition")  # part of speech of each group
SRC_CLASS = tuple(cls for group, cls in zip(_GROUPS, _CLASSES, strict=True) for _ in group)  # by source id
TRANSLATE = {s: t for group in _GROUPS for s, t in group}
_SRC_ID = {w: i for i, w in enumerate(SRC_WORDS)}
_TGT_ID = {w: i for i, w in enumerate(TGT_WORDS)}


@dataclass(frozen=True)
class Pair:
    """One sentence pair: token ids and the true alignment."""

    src: np.ndarray  # (T,) source token ids
    tgt: np.ndarray  # (T,) target token ids, without start and end symbols
    align: np.ndarray  # (T,) align[i] = source position that target token i translates

    def words(self) -> tuple[list[str], list[str]]:
        """The source and target sentences as words."""
        return [SRC_WORDS[i] for i in self.src], [TGT_WORDS[i] for i in self.tgt]


class Draws:
    """Uniform integers from a seeded generator, drawn from numpy in blocks and handed out one at a time.

    The sampler below needs about 30 small random integers per sentence; asking numpy for each one costs more
    than the grammar itself, so the uniforms come in blocks of ``block`` and ``integer(n)`` maps one to
    ``floor(u n)``. The stream is fixed by the generator's seed.
    """

    def __init__(self, rng: np.random.Generator, block: int = 8192):
        self.rng, self.block = rng, block
        self._u: list[float] = []

    def integer(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if not self._u:
            self._u = self.rng.random(self.block).tolist()[::-1]
        return int(self._u.pop() * n)


def _noun_phrase(draw: Draws) -> tuple[list[str], list[int]]:
    """Source words of one NP and the order in which the target emits them (indices into the NP)."""
    k = draw.integer(MAX_ADJ + 1)
    pool = list(range(len(ADJECTIVES)))
    adjs = [ADJECTIVES[pool.pop(draw.integer(len(pool)))][0] for _ in range(k)]  # k distinct adjectives
    words = [DETERMINERS[draw.integer(len(DETERMINERS))][0], *adjs, NOUNS[draw.integer(len(NOUNS))][0]]
    order = [0, k + 1, *range(k, 0, -1)]  # DET, NOUN, ADJ_k ... ADJ_1
    return words, order


def sample_sentence(draw: Draws, language: str = "svo") -> tuple[list[str], list[str], list[int]]:
    """Sample one source sentence; return source words, target words and the alignment (target -> source).

    ``language`` (one of :data:`LANGUAGES`) decides the order in which the target emits the phrases; the source
    sentence, and the random numbers drawn for it, do not depend on it.
    """
    one_of(language, "language", LANGUAGES)
    while True:
        phrases = [_noun_phrase(draw), ([VERBS[draw.integer(len(VERBS))][0]], [0]), _noun_phrase(draw)]
        for _ in range(draw.integer(MAX_PP + 1)):
            phrases.append(([PREPOSITIONS[draw.integer(len(PREPOSITIONS))][0]], [0]))
            phrases.append(_noun_phrase(draw))
        src: list[str] = []
        starts: list[int] = []  # source position of each phrase's first word
        for words, _ in phrases:
            starts.append(len(src))
            src.extend(words)
        if len(src) <= MAX_LEN:
            align = [starts[k] + i for k in _phrase_order(len(phrases), language) for i in phrases[k][1]]
            return src, [TRANSLATE[src[j]] for j in align], align


def _phrase_order(n_phrases: int, language: str) -> list[int]:
    """Indices of the source phrases (subject NP, verb, object NP, then PREP, NP pairs) in target order."""
    if language == "svo":
        return list(range(n_phrases))  # each phrase translated in place, reordered inside itself
    pps = [[k, k + 1] for k in range(3, n_phrases, 2)]  # (PREP, NP) pairs, in source order
    return [0, 2, *(k for pp in reversed(pps) for k in pp), 1]  # verb_final: NP NP PP_k .. PP_1 VERB


def encode(src: list[str], tgt: list[str], align: list[int]) -> Pair:
    """Token ids of a sentence pair."""
    return Pair(
        np.array([_SRC_ID[w] for w in src], dtype=np.int64),
        np.array([_TGT_ID[w] for w in tgt], dtype=np.int64),
        np.array(align, dtype=np.int64),
    )


@dataclass(frozen=True)
class Splits:
    """Disjoint train, validation and test sets (no source sentence occurs in two of them)."""

    train: list[Pair]
    valid: list[Pair]
    test: list[Pair]


def make_splits(
    seed: int = 0, n_train: int = 20000, n_valid: int = 500, n_test: int = 2000, language: str = "svo"
) -> Splits:
    """Sample distinct sentence pairs with ``np.random.default_rng(seed)``: test first, then valid, then train.

    ``language`` picks the target word order (:data:`LANGUAGES`); the source sentences of every split are the
    same for every language. About 0.3 s for the lesson's 22,500 pairs."""
    for name, n, low in (("seed", seed, 0), ("n_train", n_train, 1), ("n_valid", n_valid, 1), ("n_test", n_test, 1)):
        integer(n, name, low)
    one_of(language, "language", LANGUAGES)
    draw = Draws(np.random.default_rng(seed))
    seen: set[tuple[str, ...]] = set()
    pairs: list[Pair] = []
    while len(pairs) < n_test + n_valid + n_train:
        src, tgt, align = sample_sentence(draw, language)
        if tuple(src) not in seen:
            seen.add(tuple(src))
            pairs.append(encode(src, tgt, align))
    return Splits(pairs[n_test + n_valid :], pairs[n_test : n_test + n_valid], pairs[:n_test])


@dataclass(frozen=True)
class Batch:
    """Sentence pairs of one source length, stacked without padding (target length is ``T + 1``)."""

    src: np.ndarray  # (N, T) source ids
    tgt_in: np.ndarray  # (N, U) decoder inputs y_0 .. y_{U-1}, with y_0 the start symbol; U = T + 1
    tgt_out: np.ndarray  # (N, U) targets y_1 .. y_U, ending with the end symbol
    align: np.ndarray  # (N, T) true source position of each target word (the end symbol has none)


def stack(pairs: list[Pair]) -> Batch:
    """Stack pairs that share a source length into a :class:`Batch`."""
    lengths = {len(p.src) for p in pairs}
    if len(lengths) != 1:
        raise ValueError(f"a batch holds one source length, got lengths {sorted(lengths)}")
    tgt = np.stack([p.tgt for p in pairs])  # (N, T)
    N = tgt.shape[0]
    return Batch(
        src=np.stack([p.src for p in pairs]),
        tgt_in=np.concatenate([np.full((N, 1), BOS_ID), tgt], axis=1),
        tgt_out=np.concatenate([tgt, np.full((N, 1), EOS_ID)], axis=1),
        align=np.stack([p.align for p in pairs]),
    )


def length_batches(pairs: list[Pair], batch_size: int, rng: np.random.Generator | None = None) -> list[Batch]:
    """Group pairs by source length and cut each group into batches of at most ``batch_size`` (no padding).

    With ``rng`` the pairs are shuffled within each length and the batches are shuffled; without it the
    order is fixed (for evaluation).
    """
    by_length: dict[int, list[int]] = {}
    for i, p in enumerate(pairs):
        by_length.setdefault(len(p.src), []).append(i)
    batches = []
    for length in sorted(by_length):
        idx = np.array(by_length[length])
        if rng is not None:
            idx = rng.permutation(idx)
        batches += [stack([pairs[i] for i in idx[k : k + batch_size]]) for k in range(0, len(idx), batch_size)]
    if rng is not None:
        batches = [batches[i] for i in rng.permutation(len(batches))]
    return batches


# --- reading a sentence someone typed ------------------------------------------------------------------------
SRC_CLASS_OF = dict(zip(SRC_WORDS, SRC_CLASS, strict=True))  # source word -> part of speech
END = "end"  # in next_classes(): the sentence may end here


class SentenceError(ValueError):
    """A source sentence outside the toy language: which word, where, and what the grammar allows there.

    ``kind``: ``"unknown"`` (not a source word), ``"order"`` (a word of the wrong part of speech),
    ``"repeat"`` (an adjective twice in one noun phrase), ``"adjectives"`` (more than ``MAX_ADJ``),
    ``"phrases"`` (more than ``MAX_PP`` prepositional phrases), ``"length"`` (more than ``MAX_LEN`` tokens),
    ``"unfinished"`` (the sentence stops where the grammar needs more) or ``"empty"``. ``position`` is the
    0-based index of the offending word (the length for ``"unfinished"``), ``word`` the word (or ``""``),
    ``allowed`` the parts of speech (and :data:`END`) the grammar accepts at that position.
    """

    def __init__(self, kind: str, position: int, word: str, allowed: tuple[str, ...]):
        self.kind, self.position, self.word, self.allowed = kind, position, word, tuple(allowed)
        super().__init__(f"{kind} at word {position + 1} ({word!r}): the grammar allows {', '.join(allowed) or '-'}")


def _state_after(words: list[str]):
    """Walk the grammar over ``words``; return the parser state, or raise :class:`SentenceError`."""
    nps, pps, adjs, expect = 0, 0, [], ("determiner",)  # expect: the classes allowed next
    for i, word in enumerate(words):
        if i >= MAX_LEN:
            raise SentenceError("length", i, word, ())
        cls = SRC_CLASS_OF.get(word)
        allowed = tuple(c for c in expect if c != END)
        if cls is None:
            raise SentenceError("unknown", i, word, expect)
        if cls not in expect:
            if cls == "adjective" and len(adjs) == MAX_ADJ and expect == ("noun",):
                raise SentenceError("adjectives", i, word, expect)
            if cls == "preposition" and pps == MAX_PP and nps >= 2:
                raise SentenceError("phrases", i, word, expect)
            raise SentenceError("order", i, word, expect)
        if cls == "adjective" and word in adjs:
            raise SentenceError("repeat", i, word, allowed)
        if cls == "determiner":
            adjs, expect = [], ("adjective", "noun")
        elif cls == "adjective":
            adjs.append(word)
            expect = ("adjective", "noun") if len(adjs) < MAX_ADJ else ("noun",)
        elif cls == "noun":
            nps += 1
            expect = ("verb",) if nps == 1 else (("preposition", END) if pps < MAX_PP else (END,))
        elif cls == "verb":
            expect = ("determiner",)
        else:  # preposition
            pps += 1
            expect = ("determiner",)
    return expect, nps


def _shortest_rest(cls: str, nps: int) -> int:
    """Fewest tokens that must follow a word of class ``cls`` (``nps`` noun phrases finished before it)."""
    first = 3 if nps == 0 else 0  # the first noun phrase still needs VERB DET NOUN after it
    return {"determiner": 1 + first, "adjective": 1 + first, "noun": first, "verb": 2, "preposition": 2}.get(cls, 0)


def next_classes(words: list[str]) -> tuple[str, ...]:
    """The parts of speech the grammar allows after the prefix ``words`` (and :data:`END` where it may stop).

    A class is offered only if a sentence of at most ``MAX_LEN`` tokens can still be finished after it. Raises
    :class:`SentenceError` if ``words`` is not the beginning of a sentence of the toy language.
    """
    expect, nps = _state_after(list(words))
    return tuple(c for c in expect if c == END or len(words) + 1 + _shortest_rest(c, nps) <= MAX_LEN)


def parse(words: list[str]) -> Pair:
    """A typed source sentence as a :class:`Pair`: its ids, the grammar's translation and the true alignment.

    ``words`` is a list of source words (``"the big cat sees a bird".split()``). Raises :class:`SentenceError`
    naming the first word the grammar does not accept and what it accepts there.
    """
    words = list(words)
    if not words:
        raise SentenceError("empty", 0, "", ("determiner",))
    expect, _ = _state_after(words)
    if END not in expect:
        raise SentenceError("unfinished", len(words), "", expect)
    align: list[int] = []
    start = 0
    while start < len(words):  # the phrases: an NP (DET ADJ* NOUN) or a single verb or preposition
        if SRC_CLASS_OF[words[start]] == "determiner":
            end = next(j for j in range(start, len(words)) if SRC_CLASS_OF[words[j]] == "noun") + 1
            k = end - start - 2  # adjectives
            align.extend(start + i for i in [0, k + 1, *range(k, 0, -1)])  # DET, NOUN, ADJ_k ... ADJ_1
        else:
            end = start + 1
            align.append(start)
        start = end
    return encode(words, [TRANSLATE[words[j]] for j in align], align)
