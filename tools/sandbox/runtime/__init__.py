"""Code that runs inside the sandbox: the fork server, the child set-up and the socket guard.

Staged by `tools.sandbox.staging` under the private top-level name
`_torch_investigate_sandbox`, so it imports only the standard library (and torch) and
refers to its siblings with relative imports.
"""
