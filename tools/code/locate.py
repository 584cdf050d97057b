"""Where the training path's constructs are: the map the planner starts from.

`locate(index)` answers "which line builds the optimizer, which class is the model,
where is the training loop, where does evaluation happen" with exact file, line and
symbol, so probes and the report can point at them.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.code.names import EVALUATION_NAME
from torch_investigate.tools.code.records import MODULE_SYMBOL
from torch_investigate.tools.code.sites import Site, SiteKind

EVENT_SITES: dict[str, SiteKind] = {
    "backward": "backward",
    "step": "optimizer_step",
    "zero_grad": "zero_grad",
}
EVENT_FIELDS = {
    "backward": "backward_calls",
    "optimizer_step": "optimizer_steps",
    "zero_grad": "zero_grads",
}


class CodeMap(BaseModel):
    """The constructs of the training path, each list in file/line order."""

    model_classes: list[Site] = Field(default_factory=list)
    models: list[Site] = Field(default_factory=list)  # instantiations of repo model classes
    losses: list[Site] = Field(default_factory=list)
    optimizers: list[Site] = Field(default_factory=list)
    schedulers: list[Site] = Field(default_factory=list)
    data_loaders: list[Site] = Field(default_factory=list)
    training_loops: list[Site] = Field(default_factory=list)
    backward_calls: list[Site] = Field(default_factory=list)
    optimizer_steps: list[Site] = Field(default_factory=list)
    zero_grads: list[Site] = Field(default_factory=list)
    evaluations: list[Site] = Field(default_factory=list)  # evaluation functions
    entry_points: list[Site] = Field(default_factory=list)  # `if __name__ == "__main__":`

    def all_sites(self) -> list[Site]:
        return [s for name in type(self).model_fields for s in getattr(self, name)]

    def first(self, kind: SiteKind) -> Site | None:
        return next((s for s in self.all_sites() if s.kind == kind), None)

    def describe(self) -> str:
        """A short listing for reading: one line per construct, `kind file:line (symbol)`."""
        lines = []
        for name in type(self).model_fields:
            sites = getattr(self, name)
            label = name.replace("_", " ")
            if not sites:
                lines.append(f"{label}: none found")
                continue
            lines.append(f"{label}:")
            lines += [f"  {s.file}:{s.line} ({s.symbol}) {s.text}" for s in sites[:10]]
            if len(sites) > 10:
                lines.append(f"  ... {len(sites) - 10} more")
        return "\n".join(lines)


def locate(index: CodeIndex) -> CodeMap:
    a = analysis(index)
    code_map = CodeMap(
        model_classes=[_class_site(index, s.file, s.qualname) for s in index.module_classes()],
        models=index.model_sites(),
        losses=index.loss_sites(),
        optimizers=index.optimizer_sites(),
        schedulers=index.scheduler_sites(),
        data_loaders=index.data_loader_sites(),
        entry_points=_entry_points(index),
        evaluations=_evaluations(index),
    )
    seen: set[tuple[str, int, str]] = set()
    for loop in a.training_loops:
        unit = loop.region.unit
        node = loop.loop.value.node if loop.loop is not None else loop.region.node
        assert node is not None
        header = (
            loop.loop.header if loop.loop is not None else unit.lines[sx.line(node) - 1].strip()
        )
        code_map.training_loops.append(
            Site(
                kind="training_loop",
                file=unit.file,
                line=sx.line(node),
                line_end=sx.end_line(node),
                symbol=loop.region.qualname,
                name=loop.region.qualname,
                text=header,
            )
        )
        for o in loop.occurrences:
            kind = EVENT_SITES.get(o.kind)
            key = (o.event.file, o.event.line, o.kind)
            if kind is None or key in seen:
                continue
            seen.add(key)
            lines = o.event.value.frame.unit.lines
            site = Site(
                kind=kind,
                file=o.event.file,
                line=o.event.line,
                symbol=index.enclosing_symbol(o.event.file, o.event.line),
                name=o.kind,
                text=lines[o.event.line - 1].strip() if o.event.line <= len(lines) else "",
            )
            getattr(code_map, EVENT_FIELDS[kind]).append(site)
    return code_map


def _class_site(index: CodeIndex, file: str, qualname: str) -> Site:
    symbol = index.symbol(f"{file}:{qualname}")
    assert symbol is not None
    lines = index.lines(file)
    return Site(
        kind="model_class",
        file=file,
        line=symbol.def_line,
        line_end=symbol.line_end,
        symbol=qualname,
        name=symbol.name,
        text=lines[symbol.def_line - 1].strip() if symbol.def_line <= len(lines) else "",
    )


def _entry_points(index: CodeIndex) -> list[Site]:
    out = []
    for file in index.files:
        unit = index.units[file]
        for child in unit.tree.root_node.named_children:
            if child.type != "if_statement":
                continue
            cond = child.child_by_field_name("condition")
            if cond is not None and "__name__" in sx.text(cond) and "__main__" in sx.text(cond):
                out.append(
                    Site(
                        kind="entry_point",
                        file=file,
                        line=sx.line(child),
                        symbol=MODULE_SYMBOL,
                        name=unit.module,
                        text=unit.lines[sx.line(child) - 1].strip(),
                    )
                )
    return out


def _evaluations(index: CodeIndex) -> list[Site]:
    """Functions named for evaluation that run a model (forward or eval())."""
    a = analysis(index)
    out = []
    for region in a.regions():
        if region.node is None or not EVALUATION_NAME.search(region.qualname.rsplit(".", 1)[-1]):
            continue
        kinds = {o.kind for o in a.programs.flatten(a.program(region))}
        if {"forward", "eval_mode"} & kinds:
            symbol = index.symbol(f"{region.unit.file}:{region.qualname}")
            if symbol is not None:
                out.append(
                    Site(
                        kind="evaluation",
                        file=symbol.file,
                        line=symbol.def_line,
                        line_end=symbol.line_end,
                        symbol=symbol.qualname,
                        name=symbol.name,
                        text=region.unit.lines[symbol.def_line - 1].strip(),
                    )
                )
    return out
