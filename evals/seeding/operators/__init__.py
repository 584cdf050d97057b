"""One seeding operator per taxonomy category, registered by category id.

Importing this package registers every operator in `REGISTRY`, one module per stage.
"""

from torch_investigate.evals.seeding.operators import (  # noqa: F401  (each module registers its operators)
    autograd,
    data,
    forward,
    loss,
    modes,
    optimization,
    optimizer,
)
from torch_investigate.evals.seeding.operators.base import REGISTRY, Mutation, Operator

__all__ = ["REGISTRY", "Mutation", "Operator"]
