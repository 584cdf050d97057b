import torch
import torch.nn as nn
import torch.nn.functional as F


class VectorQuantizer(nn.Module):
    def __init__(self, n_codes=64, dim=16, beta=0.25):
        super().__init__()
        self.beta = beta
        self.codebook = nn.Embedding(n_codes, dim)
        self.codebook.weight.data.uniform_(-1.0 / n_codes, 1.0 / n_codes)

    def forward(self, z_e):
        # z_e: (B, D, T) -> quantize each time step
        B, D, T = z_e.shape
        flat = z_e.permute(0, 2, 1).reshape(-1, D)
        d = (flat.pow(2).sum(1, keepdim=True) - 2 * flat @ self.codebook.weight.t()
             + self.codebook.weight.pow(2).sum(1))
        codes = d.argmin(dim=1)
        z_q = self.codebook(codes).view(B, T, D).permute(0, 2, 1)

        codebook_loss = F.mse_loss(z_q, z_e.detach())
        commitment = F.mse_loss(z_e, z_q.detach())
        # straight-through: forward uses z_q, backward copies the gradient to z_e
        z_st = z_e + (z_q - z_e).detach()

        probs = torch.bincount(codes, minlength=self.codebook.num_embeddings).float() / codes.numel()
        perplexity = torch.exp(-(probs * (probs + 1e-10).log()).sum())
        return z_st, codebook_loss + self.beta * commitment, perplexity.item()


class VQVAE(nn.Module):
    def __init__(self, dim=16, n_codes=64):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv1d(1, 32, 4, stride=2, padding=1), nn.ReLU(),
            nn.Conv1d(32, 32, 4, stride=2, padding=1), nn.ReLU(),
            nn.Conv1d(32, dim, 4, stride=2, padding=1),
        )
        self.vq = VectorQuantizer(n_codes, dim)
        self.dec = nn.Sequential(
            nn.ConvTranspose1d(dim, 32, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose1d(32, 32, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose1d(32, 1, 4, stride=2, padding=1),
        )

    def forward(self, x):
        z_q, vq_loss, ppl = self.vq(self.enc(x))
        return self.dec(z_q), vq_loss, ppl
