"""Where to point a finding when the run saw the defect somewhere else than where it is
written: the hand-written update that never resets gradients, the function that yields
the training batches, the Dataset class that pairs inputs with targets, the literal a
hyperparameter comes from (`LR = 0.1` at the top of a script, not the optimizer call), and
where the data a check saw was made (caller_places.py: the training call that passed it).

The run decides the finding; these only place it, from the code index, and return None
when the code does not say.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.consts import argparse_default_site
from torch_investigate.tools.code.loops import find_training_loops
from torch_investigate.tools.code.values import Value
from torch_investigate.tools.records import Location
from torch_investigate.tools.tracefile.trace import Frame, SchedulerInfo

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def _location(session: Session, file: str, line: int) -> Location:
    return Location(file=file, line=line, symbol=session.index.enclosing_symbol(file, line))


def hand_update(session: Session) -> Location | None:
    """The hand-written update (`p -= lr * p.grad`) of the training loop, with no optimizer."""
    for loop in find_training_loops(session.index):
        steps = [e for e in loop.events if e.kind == "step" and ".step(" not in e.text]
        if steps:
            return _location(session, steps[0].file, steps[0].line)
    return None


def batch_source(session: Session) -> Location | None:
    """The repo function the training loop iterates (a generator yielding batches)."""
    for loop in find_training_loops(session.index):
        if loop.kind != "loop":
            continue
        header = loop.header
        call = header.split(" in ", 1)[1] if " in " in header else ""
        name = call.split("(", 1)[0].strip().rsplit(".", 1)[-1]
        for wrapper in ("enumerate", "tqdm", "iter", "zip"):
            if name == wrapper and "(" in call:
                inner = call.split("(", 1)[1]
                name = inner.split("(", 1)[0].strip().rsplit(".", 1)[-1] if "(" in inner else ""
        found = (
            [s for s in session.index.find_symbols(name) if s.kind == "function"] if name else []
        )
        if found:
            return Location(file=found[0].file, line=found[0].def_line, symbol=found[0].qualname)
    return None


def dataset_class(
    session: Session, class_name: str | None, methods: tuple[str, ...] = ("__init__", "__getitem__")
) -> Location | None:
    """The repo Dataset class a DataLoader reads (where inputs and targets are paired:
    its constructor, or where one sample is made, `methods` in order of preference)."""
    if not class_name:
        return None
    for method in methods:
        sym = next(
            (s for s in session.index.symbols if s.qualname == f"{class_name}.{method}"), None
        )
        if sym is not None:
            return Location(file=sym.file, line=sym.def_line, symbol=sym.qualname)
    return None


def order_source(session: Session, class_name: str) -> Location | None:
    """Where a sampler class of the repo makes the order of the rows: the method of it
    that yields the indices (a generator), else its `__iter__`."""
    classes = [s for s in session.index.find_symbols(class_name) if s.kind == "class"]
    if not class_name or len(classes) != 1:
        return None
    cls = classes[0]
    methods = [
        s
        for s in session.index.symbols
        if s.file == cls.file and s.qualname.rpartition(".")[0] == cls.qualname
    ]
    for sym in sorted(methods, key=lambda s: s.def_line):
        node = session.index.definition(sym)
        body = sx.function_body(node) if node is not None else None
        if body is not None and any(n.type == "yield" for n in sx.descendants(body)):
            return Location(file=sym.file, line=sym.def_line, symbol=sym.qualname)
    return dataset_class(session, cls.qualname, ("__iter__",))


def literal_of(
    session: Session,
    call_frame: Frame | None,
    argument: str,
    position: int | None = None,
    value: float | None = None,
) -> Location | None:
    """Where the value of `argument` (passed by keyword, or at `position`) in the call at
    `call_frame` is written as a number: the call's own literal, or a constant or default
    it reads (followed through names); a command-line option's default when the run used
    that default's `value`."""
    if call_frame is None:
        return None
    unit = session.index.unit(call_frame.file)
    if unit is None:
        return None
    a = analysis(session.index)
    for call in unit.call_nodes:
        if sx.line(call) != call_frame.line:
            continue
        arg = sx.argument(call, position, argument)
        if arg is None:
            continue
        if sx.number(arg) is not None:
            return _location(session, unit.file, sx.line(arg))
        for origin in a.flow.trace(Value(arg, a.flow.frame_at(unit, arg)), dataflow=True):
            if sx.number(origin.value.node) is not None:
                return _location(session, origin.value.file, origin.value.line)
        option = arg.child_by_field_name("attribute") if arg.type == "attribute" else None
        site = argparse_default_site(a, sx.text(option)) if option is not None else None
        # a command-line option's default: the value the run used says it is this option
        if site is not None and value is not None and sx.number(site[1]) == value:
            return _location(session, site[0], sx.line(site[1]))
    return None


