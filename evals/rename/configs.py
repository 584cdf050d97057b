"""Config files (JSON, YAML, TOML, INI): where each key is written, and a rewrite that
renames keys and drops comments with every line kept in place.

Keys are found by a small lexer per format (JSON's string tokens before a colon; YAML,
TOML and INI keys at the start of a line, section headers). A rewrite is kept only when
the real parser reads the rewritten file as the original with its keys mapped; anything
else (flow mappings, anchors, multi-line strings the lexer misreads) leaves the file as it
was, and its keys keep their spelling (the renamer blocks them).
"""

from __future__ import annotations

import configparser
import json
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Literal

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

try:
    import yaml  # PyYAML: what the repos with YAML configs read them with
except ModuleNotFoundError:  # then YAML files are left as they are
    yaml = None

Format = Literal["json", "yaml", "toml", "ini"]


@dataclass
class ConfigToken:
    start: int  # byte span of the key as written (without quotes)
    end: int
    name: str


@dataclass
class ConfigFile:
    rel: str
    format: Format
    source: bytes
    data: Any  # what the format's parser reads
    keys: list[ConfigToken] = field(default_factory=list)
    values: list[str] = field(default_factory=list)  # scalar string values
    comments: list[tuple[int, int]] = field(default_factory=list)  # byte spans

    @property
    def key_names(self) -> set[str]:
        return {k.name for k in self.keys}

    def rewrite(self, keys: dict[str, str]) -> bytes | None:
        """The file with `keys` renamed and comments dropped (lines kept); None when the
        parser would not read it as the original with the keys mapped."""
        edits = [(k.start, k.end, keys[k.name]) for k in self.keys if k.name in keys]
        edits += [(s, e, "") for s, e in self.comments]
        out = bytearray(self.source)
        for start, end, new in sorted(edits, reverse=True):
            out[start:end] = new.encode()
        text = _strip_trailing_spaces(bytes(out))
        try:
            again = _parse(self.format, text)
        except Exception:  # noqa: BLE001 - any parse failure means: do not rewrite
            return None
        return text if again == _map_keys(self.data, keys) else None


def format_of(rel: str) -> Format | None:
    suffix = PurePosixPath(rel).suffix.lower()
    return {
        ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
        ".cfg": "ini", ".ini": "ini",
    }.get(suffix)  # type: ignore[return-value]  # fmt: skip


def read_config(rel: str, source: bytes) -> ConfigFile | None:
    fmt = format_of(rel)
    if fmt is None or (fmt == "yaml" and yaml is None):
        return None
    try:
        data = _parse(fmt, source)
    except Exception:  # noqa: BLE001 - not a config this format reads: leave it alone
        return None
    cf = ConfigFile(rel=rel, format=fmt, source=source, data=data)
    {"json": _lex_json, "yaml": _lex_yaml, "toml": _lex_toml, "ini": _lex_ini}[fmt](cf)
    return cf


def _parse(fmt: Format, source: bytes) -> Any:
    if fmt == "json":
        return json.loads(source)
    if fmt == "yaml":
        return yaml.safe_load(source)
    if fmt == "toml":
        return tomllib.loads(source.decode())
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(source.decode())
    return {s: dict(parser[s]) for s in parser.sections()} | {"DEFAULT": dict(parser.defaults())}


def _map_keys(data: Any, keys: dict[str, str]) -> Any:
    if isinstance(data, dict):
        return {keys.get(k, k) if isinstance(k, str) else k: _map_keys(v, keys)
                for k, v in data.items()}  # fmt: skip
    if isinstance(data, list):
        return [_map_keys(v, keys) for v in data]
    return data


def _strip_trailing_spaces(data: bytes) -> bytes:
    return b"\n".join(line.rstrip(b" \t") if line.strip() == b"" or line.rstrip() != line
                      else line for line in data.split(b"\n"))  # fmt: skip


# ---- lexers ----------------------------------------------------------------------------


def _lex_json(cf: ConfigFile) -> None:
    src = cf.source
    i, n = 0, len(src)
    while i < n:
        if src[i : i + 1] == b'"':
            j = i + 1
            while j < n and src[j : j + 1] != b'"':
                j += 2 if src[j : j + 1] == b"\\" else 1
            raw = src[i + 1 : j]
            k = j + 1
            while k < n and src[k : k + 1] in b" \t\r\n":
                k += 1
            name = json.loads(b'"' + raw + b'"')
            if k < n and src[k : k + 1] == b":":
                if b"\\" not in raw:
                    cf.keys.append(ConfigToken(i + 1, j, name))
            else:
                cf.values.append(name)
            i = j + 1
        else:
            i += 1


def _lines(src: bytes):
    """(byte offset of the line, the line without its newline)."""
    offset = 0
    for line in src.split(b"\n"):
        yield offset, line
        offset += len(line) + 1


