"""Entry point of the sandbox process, staged as `_torch_investigate_boot.py` at the top of
the runtime dir, so that dir is `sys.path[0]` and the private packages import by name."""

import sys

if __name__ == "__main__":
    from _torch_investigate_sandbox.server import main  # pyright: ignore[reportMissingImports]

    sys.exit(main(sys.argv[1:]))
