"""Write a synthetic storm table to data/storms.npz."""
import os

import numpy as np

NAMES = ["refl_max_dbz", "echo_top_km", "vil_kgm2", "freezing_lvl_km",
         "cape_jkg", "shear_06_ms", "updraft_ms", "melt_depth_km"]


def main(n=3000, seed=11):
    rng = np.random.default_rng(seed)
    refl = rng.normal(55, 6, n)
    top = rng.normal(11, 2, n)
    vil = np.clip(rng.normal(35, 12, n), 2, None)
    frz = rng.normal(3.8, 0.6, n)
    cape = np.clip(rng.gamma(2.0, 900, n), 50, None)
    shear = np.clip(rng.normal(18, 7, n), 0, None)
    updraft = np.sqrt(2 * cape) * rng.uniform(0.3, 0.6, n)
    melt = np.clip(frz - rng.normal(0.5, 0.3, n), 0.2, None)
    # growth ~ updraft residence and liquid water, shrink by melting on the way down
    log_d = (1.2 + 0.045 * (refl - 55) + 0.028 * (vil - 35) + 0.02 * updraft
             + 0.012 * shear + 0.004 * (top - 11) * shear - 0.35 * melt
             + 0.08 * np.tanh((cape - 2000) / 800))
    log_d = log_d + rng.normal(0, 0.12, n)
    diam = np.exp(log_d) * 5.0                          # mm
    x = np.stack([refl, top, vil, frz, cape, shear, updraft, melt], 1).astype(np.float32)
    os.makedirs("data", exist_ok=True)
    np.savez("data/storms.npz", x=x, diameter_mm=diam.astype(np.float32), names=np.array(NAMES))
    print(f"wrote {n} storms, median diameter {np.median(diam):.1f} mm")


if __name__ == "__main__":
    main()
