"""A stand-in for the sliver of pandas that victoresque/pytorch-template's MetricTracker
uses: a DataFrame of float columns over a fixed index, written through column views.

pandas is not installed here (the template's requirements.txt does not list it either).
Only this is provided: DataFrame(index=..., columns=...), .columns, df[col] and
df.<col> as Series views, Series.values (writable), item get/set by label, keys() and
iteration, so that `dict(df.average)` works.
"""

import numpy as np

__version__ = "0.0.0+standin"


class Series:
    def __init__(self, values, index):
        self.values = values  # a view into the frame's storage: writes go through
        self.index = list(index)
        self._pos = {key: i for i, key in enumerate(self.index)}

    def __getitem__(self, key):
        return self.values[self._pos[key]]

    def __setitem__(self, key, value):
        self.values[self._pos[key]] = value

    def keys(self):
        return list(self.index)

    def __iter__(self):
        return iter(self.values)

    def __len__(self):
        return len(self.index)


class DataFrame:
    def __init__(self, data=None, index=None, columns=None):
        if data is not None:
            raise NotImplementedError("the pandas stand-in builds empty frames only")
        self.index = list(index or [])
        self.columns = list(columns or [])
        self._store = np.full((len(self.columns), len(self.index)), np.nan, dtype=np.float64)

    def __getitem__(self, column):
        return Series(self._store[self.columns.index(column)], self.index)

    def __getattr__(self, name):
        if name.startswith("_") or name not in self.columns:
            raise AttributeError(name)
        return self[name]
