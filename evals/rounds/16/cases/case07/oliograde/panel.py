import numpy as np

COLUMNS = ["acidity", "peroxide", "k232", "k270", "polyphenols", "waxes", "defect_median"]


def simulate_lots(n, seed):
    rng = np.random.default_rng(seed)
    quality = rng.normal(size=n)  # latent lot quality (fruit health, milling delay, storage)
    acidity = np.exp(-0.9 + 0.7 * quality + 0.25 * rng.normal(size=n))          # % oleic
    peroxide = np.exp(2.3 + 0.35 * quality + 0.3 * rng.normal(size=n))          # meq O2/kg
    k232 = 1.8 + 0.35 * quality + 0.2 * rng.normal(size=n)
    k270 = 0.15 + 0.05 * quality + 0.03 * rng.normal(size=n)
    polyphenols = np.exp(5.6 - 0.3 * quality + 0.3 * rng.normal(size=n))         # mg/kg
    waxes = 120 + 40 * quality + 30 * rng.normal(size=n)                          # mg/kg
    defect = np.clip(1.5 * quality + 0.5 * rng.normal(size=n) + 1.0, 0, None)
    X = np.column_stack([acidity, peroxide, k232, k270, polyphenols, waxes, defect])

    score = (1.3 * np.log(acidity) + 0.8 * (k232 - 1.8) / 0.35 + 0.9 * defect
             - 0.4 * (np.log(polyphenols) - 5.6) / 0.3)
    grade = np.digitize(score, np.quantile(score, [0.35, 0.65, 0.88]))
    return X.astype(np.float32), grade.astype(np.int64)
