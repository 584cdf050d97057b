import random
import zlib

import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

BUCKETS = 512
MAXTOK = 8
ACTIONS = ["borrow", "return", "renew", "enquiry"]
WORDS = {
    0: ["chk", "out", "item", "due", "slip"],
    1: ["chk", "in", "shelf", "drop", "bin"],
    2: ["ext", "due", "item", "renew", "date"],
    3: ["qry", "cat", "search", "info", "desk"],
}
FILLER = ["term", "t1", "t2", "card", "ok", "beep", "usr"]


def h(tok):
    return zlib.crc32(tok.encode()) % (BUCKETS - 1) + 1


def make(n, rnd):
    toks, hours, ys = [], [], []
    for _ in range(n):
        y = rnd.randrange(4)
        words = rnd.sample(WORDS[y], 2) + rnd.sample(FILLER, 3)
        if rnd.random() < 0.3:
            words[0] = rnd.choice(WORDS[rnd.randrange(4)])
        ids = [h(w) for w in words] + [0] * (MAXTOK - len(words))
        toks.append(ids)
        hours.append([rnd.uniform(9, 20) / 24])
        ys.append(y)
    return TensorDataset(torch.tensor(toks), torch.tensor(hours), torch.tensor(ys))


class TapClassifier(L.LightningModule):
    def __init__(self, dim=32, lr=5e-3):
        super().__init__()
        self.save_hyperparameters()
        self.bag = nn.EmbeddingBag(BUCKETS, dim, mode="mean", padding_idx=0)
        self.head = nn.Sequential(nn.Linear(dim + 1, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 4))
        self.val_correct = 0
        self.val_seen = 0

    def forward(self, toks, hour):
        return self.head(torch.cat([self.bag(toks), hour], 1))

    def training_step(self, batch, _):
        toks, hour, y = batch
        loss = nn.functional.cross_entropy(self(toks, hour), y)
        self.log("train_loss", loss.item(), prog_bar=False)
        return loss

    def validation_step(self, batch, _):
        toks, hour, y = batch
        with torch.no_grad():
            pred = self(toks, hour).argmax(1)
        self.val_correct += (pred == y).sum().item()
        self.val_seen += len(y)

    def on_validation_epoch_start(self):
        self.val_correct = self.val_seen = 0

    def on_validation_epoch_end(self):
        self.last_acc = self.val_correct / max(self.val_seen, 1)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def main():
    L.seed_everything(5, verbose=False)
    rnd = random.Random(5)
    train, val = make(3000, rnd), make(600, rnd)
    model = TapClassifier()
    trainer = L.Trainer(max_epochs=6, accelerator="cpu", devices=1, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False, num_sanity_val_steps=0)
    trainer.fit(model, DataLoader(train, batch_size=64, shuffle=True), DataLoader(val, batch_size=200))
    print(f"val_acc={model.last_acc:.4f}")


if __name__ == "__main__":
    main()
