"""Isolation probing, the fallbacks when bubblewrap is absent, and the same behaviour
(network blocked and located, secrets invisible, crash located) under each of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from torch_investigate.tools.sandbox import Limits, Sandbox, SandboxError, available, choose
from torch_investigate.tools.sandbox import isolation as isolation_mod
from torch_investigate.tools.workspace import Workspace

FIXTURES = Path(__file__).parent / "fixtures" / "sandbox"
STUB_TRACER = FIXTURES / "stub_trace"


def test_auto_picks_the_strongest_that_works() -> None:
    works = available()
    assert works["socket-guard"] is True
    expected = next(name for name in ("bwrap", "unshare", "socket-guard") if works[name])
    assert choose("auto") == expected


def test_unknown_isolation_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(SandboxError, match="unknown isolation 'docker'"):
        Sandbox(tmp_path, isolation="docker", warm=False)


def test_missing_bwrap_falls_back_to_unshare_then_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    real_which = isolation_mod.shutil.which
    monkeypatch.setattr(
        isolation_mod.shutil, "which", lambda name: None if name == "bwrap" else real_which(name)
    )
    isolation_mod._probe.cache_clear()
    try:
        assert available()["bwrap"] is False
        assert choose("auto") == ("unshare" if available()["unshare"] else "socket-guard")
        with pytest.raises(isolation_mod.IsolationError, match="does not work"):
            choose("bwrap")
        monkeypatch.setattr(isolation_mod.shutil, "which", lambda name: None)
        isolation_mod._probe.cache_clear()
        assert choose("auto") == "socket-guard"
    finally:
        isolation_mod._probe.cache_clear()


def test_bwrap_command_isolates_network_tmp_and_filesystem(tmp_path: Path) -> None:
    if not available()["bwrap"]:
        pytest.skip("bubblewrap does not work here")
    runtime = tmp_path / "runtime"
    argv = isolation_mod.wrap("bwrap", tmp_path, runtime, Path("/usr/bin/python3"))
    text = " ".join(argv)
    assert "--ro-bind / /" in text and "--unshare-net" in text and "--die-with-parent" in text
    assert "--tmpfs /tmp" in text and "--proc /proc" in text and "--dev /dev" in text
    assert f"--bind {tmp_path} {tmp_path}" in text and f"--ro-bind {runtime} {runtime}" in text
    assert text.index("--tmpfs /tmp") < text.index(f"--bind {tmp_path}")  # root re-exposed
    assert isolation_mod.wrap("socket-guard", tmp_path, runtime, Path("/usr/bin/python3")) == []


@pytest.mark.parametrize("isolation", ["unshare", "socket-guard"])
def test_fallback_isolation_reports_the_same(
    isolation: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not available()[isolation]:
        pytest.skip(f"{isolation} does not work here")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-planted-123")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-planted-456")
    with (
        Workspace.create(FIXTURES / "flat") as flat,
        Workspace.create(FIXTURES / "pkgrepo") as pkg,
        Sandbox(
            flat.root, isolation=isolation, tracer=STUB_TRACER, limits=Limits(wall_s=30)
        ) as one,
        Sandbox(pkg.root, isolation=isolation, tracer=STUB_TRACER, limits=Limits(wall_s=30)) as two,
    ):
        assert one.isolation == isolation
        net, crash, secrets = one.run_many(
            [
                (["train.py", "--mode", "socket"], {}, "net"),
                (["train.py", "--mode", "crash"], {}, "crash"),
                (["train.py", "--mode", "secrets"], {}, "secrets"),
            ]
        )
        pkg_net = two.run(["-m", "trainer.main", "urllib"], trace_config={})
    assert net.failure is not None and net.failure.kind == "network_blocked"
    assert net.failure.file == "train.py" and "data.example.org" in net.failure.message
    assert pkg_net.failure is not None and pkg_net.failure.kind == "network_blocked"
    assert pkg_net.failure.file == "trainer/data.py"
    assert crash.failure is not None and crash.failure.function == "step"
    line = next(li for li in secrets.stdout.splitlines() if li.startswith("SECRETS "))
    seen = json.loads(line.removeprefix("SECRETS "))
    assert seen["names"] == [] and seen["values"] == []
    assert {net.isolation, crash.isolation} == {isolation}


def test_network_namespace_blocks_even_without_the_guard(tmp_path: Path) -> None:
    """Under bwrap/unshare a raw C-level socket (bypassing the Python guard) finds no route."""
    isolation = choose("auto")
    if isolation == "socket-guard":
        pytest.skip("no network namespace here")
    (tmp_path / "raw.py").write_text(
        "import _socket\n"
        "s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)\n"
        "s.settimeout(3)\n"
        "print('rc', s.connect_ex(('1.1.1.1', 80)))\n"
    )
    with Sandbox(tmp_path, tracer=STUB_TRACER, warm=False) as sandbox:
        result = sandbox.run(["raw.py"], trace_config={})
    assert result.exit_code == 0, result.stderr
    assert "rc 0" not in result.stdout and "rc " in result.stdout
