"""Trainable translation models for lessons 07 and 08: GRU cells, a bidirectional encoder, attention decoders
(Bahdanau's and Luong's order) and a fixed-summary baseline, a synthetic source language with two target word
orders and known alignments, the training loop, the committed trained parameters (``trained``), the margins of
their decisions (``margins``), where their weights look when they miss (``misreads``) and the seed study's
results (``sweep``).

The models call the core (:mod:`attention_core.scores`, :mod:`attention_core.reading`,
:mod:`attention_core.gradients`) for scoring, reading and their backward passes; they never re-implement them.
"""
