"""The training-relevant calls of each function, in execution order: an event program.

A program is a list of items: events (`loss.backward()`, `opt.step()`, `opt.zero_grad()`,
`sched.step()`, `model.eval()`, a model forward...), loops holding their body's items,
and calls of repo helpers, which `flatten` expands in place. Order is evaluation order
(inner calls before the call that uses them), so `criterion(model(x), y)` yields the
forward before the loss.

Checks read programs through `flatten`, which walks a program with the context of each
event: the loops around it, whether a branch guards it, whether gradients are disabled
(`with torch.no_grad()`, a decorated helper, `set_grad_enabled(False)`), and the helper
calls that led to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.event_kinds import (
    EventKind,
    _is_grad_expr,
    _is_model,
    _mode_kind,
    _zero_arg,
    decorated_no_grad,
    disables_grad,
    is_layer,
    manual_update_or_reset,
)
from torch_investigate.tools.code.extract import FileUnit
from torch_investigate.tools.code.flow import EvalContext, Flow, Obj, Value
from torch_investigate.tools.code.names import (
    BUILTIN_CALLS,
    COMMON_METHODS,
    GRADIENT_CALLS,
    GRADIENT_TRANSFORMS,
    MODEL_NAME,
    is_grad_scaler,
    is_optimizer,
    is_scheduler,
    last,
)
from torch_investigate.tools.code.records import MODULE_SYMBOL

MAX_INLINE_DEPTH = 4
MAX_OCCURRENCES = 4000
OPTIMIZER_NAME = re.compile(r"(^|_|\.)(opt|optim|optimizer|optimiser)s?($|_|\d)", re.IGNORECASE)
SCHEDULER_NAME = re.compile(r"sched|lr_scheduler", re.IGNORECASE)
SCALER_NAME = re.compile(r"scaler", re.IGNORECASE)


@dataclass(eq=False)
class Event:
    kind: EventKind
    value: Value  # the call (or statement) in its frame
    receiver: Node | None = None  # `opt` in `opt.step()`, `model` in `model(x)`
    objects: list[Obj] = field(default_factory=list)  # what the receiver denotes

    @property
    def line(self) -> int:
        return self.value.line

    @property
    def file(self) -> str:
        return self.value.file


@dataclass(eq=False)
class Loop:
    value: Value  # the for/while statement
    items: list[Item]

    @property
    def header(self) -> str:
        node = self.value.node
        body = node.child_by_field_name("body")
        end = body.start_byte if body is not None else node.end_byte
        raw = self.value.frame.unit.source[node.start_byte : end].decode("utf-8", "replace")
        return " ".join(raw.split())


@dataclass(eq=False)
class HelperCall:
    value: Value  # the call site
    function: Node  # the repo function it calls
    unit: FileUnit
    self_obj: Obj | None = None
    disables_grad: bool = False  # the helper is decorated with no_grad / inference_mode


@dataclass(eq=False)
class Guarded:
    """Items under an if/elif/else or an except handler: they may not run."""

    value: Value
    items: list[Item]


@dataclass(eq=False)
class NoGradBlock:
    value: Value  # the with statement
    items: list[Item]


Item = Event | Loop | HelperCall | Guarded | NoGradBlock


@dataclass(eq=False)
class Occurrence:
    """One event met while flattening, with its context."""

    event: Event
    loops: tuple[Loop, ...]  # outermost first
    via: tuple[HelperCall, ...]  # helper calls that led here, outermost first
    conditional: bool
    grad_disabled: bool

    @property
    def kind(self) -> EventKind:
        return self.event.kind


def bound_frame(flow: Flow, o: Occurrence) -> EvalContext | None:
    """The frame of the helper an occurrence sits in, with its parameters bound to the
    arguments of the call chain that led there (None outside helpers). Programs are
    built once per function without bindings; this recovers the calling context."""
    frame: EvalContext | None = None
    for helper in o.via:
        call = Value(helper.value.node, frame) if frame is not None else helper.value
        frame = flow.bind_call(helper.unit, helper.function, call, helper.self_obj)
    return frame


def contextual_objects(flow: Flow, o: Occurrence) -> list[Obj]:
    """What the event's receiver denotes in this calling context."""
    frame = bound_frame(flow, o)
    if frame is None or o.event.receiver is None:
        return o.event.objects
    objs = flow.objects(Value(o.event.receiver, frame), budget=80)
    return [x for x in objs if x.kind != "unknown"] or o.event.objects


