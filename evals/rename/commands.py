"""Command lines after a rename: `python train.py --batch-size 8`, `python -m pkg.train`,
a Makefile recipe, a `[project.scripts]` entry, a README's code block. Script paths,
module paths and long options are mapped; everything else (data paths, env prefixes,
make targets) is left as written.

The README keeps only its fenced blocks that run something, rewritten; its prose goes.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

# what a README line that runs something starts with (after VAR=value words)
RUNNERS = frozenset({"python", "python3", "make", "bash", "sh", "uv", "torchrun", "accelerate",
                     "env", "pip", "conda", "cd", "export"})  # fmt: skip


class CommandMap(BaseModel):
    """What a command line needs from a rename: file paths, dotted modules, options."""

    paths: dict[str, str] = Field(default_factory=dict)  # "scripts/train.py" -> "scripts/m4.py"
    modules: dict[str, str] = Field(default_factory=dict)  # "pkg.train" -> "m1.m4"
    flags: dict[str, str] = Field(default_factory=dict)  # "--batch-size" -> "--v3"
    functions: dict[str, str] = Field(default_factory=dict)  # module-level spelling -> new

    def line(self, line: str) -> str:
        """One shell line with its words mapped (spacing and quoting kept)."""
        out = []
        previous = ""
        for word in re.split(r"(\s+)", line):
            if not word or word.isspace():
                out.append(word)
                continue
            out.append(self.word(word, previous))
            previous = word
        return "".join(out)

    def word(self, word: str, previous: str = "") -> str:
        quote = word[0] if word[0] in "\"'`" and word[-1:] == word[0] and len(word) > 1 else ""
        inner = word[1:-1] if quote else word
        return quote + self._inner(inner, previous) + quote

    def _inner(self, word: str, previous: str) -> str:
        if previous == "-m":
            return self.modules.get(word, word)
        if word.startswith("--"):
            flag, eq, value = word.partition("=")
            return self.flags.get(flag, flag) + eq + value
        if word.endswith(".py"):
            lead = "./" if word.startswith("./") else ""
            path = word[len(lead) :]
            return lead + self.paths.get(path, path)
        return word

    def command(self, cmd: str) -> str:
        return self.line(cmd)

    def makefile(self, text: str) -> str:
        lines = []
        for line in text.split("\n"):
            if line.lstrip().startswith("#"):
                lines.append("")
                continue
            lines.append(self.line(_drop_shell_comment(line)))
        return "\n".join(lines)

    def shell(self, text: str) -> str:
        lines = []
        for i, line in enumerate(text.split("\n")):
            if line.lstrip().startswith("#") and not (i == 0 and line.startswith("#!")):
                lines.append("")
                continue
            lines.append(self.line(_drop_shell_comment(line)))
        return "\n".join(lines)

    def readme(self, text: str) -> str | None:
        """The README's fenced blocks that run something, mapped; None when none does."""
        blocks: list[tuple[str, list[str]]] = []
        fence: str | None = None
        current: list[str] = []
        opener = ""
        for line in text.split("\n"):
            stripped = line.strip()
            if fence is None and stripped.startswith(("```", "~~~")):
                fence, opener, current = stripped[:3], stripped, []
                continue
            if fence is not None and stripped.startswith(fence):
                kept = [c for c in current if _runs_something(c)]
                if kept:
                    blocks.append((opener, kept))
                fence = None
                continue
            if fence is not None:
                if stripped.startswith("#"):
                    continue
                current.append(self.line(_drop_shell_comment(line)).rstrip())
        if not blocks:
            return None
        parts = [f"{opener}\n" + "\n".join(lines) + f"\n{opener[:3]}\n" for opener, lines in blocks]
        return "\n".join(parts)

    def pyproject(self, text: str) -> str:
        """`[project.scripts]` targets and setuptools package lists, as quoted strings."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return text
        values: set[str] = set()
        values.update(data.get("project", {}).get("scripts", {}).values())
        setuptools = data.get("tool", {}).get("setuptools", {})
        if isinstance(setuptools.get("packages"), list):
            values.update(setuptools["packages"])
        for value in sorted(values, key=len, reverse=True):
            new = self._entry(value)
            if new != value:
                text = text.replace(f'"{value}"', f'"{new}"').replace(f"'{value}'", f"'{new}'")
        return text

    def _entry(self, value: str) -> str:
        module, colon, attr = value.partition(":")
        new_module = self.modules.get(module, module)
        new_attr = ".".join(self.functions.get(p, p) for p in attr.split(".")) if attr else ""
        return new_module + colon + new_attr

    def code_string(self, content: str) -> str | None:
        """A string in the code that runs or names a repo script (`"python make_data.py"`,
        `"scripts/prepare.py"`): mapped, or None when it names none."""
        if ".py" not in content and "-m " not in content:
            return None
        new = self.line(content)
        return new if new != content else None


def _runs_something(line: str) -> bool:
    words = [w for w in line.replace("$ ", "", 1).split() if "=" not in w or w.startswith("-")]
    if not words:
        return False
    first = words[0]
    return first in RUNNERS or first.startswith(("./", "python3.", "$(")) or first.endswith(".py")


def _drop_shell_comment(line: str) -> str:
    """The line without a trailing ` # comment` (outside quotes)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and i > 0 and line[i - 1] in " \t":
            return line[:i].rstrip()
    return line
