import numpy as np

S = 32


def _smooth_noise(rng, n, scale):
    f = np.fft.fft2(rng.normal(size=(n, S, S)))
    k = np.fft.fftfreq(S)
    kk = np.sqrt(k[:, None] ** 2 + k[None, :] ** 2)
    return np.real(np.fft.ifft2(f * np.exp(-(kk * scale) ** 2)))


def make_tiles(n, seed):
    rng = np.random.default_rng(seed)
    elev = _smooth_noise(rng, n, 12.0)
    elev = elev / elev.std(axis=(1, 2), keepdims=True)
    # creeks: narrow low channels
    creek = _smooth_noise(rng, n, 6.0)
    creek = np.abs(creek / creek.std(axis=(1, 2), keepdims=True)) < 0.15
    elev = elev - 1.5 * creek
    veg = (elev > rng.uniform(-0.4, 0.3, (n, 1, 1))) & ~creek
    nir = 0.25 + 0.35 * veg + 0.45 * rng.normal(size=veg.shape)
    red = 0.20 - 0.08 * veg + 0.15 * rng.normal(size=veg.shape)
    el = elev + 0.8 * rng.normal(size=veg.shape)
    x = np.stack([nir, red, el], 1).astype(np.float32)
    return x, veg[:, None].astype(np.float32)
