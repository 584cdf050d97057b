"""Stage 1: denoising-autoencoder pretraining on the unlabeled pool."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def pretrain_encoder(encoder, decoder, images, *, epochs, lr, batch_size, mask_prob, seed, log=print):
    loader = DataLoader(TensorDataset(images), batch_size=batch_size, shuffle=True,
                        generator=torch.Generator().manual_seed(seed))
    params = list(encoder.parameters()) + list(decoder.parameters())
    opt = torch.optim.Adam(params, lr=lr)
    gen = torch.Generator().manual_seed(seed + 1)
    for epoch in range(1, epochs + 1):
        encoder.train()
        decoder.train()
        total = 0.0
        for (x,) in loader:
            keep = (torch.rand(x.shape, generator=gen) > mask_prob).float()
            recon = decoder(encoder(x * keep))
            loss = F.mse_loss(recon, x)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(x)
        log(f"[pretrain] epoch {epoch:2d}  recon_mse {total / len(images):.4f}")
    return encoder