class Programs:
    """Event programs of every function (built on demand) and flattening."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self._programs: dict[int, list[Item]] = {}
        self._kinds: dict[int, frozenset[str]] = {}  # function id -> reachable event kinds
        self._repo_names = {
            q.rsplit(".", 1)[-1] for unit in flow.index.units.values() for q in unit.definitions
        }

    # ---- building ------------------------------------------------------------------

    def of_function(self, unit: FileUnit, fn: Node) -> list[Item]:
        cached = self._programs.get(fn.id)
        if cached is None:
            self._programs[fn.id] = []  # recursion guard while building
            body = sx.function_body(fn)
            frame = EvalContext(unit, fn)
            cached = self._block(body, frame) if body is not None else []
            self._programs[fn.id] = cached
        return cached

    def of_module(self, unit: FileUnit) -> list[Item]:
        root = unit.tree.root_node
        cached = self._programs.get(root.id)
        if cached is None:
            cached = self._block(root, EvalContext(unit, None))
            self._programs[root.id] = cached
        return cached

    def _block(self, block: Node, frame: EvalContext) -> list[Item]:
        items: list[Item] = []
        for stmt in block.named_children:
            items += self._statement(stmt, frame)
        return items

    def _statement(self, stmt: Node, frame: EvalContext) -> list[Item]:
        t = stmt.type
        if t in ("function_definition", "class_definition", "decorated_definition", "comment"):
            return []
        if t in sx.LOOP_TYPES:
            head = stmt.child_by_field_name("right") or stmt.child_by_field_name("condition")
            body = stmt.child_by_field_name("body")
            items = self._expression_events(head, frame) if head is not None else []
            inner = self._block(body, frame) if body is not None else []
            return [*items, Loop(Value(stmt, frame), inner)]
        if t == "if_statement":
            cond = stmt.child_by_field_name("condition")
            items = self._expression_events(cond, frame) if cond is not None else []
            if cond is not None and sx.flat(cond) in ("False", "0"):
                return items
            for part in stmt.named_children:
                if part.type == "block":
                    items.append(Guarded(Value(part, frame), self._block(part, frame)))
                elif part.type in ("elif_clause", "else_clause"):
                    body = part.child_by_field_name("body") or part.child_by_field_name(
                        "consequence"
                    )
                    if body is None:
                        body = next((c for c in part.named_children if c.type == "block"), None)
                    if body is not None:
                        items.append(Guarded(Value(part, frame), self._block(body, frame)))
            return items
        if t == "try_statement":
            items = []
            for part in stmt.named_children:
                if part.type == "block":
                    items += self._block(part, frame)
                elif part.type in ("except_clause", "except_group_clause", "else_clause"):
                    body = next((c for c in part.named_children if c.type == "block"), None)
                    if body is not None:
                        items.append(Guarded(Value(part, frame), self._block(body, frame)))
                elif part.type == "finally_clause":
                    body = next((c for c in part.named_children if c.type == "block"), None)
                    if body is not None:
                        items += self._block(body, frame)
            return items
        if t == "with_statement":
            clause = next((c for c in stmt.named_children if c.type == "with_clause"), None)
            body = stmt.child_by_field_name("body")
            items = self._expression_events(clause, frame) if clause is not None else []
            inner = self._block(body, frame) if body is not None else []
            if clause is not None and any(
                disables_grad(i, frame.unit) for i in clause.named_children
            ):
                return [*items, NoGradBlock(Value(stmt, frame), inner)]
            return [*items, *inner]
        if t == "match_statement":
            return [Guarded(Value(stmt, frame), self._expression_events(stmt, frame))]
        return self._expression_events(stmt, frame)

    def _expression_events(self, node: Node, frame: EvalContext) -> list[Item]:
        """Events of the calls (and grad resets / manual updates) inside one statement,
        inner calls first."""
        items: list[Item] = []
        manual = manual_update_or_reset(node) if b"grad" in (node.text or b"") else None
        calls = sorted(sx.calls_in(node), key=lambda c: (c.end_byte, -c.start_byte))
        for call in calls:
            items += self._call_events(call, frame)
        if manual is not None:
            items.append(Event(manual, Value(node, frame)))
        return items

    def _call_events(self, call: Node, frame: EvalContext) -> list[Item]:
        method = sx.method_name(call)
        recv = sx.receiver(call)
        v = Value(call, frame)
        fn = sx.call_function(call)
        resolved = frame.unit.resolve_callee(fn)[1] if fn is not None else ""
        if method == "backward" or resolved in GRADIENT_CALLS:
            return [Event("backward", v, recv)]
        if method == "zero_grad":
            return [Event("zero_grad", v, recv)]
        if recv is not None and method in ("zero_", "fill_", "detach_", "mul_"):
            if _is_grad_expr(recv) and (method != "mul_" and method != "fill_" or _zero_arg(call)):
                return [Event("zero_grad", v, recv)]
        if (
            last(resolved) == "set_grad_enabled"
            and sx.statement_of(call).type == "expression_statement"
        ):
            arg = sx.argument(call, 0, "mode")
            if arg is not None and sx.flat(arg) in ("False", "0"):
                return [Event("grad_off", v)]
            if arg is not None and sx.flat(arg) in ("True", "1"):
                return [Event("grad_on", v)]
        if method == "step" and recv is not None:
            kind = self._step_kind(recv, frame)
            if kind is not None:
                # `optimizer.step(closure)` (LBFGS) runs the closure's zero_grad/backward first
                return [*self._closure(call, frame), Event(kind, v, recv)]
            # else `trainer.step()`, `env.step()`: resolved below
        if method in ("train", "eval") and recv is not None:
            objs = self.flow.objects(Value(recv, frame), budget=80)
            if _is_model(objs, recv):
                return [Event(_mode_kind(call, method), v, recv, objs)]
        if fn is None or self._never_a_helper(fn, method):
            return []
        callees = self.flow.objects(Value(fn, frame), budget=80)
        helpers: dict[int, HelperCall] = {}
        models: list[Obj] = []
        for callee in callees:
            if callee.kind == "function" and callee.node is not None and callee.unit is not None:
                if callee.node.type == "function_definition":
                    helpers.setdefault(
                        callee.node.id,
                        HelperCall(
                            v,
                            callee.node,
                            callee.unit,
                            callee.self_obj,
                            disables_grad=decorated_no_grad(callee.node, callee.unit),
                        ),
                    )
            elif (
                callee.kind == "instance"
                and callee.symbol is not None
                and callee.symbol.is_nn_module
            ):
                models.append(callee)
            elif callee.kind == "external" and callee.ctor is not None and is_layer(callee):
                models.append(callee)
        if any(
            o.kind == "external" and o.resolved in GRADIENT_TRANSFORMS for o in callees
        ) or _gradient_transform_name(fn, frame):
            # `step = grad_and_value(loss_fn)` ... `grads, loss = step(params, x, y)`
            return [Event("backward", v, fn)]
        if helpers:
            return list(helpers.values())
        if models:
            return [Event("forward", v, fn, models)]
        if not any(o.kind != "unknown" for o in callees) and MODEL_NAME.search(sx.flat(fn)):
            return [Event("forward", v, fn, callees)]
        return []

    def _never_a_helper(self, fn: Node, method: str | None) -> bool:
        """Builtins and common tensor/container methods, unless the repo defines a
        function of that name (`self.update(loss)` may be the training step)."""
        name = method if method is not None else (sx.text(fn) if fn.type == "identifier" else None)
        if name is None or name in self._repo_names:
            return False
        return name in (COMMON_METHODS if method is not None else BUILTIN_CALLS)

    def _closure(self, call: Node, frame: EvalContext) -> list[Item]:
        arg = sx.argument(call, 0, "closure")
        if arg is None or arg.type != "identifier":
            return []
        for obj in self.flow.objects(Value(arg, frame), budget=40):
            if obj.kind == "function" and obj.node is not None and obj.unit is not None:
                return [HelperCall(Value(call, frame), obj.node, obj.unit)]
        return []

    def _step_kind(self, recv: Node, frame: EvalContext) -> EventKind | None:
        objs = self.flow.objects(Value(recv, frame), budget=80)
        for o in objs:
            if o.kind == "external" and o.ctor is not None:
                if is_scheduler(o.resolved):
                    return "scheduler_step"
                if is_optimizer(o.resolved) or is_grad_scaler(o.resolved):
                    return "step"
            if o.kind == "instance" and o.symbol is not None:
                bases = " ".join(o.symbol.bases)
                if "Optimizer" in bases:
                    return "step"
                if "Scheduler" in bases or "LRScheduler" in bases or "_LRScheduler" in bases:
                    return "scheduler_step"
        text = sx.flat(recv)
        if SCHEDULER_NAME.search(text):
            return "scheduler_step"
        if OPTIMIZER_NAME.search(text) or SCALER_NAME.search(text):
            return "step"
        return None

    # ---- summaries -------------------------------------------------------------------

    def kinds(self, items: list[Item], depth: int = 0) -> frozenset[str]:
        """Event kinds the items can reach, helpers included (what `flatten` would
        yield, without laying out every occurrence)."""
        found: set[str] = set()
        for item in items:
            if isinstance(item, Event):
                found.add(item.kind)
            elif isinstance(item, (Loop, Guarded, NoGradBlock)):
                found |= self.kinds(item.items, depth)
            elif isinstance(item, HelperCall) and depth < MAX_INLINE_DEPTH:
                found |= self._function_kinds(item, depth + 1)
        return frozenset(found)

    def _function_kinds(self, helper: HelperCall, depth: int) -> frozenset[str]:
        key = helper.function.id
        cached = self._kinds.get(key)
        if cached is None:
            self._kinds[key] = frozenset()  # recursion guard
            cached = self.kinds(self.of_function(helper.unit, helper.function), depth)
            self._kinds[key] = cached
        return cached

    # ---- flattening ------------------------------------------------------------------

    def flatten(
        self,
        items: list[Item],
        *,
        loops: tuple[Loop, ...] = (),
        via: tuple[HelperCall, ...] = (),
        conditional: bool = False,
        grad_disabled: bool = False,
        repeat_loops: int = 1,
        limit: int = MAX_OCCURRENCES,
    ) -> list[Occurrence]:
        """Events in order with their context; helper calls expanded (up to a depth,
        never recursively); each loop body emitted `repeat_loops` times, so a cyclic
        order (the end of one iteration before the start of the next) is visible."""
        out: list[Occurrence] = []
        self._flatten(items, loops, via, conditional, grad_disabled, repeat_loops, out, limit)
        return out

    def _flatten(
        self,
        items: list[Item],
        loops: tuple[Loop, ...],
        via: tuple[HelperCall, ...],
        conditional: bool,
        grad_disabled: bool,
        repeat: int,
        out: list[Occurrence],
        limit: int,
    ) -> bool:
        """Returns the grad-disabled state after the items (set_grad_enabled persists)."""
        state = grad_disabled
        for item in items:
            if len(out) >= limit:
                return state
            if isinstance(item, Event):
                if item.kind == "grad_off":
                    state = True
                elif item.kind == "grad_on":
                    state = False
                out.append(Occurrence(item, loops, via, conditional, state))
            elif isinstance(item, Loop):
                for _ in range(repeat):
                    state = self._flatten(
                        item.items, (*loops, item), via, conditional, state, repeat, out, limit
                    )
            elif isinstance(item, Guarded):
                self._flatten(item.items, loops, via, True, state, repeat, out, limit)
            elif isinstance(item, NoGradBlock):
                self._flatten(item.items, loops, via, conditional, True, repeat, out, limit)
            elif isinstance(item, HelperCall):
                if len(via) >= MAX_INLINE_DEPTH or any(
                    h.function.id == item.function.id for h in via
                ):
                    continue
                body = self.of_function(item.unit, item.function)
                after = self._flatten(
                    body,
                    loops,
                    (*via, item),
                    conditional,
                    state or item.disables_grad,
                    repeat,
                    out,
                    limit,
                )
                # set_grad_enabled(False) inside a helper outlives it; its decorator does not.
                state = state if item.disables_grad else after
        return state

    def iter_loops(
        self, items: list[Item], outer: tuple[Loop, ...] = ()
    ) -> Iterator[tuple[Loop, tuple[Loop, ...]]]:
        """Every loop of a program with the loops around it (outermost first), nested
        ones and those in the function's own branches included; helpers are not entered
        (each function is visited on its own)."""
        for item in items:
            if isinstance(item, Loop):
                yield item, outer
                yield from self.iter_loops(item.items, (*outer, item))
            elif isinstance(item, (Guarded, NoGradBlock)):
                yield from self.iter_loops(item.items, outer)


def _gradient_transform_name(fn: Node, frame: EvalContext) -> bool:
    """`fn` is a name the module binds, at its top level, to a torch.func transform's
    result (`step = grad_and_value(loss_fn)`): calling it computes gradients."""
    return fn.type == "identifier" and sx.text(fn) in gradient_transform_names(frame.unit)


def gradient_transform_names(unit: FileUnit) -> set[str]:
    """Names a module binds at its top level to a torch.func transform of a function."""
    names = set()
    for raw in unit.raw_assignments:
        callee = sx.call_function(raw.value)
        if (
            raw.scope == MODULE_SYMBOL
            and raw.target.type == "identifier"
            and callee is not None
            and unit.resolve_callee(callee)[1] in GRADIENT_TRANSFORMS
        ):
            names.add(sx.text(raw.target))
    return names
