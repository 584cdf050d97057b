"""The repo's own way to run a command on the CPU, for a command that asks for a GPU on a
machine without one: another documented command for the same script with a CPU flag,
else the script's own argparse options (a device option whose default names an
accelerator, a `--cpu` / `--no-cuda` switch, an accelerator switch the command turns
on). The names here only choose among the repo's own options; whether the variant runs
on the CPU is then decided by running it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from torch_investigate.tools.entry import module_file, rank_candidates

# a word in a command line or an option that names the CPU as the device
CPU_WORD = re.compile(r"(^|[=\s:])cpu($|\s)|^--?(cpu|no[-_]?(cuda|gpu|accel\w*|mps))$", re.I)
# an option's default that names an accelerator
ACCELERATOR_DEFAULT = re.compile(r"^(cuda|gpu|mps|xpu)(:\d+)?$", re.I)
# a switch that turns an accelerator on
ACCELERATOR_SWITCH = re.compile(r"^--?(use[-_])?(cuda|gpu|accel\w*|mps)$", re.I)


def cpu_variants(root: Path, argv: list[str], env: dict[str, str]) -> list[tuple[list[str], str]]:
    """Command lines (argv without the interpreter) that run `argv`'s script on the CPU,
    each with where it comes from; best first, none equal to `argv`."""
    found: list[tuple[list[str], str]] = []
    target = _script(root, argv, env)
    for c in rank_candidates(root):
        if _script(root, c.argv, c.env) == target and any(CPU_WORD.search(a) for a in c.argv):
            found.append((c.argv, f"{c.source} documents it"))
    if target is not None:
        options = _options(target)
        variant = list(argv)
        said = []
        for flag, default, store_true in options:
            if store_true and ACCELERATOR_SWITCH.match(flag) and flag in variant:
                variant.remove(flag)
                said.append(f"without {flag}")
            elif store_true and CPU_WORD.search(flag) and flag not in variant:
                variant.append(flag)
                said.append(flag)
            elif isinstance(default, str) and ACCELERATOR_DEFAULT.match(default):
                if flag not in variant:
                    variant += [flag, "cpu"]
                    said.append(f"{flag} cpu")
        if variant != argv:
            found.append((variant, f"the script's own option ({', '.join(said)})"))
    seen: set[tuple[str, ...]] = {tuple(argv)}
    unique = []
    for variant, why in found:
        if tuple(variant) not in seen:
            seen.add(tuple(variant))
            unique.append((variant, why))
    return unique


def _script(root: Path, argv: list[str], env: dict[str, str]) -> Path | None:
    if not argv:
        return None
    if argv[0] == "-m":
        return module_file(root, argv[1], env) if len(argv) > 1 else None
    path = root / argv[0]
    return path.resolve() if path.is_file() and path.suffix == ".py" else None


def _options(script: Path) -> list[tuple[str, object, bool]]:
    """(long flag, default, is a store_true switch) of each `add_argument` in the script."""
    try:
        tree = ast.parse(script.read_text(encoding="utf-8", errors="replace"))
    except SyntaxError:
        return []
    options = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "add_argument"
        ):
            continue
        flags = [
            a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
        ]
        long = next((f for f in flags if f.startswith("--")), flags[0] if flags else None)
        if long is None or not long.startswith("-"):
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        default = kw["default"].value if isinstance(kw.get("default"), ast.Constant) else None
        action = kw["action"].value if isinstance(kw.get("action"), ast.Constant) else None
        options.append((long, default, action == "store_true"))
    return options
