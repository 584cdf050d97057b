"""The evidence log: every observation of one investigation, under an id the engine issues.

Checks, interventions, probes and checklist outcomes enter the log when a tool returns
them; the log hands back a copy with an id (E1, E2, ...). A finding cites observations
by id, and the guardrail that admits a `confirmed` finding asks the log whether each
dynamic observation it carries was issued here, with this content. Text a policy writes
itself is recorded with source `model` and can support a plausible finding only.
"""

from __future__ import annotations

from torch_investigate.tools.records import Observation


class EvidenceLog:
    def __init__(self) -> None:
        self._issued: dict[str, Observation] = {}

    def issue(self, observation: Observation) -> Observation:
        """Store an observation under the next id; one already issued keeps its id."""
        if self.genuine(observation):
            return observation
        stored = observation.model_copy(update={"id": f"E{len(self._issued) + 1}"}, deep=True)
        self._issued[stored.id] = stored
        return stored

    def get(self, observation_id: str) -> Observation | None:
        return self._issued.get(observation_id.strip())

    def genuine(self, observation: Observation) -> bool:
        """Issued by this log, and unchanged since."""
        issued = self._issued.get(observation.id) if observation.id else None
        return issued is not None and issued == observation

    def __len__(self) -> int:
        return len(self._issued)
