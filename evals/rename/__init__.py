"""Name-dependence instrument: a suite rewritten with neutral names (and, with
--restyle, its training loop moved), scored beside the original.

repo.py      a case's files, Python parsed with tree-sitter, module resolution
bindings.py  the scope records: scopes, bindings, uses of names, name lookup
scopes.py    scopes, bindings and every identifier's role in one file (builds them)
program.py   the repo's functions and classes with parameters and members
kind.py      a kind (repo module/class/instance, library object, ...) and its join
kinds.py     what an expression is, inferred over the program
hierarchy.py the repo's classes: resolution order, subclasses, library bases
callsyntax.py a function's return values and yields, a call's argument for a parameter
library.py   the attribute names installed libraries own
strings.py   what a string literal is for (a key, a name looked up, prose)
resolve.py   what each occurrence refers to, and what the repo defines
plan.py      which spellings get neutral names, and why the others keep theirs
names.py     the neutral names themselves
edits.py     byte edits, comments and docstrings dropped with lines kept
configs.py   JSON/YAML/TOML/INI keys, renamed in place
commands.py  command lines, Makefiles, pyproject entries, README code blocks
rewrite.py   one repo renamed, with its RenameTable (table.py)
restyle.py   the training loop moved into or out of a class, small helpers inlined
suite.py     a whole suite rewritten, ground truth carried through
check.py     every rewritten case still runs with the same metric
compare.py   a benchmark of the rewrite beside the original's
"""
