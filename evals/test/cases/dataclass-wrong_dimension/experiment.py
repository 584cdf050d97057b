"""Train a mixture-of-experts regressor on the regime data.

    python experiment.py
"""
import dataclasses
import json
import sys

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from config import ExperimentConfig
from mixture import MixtureOfExperts
from regimes import make_dataset


def evaluate(model, loader):
    model.eval()
    sq_err, total, targets = 0.0, 0, []
    with torch.no_grad():
        for x, y in loader:
            pred = model(x)
            sq_err += F.mse_loss(pred, y, reduction="sum").item()
            total += len(y)
            targets.append(y)
    y_all = torch.cat(targets)
    mse = sq_err / total
    r2 = 1.0 - mse / y_all.var(unbiased=False).item()
    return mse, r2


def gate_usage(model, loader):
    model.eval()
    with torch.no_grad():
        usage = sum(model(x, return_gates=True)[1].sum(0) for x, _ in loader)
    return (usage / usage.sum()).tolist()


def main(cfg: ExperimentConfig):
    torch.manual_seed(cfg.seed)
    d, m, o = cfg.data, cfg.model, cfg.optim
    train_ds = make_dataset(d.n_train, d.n_features, d.noise, d.seed)
    test_ds = make_dataset(d.n_test, d.n_features, d.noise, d.seed + 1)
    train_loader = DataLoader(train_ds, batch_size=o.batch_size, shuffle=True,
                              generator=torch.Generator().manual_seed(cfg.seed))
    test_loader = DataLoader(test_ds, batch_size=o.eval_batch_size)

    model = MixtureOfExperts(d.n_features, m.n_experts, m.expert_hidden, m.gate_hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=o.lr)

    for epoch in range(o.epochs):
        model.train()
        running = 0.0
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            running += loss.item() * len(y)
        if (epoch + 1) % 5 == 0:
            test_mse, test_r2 = evaluate(model, test_loader)
            print(f"epoch {epoch + 1:3d}  train_mse {running / len(train_ds):.4f}  "
                  f"test_mse {test_mse:.4f}  test_r2 {test_r2:.3f}")

    test_mse, test_r2 = evaluate(model, test_loader)
    usage = ", ".join(f"{u:.2f}" for u in gate_usage(model, test_loader))
    print(f"expert usage on test: [{usage}]")
    print(f"{cfg.name}: test_mse {test_mse:.4f}  test_r2 {test_r2:.3f}")


if __name__ == "__main__":
    config = ExperimentConfig()
    if len(sys.argv) > 1 and sys.argv[1] == "--print-config":
        print(json.dumps(dataclasses.asdict(config), indent=2))
        sys.exit(0)
    main(config)
