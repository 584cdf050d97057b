import random

import torch
import torch.nn as nn

FOLDS = ["half", "quarter", "tri", "pleat", "roll", "tuck", "flip", "crown"]
STYLES = [[0, 3, 3, 5], [1, 2, 6], [0, 4, 5, 7, 6], [2, 2, 3, 1]]
BPTT = 20
SEED = 3


def stream(rnd, n_napkins):
    out = []
    for _ in range(n_napkins):
        motif = rnd.choice(STYLES)
        for _ in range(rnd.randint(2, 4)):
            out += motif
    return torch.tensor(out)


class FoldRNN(nn.Module):
    def __init__(self, d=48):
        super().__init__()
        self.emb = nn.Embedding(len(FOLDS), d)
        self.gru = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, len(FOLDS))

    def forward(self, x, h=None):
        y, h = self.gru(self.emb(x), h)
        return self.out(y), h


def batchify(s, b):
    n = len(s) // b
    return s[: n * b].view(b, n)


def main():
    rnd = random.Random(SEED)
    torch.manual_seed(SEED)
    train = batchify(stream(rnd, 1500), 16)
    val = batchify(stream(rnd, 300), 4)
    model = FoldRNN()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for ep in range(4):
        h, losses = None, []
        for i in range(0, train.size(1) - 1, BPTT):
            x = train[:, i:i + BPTT]
            y = train[:, i + 1:i + 1 + BPTT]
            x = x[:, : y.size(1)]
            if h is not None:
                h = h.detach()  # truncated BPTT: keep the state, drop its history
            logits, h = model(x, h)
            loss = nn.functional.cross_entropy(logits.reshape(-1, len(FOLDS)), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            gn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=50.0)
            opt.step()
            losses.append(loss.item())
        print(f"epoch {ep} loss {sum(losses)/len(losses):.4f} grad_norm {gn:.2f}")
    model.eval()
    with torch.no_grad():
        logits, _ = model(val[:, :-1])
        acc = (logits.argmax(-1) == val[:, 1:]).float().mean().item()
    print(f"val_next_fold_acc={acc:.4f}")


if __name__ == "__main__":
    main()
