"""torch-investigate: finds why a PyTorch model runs but does not learn.

The repo keeps its folders at the top (agent/, tools/, prompts/, evals/); the installed
package maps them under this one namespace (`torch_investigate.agent`, ...), so nothing
we ship shadows a user's own `tools` or `agent` package.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("torch-investigate")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"
