"""Which arrays the code lines up row by row (tools/code/pairing.py), decided by what the
code does with them: every snippet uses neutral names, so a name list cannot help."""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.pairing import Pairing
from torch_investigate.tools.code.rows import Member


def _pairing(sources: dict[str, str]) -> tuple[CodeIndex, Pairing]:
    index = CodeIndex.from_sources(sources)
    return index, Pairing(analysis(index).flow, {})


def _shuffled(index: CodeIndex, pairing: Pairing, file: str) -> list[Member]:
    """The arrays of the file's `*.shuffle(v)` calls, in order."""
    unit = index.units[file]
    out = []
    for call in unit.call_nodes:
        if sx.method_name(call) == "shuffle":
            arg: Node | None = sx.argument(call, 0)
            assert arg is not None
            out.append(pairing.member_at(unit, arg))
    return out


def _verdict(sources: dict[str, str], file: str = "m.py") -> bool | None:
    index, pairing = _pairing(sources)
    first, second = _shuffled(index, pairing, file)
    return pairing.paired(first, second)


def test_a_dataset_built_from_both_pairs_them() -> None:
    src = """
import numpy as np, torch
from torch.utils.data import TensorDataset

def f(v1, v2):
    g = np.random.default_rng(0)
    g.shuffle(v1)
    g.shuffle(v2)
    v3 = torch.from_numpy(v1).float()
    return TensorDataset(v3, torch.from_numpy(v2))
"""
    assert _verdict({"m.py": src}) is True


def test_a_returned_tuple_pairs_them_when_a_caller_zips_it() -> None:
    data = """
import random

def f1(v1, v2):
    random.shuffle(v1)
    random.shuffle(v2)
    return v1, v2
"""
    caller = """
from m import f1

def f2(v3, v4):
    v5, v6 = f1(v3, v4)
    return list(zip(v5, v6))
"""
    assert _verdict({"m.py": data, "c.py": caller}) is True
    # The same tuple kept apart by its only caller: no pairing found.
    apart = caller.replace("list(zip(v5, v6))", "v5.sum() + v6.max()")
    assert _verdict({"m.py": data, "c.py": apart}) is None


def test_a_class_that_indexes_both_by_one_index_pairs_them() -> None:
    src = """
import random

class C1:
    def __init__(self, v1, v2):
        self.v3 = v1
        self.v4 = v2

    def __getitem__(self, v5):
        return self.v3[v5], self.v4[v5]

def f(v6, v7):
    random.shuffle(v6)
    random.shuffle(v7)
    return C1(v6, v7)
"""
    assert _verdict({"m.py": src}) is True


def test_a_tuple_of_attributes_and_dict_rows_pair_them() -> None:
    stored = """
import random

class C1:
    def __init__(self, v1, v2):
        self.v3, self.v4 = v1, v2

    def __getitem__(self, v5):
        return {"a": self.v3[v5], "b": self.v4[v5]}

def f(v6, v7):
    random.shuffle(v6)
    random.shuffle(v7)
    return C1(v6, v7)
"""
    assert _verdict({"m.py": stored}) is True
    # Stored but read by different methods with different indices: no pairing found.
    apart = stored.replace('return {"a": self.v3[v5], "b": self.v4[v5]}', "return self.v3[v5]")
    assert _verdict({"m.py": apart}) is None


def test_a_loss_lines_a_models_output_up_with_its_target() -> None:
    src = """
import random
import torch.nn.functional as F

def f(v0, v1, v2):
    random.shuffle(v1)
    random.shuffle(v2)
    v3 = v0(v1)
    return F.cross_entropy(v3, v2)
"""
    index = CodeIndex.from_sources({"m.py": src})
    a = analysis(index)
    from torch_investigate.tools.code.losses import loss_calls

    losses = {
        lc.value.node.id: (lc.input.node.id, lc.target.node.id)
        for lc in loss_calls(a)
        if lc.input is not None and lc.target is not None
    }
    pairing = Pairing(a.flow, losses)
    first, second = _shuffled(index, pairing, "m.py")
    assert pairing.paired(first, second) is True


def test_two_arrays_never_lined_up_are_no_pair() -> None:
    src = """
import random
import numpy as np

def f(v1, v2):
    random.shuffle(v1)
    random.shuffle(v2)
    v3 = np.concatenate([v1, v2])  # one after the other, not row by row
    print(len(v1), len(v2))
    return v3.sum(), v2.max()
"""
    assert _verdict({"m.py": src}) is None


def test_each_lined_up_with_another_array_proves_them_apart() -> None:
    src = """
import random
from torch.utils.data import TensorDataset

def f(v1, v2, v3, v4):
    random.shuffle(v1)
    random.shuffle(v2)
    return TensorDataset(v1, v3), TensorDataset(v4, v2)
"""
    assert _verdict({"m.py": src}) is False


def test_lengths_and_sorted_copies_do_not_carry_the_rows() -> None:
    src = """
import os

def f(v1, v2, v7):
    v3 = os.listdir(v1)
    v4 = list(range(len(v3)))
    v5 = sorted(v3)
    v6 = [v.split("_")[0] for v in v3]
    return list(zip(v3, v4)), list(zip(v5, v2)), list(zip(v3, v6)), list(zip(v3, v7))
"""
    index, pairing = _pairing({"m.py": src})
    unit = index.units["m.py"]
    reads = [
        n
        for n in sx.descendants(unit.tree.root_node, into_scopes=True)
        if n.type == "identifier" and sx.text(n) == "v3"
    ]
    listing = pairing.member_at(unit, reads[-1])
    # range(len(v3)) holds no data, sorted(v3) has its own order, v6 is computed from
    # v3's rows: only v7 is lined up with the listing's arbitrary order.
    assert [sx.text(v.node) for v in pairing.partners(listing)] == ["v7"]
