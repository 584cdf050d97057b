import torch
from torch.utils.data import Dataset


def log_compress(power, floor=1e-4):
    return torch.log(power.clamp_min(floor))


def spec_augment(x, freq_masks, freq_width, time_masks, time_width, gen):
    """SpecAugment on a single (F, T) log-spectrogram; masked cells get the utterance mean."""
    x = x.clone()
    fill = x.mean()
    n_freq, n_frames = x.shape
    for _ in range(freq_masks):
        w = int(torch.randint(0, freq_width + 1, (1,), generator=gen))
        f0 = int(torch.randint(0, n_freq - w + 1, (1,), generator=gen))
        x[f0:f0 + w, :] = fill
    for _ in range(time_masks):
        w = int(torch.randint(0, time_width + 1, (1,), generator=gen))
        t0 = int(torch.randint(0, n_frames - w + 1, (1,), generator=gen))
        x[:, t0:t0 + w] = fill
    return x


class FeatureStats:
    """Per-frequency-bin mean/std of log power, fitted on the training split."""

    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    @classmethod
    def fit(cls, logspec):
        mean = logspec.mean(dim=(0, 2), keepdim=True)[0]
        std = logspec.std(dim=(0, 2), keepdim=True)[0].clamp_min(1e-3)
        return cls(mean, std)

    def __call__(self, x):
        return (x - self.mean) / self.std


class SpectrogramSet(Dataset):
    def __init__(self, power, labels, stats=None, specaug=None, seed=0):
        self.logspec = log_compress(torch.as_tensor(power))
        self.labels = torch.as_tensor(labels)
        self.stats = stats
        self.specaug = specaug
        self.gen = torch.Generator().manual_seed(seed)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        x = self.logspec[i]
        if self.stats is not None:
            x = self.stats(x)
        if self.specaug:
            x = spec_augment(x, gen=self.gen, **self.specaug)
        return x.unsqueeze(0), self.labels[i]
