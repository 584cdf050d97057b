"""A next-token model whose text runs across the batch: `batchify` lays the corpus out as
`data.view(-1, bsz)` instead of `data.view(bsz, -1).t()`, so each column the LSTM reads
as a sequence holds tokens `bsz` apart. The tracer measures how much neighbouring ids
depend on each other along the time axis (the one the targets are shifted on) and
across the batch: all of it across -> reshape_scramble, placed where the data was laid
out. Laid out the right way round it is healthy."""

from __future__ import annotations

import torch
from conftest import planner_report

from torch_investigate.tools.trace.token_layout import dependence

SCRIPT = """import random
import torch
from torch import nn

random.seed(0)
torch.manual_seed(0)
SUBJ = ["the cat", "a dog", "my friend", "the teacher", "our neighbour"]
VERB = ["sees", "likes", "finds", "helps", "calls"]
OBJ = ["the ball", "a book", "the garden", "her brother", "the music"]
words = []
ADJ = ["big", "small", "old", "new", "red", "quiet", "happy"]
ADV = ["often", "never", "quickly", "today"]
for _ in range(1500):
    s = random.choice(SUBJ).split()
    s[1:1] = random.sample(ADJ, random.randint(0, 2))
    s += random.sample(ADV, random.randint(0, 1)) + [random.choice(VERB)]
    o = random.choice(OBJ).split()
    o[1:1] = random.sample(ADJ, random.randint(0, 2))
    words += s + o + ["."]
vocab = {w: i for i, w in enumerate(sorted(set(words)))}
data = torch.tensor([vocab[w] for w in words], dtype=torch.long)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = LAYOUT
    return data


train = batchify(data[: int(0.9 * len(data))], 20)
val = batchify(data[int(0.9 * len(data)) :], 10)
SEQ = 20


class LM(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.emb = nn.Embedding(n, 32)
        self.rnn = nn.LSTM(32, 64)
        self.out = nn.Linear(64, n)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


model = LM(len(vocab))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(2):
    model.train()
    for i in range(0, train.size(0) - 1, SEQ):
        n = min(SEQ, train.size(0) - 1 - i)
        x, y = train[i : i + n], train[i + 1 : i + 1 + n]
        loss = loss_fn(model(x).view(-1, len(vocab)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for i in range(0, val.size(0) - 1, SEQ):
            n = min(SEQ, val.size(0) - 1 - i)
            x, y = val[i : i + n], val[i + 1 : i + 1 + n]
            total += loss_fn(model(x).view(-1, len(vocab)), y.reshape(-1)).item() * n
            count += n
    print(f"epoch {epoch} val_loss {total / count:.4f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol, f.line) for f in report.findings if f.status == "confirmed"]


def test_text_laid_out_across_the_batch_is_a_reshape_scramble(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("LAYOUT", "data.view(-1, bsz).contiguous()"))
    assert _confirmed(report) == [("reshape_scramble", "batchify", 27)]


def test_text_laid_out_along_time_is_healthy(tmp_path):
    report = planner_report(
        tmp_path, SCRIPT.replace("LAYOUT", "data.view(bsz, -1).t().contiguous()")
    )
    assert _confirmed(report) == []


def test_independent_neighbours_read_as_one_and_a_text_far_above():
    g = torch.Generator().manual_seed(0)
    a = torch.randint(0, 30, (20_000,), generator=g)
    b = torch.randint(0, 30, (20_000,), generator=g)
    assert abs(dependence(a, b) - 1.0) < 0.1
    assert dependence(a, (a + 1) % 30) > 20


def test_a_corpus_in_step_across_the_columns_that_the_model_learns_is_healthy(tmp_path):
    """Round 01's healthy melody LSTM (written by others): tunes laid out the right way
    round, yet neighbouring notes hardly depend on each other along time while columns
    start in step, so the batch axis looks the dependent one. The model learns far below
    what the notes' frequencies allow: it reads a sequence, and no layout is blamed."""
    import shutil
    from pathlib import Path

    from torch_investigate.agent.core.planner import Planner
    from torch_investigate.agent.core.policy import investigate
    from torch_investigate.agent.core.session import Options, Session

    root = Path(__file__).resolve().parents[1] / "evals/rounds/01/cases/healthy-melody-tbptt"
    repo = tmp_path / "melody"
    shutil.copytree(root, repo)
    with Session(repo, Options(cmd="python main.py --epochs 6")) as session:
        investigate(session, Planner())
        report = session.report()
    assert _confirmed(report) == []
