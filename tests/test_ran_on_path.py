"""What ran on the traced training path: the functions the tracer saw at a torch call,
and the methods of a Dataset whose loader yielded batches (one that reads only files and
numpy, or runs in worker processes, makes no call the tracer sees)."""

from __future__ import annotations

from types import SimpleNamespace

from torch_investigate.agent.core.session import Session
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.tracefile.trace import Frame, LoaderInfo, Trace

DATASET = """import os

import numpy as np
from torch.utils.data import Dataset


class Glyphs(Dataset):
    def __init__(self, root):
        self.files = [f for f in os.listdir(root) if f.endswith(".npy")]

    def __len__(self):
        return len(self.files)

    def __getitem__(self, j):
        return np.load(self.files[j])
"""


def seen(tmp_path, batches: int) -> list[str]:
    (tmp_path / "data.py").write_text(DATASET)
    trace = Trace(
        format_version=1,
        status="completed",
        seen_functions=["train.py:main"],
        loaders=[
            LoaderInfo(
                site="train.py:9",
                frame=Frame(file="dm.py", line=7, function="train_dataloader"),
                dataset_class="Glyphs",
                batches=batches,
            )
        ],
    )
    fake = SimpleNamespace(
        runner=SimpleNamespace(runs={"baseline": SimpleNamespace(trace=trace)}),
        index=CodeIndex.build(tmp_path),
    )
    return Session.baseline_trace_functions(fake)  # type: ignore[arg-type]


def test_a_dataset_whose_loader_yielded_batches_ran_though_the_tracer_saw_no_call(tmp_path):
    got = seen(tmp_path, batches=4)
    assert "train.py:main" in got and "dm.py:train_dataloader" in got  # built the loader
    assert {"data.py:__init__", "data.py:__getitem__", "data.py:__len__"} <= set(got)


def test_a_loader_that_yielded_nothing_says_nothing_of_its_dataset(tmp_path):
    assert seen(tmp_path, batches=0) == ["train.py:main", "dm.py:train_dataloader"]
