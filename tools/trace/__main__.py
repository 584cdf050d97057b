"""`python -m <tracer> CONFIG.json`: run one traced program (no warm server)."""

import json
import sys

from .runner import run_traced

if __name__ == "__main__":
    with open(sys.argv[1]) as fh:
        sys.exit(run_traced(json.load(fh)))
