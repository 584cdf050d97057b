"""A real model's session, recorded through `llm_bridge.py` (one `resp-NNNN.json` per
request, the digests `req-NNNN.txt` it answered beside them), replayed as a script.

The recorded answers are the model's own; only the evidence ids it cites are remapped:
an id a tool issued during the recording (`recorded as observation E46`) is replaced by
the id the same call issued in this run, by position, so the replay does not depend on
how many observations the planner's walk happened to log before it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fakellm.server import Reply, Request, call

ISSUED = re.compile(r"recorded as observation (E\d+)")


class RecordedSession:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.answers = [json.loads(p.read_text()) for p in sorted(folder.glob("resp-*.json"))]
        recorded: list[str] = []
        for p in sorted(folder.glob("req-*.txt")):
            for eid in ISSUED.findall(p.read_text()):
                if eid not in recorded:
                    recorded.append(eid)
        self.recorded = recorded  # ids the tools issued during the recording, in order

    def script(self) -> list:
        return [self._step(answer) for answer in self.answers]

    def _step(self, answer: dict):
        def reply(request: Request) -> Reply:
            issued: list[str] = []
            for m in request.messages:
                if m["role"] == "tool":
                    issued += [e for e in ISSUED.findall(m.get("content") or "") if e not in issued]
            ids = dict(zip(self.recorded, issued, strict=False))
            text = json.dumps(answer)
            text = re.sub(r"\bE\d+\b", lambda m: ids.get(m.group(0), m.group(0)), text)
            now = json.loads(text)
            calls = [call(c["name"], **c["arguments"]) for c in now.get("tool_calls") or []]
            return Reply(content=now.get("content"), tool_calls=calls)

        return reply
