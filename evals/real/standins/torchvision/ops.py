"""Names only: torchmetrics imports a few torchvision.ops at import time when it sees
torchvision installed. No repo of the suite calls one; calling one says so."""


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)

    def unavailable(*args, **kwargs):
        raise NotImplementedError(f"torchvision.ops.{name} is not part of the suite's stand-in")

    unavailable.__name__ = name
    return unavailable
