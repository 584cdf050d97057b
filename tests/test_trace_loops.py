"""The tracer on inputs and loops the two base repos of test_trace.py do not have: a model
fed sparse tensors (a graph's features and adjacency), and many forwards per update (an
RNN stepped through time)."""

from __future__ import annotations

import pytest
from conftest import traced_variants
from test_trace import FLAT, MLP

VARIANTS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    # a model that receives a sparse tensor (a graph's features or adjacency)
    "flat_sparse": (FLAT, [("crit = torch.nn.MSELoss()", "class Dense(torch.nn.Module):\n    def __init__(self, inner):\n        super().__init__()\n        self.inner = inner\n\n    def forward(self, x):\n        return self.inner(x.to_dense())\n\n\nnet, X = Dense(net), X.to_sparse()\ncrit = torch.nn.MSELoss()")]),
    # forty forwards per update (an RNN stepped through time), zero_grad moved after backward
    "mlp_unrolled": (MLP, [("            opt.zero_grad()\n            loss = F.cross_entropy(model(xb), yb)\n            loss.backward()\n", "            loss = sum(F.cross_entropy(model(xb), yb) for _ in range(40))\n            loss.backward()\n            opt.zero_grad()\n")]),
}  # fmt: skip


@pytest.fixture(scope="module")
def tracer(tmp_path_factory):
    with traced_variants(tmp_path_factory.mktemp("trace-shapes"), VARIANTS) as run:
        yield run


def test_the_forwards_of_a_model_fed_sparse_tensors_are_recorded(tracer):
    # statistics read a sparse input through a dense copy (summaries of sparse tensors
    # failed inside the tracer and no forward of pytorch/examples' GCN was recorded)
    t = tracer("flat_sparse")
    assert t.error is None and not t.counts.get("tracer_errors"), t.warnings
    train = [f for f in t.forwards if f.grad_enabled]
    assert train and train[0].inputs[0].shape == [64, 1] and train[0].inputs[0].std > 0
    assert t.batches.train_unique == 64  # every row fingerprinted


def test_the_update_calls_are_kept_in_an_iteration_of_many_forwards(tracer):
    from torch_investigate.agent.checks.optimizer import call_order_text, discarding

    t = tracer("mlp_unrolled")
    it = t.iterations[1]
    # the first 48 calls are forwards and losses; the update's calls are kept after them
    update = it[it.index("backward") :] if "backward" in it else []
    assert update == ["backward", "zero_grad", "clip", "step"], it
    assert discarding(t), t.iterations[:2]
    assert call_order_text(it).startswith("(forward -> loss) x24 -> backward -> zero_grad")
