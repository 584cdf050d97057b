import argparse

import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_REGIONS = 20


def caches(n, rng, region_vec):
    region = rng.integers(0, N_REGIONS, size=n)
    x = rng.standard_normal((n, 6)).astype(np.float32)
    score = 1.2 * x[:, 0] - 0.9 * x[:, 1] + 0.7 * x[:, 2] * x[:, 3] + 1.5 * region_vec[region, 0]
    score += 0.3 * rng.standard_normal(n)
    y = np.digitize(score, [-1.2, 0.0, 1.2])
    return TensorDataset(torch.from_numpy(x), torch.from_numpy(region), torch.from_numpy(y))


class FindSuccess(L.LightningModule):
    def __init__(self, region_vec, lr=3e-3):
        super().__init__()
        self.region = nn.Embedding.from_pretrained(torch.tensor(region_vec, dtype=torch.float32))
        self.region.weight.requires_grad_(False)  # reused from the region-popularity model
        self.mlp = nn.Sequential(nn.Linear(6 + 4, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 4))
        self.lr = lr
        self.val_correct, self.val_seen = 0, 0

    def forward(self, x, r):
        return F.log_softmax(self.mlp(torch.cat([x, self.region(r)], 1)), dim=-1)

    def training_step(self, batch, _):
        x, r, y = batch
        loss = F.nll_loss(self(x, r), y)  # log-probs in, so NLL rather than cross_entropy
        self.log("train_loss", loss.item(), prog_bar=False)
        return loss

    def validation_step(self, batch, _):
        x, r, y = batch
        self.val_correct += (self(x, r).argmax(-1) == y).sum().item()
        self.val_seen += len(y)

    def on_validation_epoch_start(self):
        self.val_correct, self.val_seen = 0, 0

    def configure_optimizers(self):
        return torch.optim.Adam(filter(lambda p: p.requires_grad, self.parameters()), lr=self.lr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max_epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    L.seed_everything(args.seed, verbose=False)
    rng = np.random.default_rng(args.seed)
    region_vec = np.random.default_rng(42).standard_normal((N_REGIONS, 4)).astype(np.float32) * 0.8
    tr = DataLoader(caches(3000, rng, region_vec), batch_size=64, shuffle=True)
    va = DataLoader(caches(600, rng, region_vec), batch_size=300)
    model = FindSuccess(region_vec)
    trainer = L.Trainer(max_epochs=args.max_epochs, accelerator="cpu", logger=False,
                        enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(model, tr, va)
    print(f"val_acc={model.val_correct / model.val_seen:.4f}")


if __name__ == "__main__":
    main()
