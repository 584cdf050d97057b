import logging
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from . import checkpoint
from .model import SpectrumAutoencoder
from .spectra import N_BINS, simulate

log = logging.getLogger(__name__)


def reconstruction_mse(model, loader):
    model.eval()
    total, n = 0.0, 0
    with torch.no_grad():
        for (spec,) in loader:
            total += torch.sum((model(spec) - spec) ** 2).item()
            n += spec.numel()
    return total / n


def train(args):
    torch.manual_seed(args.seed)
    train_x = torch.from_numpy(simulate(args.n_train, seed=args.seed))
    test_x = torch.from_numpy(simulate(args.n_test, seed=args.seed + 1))
    train_loader = DataLoader(TensorDataset(train_x), batch_size=args.batch_size, shuffle=True,
                              generator=torch.Generator().manual_seed(args.seed))
    test_loader = DataLoader(TensorDataset(test_x), batch_size=512)

    model = SpectrumAutoencoder(N_BINS, hidden=tuple(args.hidden), latent_dim=args.latent_dim)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    baseline = torch.mean((test_x - train_x.mean(0)) ** 2).item()
    log.info("mean-spectrum baseline mse %.5f", baseline)

    for epoch in range(1, args.epochs + 1):
        model.train()
        t0 = time.time()
        losses = []
        for (spec,) in train_loader:
            recon = model(spec)
            loss = torch.mean((recon - spec) ** 2)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        test_mse = reconstruction_mse(model, test_loader)
        checkpoint.save(model, optimizer, epoch, {"test_mse": test_mse}, args.ckpt_dir)
        log.info("epoch %2d  train_mse %.5f  test_mse %.5f  (%.1fs)",
                 epoch, float(np.mean(losses)), test_mse, time.time() - t0)

    final = reconstruction_mse(model, test_loader)
    log.info("final test reconstruction mse: %.5f (baseline %.5f)", final, baseline)
    return final
