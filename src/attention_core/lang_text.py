"""Every sentence the package writes for a reader, in English and Chinese (see :mod:`attention_core.lang`).

One entry per sentence: ``KEY: {"en": ..., "zh": ...}``, with the same ``{placeholders}`` in both. The Chinese
follows the terms of ``book/glossary.md``.
"""

from __future__ import annotations

TEXT: dict[str, dict[str, str]] = {}
