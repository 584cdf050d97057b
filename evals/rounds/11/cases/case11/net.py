from contextlib import contextmanager

import torch
import torch.nn as nn


class SpectraCNN(nn.Module):
    def __init__(self, n_classes, width=16, p_drop=0.3):
        super().__init__()

        def block(cin, cout):
            return nn.Sequential(nn.Conv1d(cin, cout, 7, padding=3), nn.BatchNorm1d(cout), nn.ReLU(),
                                 nn.MaxPool1d(2))

        self.features = nn.Sequential(block(1, width), block(width, 2 * width), block(2 * width, 2 * width))
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Linear(2 * width * 32, 64), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Dropout(p_drop),
            nn.Linear(64, n_classes),
        )

    def forward(self, x):
        return self.head(self.features(x.unsqueeze(1)))


@contextmanager
def inference(model):
    """Switch to inference behaviour for a block, then restore the previous mode."""
    was_training = model.training
    model.train(was_training)
    try:
        with torch.no_grad():
            yield model
    finally:
        model.train(was_training)


def random_peak_shift(x, max_shift, gen):
    """Augmentation: roll each spectrum by a random integer offset along the axis."""
    shifts = torch.randint(-max_shift, max_shift + 1, (x.shape[0],), generator=gen)
    idx = (torch.arange(x.shape[1])[None, :] - shifts[:, None]) % x.shape[1]
    return torch.gather(x, 1, idx)
