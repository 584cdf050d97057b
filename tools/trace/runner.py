"""Placeholder runner (replaced by the real tracer): runs the program, no tracing yet."""

import json
import runpy
import sys
import traceback


def run_traced(config: dict) -> int:
    argv = list(config["argv"])
    code = 0
    error = None
    try:
        if argv[0] == "-m":
            sys.argv = [argv[1], *argv[2:]]
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = argv
            sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(argv[0])))
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException as e:  # noqa: BLE001 - the trace must record any crash
        code = 1
        tb = traceback.extract_tb(e.__traceback__)
        error = {
            "type": type(e).__name__,
            "message": str(e),
            "frames": [{"file": f.filename, "line": f.lineno, "function": f.name} for f in tb],
        }
        traceback.print_exc()
    with open(config["out"], "w") as fh:
        json.dump({"format_version": 0, "status": "crashed" if error else "completed", "error": error}, fh)
    return code
