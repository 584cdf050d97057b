"""The kind of an expression as renaming sees it (a repo module, class, instance or
function, a library object, an argparse namespace, a loaded config, or unknown), how the
kinds of several values join, and the library calls whose result kind is known."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Tag = Literal["module", "class", "instance", "function", "lib", "namespace", "config", "unknown"]

CONFIG_LOADERS = frozenset(
    {
        "json.load", "json.loads", "yaml.safe_load", "yaml.load", "yaml.full_load",
        "yaml.unsafe_load", "tomllib.load", "tomllib.loads", "tomli.load", "tomli.loads",
        "toml.load", "toml.loads", "configparser.ConfigParser", "configparser.RawConfigParser",
        "configparser.SafeConfigParser",
    }
)  # fmt: skip
# library calls that hand back (a copy of) what they were given, or anything at all
SAME_AS_ARGUMENT = frozenset({"copy.deepcopy", "copy.copy"})
OPAQUE_CALLS = frozenset(
    {
        "builtins.getattr", "builtins.next", "builtins.iter", "builtins.max", "builtins.min",
        "builtins.sorted", "builtins.reversed", "builtins.list", "builtins.tuple",
        "typing.cast", "functools.partial", "torch.load", "pickle.load", "pickle.loads",
        "torch.compile", "torch.jit.script", "torch.jit.trace", "builtins.super",
        "builtins.vars", "dataclasses.replace", "builtins.type",
    }
)  # fmt: skip
# nn.Module methods that return the module itself
SELF_RETURNING = frozenset(
    {"to", "cuda", "cpu", "train", "eval", "float", "double", "half", "bfloat16",
     "requires_grad_", "apply", "type", "share_memory", "to_empty"}
)  # fmt: skip


@dataclass(frozen=True)
class Kind:
    tag: Tag
    refs: frozenset = frozenset()  # module files / class keys / function keys
    path: str | None = None  # a library object's dotted path, when known
    strong: bool = True  # a library object for sure (not an item taken out of one)

    @property
    def is_unknown(self) -> bool:
        return self.tag == "unknown"


UNKNOWN = Kind("unknown")
WEAK_LIB = Kind("lib", strong=False)


def join(kinds: list[Kind]) -> Kind:
    if not kinds:
        return UNKNOWN
    first = kinds[0]
    if all(k == first for k in kinds):
        return first
    tags = {k.tag for k in kinds}
    if tags == {"instance"} or tags == {"class"}:
        refs = frozenset().union(*(k.refs for k in kinds))
        return Kind(first.tag, refs)
    if tags == {"lib"}:
        return Kind("lib", strong=all(k.strong for k in kinds))
    if tags == {"config"}:
        return first
    return UNKNOWN
