"""The workshop of *Attention, executable*: the code that builds, translates, prints, studies and measures the book.

It works on a checkout of the repository (:data:`paths.ROOT`) and is installed beside the product,
``attention_core``, by ``pip install -e .`` (every ``make`` target does it). Each command is a module with a
``main()``, run as ``python -m attention_workshop.<module>``:

- ``editions``: the translated editions, generated from the English and the PO files in ``locale/``;
- ``build_book`` and ``build_pdf``: the website (every edition) and its PDFs; the Sphinx extensions the build loads
  (``_config.yml``) are ``ae_math`` (formulas), ``ae_twins`` (the live explorers), ``ae_code`` (highlighted code),
  ``ae_assets`` (each page's scripts, figures as files, served scripts minified), ``theme_edits`` (every edit of the
  theme's output), ``ae_lang`` (the language switch) and ``ae_seo`` (descriptions, Open Graph and sitemap settings;
  the finished site's alternates and compressed copies); ``gemm_wasm`` regenerates the laboratory's compiled
  product; ``chromium`` finds the browser the PDFs and the benchmarks drive;
- ``seed_study``, ``train_committed``, ``kernel_drift``: the trained models' study, committed parameters and drift;
- ``bench`` and ``bench_*``: the benchmark figures (``make bench``).

The product never imports the workshop (``tests/core/test_layers.py`` runs the import contracts of
``pyproject.toml``).
"""