def _comment_start(line: bytes, marks: bytes = b"#") -> int | None:
    """Where a comment starts on the line (outside quotes, after whitespace), or None."""
    quote = None
    for i, ch in enumerate(line):
        c = bytes([ch])
        if quote:
            if c == quote:
                quote = None
        elif c in b"\"'":
            quote = c
        elif c in marks and (i == 0 or line[i - 1 : i] in b" \t"):
            return i
    return None


def _key_span(line: bytes, start: int, stop: int) -> tuple[int, int, str] | None:
    """The key between start and stop (stripped, unquoted): (start, end, name)."""
    raw = line[start:stop]
    lead = len(raw) - len(raw.lstrip())
    body = raw.strip()
    if not body:
        return None
    s = start + lead
    if body[:1] in (b'"', b"'") and body[-1:] == body[:1] and len(body) >= 2:
        return s + 1, s + len(body) - 1, body[1:-1].decode()
    try:
        name = body.decode()
    except UnicodeDecodeError:
        return None
    return s, s + len(body), name


def _lex_yaml(cf: ConfigFile) -> None:
    for offset, line in _lines(cf.source):
        cut = _comment_start(line)
        if cut is not None:
            end = len(line.rstrip(b"\r"))
            cf.comments.append((offset + cut, offset + end))
            line = line[:cut]
        stripped = line.strip()
        if not stripped or stripped.startswith((b"---", b"...", b"%")):
            continue
        i = len(line) - len(line.lstrip())
        while line[i : i + 2] == b"- ":
            i += 2
            while line[i : i + 1] == b" ":
                i += 1
        colon = _yaml_colon(line, i)
        if colon is None:
            value = line[i:].strip()
            if value:
                cf.values.append(value.decode(errors="replace").strip("'\""))
            continue
        span = _key_span(line, i, colon)
        if span is not None and span[2] and not span[2].startswith(("{", "[", "&", "*", "!")):
            cf.keys.append(ConfigToken(offset + span[0], offset + span[1], span[2]))
        value = line[colon + 1 :].strip()
        if value:
            cf.values.append(value.decode(errors="replace").strip("'\""))


def _yaml_colon(line: bytes, start: int) -> int | None:
    quote = None
    for i in range(start, len(line)):
        c = line[i : i + 1]
        if quote:
            if c == quote:
                quote = None
        elif c in (b'"', b"'") and i == start:
            quote = c
        elif c == b":" and (i + 1 == len(line) or line[i + 1 : i + 2] in b" \t\r"):
            return i
        elif c in (b"{", b"["):
            return None
    return None


def _lex_toml(cf: ConfigFile) -> None:
    for offset, line in _lines(cf.source):
        cut = _comment_start(line)
        if cut is not None:
            cf.comments.append((offset + cut, offset + len(line.rstrip(b"\r"))))
            line = line[:cut]
        stripped = line.strip()
        if not stripped:
            continue
        lead = len(line) - len(line.lstrip())
        if stripped.startswith(b"["):
            depth = 2 if stripped.startswith(b"[[") else 1
            inner_start = lead + depth
            close = line.find(b"]" * depth, inner_start)
            if close < 0:
                continue
            _dotted_keys(cf, line, offset, inner_start, close)
            continue
        eq = line.find(b"=")
        if eq < 0:
            continue
        _dotted_keys(cf, line, offset, lead, eq)
        value = line[eq + 1 :].strip()
        if value.startswith((b'"', b"'")):
            cf.values.append(value.strip(b"\"'").decode(errors="replace"))


def _dotted_keys(cf: ConfigFile, line: bytes, offset: int, start: int, stop: int) -> None:
    part_start = start
    quote = None
    for i in range(start, stop + 1):
        c = line[i : i + 1] if i < stop else b"."
        if quote:
            if c == quote:
                quote = None
            continue
        if c in (b'"', b"'"):
            quote = c
        elif c == b".":
            span = _key_span(line, part_start, i)
            if span is not None:
                cf.keys.append(ConfigToken(offset + span[0], offset + span[1], span[2]))
            part_start = i + 1


def _lex_ini(cf: ConfigFile) -> None:
    for offset, line in _lines(cf.source):
        stripped = line.strip()
        if stripped.startswith((b"#", b";")):
            cf.comments.append((offset + line.find(stripped[:1]), offset + len(line.rstrip(b"\r"))))
            continue
        if not stripped:
            continue
        lead = len(line) - len(line.lstrip())
        if lead and not stripped.startswith(b"["):
            continue  # a continuation line of a multi-line value
        if stripped.startswith(b"["):
            close = line.find(b"]")
            if close > 0:
                span = _key_span(line, lead + 1, close)
                if span is not None:
                    cf.keys.append(ConfigToken(offset + span[0], offset + span[1], span[2]))
            continue
        cut = min((p for p in (line.find(b"="), line.find(b":")) if p >= 0), default=-1)
        if cut < 0:
            continue
        span = _key_span(line, lead, cut)
        if span is not None:
            cf.keys.append(ConfigToken(offset + span[0], offset + span[1], span[2].lower()))
        value = line[cut + 1 :].strip()
        if value:
            cf.values.append(value.decode(errors="replace"))
