"""What `--help` shows: usage as people write it, option values by their metavar (`--steps
N`, a flag alone), and every default stated from the settings that apply it.

A help text names a default by a placeholder (`(default {steps})`); it is filled from the
settings models when help is shown, so a default is written once, where it takes effect,
and starting `investigate PATH` does not import the LLM client to describe it. The
options themselves default to None and the settings fill in what was not given.
"""

from __future__ import annotations

from typing import Any

import typer.core


def _number(value: float | int | None) -> str:
    if value is None:
        return "none"
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def documented_defaults(command: str) -> dict[str, str]:
    """The defaults `command`'s help texts name, read from the settings that apply them."""
    from torch_investigate.agent.core.session import Options
    from torch_investigate.agent.llm.options import LLMOptions
    from torch_investigate.agent.llm.settings import LLMSettings

    run = Options()
    if command == "bisect":
        from torch_investigate.agent.bisect.search import BisectOptions

        run = BisectOptions()
    llm = {name: field.default for name, field in LLMSettings.model_fields.items()}
    review = LLMOptions.model_fields["REVIEW_STEPS"].default
    # `chat` asks its model for a walk; the others review unless --mode walk
    walk_only = command == "chat"
    return {
        "steps": _number(run.steps),
        "timeout": _number(run.timeout_s),
        "isolation": run.isolation,
        "max_steps": (
            _number(llm["max_steps"])
            if walk_only
            else f"{_number(review)} with --mode review, {_number(llm['max_steps'])} with --mode walk"
        ),
        "max_tokens": _number(llm["max_tokens"]),
        "max_cost": _number(llm["max_cost_usd"]),
        "max_failures": _number(llm["max_failures"]),
        "llm_timeout": _number(llm["timeout_s"]),
        "mode": LLMOptions.model_fields["mode"].default,
    }


def _tidy(command: Any, ctx: Any) -> None:
    """Fill in the defaults and drop the type shown beside a flag (`-q <bool>`)."""
    defaults: dict[str, str] | None = None
    for param in command.get_params(ctx):
        if getattr(param, "is_flag", False) and not getattr(param, "count", False):
            param.metavar = ""
        if param.help and "{" in param.help:
            defaults = defaults or documented_defaults(command.name or "")
            param.help = param.help.format_map(defaults)


class Command(typer.core.TyperCommand):
    """A command whose help reads as the README writes it: `investigate run [OPTIONS] PATH`."""

    def format_help(self, ctx, formatter) -> None:
        _tidy(self, ctx)
        super().format_help(ctx, formatter)

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                name = param.metavar or (param.name or "").upper()
                pieces.append(name if param.required else f"[{name}]")
        return pieces


class Group(typer.core.TyperGroup):
    """The top level: its flags shown without a type."""

    def format_help(self, ctx, formatter) -> None:
        _tidy(self, ctx)
        super().format_help(ctx, formatter)
