import torch
import torch.nn as nn


def circ_block(c_in, c_out, k=5):
    return nn.Sequential(
        nn.Conv1d(c_in, c_out, k, padding=k // 2, padding_mode="circular"),
        nn.BatchNorm1d(c_out),
        nn.ReLU(inplace=True),
    )


class PolarNet(nn.Module):
    def __init__(self, n_classes, width=32, p_drop=0.3):
        super().__init__()
        self.features = nn.Sequential(circ_block(1, width), circ_block(width, width), circ_block(width, 2 * width))
        self.head = nn.Sequential(nn.Linear(2 * width, 64), nn.ReLU(), nn.Dropout(p_drop), nn.Linear(64, n_classes))

    def forward(self, prof):  # prof: (B, n_bins)
        h = self.features(prof.unsqueeze(1))
        return self.head(h.amax(dim=2))

    @torch.no_grad()
    def predict(self, prof, mc_samples=1):
        """Class probabilities; with mc_samples > 1 dropout stays on and samples are averaged."""
        was_training = self.training
        self.train(mc_samples >= 1)
        probs = torch.stack([self(prof).softmax(-1) for _ in range(mc_samples)]).mean(0)
        self.train(was_training)
        return probs
