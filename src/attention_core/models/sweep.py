"""Where the length experiment of lesson 07 keeps its results, and how to read them.

``scripts/length_experiment.py`` writes the file, ``tests/test_length_experiment.py`` retrains one point of it
and lesson 07 draws it; all three take its location from here. The file lives in the repository, beside
``src/``, so it is found from an editable install (``pip install -e .``, as ``make`` installs the package).
"""

from __future__ import annotations

import json
from pathlib import Path

SWEEP_FILE = Path(__file__).resolve().parents[3] / "results" / "length_sweep.json"  # <repo>/results/...


def load_length_sweep(path: Path = SWEEP_FILE) -> dict:
    """The sweep's JSON as a dict; a clear error if the file is missing."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(
            f"no length-sweep results at {path}; run `.venv/bin/python scripts/length_experiment.py` from the "
            "repository (with the package installed editable) to produce them"
        )
    return json.loads(path.read_text())
