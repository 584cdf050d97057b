"""Mechanical fixes: one per taxonomy category whose fix the run pins down, registered by
category id (one module per stage, stage 6 in two, as the seeding operators are).

    REGISTRY["missing_zero_grad"].candidates(ctx, finding)   # -> [Candidate, ...]
    NOT_MECHANICAL["split_leakage"]                          # why no edit is derived
"""

from torch_investigate.agent.fix.mechanical import (  # noqa: F401  (each module registers its fixers)
    autograd,
    data,
    forward,
    loss,
    modes,
    optimization,
    optimizer,
    optimizer_params,
)
from torch_investigate.agent.fix.mechanical.base import (
    REGISTRY,
    Candidate,
    FixContext,
    MechanicalFix,
)

# Categories no fixer covers, and why: what the run shows does not determine the edit.
NOT_MECHANICAL: dict[str, str] = {
    "split_leakage": "which rows belong to the held-out side (by subject, by time, by id) is a "
    "decision about the data the run cannot make",
    "objective_unbounded": "which term of the objective has the wrong sign or form, and what "
    "its bounded form is, is a modelling decision",
    "insufficient_capacity": "a larger model is an architecture choice, not a correction",
    "vanishing_or_exploding_gradients": "normalization, residual paths or another activation "
    "are architecture choices the run cannot pick",
}

__all__ = ["NOT_MECHANICAL", "REGISTRY", "Candidate", "FixContext", "MechanicalFix"]
