"""Git facts: HEAD, branch, dirty files, recent commits touching the training files."""

from __future__ import annotations

from pathlib import Path

import git

from torch_investigate.tools.gitfacts import git_facts

ME = git.Actor("Ada", "ada@example.com")


def _commit(r: git.Repo, files: dict[str, str], message: str) -> str:
    root = Path(r.working_tree_dir)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    r.index.add(list(files))
    return r.index.commit(message, author=ME, committer=ME).hexsha


def test_not_a_repo(tmp_path: Path) -> None:
    assert git_facts(tmp_path).is_repo is False


def test_repo_without_commits_does_not_crash(tmp_path: Path) -> None:
    git.Repo.init(tmp_path)
    (tmp_path / "train.py").write_text("x")
    facts = git_facts(tmp_path, ["train.py"])
    assert facts.is_repo and facts.head is None and facts.recent_commits == []
    assert facts.dirty == ["train.py"]


def test_head_branch_dirty_and_commits_touching_training_files(tmp_path: Path) -> None:
    r = git.Repo.init(tmp_path)
    (tmp_path / ".gitignore").write_text("*.pt\n")
    first = _commit(r, {"train.py": "a", "README.md": "r", ".gitignore": "*.pt\n"}, "first")
    _commit(r, {"README.md": "docs"}, "docs only")
    third = _commit(r, {"train.py": "b", "model.py": "m"}, "change the loss")
    (tmp_path / "model.py").write_text("dirty")
    (tmp_path / "new.py").write_text("untracked")
    (tmp_path / "w.pt").write_text("ignored")
    (tmp_path / "staged.py").write_text("s")
    r.index.add(["staged.py"])

    facts = git_facts(tmp_path, ["train.py"])
    assert facts.head == third and facts.branch == r.active_branch.name
    assert facts.dirty == ["model.py", "new.py", "staged.py"]
    assert [c.sha for c in facts.recent_commits] == [third, first]
    latest = facts.recent_commits[0]
    assert latest.summary == "change the loss" and latest.author == "Ada"
    assert latest.files == ["model.py", "train.py"] and latest.date

    assert [c.summary for c in git_facts(tmp_path).recent_commits] == [
        "change the loss",
        "docs only",
        "first",
    ]
    r.git.checkout("--force", first)
    assert git_facts(tmp_path).branch is None


def test_at_most_ten_commits(tmp_path: Path) -> None:
    r = git.Repo.init(tmp_path)
    for i in range(12):
        _commit(r, {"train.py": str(i)}, f"c{i}")
    assert len(git_facts(tmp_path, ["train.py"]).recent_commits) == 10


def test_a_folder_inside_a_larger_repo_is_described_from_inside(tmp_path: Path) -> None:
    """Paths relative to the investigated folder, and only what touched it: the larger
    repo's own README and code are not the folder's."""
    r = git.Repo.init(tmp_path)
    first = _commit(
        r,
        {"README.md": "top", "agent/checks/common.py": "c", "proj/README.md": "p",
         "proj/train.py": "t", "proj/model.py": "m"},
        "first",
    )  # fmt: skip
    mixed = _commit(r, {"README.md": "top 2", "proj/model.py": "m2"}, "docs and the model")
    _commit(r, {"agent/checks/common.py": "c2"}, "outside only")
    latest = _commit(r, {"proj/train.py": "t2", "agent/checks/common.py": "c3"}, "the loss")
    (tmp_path / "README.md").write_text("dirty outside")
    (tmp_path / "proj" / "model.py").write_text("dirty inside")

    facts = git_facts(tmp_path / "proj")
    assert [c.sha for c in facts.recent_commits] == [latest, mixed, first]
    files = {c.summary: c.files for c in facts.recent_commits}
    assert files == {
        "the loss": ["train.py"],
        "docs and the model": ["model.py"],
        "first": ["README.md", "model.py", "train.py"],
    }
    assert facts.dirty == ["model.py"]

    on_path = git_facts(tmp_path / "proj", ["train.py"])
    assert [c.sha for c in on_path.recent_commits] == [latest, first]
    assert git_facts(tmp_path).recent_commits[0].files == [
        "agent/checks/common.py",
        "proj/train.py",
    ]
