"""A Cora-like citation graph for pytorch/examples gcn, in ./cora/.

cora.content rows are "paper-id word-indicators... class-label", cora.cites rows are
"cited-id citing-id", the format the example's load_cora reads. 2708 papers in 7 classes
(the example's split takes 1000 test, 500 validation, the rest training); words depend on
the class and 82% of the citations stay within a class, so both features and graph carry
signal.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _synth import cora_like  # noqa: E402

cora_like("cora", n_nodes=2708, n_feats=600, n_classes=7, seed=0)
