"""The install hint for an optional extra names a command that works where we run: the
checkout with its extra, or, from an installed wheel, the extra's requirements by name
(torch-investigate is not on the package index, so `pip install 'torch-investigate[mcp]'`
cannot work)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from torch_investigate.tools import extras

ROOT = Path(__file__).resolve().parents[1]


def test_from_a_checkout_the_checkout_is_installed_with_its_extra():
    assert extras.checkout() == ROOT
    hint = extras.install_hint("mcp")
    words = shlex.split(hint.split(" (")[0])
    assert words == [sys.executable, "-m", "pip", "install", "-e", f"{ROOT}[mcp]"]
    assert "torch-investigate[mcp]" not in hint


def test_from_a_wheel_the_extras_requirements_are_named(monkeypatch):
    monkeypatch.setattr(extras, "checkout", lambda: None)
    listed = ['torch>=2.1', 'mcp<3,>=2.3; extra == "mcp"', 'ray[client]>=2.9; extra == "ray"',
              'mcp<3,>=2.3; extra == "test"']  # fmt: skip
    monkeypatch.setattr(extras.metadata, "requires", lambda _name: listed)
    assert extras.requirements("mcp") == ["mcp<3,>=2.3"]
    hint = extras.install_hint("mcp")
    assert shlex.split(hint.split(" (")[0]) == [
        sys.executable,
        "-m",
        "pip",
        "install",
        "mcp<3,>=2.3",
    ]
    assert extras.requirements("ray") == ["ray[client]>=2.9"]
