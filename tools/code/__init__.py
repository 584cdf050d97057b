"""Code tools: a tree-sitter index of a repo, reading tools and static checks.

The public API (everything else in the package is internal):

    index = CodeIndex.build(Path("repo"))
    index.enclosing_symbol("model.py", 41)        # -> "Net.forward"
    read_target(index, "model.py:Net.forward")    # numbered source, bounded window
    search_code(index, r"zero_grad")              # file:line (symbol): line
    run_static_checks(index)                      # -> list[Finding], all `plausible`
    locate(index)                                 # where the optimizer, loss, model... are
"""

from torch_investigate.tools.code.checks import registered_checks, run_static_checks
from torch_investigate.tools.code.index import UNKNOWN_SYMBOL, CodeIndex
from torch_investigate.tools.code.locate import CodeMap, locate
from torch_investigate.tools.code.read import read_lines, read_symbol, read_target
from torch_investigate.tools.code.records import (
    MODULE_SYMBOL,
    Assignment,
    CallSite,
    ImportBinding,
    LoopEvent,
    ParseIssue,
    SkippedFile,
    Symbol,
    TrainingLoop,
)
from torch_investigate.tools.code.search import SearchHit, find_code, search_code
from torch_investigate.tools.code.sites import Site

__all__ = [
    "MODULE_SYMBOL",
    "UNKNOWN_SYMBOL",
    "Assignment",
    "CallSite",
    "CodeIndex",
    "CodeMap",
    "ImportBinding",
    "LoopEvent",
    "ParseIssue",
    "SearchHit",
    "Site",
    "SkippedFile",
    "Symbol",
    "TrainingLoop",
    "find_code",
    "locate",
    "read_lines",
    "read_symbol",
    "read_target",
    "registered_checks",
    "run_static_checks",
    "search_code",
]
