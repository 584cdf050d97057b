"""What the stages establish for the rest of an investigation: the symptom and why the
training path could not run (stage 1), the fixed-batch fits per learning-rate scale and
the units that died during training (stage 8).

A stage's checks return them with their evidence (`Evidence.facts`, which starts as a
copy of what earlier stages returned); the toolbox records what a stage returned on the
session (`Session.facts`) and the symptom on the protocol, for its guardrails. Later
stages, the conclusion and the report read them from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from torch_investigate.tools.sandbox import Failure
from torch_investigate.tools.tracefile.records import Activation

# a fixed-batch fit at one learning-rate scale: (first loss, settled loss, diverged)
Fit = tuple[float | None, float | None, bool]


@dataclass
class StageFacts:
    # stage 1
    symptom: str | None = None  # a taxonomy symptom id: what stage 1 read from the run
    symptom_evidence: str = ""  # the curve in words, as stage 1 read it
    # a run of several phases (an optimizer rebuilt, a warm-up): each phase's symptom
    phase_symptoms: tuple[str, ...] = ()
    chance: float | None = None  # the first loss an uninformed classifier would show
    failure: Failure | None = None  # the sandbox's failure when the path could not run
    # stage 2: the pairing test could not run because no reference fit learned the pool
    # (real pairs fit no better than shuffled ones): labels and capacity look alike there
    pairs_unfit: str | None = None
    # stage 8
    fixed_batch_fits: dict[float, Fit] = field(default_factory=dict)  # lr scale -> fit
    late_dead: tuple[Activation, str] | None = None  # units that died during training

    def copy(self) -> StageFacts:
        return replace(self, fixed_batch_fits=dict(self.fixed_batch_fits))
