"""traindata.pt for pytorch/examples time_sequence_prediction: noisy-phase sine waves.

The same format the repo's generate_sine_wave.py writes (a float64 numpy array of shape
(N, L), saved with torch.save), made shorter (N=60, L=400) so a CPU run stays short.
"""

import numpy as np
import torch

rng = np.random.default_rng(2)
T, L, N = 20, 200, 40
x = np.empty((N, L), "int64")
x[:] = np.arange(L) + rng.integers(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype("float64")
torch.save(data, open("traindata.pt", "wb"))
