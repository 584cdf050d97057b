"""A next-token model whose loss mask reaches one position too far: the evaluation reads
the output at the prompt's last position (where the answer's first token is predicted)
and the training loss never scores it. The tracer records the positions each side
touches (tools/trace/read_positions.py); scoring the unread position, with the input's
next token as its target, must repair the program's own held-out accuracy beyond what
reseeding moves it by (agent/checks/unscored_reads.py)."""

from __future__ import annotations

import pytest
import torch
from conftest import planner_report

from torch_investigate.tools.trace.config import Config, Interventions
from torch_investigate.tools.trace.interventions.loss import scored_positions
from torch_investigate.tools.trace.read_positions import PositionLog, after_op, evaluated
from torch_investigate.tools.trace.recorder import Recorder

# a prompt of two tokens; the answer is their sum mod V, then the prompt again. The
# WindowLM reads the tokens up to each position right-aligned in a window of T slots.
SUM_TASK = """import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
V, K = 6, 2
T = 2 * K


class SumTask(Dataset):
    def __init__(self, n, seed):
        p = torch.randint(0, V, (n, K), generator=torch.Generator().manual_seed(seed))
        self.seqs = torch.cat([ANSWER], 1)

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        seq = self.seqs[i]
        x, y = seq[:-1].clone(), seq[1:].clone()
        y[:MASK] = -1  # only the answer is scored
        return x, y


class WindowLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V + 1, 16)
        self.mlp = nn.Sequential(nn.Linear(T * 16, 64), nn.ReLU(), nn.Linear(64, V))

    def forward(self, idx):
        b, n = idx.shape
        padded = torch.cat([torch.full((b, T - 1), V, dtype=idx.dtype), idx], 1)
        windows = padded.unfold(1, T, 1)  # (b, n, T)
        return self.mlp(self.emb(windows).reshape(b, n, -1))


def generate(model, idx, steps):
    for _ in range(steps):
        logits = model(idx)
        nxt = logits[:, -1, :].argmax(-1, keepdim=True)
        idx = torch.cat([idx, nxt], 1)
    return idx


def evaluate(model, data):
    model.eval()
    right = total = 0
    with torch.no_grad():
        for x, y in DataLoader(data, batch_size=100):
            out = generate(model, x[:, :K], K + 1)
            correct = out[:, K:] == torch.cat([x[:, K:], y[:, -1:]], 1)
            right += int(correct.sum())
            total += correct.numel()
    model.train()
    return right / total


train, test = SumTask(1000, 1), SumTask(200, 2)
model = WindowLM()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = DataLoader(train, batch_size=50, shuffle=True)
for epoch in range(8):
    for x, y in loader:
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1), ignore_index=-1)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 4 == 3:
        print(f"epoch {epoch} loss {loss.item():.4f} test accuracy {evaluate(model, test):.3f}")
"""
SUM = "p, p.sum(1, keepdim=True) % V, p"
MASK_LINE = SUM_TASK.splitlines().index("        y[:MASK] = -1  # only the answer is scored") + 1


def _confirmed(report):
    return [f for f in report.findings if f.status == "confirmed"]


def test_a_mask_over_the_prompt_s_last_position_leaves_the_read_output_untrained(tmp_path):
    script = SUM_TASK.replace("ANSWER", SUM).replace("MASK", "K")
    found = _confirmed(planner_report(tmp_path, script))
    assert [f.category for f in found] == ["loss_mask_error"], found
    f = found[0]
    assert (f.file, f.line, f.symbol) == ("train.py", MASK_LINE, "SumTask.__getitem__")
    assert "ignores position 1" in f.evidence[0].text
    assert any("seeds changed" in o.text for o in f.evidence)


def test_a_mask_that_ends_before_the_answer_s_first_prediction_is_healthy(tmp_path):
    script = SUM_TASK.replace("ANSWER", SUM).replace("MASK", "K - 1")
    assert not _confirmed(planner_report(tmp_path, script))


@pytest.mark.slow
def test_an_untrained_read_the_shared_weights_answer_anyway_is_no_finding(tmp_path):
    # the answer is the prompt moved by one value: the window the untrained position
    # reads holds the token the trained positions map the same way, so scoring it
    # changes nothing the evaluation measures
    script = SUM_TASK.replace("ANSWER", "p, (p + 1) % V, p[:, :1]").replace("MASK", "K")
    report = planner_report(tmp_path, script)
    assert not _confirmed(report), report.findings


PADDED_LM = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
PAD, V, T = 0, 9, 8  # tokens 1..8 count up (mod 8); sequences of 3..8, right-padded
g = torch.Generator().manual_seed(1)


def batch(b=48):
    lengths = torch.randint(3, T + 1, (b,), generator=g)
    start = torch.randint(0, 8, (b, 1), generator=g)
    seq = (start + torch.arange(T + 1)) % 8 + 1
    seq[torch.arange(T + 1) >= lengths[:, None] + 1] = PAD
    x, y = seq[:, :-1], seq[:, 1:].clone()
    y[y == PAD] = -100
    return x, y


class WindowLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V + 1, 8)
        self.mlp = nn.Sequential(nn.Linear(3 * 8, 32), nn.ReLU(), nn.Linear(32, V))

    def forward(self, idx):
        b, n = idx.shape
        padded = torch.cat([torch.full((b, 2), V, dtype=idx.dtype), idx], 1)
        return self.mlp(self.emb(padded.unfold(1, 3, 1)).reshape(b, n, -1))


model = WindowLM()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(150):
    x, y = batch()
    loss = F.cross_entropy(model(x).reshape(-1, V), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()
with torch.no_grad():
    x, _ = batch(64)
    idx = x[:, :2]
    for _ in range(4):
        idx = torch.cat([idx, model(idx)[:, -1].argmax(-1, keepdim=True)], 1)
    truth = (x[:, 1:2] + torch.arange(1, 5)) % 8
    truth[truth == 0] = 8
    print(f"accuracy {(idx[:, 2:] == truth).float().mean().item():.3f}")
"""


@pytest.mark.slow
def test_a_padded_language_model_generating_from_short_prompts_is_healthy(tmp_path):
    report = planner_report(tmp_path, PADDED_LM)
    assert not _confirmed(report), report.findings


def _recorder(**changes) -> Recorder:
    return Recorder(Config(interventions=Interventions(**changes)))


def test_one_position_selected_from_an_evaluation_output_is_a_read() -> None:
    log = PositionLog()
    out = torch.zeros(5, 4, 10)
    evaluated(True, (torch.zeros(5, 4, dtype=torch.long),), {}, (out, None))
    after_op(log, True, "__getitem__", (out, (slice(None), -1, slice(None))))
    after_op(log, True, "select", (out, 1, 2))
    after_op(log, True, "__getitem__", (out, (slice(None), slice(None, -1))))  # an alignment
    assert [(r["axis"], r["length"], r["position"]) for r in log.reads] == [(1, 4, 3), (1, 4, 2)]


def test_outputs_of_one_position_or_of_training_are_no_read() -> None:
    log = PositionLog()
    one, trained = torch.zeros(5, 1, 10), torch.zeros(5, 4, 10)
    evaluated(True, (torch.zeros(5, 1, dtype=torch.long),), {}, one)  # cached decoding
    evaluated(False, (torch.zeros(5, 4, dtype=torch.long),), {}, trained)
    after_op(log, True, "__getitem__", (one, (slice(None), -1)))
    after_op(log, True, "__getitem__", (trained, (slice(None), -1)))
    assert log.reads == []


def test_scoring_a_position_gives_it_the_input_s_next_token() -> None:
    rec = _recorder(score_positions="1:3")
    x = torch.randint(0, 10, (40, 6))
    y = torch.cat([x[:, 1:], torch.randint(0, 10, (40, 1))], 1)
    y[:, :4] = -1
    rec.last_input = x
    out = scored_positions(rec, y.reshape(-1), -1)
    assert out is not None
    out = out.reshape(40, 6)
    assert torch.equal(out[:, 3], x[:, 4])
    assert torch.equal(out[:, :3], y[:, :3]) and torch.equal(out[:, 4:], y[:, 4:])
    # targets that are not the input moved one position are left as they are
    assert scored_positions(rec, torch.randint(0, 10, (240,)), -1) is None


BUDGET_SPENT = """import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(256, 4)
y = (x[:, 0] > 0).long()
model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.5)


def evaluate():
    with torch.no_grad():
        pred = model(x).argmax(1)
        for _ in range(12_000):  # an evaluation long enough to spend the op budget
            pred = pred + 0
        print("accuracy", (pred == y).float().mean().item())


for step in range(40):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        evaluate()
"""


def test_the_last_evaluation_is_read_after_an_earlier_one_spent_the_op_budget(tmp_path):
    from torch_investigate.tools.sandbox import Sandbox
    from torch_investigate.tools.tracefile.trace import load_trace

    (tmp_path / "fit.py").write_text(BUDGET_SPENT)
    with Sandbox(tmp_path) as sandbox:
        cfg = {"max_steps": 5, "detail_steps": 2, "max_total_steps": 200, "fast_forward": True}
        t = load_trace(sandbox.run(["fit.py"], trace_config=cfg, label="fit").trace_path)
    assert [step for step, _ in t.eval_accuracy_curve()] == [10, 20, 30, 40]


def test_a_read_position_the_mask_hides_padding_at_is_no_unscored_read() -> None:
    from torch_investigate.tools.trace.read_positions import scored
    from torch_investigate.tools.tracefile.position_records import Positions

    # a prompt of two tokens, an answer of one, then padding 0: the loss scores position
    # 1 only; at position 0 the mask hides a real token, at 2 and after only padding
    x = torch.cat([torch.randint(1, 9, (64, 3)), torch.zeros(64, 3, dtype=torch.long)], 1)
    y = torch.cat([x[:, 1:], torch.zeros(64, 1, dtype=torch.long)], 1)
    y[:, :1], y[:, 2:] = -1, -1
    log = PositionLog()
    scored(log, x, y, 1, -1, None)
    for position in (0, 2, 3):
        log.reads.append({"axis": 1, "length": 4, "position": position, "count": 1})
    assert log.scored == [0, 64, 0, 0, 0, 0]
    assert Positions.model_validate(log.summary()).unscored_reads() == [0]
