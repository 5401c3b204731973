"""``python -m attention_workshop.editions``: the command line (:mod:`.cli`)."""

import sys

from attention_workshop.command import run
from attention_workshop.editions.cli import PROG, main

sys.exit(run(main, PROG))