def index_origin(session: Session, frame: Frame | None) -> Location | None:
    """Where the sample indices of a `Subset(dataset, ids)` built at `frame` are computed:
    the first expression on their way that is written in another function (the split
    helper's `perm[val_size:]`), else where they are named."""
    if frame is None:
        return None
    unit = session.index.unit(frame.file)
    if unit is None:
        return None
    for call in unit.call_nodes:
        if sx.line(call) != frame.line or "Subset" not in sx.text(call).split("(", 1)[0]:
            continue
        arg = sx.argument(call, 1, "indices")
        if arg is not None:
            return _made_elsewhere(session, unit, call, arg)
    return None


def input_origin(
    session: Session, frame: Frame | None, *, transformed: bool = False
) -> Location | None:
    """Where the input of the model call at `frame` is transformed, when that happens in
    another function (`model(torch.from_numpy(prepare_inputs(X)))`: prepare_inputs; a batch
    of a loader passed in: where that loader and its dataset are built). With
    `transformed` (how evaluation inputs are prepared), arithmetic on the input in the
    call's own function comes first."""
    unit = session.index.unit(frame.file) if frame is not None else None
    calls = _calls_on(session, unit, frame, models=True)
    if calls and all(_calls_a_module(session, unit, c) for c in calls):
        calls = calls[::-1]  # the innermost model call takes the data (`probe(encoder(x))`)
    for call in calls:
        arg = sx.argument(call, 0, "x")
        origin = (
            _made_elsewhere(session, unit, call, arg, local=transformed)
            if arg is not None
            else None
        )
        if origin is not None:
            return origin
    return None


def _calls_on(session: Session, unit, frame: Frame | None, *, models: bool) -> list:
    """The calls on `frame`'s line, outermost first; with `models`, only the call of a
    model when there is one (the run saw it there, not the calls around it:
    `preds.append(model(xb).numpy())`)."""
    if unit is None or frame is None:
        return []
    calls = sorted(
        (c for c in unit.call_nodes if sx.line(c) == frame.line),
        key=lambda c: c.start_byte - c.end_byte,
    )
    chosen = [c for c in calls if _calls_a_module(session, unit, c)] if models else []
    return chosen or calls


def _calls_a_module(session: Session, unit, call) -> bool:
    """The callee is an instance of a repo class or of a torch.nn module."""
    fn = sx.call_function(call)
    if fn is None:
        return False
    flow = analysis(session.index).flow
    return any(
        o.kind == "instance"
        or (
            o.kind == "external"
            and o.resolved.startswith("torch.nn.")
            and not o.resolved.startswith("torch.nn.functional.")
        )
        for o in flow.objects(Value(fn, flow.frame_at(unit, fn)))
    )


def _made_elsewhere(session: Session, unit, call, arg, *, local: bool = False) -> Location | None:
    """The first expression on the way to `arg` that is written in another function than
    the call's (with `local`, arithmetic on it in the call's own function first), else
    None."""
    a = analysis(session.index)
    start = session.index.enclosing_symbol(unit.file, sx.line(call))
    for origin in a.flow.trace(Value(arg, a.flow.frame_at(unit, arg)), dataflow=True):
        # a batch (or the data passed in) worked on by arithmetic right before the model
        # (`model(x / x.abs().max())`): the inputs are transformed there
        worked = next(
            (
                v
                for v in origin.path
                if local
                and v.node.type == "binary_operator"
                and session.index.enclosing_symbol(v.file, v.line) == start
            ),
            None,
        )
        if worked is not None:
            return Location(file=worked.file, line=worked.line, symbol=start)
        for v in origin.path:
            symbol = session.index.enclosing_symbol(v.file, v.line)
            if symbol != start and v.node.type not in _NAMES:
                return Location(file=v.file, line=v.line, symbol=symbol)
        if origin.kind == "element":
            # a batch of `for xb, yb in loader`: where that loader (and its data) is made,
            # in this function or the one that passed it in
            for further in a.flow.trace(origin.value, dataflow=True):
                v = _first_made(session, further.path)
                if v is not None:
                    return _dataset_made(session, v) or Location(
                        file=v.file,
                        line=v.line,
                        symbol=session.index.enclosing_symbol(v.file, v.line),
                    )
    return None


