"""The record of one repo's rename: what each renamed spelling became, which names kept
theirs and why, and the maps a manifest's ground truth and commands go through."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from torch_investigate.evals.rename.commands import CommandMap

MODULE_SYMBOL = "<module>"


class KeptName(BaseModel):
    group: str  # module | module-level | attribute | local | config
    spelling: str
    reason: str


class RenameTable(BaseModel):
    files: dict[str, str] = Field(default_factory=dict)  # old path -> new (renamed only)
    modules: dict[str, str] = Field(default_factory=dict)  # module spelling -> new
    names: dict[str, str] = Field(default_factory=dict)  # renamed spelling -> new
    flags: dict[str, str] = Field(default_factory=dict)
    config_keys: dict[str, str] = Field(default_factory=dict)
    # file (old path) -> old qualified name -> new, for every def and class
    symbols: dict[str, dict[str, str]] = Field(default_factory=dict)
    commands: CommandMap = Field(default_factory=CommandMap)
    defined: dict[str, int] = Field(default_factory=dict)  # spellings the repo defines per group
    renamed: dict[str, int] = Field(default_factory=dict)  # spellings renamed per group
    kept: list[KeptName] = Field(default_factory=list)

    @classmethod
    def from_plan(cls, plan, *, files, symbols, commands, defined) -> RenameTable:  # noqa: ANN001
        kept = [
            KeptName(group=group, spelling=spelling, reason=reason)
            for (group, spelling), reason in sorted(plan.kept.items())
        ]
        return cls(
            files=files,
            modules=plan.modules,
            names=plan.names,
            flags=plan.flags,
            config_keys=plan.config_keys,
            symbols=symbols,
            commands=commands,
            defined=defined,
            renamed={
                "module": len(plan.modules),
                "module-level": len(plan.module_level),
                "attribute": len(plan.attributes),
            },
            kept=kept,
        )

    def file(self, rel: str) -> str:
        return self.files.get(rel, rel)

    def symbol(self, rel: str, symbol: str) -> str:
        if symbol == MODULE_SYMBOL or not symbol:
            return symbol
        table = self.symbols.get(rel)
        if table is None:
            return symbol
        return table.get(symbol, symbol)

    def command(self, cmd: str) -> str:
        return self.commands.command(cmd)

    def kept_reasons(self) -> Counter:
        return Counter(k.reason for k in self.kept if k.group != "local")
