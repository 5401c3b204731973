"""``python -m attention_workshop.editions``: the command line (:mod:`.cli`)."""

import sys

from attention_workshop.editions.cli import main

sys.exit(main())
