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
    for x in torch.randn(10, 4, 2):
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()

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
    assert "main guard reaches the training loop at train.py" in info.reason


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


TRAINER = """import torch


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def fit(self, batches):
        for x, y in batches:
            self.opt.zero_grad()
            ((self.model(x) - y) ** 2).mean().backward()
            self.opt.step()
"""


def test_any_file_whose_main_reaches_a_trainer_class_elsewhere(tmp_path: Path) -> None:
    """A script named neither train* nor main, training through a class in a package."""
    write(tmp_path, {
        "lab/__init__.py": "",
        "lab/engine.py": TRAINER,
        "experiment.py": (
            "import torch\nfrom lab.engine import Trainer\n\n"
            "def run():\n    Trainer(torch.nn.Linear(2, 1)).fit([(torch.ones(1, 2), torch.ones(1, 1))])\n\n"
            "if __name__ == '__main__':\n    run()\n"
        ),
        "plot_results.py": "import torch\n\nif __name__ == '__main__':\n    print(torch.zeros(1))\n",
    })  # fmt: skip
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["experiment.py"]
    assert "lab/engine.py" in info.reason and "Trainer.fit" in info.reason
    assert not any("plot_results" in c for c in info.candidates)


def test_code_that_calls_backward_but_never_updates_still_trains(tmp_path: Path) -> None:
    """A removed `opt.step()` is the defect to find, not a reason to find no entry; a
    file with no backward at all stays out."""
    write(tmp_path, {
        "fit.py": TRAIN.replace("        opt.step()\n", ""),
        "plot.py": "import torch\n\nif __name__ == '__main__':\n    print(torch.zeros(1))\n",
    })  # fmt: skip
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["fit.py"]
    assert "backward" in info.reason
    assert not any("plot" in c for c in info.candidates)


def test_a_package_main_module_runs_with_m(tmp_path: Path) -> None:
    write(tmp_path, {
        "src/blobs/__init__.py": "",
        "src/blobs/trainer.py": TRAINER,
        "src/blobs/__main__.py": (
            "import torch\nfrom blobs.trainer import Trainer\n\n"
            "if __name__ == '__main__':\n    Trainer(torch.nn.Linear(2, 1)).fit([])\n"
        ),
    })  # fmt: skip
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["-m", "blobs"] and info.env == {"PYTHONPATH": "src"}


def test_a_lightning_fit_is_a_training_step(tmp_path: Path) -> None:
    write(tmp_path, {"fit_model.py": (
        "import lightning as L\n\ndef main():\n    trainer = L.Trainer(max_epochs=2)\n"
        "    trainer.fit(object())\n\nif __name__ == '__main__':\n    main()\n"
    )})  # fmt: skip
    info = find_command(tmp_path)
    assert (
        info is not None
        and info.argv == ["fit_model.py"]
        and "lightning.Trainer.fit" in info.reason
    )


def test_readme_lines_tie_by_number_and_a_non_training_command_ranks_last(tmp_path: Path) -> None:
    lines = ["x"] * 60
    lines[47] = "```\npython train.py --small\n```"
    lines[59] = "```\npython evaluate.py --weights best.pt\n```"
    readme = "\n".join(lines) + "\n```\npython train.py --large\n```\n"
    write(tmp_path, {
        "README.md": readme, "train.py": TRAIN,
        "evaluate.py": "import torch\n\nif __name__ == '__main__':\n    torch.load('best.pt')\n",
    })  # fmt: skip
    ranked = rank_candidates(tmp_path)
    assert ranked[0].argv == ["train.py", "--small"]  # README.md:48 before README.md:6x
    assert ranked[-1].argv[0] == "evaluate.py" and "reaches no training step" in ranked[-1].reason


def test_a_make_target_runs_its_prerequisites_first(tmp_path: Path) -> None:
    makefile = (
        "PYTHON ?= python\nCONFIG ?= configs/base.yaml\nDATA = data/a.npz data/b.npz\n\n"
        ".PHONY: train data\n\n$(DATA): scripts/make_data.py\n\t$(PYTHON) scripts/make_data.py --out data\n\n"
        "data: $(DATA)\n\ntrain: data\n\t@$(PYTHON) train.py --config $(CONFIG)\n"
    )
    write(tmp_path, {"Makefile": makefile, "train.py": TRAIN, "scripts/make_data.py": "print(1)\n"})
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["train.py", "--config", "configs/base.yaml"]
    assert info.setup == [["scripts/make_data.py", "--out", "data"]]


def test_the_python_commands_before_it_on_a_readme_line_run_first(tmp_path: Path) -> None:
    readme = "```bash\nmkdir -p data && python make_data.py --n 50 && python train.py\n```\n"
    write(tmp_path, {"README.md": readme, "train.py": TRAIN, "make_data.py": "print(1)\n"})
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["train.py"]
    assert info.setup == [["make_data.py", "--n", "50"]] and "run first" in info.reason


