# One command for each job. Every target creates .venv and installs what it needs on first use.
# make book     regenerate the other editions if their sources changed, then build the website into _build/html
#               and print each edition to a PDF in _build/pdf (SITE_URL=https://... gives the site's public address
#               the PDFs link to; default: html: baseurl: in _config.yml)
# make editions merge the English into the translation files (report missing/stale), regenerate each edition
#               (zh/, fr/, ... as locale/editions.toml lists them), execute every generated notebook that has no
#               outputs or whose code or package messages changed since it was executed (its stamp says)
# make test     run every check: lint, unit and property tests, strict nbval, the -W build, browser tests
# make check    the inner loop (about a minute): lint, unit and property tests; no notebooks, build, browser or Node.js
# make lab      open the lessons of every edition in JupyterLab with working widgets (installs only what the
#               lessons need: pyproject.toml's `lab` extra)
# make lab-test drive those lessons in that JupyterLab from a headless browser (CI runs it after make test)
# make execute  re-run every notebook of every edition in place and store it as JupyterLab saves it (no widget
#               state: an explorer's stored output is a note to run its cell)
# make bench    print the benchmark figures (Lighthouse included)
# make durations  measure each unit of work's seconds again into tests/durations.json (the order make test uses)
# make serve    serve _build/html at http://127.0.0.1:8000/ with its precompressed files

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Every edition's folders and notebooks, from the one list (locale/editions.toml), read when a recipe runs.
FOLDERS = $$($(BIN)/python -m attention_workshop.paths folders)
ALL_NOTEBOOKS = $$($(BIN)/python -m attention_workshop.paths notebooks)

.PHONY: book test check lab lab-test execute bench assets clean editions serve catalogues

# Installed: the packages, then the package's message catalogues compiled (PO -> .mo, read by attention_core.lang;
# the .mo files are build products, not committed). A PO file newer than its .mo is compiled again; pip runs again
# only when requirements.txt or pyproject.toml changes.
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard src/attention_core/locale/*/LC_MESSAGES/attention_core.po))
# The install the catalogues are compiled after (both bring Babel): the whole toolchain, or `make lab`'s reader's
# install, which compiles them with PACKAGES=$(BIN)/.lab.
PACKAGES = $(BIN)/.packages

$(BIN)/.installed: $(BIN)/.packages $(CATALOGUES)
	touch $@

$(BIN)/.packages: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet -e .
	touch $@

# A reader's install (make lab): only what the lessons need, pyproject.toml's `lab` extra (numpy, matplotlib,
# ipywidgets, mplfonts, Babel, JupyterLab) and the book's two packages, not requirements.txt's build and test
# toolchain. pip says what it fetches and installs as it goes. Over a full install it adds JupyterLab.
$(BIN)/.lab: pyproject.toml
	@echo "make lab: installing what the lessons need into $(VENV)/: numpy, matplotlib, ipywidgets, JupyterLab and the"
	@echo "book's package, attention_core (about 530 MB in a fresh .venv; the build and test tools are left out)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install -e '.[lab]'
	touch $@

catalogues: $(CATALOGUES)

# Compiled beside, then renamed: a compile stopped half-way leaves no .mo newer than its PO file (attention_core.files).
src/attention_core/locale/%/LC_MESSAGES/attention_core.mo: src/attention_core/locale/%/LC_MESSAGES/attention_core.po $(PACKAGES)
	$(BIN)/pybabel --quiet compile --input-file $< --output-file $(@D)/.$(@F).tmp && mv $(@D)/.$(@F).tmp $@

assets: _vendor/.versions

_vendor/.versions: scripts/fetch_assets.sh
	bash scripts/fetch_assets.sh

editions: $(BIN)/.installed
	-$(BIN)/python -m attention_workshop.editions update
	$(BIN)/python -m attention_workshop.editions generate
	$(BIN)/python -m attention_workshop.editions execute

book: $(BIN)/.installed assets editions
	$(BIN)/python -m attention_workshop.build_book $(if $(SITE_URL),--site-url "$(SITE_URL)")
	$(BIN)/python -m attention_workshop.build_pdf $(if $(SITE_URL),--site-url "$(SITE_URL)")
	@echo "Open _build/html/index.html (each other edition: _build/html/<code>/index.html, e.g. zh/, fr/), or serve it compressed: make serve"

# The gate's run: every test and notebook, a file, a notebook or an xdist_group to a process, the longest first
# (the seconds in tests/durations.json; the root conftest.py). `make durations` is the same run measuring those
# seconds again into tests/durations.json: run it when a unit is added (tests/test_gate.py fails on a unit the file
# does not list) or when the slowest units change (make test prints the 30 slowest tests).
GATE = tests $(FOLDERS) --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg \
	-n auto --dist loadgroup --no-loadscope-reorder
# The tests run with Python's byte-code caches on (under __pycache__, ignored by git) even where the environment
# turns them off (PYTHONDONTWRITEBYTECODE): each process of a run (the xdist workers, every notebook's kernel, the
# commands the tests start) otherwise compiles the repository's modules again, and pytest rewrites every test
# module again (3 of the 6 CPU-seconds a worker takes to collect make check's tests).
PYTEST = PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest

test: $(BIN)/.installed assets
	$(PYTEST) $(GATE) --durations=30

.PHONY: durations
durations: $(BIN)/.installed assets
	$(PYTEST) $(GATE) --record-durations

# The inner loop needs Python alone: no build, browser, Node.js or fetched assets (the `site` tests need them); the
# `slow` tests (retraining, whole-site scans, real processes it has one of, every edition or model again, every
# figure: the root conftest.py) wait for `make test`. 3,536 tests, about a minute on two quiet cores.
check: $(BIN)/.installed
	$(PYTEST) tests -m "not slow and not site" -q -n auto --dist loadgroup --no-loadscope-reorder

execute: $(BIN)/.installed
	$(BIN)/python -m attention_workshop.execute $(ALL_NOTEBOOKS)

lab: $(BIN)/.lab
	@$(MAKE) --no-print-directory catalogues PACKAGES=$(BIN)/.lab
	$(BIN)/python -m attention_workshop.lab

# The lessons in the JupyterLab `make lab` installs, driven by a headless browser (tests/lab): every edition read
# without running, Run All, the explorer against the package, save, reopen, a new kernel, a kernel restarted. Run by
# CI after make test.
lab-test: $(BIN)/.installed $(BIN)/.lab
	$(BIN)/python -m pytest tests/lab -m lab -p no:randomly

bench: $(BIN)/.installed
	$(BIN)/python -m attention_workshop.bench

# The built site at http://127.0.0.1:8000/, each file's .br or .gz copy sent to a browser that accepts it.
serve: $(BIN)/.installed
	$(BIN)/python -m attention_workshop.serve _build/html --port 8000

clean:
	rm -rf _build
