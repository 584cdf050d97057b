import argparse
import logging
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
import lightning as L

from pantry import pantry_table, make_packs, N_ITEMS


class PackEncoder(L.LightningModule):
    def __init__(self, d_hidden=64, lr=3e-3):
        super().__init__()
        self.save_hyperparameters()
        facts = torch.from_numpy(pantry_table())
        # nutrition facts are reference values from the pantry sheet; they are
        # not learned, only the small per-item correction is
        self.facts = nn.Embedding.from_pretrained(facts, freeze=False)
        self.facts.weight.requires_grad_(False)
        self.correction = nn.Embedding(N_ITEMS, 4)
        nn.init.zeros_(self.correction.weight)
        self.phi = nn.Sequential(nn.Linear(facts.shape[1] + 4, d_hidden), nn.ReLU(),
                                 nn.Linear(d_hidden, d_hidden), nn.ReLU())
        self.rho = nn.Sequential(nn.Linear(d_hidden, d_hidden), nn.ReLU(),
                                 nn.Linear(d_hidden, 3))
        self.val_hits = 0
        self.val_seen = 0

    def forward(self, items, mask):
        e = torch.cat([self.facts(items), self.correction(items)], -1)
        h = self.phi(e) * mask.unsqueeze(-1)
        return F.log_softmax(self.rho(h.sum(1)), dim=-1)

    def training_step(self, batch, batch_idx):
        items, mask, y = batch
        loss = F.nll_loss(self(items, mask), y)
        self.log("train_loss", loss.item(), prog_bar=False)
        return loss

    def on_validation_epoch_start(self):
        self.val_hits, self.val_seen = 0, 0

    def validation_step(self, batch, batch_idx):
        items, mask, y = batch
        logp = self(items, mask)
        self.val_hits += (logp.argmax(-1) == y).sum().item()
        self.val_seen += len(y)
        self.log("val_loss", F.nll_loss(logp, y))

    def on_validation_epoch_end(self):
        self.log("val_acc", self.val_hits / max(self.val_seen, 1))

    def configure_optimizers(self):
        trainable = [p for p in self.parameters() if p.requires_grad]
        return torch.optim.Adam(trainable, lr=self.hparams.lr)


def loader(n, seed, shuffle):
    items, mask, y = make_packs(n, seed)
    ds = TensorDataset(torch.from_numpy(items), torch.from_numpy(mask), torch.from_numpy(y))
    return DataLoader(ds, batch_size=64, shuffle=shuffle)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-epochs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    logging.getLogger("lightning").setLevel(logging.ERROR)
    logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore")
    L.seed_everything(args.seed, verbose=False)

    model = PackEncoder()
    trainer = L.Trainer(max_epochs=args.max_epochs, accelerator="cpu", devices=1,
                        logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(model, loader(3000, args.seed, True), loader(800, args.seed + 1, False))
    acc = trainer.callback_metrics["val_acc"].item()
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
