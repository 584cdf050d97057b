import sys
import tomllib

import torch
import torch.nn as nn
import torch.nn.functional as F

from traces import NOTES_HZ, breath_traces, log_spectrum


class ConchNet(nn.Module):
    def __init__(self, n_bins, hidden, n_notes):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_bins, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.out = nn.Linear(hidden, n_notes)

    def logits(self, spec):
        return self.out(self.body(spec))

    def forward(self, spec):
        # downstream (the tuner app) wants note probabilities
        return F.softmax(self.logits(spec), dim=-1)


def main(path):
    with open(path, "rb") as f:
        cfg = tomllib.load(f)
    d, m, tr = cfg["data"], cfg["model"], cfg["train"]
    if len(sys.argv) > 2:
        tr["seed"] = int(sys.argv[2])
    g = torch.Generator().manual_seed(tr["seed"])
    torch.manual_seed(tr["seed"])

    xs, ys = breath_traces(d["n_train"] + d["n_val"], d["sample_rate"], d["n_samples"], d["noise"], g)
    spec = log_spectrum(xs)
    spec = (spec - spec[:d["n_train"]].mean(0)) / (spec[:d["n_train"]].std(0) + 1e-5)
    x_tr, y_tr = spec[:d["n_train"]], ys[:d["n_train"]]
    x_va, y_va = spec[d["n_train"]:], ys[d["n_train"]:]

    model = ConchNet(spec.shape[1], m["hidden"], len(NOTES_HZ))
    opt = torch.optim.SGD(model.parameters(), lr=tr["lr"], momentum=0.9, nesterov=True)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(tr["epochs"]):
        model.train()
        perm = torch.randperm(len(y_tr))
        for i in range(0, len(perm), tr["batch_size"]):
            idx = perm[i:i + tr["batch_size"]]
            loss = criterion(model(x_tr[idx]), y_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(x_va).argmax(-1) == y_va).float().mean().item()
        print(f"epoch {epoch + 1}/{tr['epochs']} loss={loss.item():.4f} val_acc={acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "settings.toml")
