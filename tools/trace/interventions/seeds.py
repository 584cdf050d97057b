"""The program's own seeds shifted (`reseed`): the same run by another draw of chance.

Two runs of one program that differ only in their seeds differ by chance alone; how much
they do is the spread an intervention's effect must exceed. A program that seeds itself
(`torch.manual_seed(42)`, `random.seed(cfg.seed)`, `np.random.seed(0)`) would undo the
tracer's own seed, so each such call gets the shifted value instead.
"""

from __future__ import annotations

from ..recorder import Recorder


def shifted(rec: Recorder, seed: object) -> object:
    """The seed a program's seed call gets under `reseed`: its own plus the shift (a value
    that is not an integer is passed on unchanged)."""
    shift = rec.cfg.interventions.reseed
    if not shift or isinstance(seed, bool) or not isinstance(seed, int):
        return seed
    return seed + shift
