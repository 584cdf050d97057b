import argparse
import copy
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

from graphs import build_dataset


class GINLayer(nn.Module):
    def __init__(self, d_in, d_out, train_eps):
        super().__init__()
        # GIN-0 keeps epsilon at zero on purpose; it is still a Parameter so that
        # checkpoints of both variants have the same keys
        self.eps = nn.Parameter(torch.zeros(1), requires_grad=train_eps)
        self.mlp = nn.Sequential(nn.Linear(d_in, d_out), nn.ReLU(), nn.Linear(d_out, d_out), nn.ReLU())

    def forward(self, h, adj):
        return self.mlp((1 + self.eps) * h + adj @ h)  # sum aggregation over neighbours


class GIN(nn.Module):
    def __init__(self, d_in, hidden, n_layers, n_classes=2, train_eps=False, dropout=0.2):
        super().__init__()
        dims = [d_in] + [hidden] * n_layers
        self.layers = nn.ModuleList([GINLayer(dims[i], dims[i + 1], train_eps) for i in range(n_layers)])
        # one linear readout per depth (jumping-knowledge style, as in the paper)
        self.readouts = nn.ModuleList([nn.Linear(d, n_classes) for d in dims])
        self.dropout = dropout

    def forward(self, x, adj, mask):
        m = mask.unsqueeze(-1)
        h = x
        out = self.readouts[0]((h * m).sum(1))
        for layer, ro in zip(self.layers, self.readouts[1:]):
            h = layer(h, adj) * m  # keep padded nodes at zero
            out = out + F.dropout(ro(h.sum(1)), self.dropout, self.training)
        return F.log_softmax(out, dim=-1)


def accuracy(model, data):
    model.eval()
    with torch.no_grad():
        logp = model(*data[:3])
    return (logp.argmax(-1) == data[3]).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="gin.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    adj, x, mask, y = build_dataset(cfg["n_graphs"], cfg["min_nodes"], cfg["max_nodes"], cfg["max_degree"], cfg["data_seed"])
    n = len(y)
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(cfg["data_seed"]))
    tr, va, te = perm[: int(0.7 * n)], perm[int(0.7 * n): int(0.85 * n)], perm[int(0.85 * n):]
    split = lambda idx: (x[idx], adj[idx], mask[idx], y[idx])
    train, val, test = split(tr), split(va), split(te)

    model = GIN(x.shape[-1], cfg["hidden"], cfg["layers"], train_eps=cfg["train_eps"], dropout=cfg["dropout"])
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=cfg["lr"])
    crit = nn.NLLLoss()

    best_val, best_state, bad_epochs = -1.0, None, 0
    for epoch in range(1, cfg["epochs"] + 1):
        model.train()
        order = torch.randperm(len(tr))
        tot, max_norm = 0.0, 0.0
        for i in range(0, len(order), cfg["batch_size"]):
            b = order[i:i + cfg["batch_size"]]
            logp = model(train[0][b], train[1][b], train[2][b])
            loss = crit(logp, train[3][b])
            opt.zero_grad()
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["grad_clip"])
            max_norm = max(max_norm, norm.item())
            opt.step()
            tot += loss.item() * len(b)
        val_acc = accuracy(model, val)
        if val_acc > best_val:
            best_val, best_state, bad_epochs = val_acc, copy.deepcopy(model.state_dict()), 0
        else:
            bad_epochs += 1
        if epoch % 5 == 0 or epoch == 1:
            print(f"epoch {epoch:3d} loss {tot / len(tr):.4f} max_grad_norm {max_norm:.3f} val_acc {val_acc:.4f}")
        if bad_epochs >= cfg["patience"]:
            print(f"early stop at epoch {epoch}")
            break

    model.load_state_dict(best_state)
    print(f"best_val_acc={best_val:.4f}")
    print(f"test_acc={accuracy(model, test):.4f}")


if __name__ == "__main__":
    main()