def _first_made(session: Session, path: list) -> Value | None:
    """The first expression on `path` that makes its value: names and tuples pass it on,
    and so does the call of a function whose return the path goes on into (`val_dl` from
    `make_loaders(cfg)`: the loader is made inside make_loaders)."""
    for k, v in enumerate(path):
        nxt = path[k + 1] if k + 1 < len(path) else None
        if v.node.type in _NAMES or v.node.type == "subscript" and nxt is not None:
            continue  # `build_datasets(cfg)[1]` passes on what the call returns
        if (
            v.node.type == "call"
            and nxt is not None
            and session.index.enclosing_symbol(nxt.file, nxt.line)
            != session.index.enclosing_symbol(v.file, v.line)
        ):
            continue  # into the callee's return
        return v
    return None


def _dataset_made(session: Session, v: Value) -> Location | None:
    """For a `DataLoader(ds, ...)` built at `v`: where its dataset is made, when that is in
    another function (`val_ds` returned by a build_datasets() helper); None when the
    dataset is made beside the loader."""
    if v.node.type != "call" or not sx.text(sx.call_function(v.node) or v.node).endswith(
        "DataLoader"
    ):
        return None
    unit = session.index.unit(v.file)
    ds = sx.argument(v.node, 0, "dataset")
    if unit is None or ds is None:
        return None
    a = analysis(session.index)
    here = session.index.enclosing_symbol(v.file, v.line)
    for origin in a.flow.trace(Value(ds, a.flow.frame_at(unit, ds)), dataflow=True):
        made = _first_made(session, origin.path)
        if made is not None:
            symbol = session.index.enclosing_symbol(made.file, made.line)
            if symbol == here:
                return None
            return Location(file=made.file, line=made.line, symbol=symbol)
    return None


_NAMES = ("identifier", "expression_list", "tuple", "pattern_list", "return_statement")


def target_cut(
    session: Session, loss: Frame | None, forward: Frame | None, *, within: bool = False
) -> Location | None:
    """Where the target of the loss call at `loss` is cut from the data apart from the
    model's input at `forward`: the last expression on the target's way back to its
    source that the input's way does not pass (`y = data[i:i+n]` beside `x = data[i:i+n]`
    in a get_batch()), when it is written outside the loss's own function (`within`: or
    in it, a script's top level that cuts and trains in one place)."""
    target = _way(session, loss, 1, "target", models=False)
    if not target:
        return None
    shared = {(v.file, v.line) for v in _way(session, forward, 0, "x", models=True)}
    if not shared:
        return None  # without the input's way, the target's own part is unknown
    start = session.index.enclosing_symbol(loss.file, loss.line) if loss else None
    own = [v for v in target if (v.file, v.line) not in shared and v.node.type not in _NAMES]
    parted = _parted(session, target, shared, forward)
    for v in [*reversed(parted), *reversed(own)]:
        symbol = session.index.enclosing_symbol(v.file, v.line)
        if symbol != start or within:
            return Location(file=v.file, line=v.line, symbol=symbol)
    return None


def input_cut(session: Session, loss: Frame | None, forward: Frame | None) -> Location | None:
    """Where the model's input at `forward` is cut from the data apart from the target of
    the loss call at `loss` (a window `series[start + h:start + h + n]` beside its target
    `series[start + n + h - 1]` in a make_windows()): the input's own step nearest the data,
    in a function the target's way also passes through and outside the forward's own."""
    inp = _way(session, forward, 0, "x", models=True)
    target = _way(session, loss, 1, "target", models=False)
    if not inp or not target:
        return None
    shared = {(v.file, v.line) for v in target}
    both = {session.index.enclosing_symbol(v.file, v.line) for v in target}
    start = session.index.enclosing_symbol(forward.file, forward.line) if forward else None
    for v in reversed(inp):
        symbol = session.index.enclosing_symbol(v.file, v.line)
        if (v.file, v.line) in shared or v.node.type in _NAMES or symbol == start:
            continue
        if symbol in both:
            return Location(file=v.file, line=v.line, symbol=symbol)
    return None


def _parted(session: Session, target: list, shared: set, forward: Frame | None) -> list:
    """The target's own steps between the loss and where its way joins the input's again
    (labels and features made together, then reordered apart: `labels =
    annotation_sheet(labels, sessions)` beside `specs, sessions = catalogue(...)`), kept
    to the functions the input's way also passes through, where the two were parted; []
    when the ways never join (the target has a source of its own)."""
    segment, left = [], False
    for v in target:
        if (v.file, v.line) in shared:
            if left:
                break
            continue
        left = True
        if v.node.type not in _NAMES:
            segment.append(v)
    else:
        return []
    both = {
        session.index.enclosing_symbol(v.file, v.line)
        for v in _way(session, forward, 0, "x", models=True)
    }
    return [v for v in segment if session.index.enclosing_symbol(v.file, v.line) in both]


