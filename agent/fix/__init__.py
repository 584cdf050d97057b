"""`investigate fix`: a verified source patch for each confirmed finding.

    patches = patch_findings(session, report)      # after the investigation, same session
    check_writable(repo, force)                     # --apply: a clean git tree, or --force
    notes = apply_patches(repo, patches)            # verified patches only

Mechanical edits per category live in `mechanical/`, verification by rerunning in
`verify.py`, the diff text and `git apply` in `diff.py`, the model's `propose_patch` in
`propose.py`, writing into the user's repo in `apply.py`.
"""

from torch_investigate.agent.fix.apply import ApplyRefused, apply_patches, check_writable
from torch_investigate.agent.fix.patcher import patch_findings, targets

__all__ = ["ApplyRefused", "apply_patches", "check_writable", "patch_findings", "targets"]
