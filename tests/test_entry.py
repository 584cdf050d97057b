"""Finding the training command on differently laid-out repos, and parsing --cmd."""

from __future__ import annotations

from pathlib import Path

import pytest
from torch_investigate.tools.entry import (
    Command,
    EntryError,
    find_command,
    parse_command,
    rank_candidates,
)

TRAIN = """import torch

def main():
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.Adam(model.parameters())

if __name__ == "__main__":
    main()
"""
HELPER = "def helper():\n    return 1\n"


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.mark.parametrize(
    ("cmd", "argv", "env"),
    [
        ("python train.py --x 1", ["train.py", "--x", "1"], {}),
        ("python3 -m pkg.train --epochs 50", ["-m", "pkg.train", "--epochs", "50"], {}),
        ("/path/to/venv/bin/python scripts/run.py", ["scripts/run.py"], {}),
        ("PYTHONPATH=. python train.py", ["train.py"], {"PYTHONPATH": "."}),
        ("python -u -W ignore train.py", ["train.py"], {}),
        ("uv run python -m pkg.train", ["-m", "pkg.train"], {}),
        ("./train.py --lr 0.1", ["./train.py", "--lr", "0.1"], {}),
    ],
)
def test_parse_command(cmd: str, argv: list[str], env: dict[str, str]) -> None:
    parsed_argv, parsed_env, interpreter = parse_command(cmd)
    assert (parsed_argv, parsed_env) == (argv, env)
    assert interpreter == ("/path/to/venv/bin/python" if cmd.startswith("/") else None)


@pytest.mark.parametrize(
    "cmd", ["bash train.sh", "torchrun train.py", "python -c 'print(1)'", "python", ""]
)
def test_non_python_commands_are_one_line_errors(cmd: str) -> None:
    with pytest.raises(EntryError) as e:
        parse_command(cmd)
    assert "\n" not in str(e.value)


def test_cmd_wins_and_keeps_env_and_interpreter(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TRAIN, "other/train_b.py": TRAIN})
    info = find_command(tmp_path, "PYTHONPATH=. /opt/py/bin/python train.py --epochs 100")
    assert isinstance(info, Command)
    assert info.argv == ["train.py", "--epochs", "100"]  # long runs are left alone
    assert info.source == "--cmd" and info.env == {"PYTHONPATH": "."}
    assert info.interpreter == "/opt/py/bin/python"
    assert any("other/train_b.py" in c for c in info.candidates)
    with pytest.raises(EntryError, match="not in"):
        find_command(tmp_path, "python missing.py")


def test_flat_script(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TRAIN, "utils.py": HELPER, "run_eval.py": "print(1)\n"})
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["train.py"] and info.source == "train.py"
    assert "main guard" in info.reason and "optimizer" in info.reason


def test_package_run_with_m(tmp_path: Path) -> None:
    write(
        tmp_path, {"trainer/__init__.py": "", "trainer/train.py": TRAIN, "trainer/model.py": HELPER}
    )
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["-m", "trainer.train"]
    assert info.source == "trainer/train.py"


def test_readme_documented_command_wins_over_files(tmp_path: Path) -> None:
    readme = (
        "# Project\n\nInstall:\n\n```bash\npip install -r requirements.txt\n```\n\n"
        "Train:\n\n```bash\n$ python scripts/train_model.py \\\n    --epochs 30 --lr 3e-4\n"
        "python -m http.server\n```\n"
    )
    write(tmp_path, {"README.md": readme, "scripts/train_model.py": TRAIN, "main.py": TRAIN})
    info = find_command(tmp_path)
    assert info is not None
    assert info.argv == ["scripts/train_model.py", "--epochs", "30", "--lr", "3e-4"]
    assert info.source == "README.md:12"  # where the command starts
    assert any("main.py" in c for c in info.candidates)
    assert not any("http.server" in c for c in info.candidates)


def test_makefile_target(tmp_path: Path) -> None:
    makefile = (
        "PYTHON ?= python3\n\ninstall:\n\tpip install -e .\n\n"
        "train: data\n\t@$(PYTHON) experiments/fit.py --config cfg.yaml\n\n"
        "test:\n\tpython -m pytest\n"
    )
    fit = TRAIN.replace("def main", "def fit").replace("main()", "fit()")
    write(tmp_path, {"Makefile": makefile, "experiments/fit.py": fit})
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["experiments/fit.py", "--config", "cfg.yaml"]
    assert info.source == "Makefile:train"


def test_src_layout_and_pyproject_scripts(tmp_path: Path) -> None:
    pyproject = (
        '[project]\nname = "x"\n[project.scripts]\n'
        'x-train = "mypkg.train:main"\nx-serve = "mypkg.serve:run"\n'
    )
    write(
        tmp_path,
        {
            "pyproject.toml": pyproject,
            "src/mypkg/__init__.py": "",
            "src/mypkg/train.py": TRAIN,
            "src/mypkg/serve.py": "def run():\n    pass\n",
        },
    )
    notes: list[str] = []
    ranked = rank_candidates(tmp_path, notes)
    top = ranked[0]
    assert top.argv == ["-m", "mypkg.train"] and top.env == {"PYTHONPATH": "src"}
    assert top.source == "pyproject [project.scripts]"
    assert any("mypkg.serve has no main guard" in n for n in notes)
    info = find_command(tmp_path)
    assert isinstance(info, Command) and info.env == {"PYTHONPATH": "src"}


def test_candidates_pointing_at_missing_files_are_dropped(tmp_path: Path) -> None:
    readme = "```\npython train_old.py --lr 1\n```\n"
    write(tmp_path, {"README.md": readme, "run.py": TRAIN})
    notes: list[str] = []
    ranked = rank_candidates(tmp_path, notes)
    assert [c.argv for c in ranked] == [["run.py"]]
    assert any("train_old.py" in n for n in notes)


def test_nothing_found(tmp_path: Path) -> None:
    write(tmp_path, {"lib.py": HELPER})
    assert find_command(tmp_path) is None
