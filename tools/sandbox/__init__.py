"""The sandbox that runs the repo's untrusted training path (see DESIGN.md, "The sandbox").

with Sandbox(workspace.root) as sandbox:
    result = sandbox.run(["train.py", "--epochs", "1"], trace_config={}, label="baseline")
    result.failure  # None, or the classified Failure with the repo frame
"""

from torch_investigate.tools.sandbox.isolation import ISOLATIONS, available, choose
from torch_investigate.tools.sandbox.models import Failure, FailureKind, Limits, RunResult
from torch_investigate.tools.sandbox.sandbox import Sandbox, SandboxError

__all__ = [
    "ISOLATIONS",
    "Failure",
    "FailureKind",
    "Limits",
    "RunResult",
    "Sandbox",
    "SandboxError",
    "available",
    "choose",
]
