import argparse
import logging
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from . import PATTERNS
from .metrics import AccuracyMeter, PerClassCounter, RunningMean
from .net import WaferCNN
from .simulate import simulate_wafers

logger = logging.getLogger("wafermap")


def make_loader(n, seed, batch_size, shuffle):
    maps, labels = simulate_wafers(n, seed)
    ds = TensorDataset(torch.from_numpy(maps).unsqueeze(1), torch.from_numpy(labels))
    gen = torch.Generator().manual_seed(seed)
    return DataLoader(ds, batch_size=batch_size, shuffle=shuffle, generator=gen)


def run_eval(model, loader, criterion):
    model.eval()
    loss_meter, acc_meter = RunningMean(), AccuracyMeter()
    with torch.no_grad():
        for maps, pattern in loader:
            logits = model(maps)
            loss_meter.update(criterion(logits, pattern).item(), len(pattern))
            acc_meter.update(logits, pattern)
    return loss_meter.value, acc_meter.value


def main(argv=None):
    parser = argparse.ArgumentParser(prog="wafermap")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--n-train", type=int, default=2400)
    parser.add_argument("--n-val", type=int, default=600)
    parser.add_argument("--n-test", type=int, default=600)
    parser.add_argument("--channels", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="artifacts")
    args = parser.parse_args(argv)

    logging.basicConfig(level=logging.INFO, format="[%(name)s] %(message)s")
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    train_loader = make_loader(args.n_train, args.seed, args.batch_size, shuffle=True)
    val_loader = make_loader(args.n_val, args.seed + 1, 256, shuffle=False)
    test_loader = make_loader(args.n_test, args.seed + 2, 256, shuffle=False)

    counts = PerClassCounter(len(PATTERNS))
    for _, pattern in train_loader:
        counts.update(pattern)
    logger.info("train class counts: %s", dict(zip(PATTERNS, counts.hist.tolist())))

    model = WaferCNN(len(PATTERNS), channels=args.channels)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(1, args.epochs + 1):
        model.train()
        train_loss = RunningMean()
        for maps, pattern in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(maps), pattern)
            loss.backward()
            optimizer.step()
            train_loss.update(loss.item(), len(pattern))
        val_loss, val_acc = run_eval(model, val_loader, criterion)
        logger.info("epoch %02d train_loss=%.4f val_loss=%.4f val_acc=%.4f",
                    epoch, train_loss.value, val_loss, val_acc)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), out / "wafer_cnn.pt")
    test_loss, test_acc = run_eval(model, test_loader, criterion)
    logger.info("test_loss=%.4f test_acc=%.4f", test_loss, test_acc)


if __name__ == "__main__":
    main()
