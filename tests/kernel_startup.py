"""Run by every notebook kernel the test gate starts (an IPython startup file; the root conftest.py installs it).

It makes lesson 07's ``train`` read back a run this machine already made (tests/run_cache.py); a reader's kernel
never runs it.
"""

from tests.run_cache import install

install()
