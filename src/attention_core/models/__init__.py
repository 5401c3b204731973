"""Trainable translation models for lessons 07 and 08: GRU cells, a bidirectional encoder, one decoder built from
an order (:mod:`.orders`) and a score or the fixed-summary baseline (:mod:`.scorers`), the one registry of the designs
made of them (:mod:`.designs`), a synthetic source language
with two target word orders and known alignments, the training loop, the committed trained parameters
(``trained``), the margins of their decisions (``margins``), where their weights look when they miss
(``misreads``) and the seed study's results (``sweep``).

The models call the core (:mod:`attention_core.scores`, :mod:`attention_core.reading`,
:mod:`attention_core.gradients`) for scoring, reading and their backward passes; they never re-implement them.
"""
