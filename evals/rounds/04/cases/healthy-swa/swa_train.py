import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import SWALR, AveragedModel
from torch.utils.data import DataLoader, TensorDataset

N_SITES, N_BANDS, N_CLASSES = 12, 24, 5


def soil_data(n, seed):
    rng = np.random.default_rng(seed)
    world = np.random.default_rng(555)
    W1 = world.normal(size=(N_BANDS, 16))
    W2 = world.normal(size=(16, N_CLASSES))
    site_shift = world.normal(size=(N_SITES, N_CLASSES)) * 0.8
    bands = rng.normal(size=(n, N_BANDS)).astype(np.float32)
    site = rng.integers(0, N_SITES, n)
    logits = np.tanh(bands @ W1 / 4) @ W2 + site_shift[site]
    y = (logits + 0.3 * rng.gumbel(size=logits.shape)).argmax(1)
    return torch.from_numpy(bands), torch.from_numpy(site), torch.from_numpy(y)


def pretrained_site_embedding():
    """Stand-in for embeddings exported from last season's model."""
    g = torch.Generator().manual_seed(555)
    return torch.randn(N_SITES, 8, generator=g)


class SoilNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.site = nn.Embedding.from_pretrained(pretrained_site_embedding(), freeze=False)
        self.site.weight.requires_grad_(False)  # keep the exported embedding fixed
        self.body = nn.Sequential(nn.Linear(N_BANDS + 8, 96), nn.BatchNorm1d(96), nn.ReLU(),
                                  nn.Linear(96, 96), nn.BatchNorm1d(96), nn.ReLU(), nn.Linear(96, N_CLASSES))

    def forward(self, bands, site):
        return F.log_softmax(self.body(torch.cat([bands, self.site(site)], -1)), dim=-1)


@torch.no_grad()
def accuracy(model, bands, site, y):
    model.eval()
    return (model(bands, site).argmax(1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--swa-start", type=int, default=12)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--swa-lr", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    btr, str_, ytr = soil_data(5000, 1)
    bva, sva, yva = soil_data(1500, 2)
    loader = DataLoader(TensorDataset(btr, str_, ytr), batch_size=64, shuffle=True)

    model = SoilNet()
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.SGD(params, lr=args.lr, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.swa_start)
    swa_model = AveragedModel(model)
    swa_sched = SWALR(opt, swa_lr=args.swa_lr, anneal_epochs=2)
    nll = nn.NLLLoss()

    for epoch in range(1, args.epochs + 1):
        model.train()
        tot = 0.0
        for b, s, y in loader:
            opt.zero_grad()
            loss = nll(model(b, s), y)
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
        if epoch > args.swa_start:
            swa_model.update_parameters(model)
            swa_sched.step()
        else:
            sched.step()
        print(f"epoch {epoch:3d} loss {tot / len(ytr):.4f} val_acc {accuracy(model, bva, sva, yva):.4f}")

    # recompute BatchNorm running stats for the averaged weights (what update_bn does;
    # update_bn only forwards batch[0], and this model takes two inputs)
    swa_model.train()
    for m in swa_model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
            m.momentum = None
    with torch.no_grad():
        for b, s, _ in loader:
            swa_model(b, s)
    print(f"last_val_acc={accuracy(model, bva, sva, yva):.4f}")
    print(f"swa_val_acc={accuracy(swa_model, bva, sva, yva):.4f}")


if __name__ == "__main__":
    main()
