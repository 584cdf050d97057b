"""A crash raised by the instrumentation's own code is a tracer bug, never a finding about
the program; one raised by the program (through torch) is the program's."""

from torch_investigate.agent.checks.symptom import tracer_broke
from torch_investigate.tools.tracefile.records import ErrorInfo, Frame

TORCH = "/venv/lib/python3.11/site-packages/torch/nn/modules/module.py"
TRACER = "/tmp/ti-sandbox-x/runtime/_torch_investigate_trace/mode.py"


def _error(*files: str) -> ErrorInfo:
    return ErrorInfo(type="RuntimeError", frames=[Frame(file=f, line=1) for f in files])


def test_the_innermost_frame_outside_the_libraries_decides():
    assert tracer_broke(_error("train.py", TORCH, "model.py", TRACER, TORCH))
    assert not tracer_broke(_error("train.py", TRACER, TORCH, "model.py", TORCH))
    assert not tracer_broke(_error("train.py", "<frozen runpy>", "model.py"))
    assert not tracer_broke(_error())
