import numpy as np

N_CHANNELS = 24
N_FAMILIES = 6


def simulate(n, seed):
    """Spectra are mixtures of element lines; family sets the composition prior,
    density follows (nonlinearly) from the composition."""
    rng = np.random.default_rng(seed)
    n_elem = 7
    lines = np.abs(rng.standard_normal((n_elem, N_CHANNELS))) ** 2
    lines /= lines.sum(1, keepdims=True)
    fam_prior = rng.dirichlet(np.ones(n_elem) * 0.6, size=N_FAMILIES)
    elem_density = np.array([2.7, 7.9, 8.9, 4.5, 11.3, 19.3, 1.7])
    fam = rng.integers(0, N_FAMILIES, size=n)
    comp = np.stack([rng.dirichlet(fam_prior[f] * 25 + 0.05) for f in fam])
    spectra = comp @ lines * 50 + 0.02 * rng.standard_normal((n, N_CHANNELS))
    inv_rho = (comp / elem_density).sum(1)  # rule of mixtures on specific volume
    density = 1.0 / inv_rho + 0.1 * rng.standard_normal(n)
    return spectra.astype(np.float32), fam.astype(np.int64), density.astype(np.float32)


def get_splits(seed=11):
    X, fam, rho = simulate(4000, seed)
    n_tr = 3200
    return (X[:n_tr], fam[:n_tr], rho[:n_tr]), (X[n_tr:], fam[n_tr:], rho[n_tr:])
