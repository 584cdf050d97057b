"""A run copy sees what lies around the original repo as the original does: `../data`
beside it and `../../Datasets` beside the folder above it (a Lightning example reads
MNIST from `path.dirname(__file__)/../../Datasets`), read-only links, never the
filesystem's top folders."""

from __future__ import annotations

from pathlib import Path

from torch_investigate.tools.sandbox import surroundings


def test_two_levels_up_resolves_from_the_run_copy(tmp_path):
    world = tmp_path / "checkout"
    origin = world / "examples" / "pytorch" / "basics"
    origin.mkdir(parents=True)
    (world / "examples" / "Datasets").mkdir()
    (world / "examples" / "Datasets" / "mnist.bin").write_text("x")
    (world / "examples" / "pytorch" / "data.csv").write_text("1,2\n")
    above = surroundings.levels_above(origin, "bwrap")
    assert above == ["examples", "pytorch"]
    assert surroundings.top(origin, "bwrap") == world
    run_dir = tmp_path / "sandbox" / "runs" / "r1" / Path(*above) / origin.name
    run_dir.mkdir(parents=True)
    surroundings.link(origin, "bwrap", run_dir)
    assert (run_dir / ".." / ".." / "Datasets" / "mnist.bin").read_text() == "x"
    assert (run_dir / ".." / "data.csv").read_text() == "1,2\n"
    # the repo itself and the folders on its way are not linked over the copy
    assert not (run_dir.parent / "basics").is_symlink()
    assert not (run_dir.parents[1] / "pytorch").is_symlink()


def test_without_bwrap_nothing_is_linked_and_the_copy_stays_where_it_was(tmp_path):
    origin = tmp_path / "a" / "b" / "repo"
    origin.mkdir(parents=True)
    assert surroundings.levels_above(origin, "unshare") == []
    run_dir = tmp_path / "run" / "repo"
    run_dir.mkdir(parents=True)
    surroundings.link(origin, "unshare", run_dir)
    assert list(run_dir.parent.iterdir()) == [run_dir]


def test_the_filesystems_top_folders_are_never_linked():
    assert surroundings.levels_above(Path("/tmp/x/repo"), "bwrap") == []
    assert surroundings.top(Path("/tmp/x/repo"), "bwrap") == Path("/tmp/x")
    assert surroundings.levels_above(Path("/repo"), "bwrap") == []