MARKING = {"masked_fill", "masked_fill_", "where", "fill_", "index_fill", "index_fill_"}


def target_marked(session: Session, loss: Frame | None) -> Location | None:
    """Where the targets a loss call scores were marked (`targets.masked_fill(mask, IGNORE)`
    in a batching helper): the first fill on the targets' way back from the call, which is
    where a mask's convention is written."""
    for v in _way(session, loss, 1, "target", models=False):
        if v.node.type == "call" and sx.method_name(v.node) in MARKING:
            return Location(
                file=v.file, line=v.line, symbol=session.index.enclosing_symbol(v.file, v.line)
            )
    return None


def _way(session: Session, frame: Frame | None, index: int, name: str, *, models: bool) -> list:
    """The expressions an argument of the call at `frame` comes through, from the call
    back to its first source (the model call's, when `models`)."""
    unit = session.index.unit(frame.file) if frame is not None else None
    calls = _calls_on(session, unit, frame, models=models)
    if models and calls and all(_calls_a_module(session, unit, c) for c in calls):
        calls = calls[::-1]  # the innermost model call takes the data (`crit(model(x), y)`)
    for call in calls:
        arg = sx.argument(call, index, name)
        if arg is None:
            continue
        a = analysis(session.index)
        origins = a.flow.trace(Value(arg, a.flow.frame_at(unit, arg)), dataflow=True)
        if origins:
            return origins[0].path
    return []


_UNFREEZE = re.compile(r"requires_grad\s*=\s*True|requires_grad_\(\s*(True)?\s*\)")


def unfreeze_that_ran(session: Session) -> Location | None:
    """Code that turns requires_grad back on, in a function the run executed or one that
    such a function calls (the unfreeze helper of a training function that ran): when the
    parameters stayed frozen anyway, that is where they were meant to be unfrozen."""
    ran = set(session.baseline_trace_functions())
    called: Location | None = None
    for file in session.index.files:
        for n, text in enumerate(session.index.lines(file), start=1):
            if not _UNFREEZE.search(text.split("#", 1)[0]):
                continue
            symbol = session.index.enclosing_symbol(file, n)
            if _ran(file, symbol, ran):
                return Location(file=file, line=n, symbol=symbol)
            if called is None and _called_from(session, file, n, ran):
                called = Location(file=file, line=n, symbol=symbol)
    return called


def _ran(file: str, symbol: str, ran: set[str]) -> bool:
    return f"{file}:{symbol.rsplit('.', 1)[-1]}" in ran


def _called_from(session: Session, file: str, line: int, ran: set[str]) -> bool:
    """The function around file:line is called from a function the run executed."""
    unit = session.index.unit(file)
    symbol = session.index.enclosing_symbol(file, line)
    fn = unit.definitions.get(symbol) if unit is not None else None
    if fn is None or fn.type != "function_definition":
        return False
    a = analysis(session.index)
    return any(
        _ran(c.file, session.index.enclosing_symbol(c.file, c.line), ran)
        for c in a.flow.callers(fn)
    )


def scheduler_site(session: Session, sched: SchedulerInfo) -> Location | None:
    """Where a scheduler's stepping is decided: the program's own step() call, or, when a
    framework steps it (Lightning's `interval` and `frequency`), where the program built
    it and handed it over (the step frame is then only the line that started training)."""
    at = sched.step_frame if sched.stepped_by_program else sched.frame or sched.step_frame
    return _location(session, at.file, at.line) if at is not None else None


def called_by_program(session: Session, frame: Frame | None) -> bool:
    """The function holding `frame` is called somewhere in the program's code (False: only
    a framework calls it, as Lightning calls `training_step`); module-level code and a
    frame the index cannot place count as the program's."""
    fn = _function_at(session, frame)
    return fn is None or bool(analysis(session.index).flow.callers(fn))


def _function_at(session: Session, frame: Frame | None):
    """The function definition enclosing `frame`'s line (None: module level, or a file the
    index does not hold)."""
    unit = session.index.unit(frame.file) if frame is not None else None
    if unit is None:
        return None
    at = [
        n for n in sx.descendants(unit.tree.root_node, into_scopes=True) if sx.line(n) == frame.line
    ]
    return next((f for n in at if (f := sx.enclosing_function(n)) is not None), None)
