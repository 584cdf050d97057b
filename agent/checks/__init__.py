"""Stage checks. Importing this package registers every stage's checks (see base.py)."""

from torch_investigate.agent.checks import (  # noqa: F401
    autograd,
    capacity,
    data,
    data_holdout,
    data_pairing,
    forward,
    loss,
    modes,
    optimization,
    optimizer,
    optimizer_rates,
    pairing_filters,
    pairing_walks,
    renormalized,
    soft_target_axis,
    symptom,
)
from torch_investigate.agent.checks.base import REGISTRY, Evidence, check, run_checks
from torch_investigate.agent.checks.merge import stage_evidence

__all__ = ["REGISTRY", "Evidence", "check", "run_checks", "stage_evidence"]
