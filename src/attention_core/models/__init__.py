"""Trainable translation models for lesson 07: GRU cells, a bidirectional encoder, an attention decoder and a
fixed-summary baseline, a synthetic language pair with known alignments, and the training loop.

The models call the core (:mod:`attention_core.scores`, :mod:`attention_core.reading`,
:mod:`attention_core.gradients`) for scoring, reading and their backward passes; they never re-implement them.
"""
