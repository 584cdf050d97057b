"""Report rendering: one `Report`, four formats.

    render(report, "md")     Markdown for people (the output of `investigate PATH`)
    render(report, "json")   the record itself, in its versioned schema
    render(report, "sarif")  SARIF 2.1.0 for code scanning
    render(report, "html")   one self-contained page with loss and gradient plots

Renderers only read the report: the same report always renders to the same text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, get_args

from torch_investigate.agent.render.html import to_html
from torch_investigate.agent.render.json_out import to_json
from torch_investigate.agent.render.markdown import to_markdown
from torch_investigate.agent.render.sarif import to_sarif
from torch_investigate.tools.records import Report

Format = Literal["md", "json", "sarif", "html"]
FORMATS: tuple[str, ...] = get_args(Format)

_RENDERERS: dict[str, Callable[[Report], str]] = {
    "md": to_markdown,
    "json": to_json,
    "sarif": to_sarif,
    "html": to_html,
}


def render(report: Report, fmt: Format) -> str:
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        raise ValueError(
            f"unknown report format {fmt!r}: use one of {', '.join(FORMATS)}"
        ) from None
    return renderer(report)


__all__ = ["FORMATS", "Format", "render", "to_html", "to_json", "to_markdown", "to_sarif"]
