"""How to install an optional extra (`mcp`, `ray`) in the words that work where we run.

torch-investigate is not on the package index, so `pip install 'torch-investigate[mcp]'`
fails. From a checkout, the checkout is installed with the extra; from an installed
wheel, the extra's own requirements are installed by name (read from the installed
metadata, which pyproject.toml wrote: the one place they are listed). Either way into the
interpreter that runs us.
"""

from __future__ import annotations

import re
import shlex
import sys
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "torch-investigate"


def checkout() -> Path | None:
    """The source checkout we run from, or None when installed from a wheel."""
    # tools/extras.py in a checkout; torch_investigate/tools/extras.py in a wheel
    root = Path(__file__).resolve().parent.parent
    pyproject = root / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if re.search(rf'^name\s*=\s*"{DISTRIBUTION}"', text, re.M) else None


def requirements(extra: str) -> list[str]:
    """The extra's requirements as the installed metadata lists them (`mcp<3,>=2.3`)."""
    try:
        listed = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return []
    marker = re.compile(rf"""^(.*?)\s*;\s*extra\s*==\s*["']{re.escape(extra)}["']\s*$""")
    return [found[1] for found in map(marker.match, listed) if found]


def install_hint(extra: str) -> str:
    """The command that installs `extra`'s packages into this interpreter."""
    pip = f"{shlex.quote(sys.executable)} -m pip install"
    source = checkout()
    if source is not None:
        return (
            f"{pip} -e {shlex.quote(f'{source}[{extra}]')} (this checkout with its {extra} extra)"
        )
    needed = requirements(extra)
    if not needed:
        return f"{pip} {extra} (torch-investigate is not on the package index)"
    return f"{pip} {' '.join(map(shlex.quote, needed))} (the {extra} extra's requirements)"
