"""`investigate fix`: a verified source patch for each confirmed finding.

    patcher.patch_findings(session, report)     # after the investigation, same session
    apply.check_writable(repo, force)            # --apply: a clean git tree, or --force
    apply.apply_patches(repo, patches)           # verified patches only

One module per concept: the mechanical edits per category in `mechanical/`, verification
by rerunning in `verify.py`, the diff text and `git apply` in `diff.py`, the model's
`propose_patch` in `propose.py`, writing into the user's repo in `apply.py`. Nothing is
imported here, so the renderers can read `diff` without loading the investigation.
"""