def test_a_command_after_an_or_does_not_run_the_one_before_it(tmp_path: Path) -> None:
    readme = "```bash\npython fetch.py || python train.py\n```\n"
    write(tmp_path, {"README.md": readme, "train.py": TRAIN, "fetch.py": "print(1)\n"})
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["train.py"] and info.setup == []


def test_a_chain_given_with_cmd_runs_what_comes_before_the_training_command(
    tmp_path: Path,
) -> None:
    write(tmp_path, {"train.py": TRAIN, "prep.py": "print(1)\n", "score.py": "print(2)\n"})
    info = find_command(tmp_path, "python prep.py && python train.py --epochs 2 && python score.py")
    assert info is not None and info.argv == ["train.py", "--epochs", "2"]
    assert info.setup == [["prep.py"]]
    assert info.then == [["score.py"]] and "then runs python score.py" in info.reason


def test_the_python_commands_after_it_on_a_readme_line_run_after_it(tmp_path: Path) -> None:
    """`python -m pkg.train && python -m pkg.evaluate`: the evaluation step that loads
    what training saved runs after it in the same run; a command after `||` does not, nor
    does a file of the chain that is not in the repo."""
    readme = (
        "```bash\npython make.py && python -m pkg.train --epochs 3 && python -m pkg.evaluate "
        "&& python plot.py || python -m pkg.fallback\n```\n"
    )
    write(tmp_path, {"README.md": readme, "pkg/__init__.py": "", "pkg/train.py": TRAIN,
                     "pkg/evaluate.py": HELPER, "pkg/fallback.py": HELPER, "make.py": HELPER})  # fmt: skip
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["-m", "pkg.train", "--epochs", "3"]
    assert info.setup == [["make.py"]]
    assert (
        info.then == [["-m", "pkg.evaluate"]] and "then runs python -m pkg.evaluate" in info.reason
    )
    alone = "```bash\npython -m pkg.train\npython -m pkg.evaluate\n```\n"
    write(tmp_path, {"README.md": alone})
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["-m", "pkg.train"] and info.then == []


def test_the_data_preparation_lines_above_it_in_its_code_block_run_first(tmp_path: Path) -> None:
    """`python make_data.py` on the line above `python train.py` in one fenced block
    ("generate the data first, then train") makes what training reads; a line that
    trains itself, a tool module and a block of its own are not run first."""
    readme = (
        "Generate the data first, then train:\n\n```bash\npip install -r requirements.txt\n"
        "python -m pip install numpy\npython make_data.py --out d.npz\npython smoke.py\n"
        "python train.py --data d.npz\n```\n\n```bash\npython other_prep.py\n```\n"
    )
    write(tmp_path, {"README.md": readme, "train.py": TRAIN, "smoke.py": TRAIN,
                     "make_data.py": HELPER, "other_prep.py": HELPER})  # fmt: skip
    info = find_command(tmp_path)
    assert info is not None and info.argv[0] in ("train.py", "smoke.py")
    ranked = rank_candidates(tmp_path)
    train = next(c for c in ranked if c.argv[0] == "train.py")
    assert train.setup == [["make_data.py", "--out", "d.npz"]]
    assert "code block" in train.reason


def test_one_script_that_makes_its_data_then_trains_in_a_chain(tmp_path: Path) -> None:
    """`python x.py --make-data && python x.py --epochs 40`: both run a file that reaches
    training, but the first prepares for the second, which is the training command (with
    the first as its setup); the same with --cmd. Round 22's case02."""
    readme = "```bash\npython fit.py --make-data && python fit.py --epochs 40\n```\n"
    write(tmp_path, {"README.md": readme, "fit.py": TRAIN})
    info = find_command(tmp_path)
    assert info is not None and info.argv == ["fit.py", "--epochs", "40"]
    assert info.setup == [["fit.py", "--make-data"]]
    given = find_command(tmp_path, "python fit.py --make-data && python fit.py --epochs 40")
    assert given is not None and given.argv == ["fit.py", "--epochs", "40"]
    assert given.setup == [["fit.py", "--make-data"]]


def test_training_commands_on_lines_of_their_own_are_not_preparation(tmp_path: Path) -> None:
    """Two training commands on separate lines (or after `||`) do not prepare each other:
    the earlier line still wins."""
    readme = "```bash\npython fit.py --small\npython fit.py --big || python fit.py --cpu\n```\n"
    write(tmp_path, {"README.md": readme, "fit.py": TRAIN})
    ranked = rank_candidates(tmp_path)
    assert [c.argv for c in ranked[:3]] == [
        ["fit.py", "--small"],
        ["fit.py", "--big"],
        ["fit.py", "--cpu"],
    ]
    assert all(c.score == 100 for c in ranked[:3])
