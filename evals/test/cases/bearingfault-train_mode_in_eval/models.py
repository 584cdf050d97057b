import torch.nn as nn


def mlp_block(n_in, n_out, p_drop):
    return nn.Sequential(nn.Linear(n_in, n_out), nn.BatchNorm1d(n_out), nn.ReLU(), nn.Dropout(p_drop))


class SpectrumNet(nn.Module):
    def __init__(self, n_bins, n_classes, width=128, p_drop=0.5):
        super().__init__()
        self.features = nn.Sequential(
            nn.BatchNorm1d(n_bins),
            mlp_block(n_bins, width, p_drop),
            mlp_block(width, width, p_drop),
        )
        self.fc = nn.Linear(width, n_classes)

    def forward(self, spectra):
        return self.fc(self.features(spectra))
