"""Where a trained model looks when it does not look at the true source word, by word class (lesson 07).

A target word is *misread* when the source position with its largest teacher-forced weight is not the one it
translates (``align``). For each word class of the true source word this module counts

    words      target words of the class               misread   those whose arg-max position is elsewhere
    offsets    arg-max position minus true position     lands_on  word class of the arg-max position
    right      misread words whose teacher-forced prediction is still the reference word

The last one asks whether the read still delivered the word: a determiner (la, une, chaque, cette) cannot be
guessed from the target words before it, so a misread determiner that is predicted right was read off the
annotation the model did look at (with the weight that stayed elsewhere). ``weight_true`` and ``weight_looked``
are the mean weights at the true and at the arg-max position of the misread words.
"""

from __future__ import annotations

import numpy as np

from .._validate import sentence_pairs
from . import data
from ._blas import pinned_blas
from .seq2seq import Seq2Seq

CLASSES = ("determiner", "adjective", "noun", "verb", "preposition")  # the source word classes, as data.SRC_CLASS


@pinned_blas
def misreads_by_class(model: Seq2Seq, pairs: list[data.Pair], batch_size: int = 256) -> dict[str, dict]:
    """Misread target words per class of their true source word (module docstring); attention models only.

    Returns ``{class: {"words", "misread", "share", "right", "weight_true", "weight_looked", "offsets": {offset:
    count}, "lands_on": {class: count}}}`` with ``share = misread / words``; offsets and classes sorted.
    """
    sentence_pairs(pairs, data.Pair)
    if not model.cfg.aligns:
        raise ValueError(
            "misreads_by_class needs a model whose weights name positions; the fixed-summary baseline has no weights "
            "and an encoder without positions weighs every copy of a word alike"
        )
    src_class = np.array([CLASSES.index(c) for c in data.SRC_CLASS])  # (V_src,) class index of each source id
    out = {c: {"words": 0, "misread": 0, "right": 0, "w_true": 0.0, "w_looked": 0.0, "offsets": {}, "lands_on": {}}
           for c in CLASSES}  # fmt: skip
    for batch in data.length_batches(pairs, batch_size):
        N, T = batch.src.shape
        _, probs, weights, _ = model.forward(batch)  # (N, U, V), (N, U, T)
        w = weights[:, :T, :]  # (N, T, T): target word i -> weights over source positions
        looked = w.argmax(axis=2)  # (N, T)
        true_cls = src_class[np.take_along_axis(batch.src, batch.align, axis=1)]  # (N, T)
        looked_cls = src_class[np.take_along_axis(batch.src, looked, axis=1)]  # (N, T)
        right = probs[:, :T, :].argmax(axis=2) == batch.tgt_out[:, :T]  # (N, T) teacher-forced prediction
        w_true = np.take_along_axis(w, batch.align[:, :, None], axis=2)[:, :, 0]  # (N, T)
        w_looked = w.max(axis=2)  # (N, T)
        miss = looked != batch.align  # (N, T)
        for k, name in enumerate(CLASSES):
            mine = true_cls == k
            hit = mine & miss
            rec = out[name]
            rec["words"] += int(mine.sum())
            rec["misread"] += int(hit.sum())
            rec["right"] += int((hit & right).sum())
            rec["w_true"] += float(w_true[hit].sum())
            rec["w_looked"] += float(w_looked[hit].sum())
            for off, n in zip(*np.unique((looked - batch.align)[hit], return_counts=True), strict=True):
                rec["offsets"][int(off)] = rec["offsets"].get(int(off), 0) + int(n)
            for cls, n in zip(*np.unique(looked_cls[hit], return_counts=True), strict=True):
                rec["lands_on"][CLASSES[cls]] = rec["lands_on"].get(CLASSES[cls], 0) + int(n)
    result = {}
    for name, rec in out.items():
        n, m = rec["words"], rec["misread"]
        result[name] = {
            "words": n,
            "misread": m,
            "share": m / n if n else float("nan"),
            "right": rec["right"],
            "weight_true": rec["w_true"] / m if m else float("nan"),
            "weight_looked": rec["w_looked"] / m if m else float("nan"),
            "offsets": dict(sorted(rec["offsets"].items())),
            "lands_on": {c: rec["lands_on"][c] for c in CLASSES if c in rec["lands_on"]},
        }
    return result
