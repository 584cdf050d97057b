"""Python's scopes over a tree-sitter tree: every binding of a file, and every identifier
sorted into the role it plays (a name that resolves to a binding, an attribute, a keyword
argument, a name imported from a module, a string that may spell a name).

Resolution follows the language: a name bound anywhere in a function is local to it
unless declared global or nonlocal; class bodies do not enclose the functions in them;
comprehensions and lambdas are scopes of their own; a walrus binds in the nearest
function. What no scope binds is a builtin or unresolved, and keeps its spelling.
"""

from __future__ import annotations

from tree_sitter import Node

from torch_investigate.evals.rename.bindings import (
    AttrUse,
    CallUse,
    FileScopes,
    ImportNameUse,
    ImportTarget,
    KeywordUse,
    ModulePathUse,
    NameUse,
    Scope,
    ScopeKind,
    StringUse,
    Value,
    ValueHow,
    module_scope,
)
from torch_investigate.tools.code.syntax import COMPREHENSION_TYPES, text

PATTERN_TYPES = frozenset(
    {"pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list"}
)


DYNAMIC_CALLS = frozenset({"locals", "vars", "eval", "exec"})


class ScopeBuilder:
    """One pass over a file: scopes, bindings and uses; `resolve()` afterwards."""

    def __init__(self, file: str, root: Node, imports: ImportResolver) -> None:
        self.imports = imports
        module = Scope(kind="module", node=root, parent=None, file=file)
        self.out = FileScopes(file=file, module=module, scopes=[module])
        self.file = file

    def build(self) -> FileScopes:
        for child in self.out.module.node.named_children:
            self.visit(child, self.out.module)
        self.out.resolve()
        return self.out

    # ---- scopes ----------------------------------------------------------------------

    def _new_scope(self, kind: ScopeKind, node: Node, parent: Scope) -> Scope:
        scope = Scope(kind=kind, node=node, parent=parent, file=self.file)
        self.out.scopes.append(scope)
        self.out.scope_of[node.id] = scope
        return scope

    # ---- the walk --------------------------------------------------------------------

    def visit(self, node: Node, scope: Scope) -> None:
        t = node.type
        handler = getattr(self, f"_v_{t}", None)
        if handler is not None:
            handler(node, scope)
        elif t == "identifier":
            self.out.names.append(NameUse(node=node, scope=scope))
        elif t in COMPREHENSION_TYPES:
            self._comprehension(node, scope)
        elif t == "comment":
            return
        else:
            for child in node.named_children:
                self.visit(child, scope)

    def _v_decorated_definition(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            self.visit(child, scope)

    def _v_function_definition(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        inner = self._new_scope("function", node, scope)
        if name is not None:
            b = self._home(scope, text(name)).bind(text(name), "def", name)
            b.definition = node
        params = node.child_by_field_name("parameters")
        if params is not None:
            self._parameters(params, scope, inner, node)
        ret = node.child_by_field_name("return_type")
        if ret is not None:
            self.visit(ret, scope)
        body = node.child_by_field_name("body")
        if body is not None:
            for child in body.named_children:
                self.visit(child, inner)

    def _v_class_definition(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        inner = self._new_scope("class", node, scope)
        if name is not None:
            b = scope.bind(text(name), "class", name)
            b.definition = node
        supers = node.child_by_field_name("superclasses")
        if supers is not None:
            for arg in supers.named_children:
                if arg.type == "keyword_argument":  # metaclass=...: the language's
                    value = arg.child_by_field_name("value")
                    if value is not None:
                        self.visit(value, scope)
                else:
                    self.visit(arg, scope)
        body = node.child_by_field_name("body")
        if body is not None:
            for child in body.named_children:
                self.visit(child, inner)

    def _v_lambda(self, node: Node, scope: Scope) -> None:
        inner = self._new_scope("lambda", node, scope)
        params = node.child_by_field_name("parameters")
        if params is not None:
            self._parameters(params, scope, inner, node)
        body = node.child_by_field_name("body")
        if body is not None:
            self.visit(body, inner)

    def _parameters(self, params: Node, outer: Scope, inner: Scope, func: Node) -> None:
        self.out.scope_of[params.id] = inner
        for p in params.named_children:
            ident, default, annotation = _parameter_parts(p)
            if ident is not None:
                b = inner.bind(text(ident), "param", ident)
                b.definition = func
                b.annotation = annotation
            if default is not None:
                self.visit(default, outer)
            if annotation is not None:
                self.visit(annotation, outer)

    def _comprehension(self, node: Node, scope: Scope) -> None:
        inner = self._new_scope("comprehension", node, scope)
        clauses = [c for c in node.named_children if c.type == "for_in_clause"]
        for clause in clauses:
            left = clause.child_by_field_name("left")
            right = clause.child_by_field_name("right")
            if left is not None:
                self._bind_targets(left, inner, Value("iter", right))
        for child in node.named_children:
            if child.type == "for_in_clause":
                for part in child.named_children:
                    if part is not child.child_by_field_name("left"):
                        # the first iterable is evaluated outside; others see the loop vars
                        self.visit(part, scope if child is clauses[0] else inner)
                    else:
                        self._visit_target(part, inner)
            else:
                self.visit(child, inner)

    # ---- binding statements ----------------------------------------------------------

    def _v_assignment(self, node: Node, scope: Scope) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        annotation = node.child_by_field_name("type")
        if left is not None:
            value = right
            while value is not None and value.type == "assignment":  # a = b = v
                value = value.child_by_field_name("right")
            self._bind_targets(left, scope, Value("expr", value))
            self._visit_target(left, scope)
        if annotation is not None:
            self.visit(annotation, scope)
            if left is not None and left.type == "identifier":
                home = self._home(scope, text(left))
                home.bindings[text(left)].annotation = annotation
        if right is not None:
            self.visit(right, scope)

    def _v_augmented_assignment(self, node: Node, scope: Scope) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is not None:
            self._bind_targets(left, scope, Value("augassign", node))
            self._visit_target(left, scope)
        if right is not None:
            self.visit(right, scope)

    def _v_for_statement(self, node: Node, scope: Scope) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is not None:
            self._bind_targets(left, scope, Value("iter", right))
            self._visit_target(left, scope)
        for child in node.named_children:
            if child is not left:
                self.visit(child, scope)

    def _v_with_item(self, node: Node, scope: Scope) -> None:
        value = node.child_by_field_name("value")
        if value is not None and value.type == "as_pattern":
            self._as_pattern(value, scope, "with")
        elif value is not None:
            self.visit(value, scope)

    def _v_except_clause(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            if child.type == "as_pattern":
                self._as_pattern(child, scope, "except")
            else:
                self.visit(child, scope)

    def _as_pattern(self, node: Node, scope: Scope, how: ValueHow) -> None:
        alias = node.child_by_field_name("alias")
        subject = node.named_children[0] if node.named_children else None
        if subject is not None and subject is not alias:
            self.visit(subject, scope)
        if alias is not None:
            target = alias.named_children[0] if alias.named_children else alias
            self._bind_targets(target, scope, Value(how, subject))
            self._visit_target(target, scope)

    def _v_named_expression(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        home = scope.function or scope
        if name is not None:
            b = home.bind(text(name), "variable", name)
            b.values.append(Value("expr", value))
            self.out.names.append(NameUse(node=name, scope=home))
        if value is not None:
            self.visit(value, scope)

    def _v_global_statement(self, node: Node, scope: Scope) -> None:
        for ident in node.named_children:
            if ident.type == "identifier":
                scope.declared_global.add(text(ident))
                self.out.names.append(NameUse(node=ident, scope=scope))

    def _v_nonlocal_statement(self, node: Node, scope: Scope) -> None:
        for ident in node.named_children:
            if ident.type == "identifier":
                scope.declared_nonlocal.add(text(ident))
                self.out.names.append(NameUse(node=ident, scope=scope))

    def _v_match_statement(self, node: Node, scope: Scope) -> None:
        self.out.uses_match = True
        scope.dynamic = True
        for child in node.named_children:
            self.visit(child, scope)

    def _bind_targets(self, target: Node, scope: Scope, value: Value) -> None:
        for ident, index in _target_identifiers(target):
            b = self._home(scope, text(ident)).bind(text(ident), "variable", ident)
            b.values.append(Value(value.how, value.node, index))

    def _visit_target(self, target: Node, scope: Scope) -> None:
        """Uses inside an assignment target: the names themselves, and the object and
        attribute of `obj.attr = ...` (a store)."""
        t = target.type
        if t == "identifier":
            self.out.names.append(NameUse(node=target, scope=self._home(scope, text(target))))
        elif t == "attribute":
            self._attribute(target, scope, store=True)
        elif t in PATTERN_TYPES or t in (
            "parenthesized_expression", "as_pattern_target", "list_splat_pattern", "list_splat"
        ):  # fmt: skip
            for child in target.named_children:
                self._visit_target(child, scope)
        else:  # a subscript target loads its object and index
            self.visit(target, scope)

    def _home(self, scope: Scope, name: str) -> Scope:
        """Where an assignment to `name` in `scope` binds: a global declaration sends it
        to the module, a nonlocal one to the enclosing function that binds it."""
        if name in scope.declared_global:
            return module_scope(scope)
        if name in scope.declared_nonlocal:
            s = scope.parent
            while s is not None and not (s.kind in ("function", "lambda") and name in s.bindings):
                s = s.parent
            return s or scope
        return scope

    # ---- expressions -----------------------------------------------------------------

    def _v_attribute(self, node: Node, scope: Scope) -> None:
        self._attribute(node, scope, store=False)

    def _attribute(self, node: Node, scope: Scope, store: bool) -> None:
        obj = node.child_by_field_name("object")
        attr = node.child_by_field_name("attribute")
        if obj is not None:
            self.visit(obj, scope)
        if obj is not None and attr is not None:
            self.out.attributes.append(AttrUse(node=attr, obj=obj, scope=scope, store=store))

    def _v_call(self, node: Node, scope: Scope) -> None:
        self.out.calls.append(CallUse(node=node, scope=scope))
        func = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if func is not None:
            self.visit(func, scope)
            if func.type == "identifier" and text(func) in DYNAMIC_CALLS:
                if text(func) != "vars" or args is None or not args.named_children:
                    scope.dynamic = True
        if args is None:
            return
        if args.type == "generator_expression":
            self.visit(args, scope)
            return
        for arg in args.named_children:
            if arg.type == "keyword_argument":
                name = arg.child_by_field_name("name")
                value = arg.child_by_field_name("value")
                if name is not None:
                    self.out.keywords.append(KeywordUse(node=name, call=node, scope=scope))
                if value is not None:
                    self.visit(value, scope)
            else:
                self.visit(arg, scope)

    def _v_keyword_argument(self, node: Node, scope: Scope) -> None:
        # outside a call's arguments (a class's metaclass=...): only the value is ours
        value = node.child_by_field_name("value")
        if value is not None:
            self.visit(value, scope)

    def _v_string(self, node: Node, scope: Scope) -> None:
        interpolations = [c for c in node.named_children if c.type == "interpolation"]
        if interpolations:
            for part in interpolations:
                for child in part.named_children:
                    if child.type in ("type_conversion",):
                        continue
                    self.visit(child, scope)
            return
        content = "".join(
            text(c) for c in node.named_children if c.type in ("string_content", "escape_sequence")
        )
        self.out.strings.append(StringUse(node=node, content=content, scope=scope))

    def _v_format_specifier(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            if child.type == "interpolation":
                for inner in child.named_children:
                    self.visit(inner, scope)

    # ---- imports ---------------------------------------------------------------------

    def _v_import_statement(self, node: Node, scope: Scope) -> None:
        for item in node.named_children:
            if item.type == "dotted_name":
                dotted = _dotted_text(item)
                self._module_path(item, scope, level=0)
                top = dotted.split(".")[0]
                b = scope.bind(top, "import", item.named_children[0])
                b.imports.append(self.imports.module(top, 0, self.file))
            elif item.type == "aliased_import":
                name = item.child_by_field_name("name")
                alias = item.child_by_field_name("alias")
                if name is None or alias is None:
                    continue
                self._module_path(name, scope, level=0)
                b = scope.bind(text(alias), "import", alias)
                b.imports.append(self.imports.module(_dotted_text(name), 0, self.file))

    def _v_future_import_statement(self, node: Node, scope: Scope) -> None:
        return

    def _v_import_from_statement(self, node: Node, scope: Scope) -> None:
        module_node = node.child_by_field_name("module_name")
        level, dotted, dotted_node = 0, "", None
        if module_node is not None and module_node.type == "relative_import":
            prefix = next((c for c in module_node.children if c.type == "import_prefix"), None)
            level = len(text(prefix)) if prefix is not None else 1
            dotted_node = next((c for c in module_node.children if c.type == "dotted_name"), None)
            dotted = _dotted_text(dotted_node) if dotted_node is not None else ""
        elif module_node is not None:
            dotted_node = module_node
            dotted = _dotted_text(module_node)
        if dotted_node is not None:
            self._module_path(dotted_node, scope, level)
        source = self.imports.module(dotted, level, self.file)
        if any(c.type == "wildcard_import" for c in node.children):
            scope.star_imports.append(source)
            return
        for item in node.children_by_field_name("name"):
            if item.type == "aliased_import":
                name_node = item.child_by_field_name("name")
                alias = item.child_by_field_name("alias")
            else:
                name_node, alias = item, None
            if name_node is None:
                continue
            ident = name_node.named_children[0] if name_node.type == "dotted_name" else name_node
            name = text(ident)
            self.out.import_names.append(ImportNameUse(node=ident, module=source.file, scope=scope))
            bound = alias if alias is not None else ident
            b = scope.bind(text(bound), "import", alias)
            if alias is None:
                b.sites.append(ident)
            b.imports.append(self.imports.member(source, name))

    def _module_path(self, dotted_node: Node, scope: Scope, level: int) -> None:
        parts = [c for c in dotted_node.named_children if c.type == "identifier"]
        for i, ident in enumerate(parts):
            prefix = ".".join(text(p) for p in parts[: i + 1])
            target = self.imports.module(prefix, level, self.file)
            self.out.module_paths.append(ModulePathUse(node=ident, module=target.file, scope=scope))


class ImportResolver:
    """How the importing file's imports resolve (repo file or library path)."""

    def __init__(self, repo) -> None:  # noqa: ANN001 - Repo, kept import-cycle free
        self.repo = repo

    def module(self, dotted: str, level: int, importer: str) -> ImportTarget:
        f = self.repo.python[importer]
        if level:
            found = self.repo.relative_module(f, level, dotted)
            return ImportTarget(file=found) if found else ImportTarget(library=None)
        found = self.repo.module_file(dotted, f) if dotted else None
        return ImportTarget(file=found) if found else ImportTarget(library=dotted)

    def member(self, source: ImportTarget, name: str) -> ImportTarget:
        if source.file is not None:
            sub = self.repo.submodule(source.file, name)
            if sub is not None:
                return ImportTarget(file=sub)
            return ImportTarget(file=source.file, name=name)
        lib = f"{source.library}.{name}" if source.library else None
        return ImportTarget(library=lib)


def _parameter_parts(p: Node) -> tuple[Node | None, Node | None, Node | None]:
    """(identifier, default, annotation) of one parameter node."""
    t = p.type
    if t == "identifier":
        return p, None, None
    if t in ("default_parameter", "typed_default_parameter"):
        name = p.child_by_field_name("name")
        return name, p.child_by_field_name("value"), p.child_by_field_name("type")
    if t == "typed_parameter":
        inner = p.named_children[0] if p.named_children else None
        if inner is not None and inner.type in ("list_splat_pattern", "dictionary_splat_pattern"):
            inner = inner.named_children[0] if inner.named_children else None
        return inner, None, p.child_by_field_name("type")
    if t in ("list_splat_pattern", "dictionary_splat_pattern"):
        inner = p.named_children[0] if p.named_children else None
        return inner if inner is not None and inner.type == "identifier" else None, None, None
    return None, None, None


def _target_identifiers(target: Node, prefix: tuple[int, ...] = ()) -> list[tuple[Node, tuple]]:
    t = target.type
    if t == "identifier":
        return [(target, prefix)]
    if t in PATTERN_TYPES:
        out: list[tuple[Node, tuple]] = []
        for i, child in enumerate(c for c in target.named_children if c.type != "comment"):
            if child.type in ("list_splat_pattern", "list_splat"):
                inner = child.named_children[0] if child.named_children else None
                if inner is not None:
                    out += [(n, ()) for n, _ in _target_identifiers(inner)]
                continue
            out += _target_identifiers(child, (*prefix, i))
        return out
    if t in ("parenthesized_expression", "as_pattern_target") and target.named_children:
        return _target_identifiers(target.named_children[0], prefix)
    return []


def _dotted_text(node: Node) -> str:
    return ".".join(text(c) for c in node.named_children if c.type == "identifier")


def build_scopes(file: str, root: Node, imports: ImportResolver) -> FileScopes:
    return ScopeBuilder(file, root, imports).build()
