"""No-op pyplot: figure/plot/labels/ticks do nothing; savefig leaves an empty file."""


class _Figure:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def figure(*args, **kwargs):
    return _Figure()


def savefig(fname, *args, **kwargs):
    with open(fname, "wb"):
        pass


def _noop(*args, **kwargs):
    return None


plot = title = xlabel = ylabel = xticks = yticks = close = legend = show = _noop
