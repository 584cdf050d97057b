"""The run's progress file: steps and forwards so far, for the host's display while the
run is in flight. Not part of the trace.

Invariants
- At most one write per `interval_s` of wall time: the caller passes the time it already
  read, so an optimizer step costs one comparison when nothing is due.
- A write replaces the file atomically (a temporary file renamed over it): a reader sees
  the previous progress or the new one, never half of one.
- Progress never breaks a run: the first OSError turns the file off.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable


class ProgressFile:
    def __init__(self, path: str | None, interval_s: float) -> None:
        self.path = path  # None: no progress file
        self.interval_s = interval_s
        self.due = float("-inf")  # the first call writes
        self.writes = 0

    def update(self, now: float, snapshot: Callable[[], dict]) -> bool:
        """Write `snapshot()` when the last write is `interval_s` old; True when written."""
        if self.path is None or now < self.due:
            return False
        self.due = now + self.interval_s
        tmp = self.path + ".tmp"
        try:
            with open(tmp, "w") as fh:
                json.dump(snapshot(), fh)
            os.replace(tmp, self.path)
        except OSError:
            self.path = None
            return False
        self.writes += 1
        return True
