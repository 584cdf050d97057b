"""A stand-in for matplotlib: plotting calls do nothing and savefig writes an empty file.

The suite's venv has no matplotlib, and a training run's learning does not depend on its
plots. Only the calls the suite's repos make are provided.
"""

__version__ = "0.0.0+standin"


def use(backend, *args, **kwargs):
    pass
