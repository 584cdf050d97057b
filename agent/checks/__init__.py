"""Stage checks. Importing this package registers every stage's checks (see base.py)."""

from agent.checks import autograd, data, forward, loss, modes, optimization, optimizer, symptom  # noqa: F401
from agent.checks.base import REGISTRY, Evidence, check, run_checks
from agent.checks.merge import stage_evidence

__all__ = ["REGISTRY", "Evidence", "check", "run_checks", "stage_evidence"]
