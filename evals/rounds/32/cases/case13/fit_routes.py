import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

STYLES = ["jug", "crimp", "sloper", "pinch", "pocket", "volume"]


def simulate_routes(n, seed):
    rng = np.random.default_rng(seed)
    style = rng.integers(0, len(STYLES), n)
    proto = np.random.default_rng(1234).normal(0, 1, (len(STYLES), 20))
    x = proto[style] * 0.45 + rng.normal(0, 1, (n, 20))
    grade = 3 + 1.2 * x[:, 0] - 0.8 * x[:, 3] + 0.5 * x[:, 7] * x[:, 8] + rng.normal(0, 0.4, n)
    return x.astype(np.float32), np.clip(grade, 0, 10).astype(np.float32), style.astype(np.int64)


class RouteModel(nn.Module):
    def __init__(self, n_in=20, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.grade_head = nn.Linear(hidden, 1)
        self.style_head = nn.Linear(hidden, len(STYLES))

    def forward(self, x):
        h = self.trunk(x)
        return {"grade": self.grade_head(h).squeeze(-1),
                "style": self.predict_proba(h)}

    def predict_proba(self, h):
        # the route-setting dashboard shows the style distribution directly
        return F.softmax(self.style_head(h), dim=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--grade-weight", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    x, g, s = map(torch.from_numpy, simulate_routes(4000, args.seed))
    n_tr = 3200
    model = RouteModel()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.5)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(n_tr)
        for b in range(0, n_tr, 64):
            idx = perm[b:b + 64]
            out = model(x[idx])
            grade_loss = F.mse_loss(out["grade"], g[idx])
            style_loss = F.cross_entropy(out["style"], s[idx])
            loss = args.grade_weight * grade_loss + style_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch + 1} grade_loss {grade_loss.item():.3f} style_loss {style_loss.item():.3f}")

    model.eval()
    with torch.no_grad():
        out = model(x[n_tr:])
        acc = (out["style"].argmax(-1) == s[n_tr:]).float().mean().item()
        mae = (out["grade"] - g[n_tr:]).abs().mean().item()
    print(f"style_acc={acc:.4f} grade_mae={mae:.4f}")


if __name__ == "__main__":
    main()
