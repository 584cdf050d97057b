"""The renamer (evals/rename) on small repos: library names stay, repo names change the
same way in every file, modules and commands follow, config keys read by literal are
renamed in the file too, prose goes with every line kept, and the rewritten repo prints
what the original printed."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from torch_investigate.evals.rename.rewrite import rename_repo
from torch_investigate.evals.rename.table import RenameTable


def write(root: Path, files: dict[str, str]) -> Path:
    for name, body in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(body).lstrip("\n"))
    return root


def run(folder: Path, command: str) -> str:
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        command, shell=True, cwd=folder, capture_output=True, text=True, timeout=600,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHONHASHSEED": "0"}, executable="/bin/bash",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def renamed(
    tmp_path: Path, files: dict[str, str], commands: list[str]
) -> tuple[Path, Path, RenameTable]:
    src = write(tmp_path / "src", files)
    out = tmp_path / "out"
    table = rename_repo(src, out, commands)
    return src, out, table


PACKAGE = {
    "README.md": """
        # Blob classifier

        Trains a small classifier. Run it:

        ```bash
        python -m blobs.train --hidden-size 16   # the default width
        ```
    """,
    "blobs/__init__.py": '"""The blobs package."""\n',
    "blobs/model.py": '''
        """A small network."""
        import torch
        from torch import nn


        class BlobNet(nn.Module):
            """Two layers."""

            def __init__(self, hidden_size):
                super().__init__()
                self.encoder = nn.Linear(2, hidden_size)  # the first layer
                self.head = nn.Linear(hidden_size, 2)

            def forward(self, x):
                return self.head(torch.relu(self.encoder(x)))
    ''',
    "blobs/train.py": """
        import argparse

        import torch
        from torch.utils.data import DataLoader, TensorDataset

        from .model import BlobNet


        def make_data(n_points, seed):
            g = torch.Generator().manual_seed(seed)
            xs = torch.randn(n_points, 2, generator=g)
            return xs, (xs[:, 0] > 0).long()


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--hidden-size", type=int, default=8)
            args = parser.parse_args()
            torch.manual_seed(0)
            xs, ys = make_data(n_points=256, seed=1)
            loader = DataLoader(TensorDataset(xs, ys), batch_size=32, shuffle=True)
            model = BlobNet(hidden_size=args.hidden_size)
            opt = torch.optim.SGD(model.parameters(), lr=0.5)
            for epoch in range(3):
                for xb, yb in loader:
                    opt.zero_grad()
                    loss = torch.nn.functional.cross_entropy(model(xb), yb)
                    loss.backward()
                    opt.step()
            weight = model.encoder.weight
            print(f"METRIC loss={loss.item():.6f} norm={weight.norm().item():.6f}")


        if __name__ == "__main__":
            main()
    """,
}


def test_a_package_is_renamed_consistently_and_still_runs(tmp_path):
    command = "python -m blobs.train --hidden-size 16"
    src, out, table = renamed(tmp_path, PACKAGE, [command])
    new_command = table.command(command)
    assert run(out, new_command) == run(src, command)
    # modules, files and the command
    assert table.file("blobs/train.py") != "blobs/train.py"
    assert not (out / "blobs").exists()
    package = table.modules["blobs"]
    assert new_command.startswith(f"python -m {package}.{table.modules['train']} --")
    assert "--hidden-size" not in new_command
    # repo names gone everywhere, library names kept
    code = "".join(p.read_text() for p in out.rglob("*.py"))
    for name in ("BlobNet", "make_data", "encoder", "hidden_size", "n_points"):
        assert name not in code, name
    for name in ("nn.Linear", "forward", "parameters()", "batch_size=32", ".weight",
                 "lr=0.5", "zero_grad", "super().__init__()"):  # fmt: skip
        assert name in code, name
    # one spelling, one new name, in every file
    net = table.names["BlobNet"]
    assert f"class {net}(nn.Module)" in (out / table.file("blobs/model.py")).read_text()
    assert f"import {net}" in (out / table.file("blobs/train.py")).read_text()
    assert table.symbol("blobs/model.py", "BlobNet.forward") == f"{net}.forward"
    assert table.symbol("blobs/train.py", "main") == table.names["main"]


def test_prose_goes_and_every_line_stays(tmp_path):
    src, out, table = renamed(tmp_path, PACKAGE, [])
    before = (src / "blobs/model.py").read_text().split("\n")
    after = (out / table.file("blobs/model.py")).read_text().split("\n")
    assert len(before) == len(after)
    assert '"""' not in "\n".join(after) and "#" not in "\n".join(after)
    row = next(i for i, line in enumerate(before) if "self.encoder =" in line)
    assert (
        after[row].strip()
        == f"self.{table.names['encoder']} = nn.Linear(2, {table.names['hidden_size']})"
    )
    # a body that was only a docstring becomes `pass`
    assert (out / table.file("blobs/__init__.py")).read_text().strip() == ""
    readme = (out / "README.md").read_text()
    assert "Blob classifier" not in readme and "width" not in readme
    assert table.command("python -m blobs.train --hidden-size 16") in readme


def test_a_docstring_only_body_becomes_pass(tmp_path):
    src, out, _ = renamed(tmp_path, {"lib.py": '''
        class Marker:
            """Nothing else."""


        def noop():
            """Nothing."""


        print("METRIC ok=1")
    '''}, [])  # fmt: skip
    text = (out / next(p.name for p in out.glob("*.py"))).read_text()
    assert text.count("pass") == 2
    assert run(out, f"python {next(out.glob('*.py')).name}") == "METRIC ok=1\n"


CONFIGS = {
    "settings.json": '{"model": {"width": 4}, "learning_rate": 0.1}\n',
    "settings.toml": "# the schedule\nepochs = 2\n[data]\nn_rows = 12  # rows per class\n",
    "settings.ini": "[optim]\nmomentum = 0.5\n; a comment\n",
    "run.py": """
        import configparser
        import json
        import tomllib


        def build(width, learning_rate):
            return width * learning_rate


        with open("settings.json") as fh:
            cfg = json.load(fh)
        with open("settings.toml", "rb") as fh:
            schedule = tomllib.load(fh)
        ini = configparser.ConfigParser()
        ini.read("settings.ini")
        value = build(**cfg["model"], learning_rate=cfg["learning_rate"])
        rows = schedule["data"]["n_rows"] * schedule["epochs"]
        print(f"METRIC value={value} rows={rows} m={ini['optim'].getfloat('momentum')}")
    """,
}


@pytest.mark.skipif(
    sys.version_info < (3, 11), reason="the program reads its TOML file with tomllib (Python 3.11+)"
)
def test_config_keys_read_by_literal_are_renamed_in_the_files(tmp_path):
    src, out, table = renamed(tmp_path, CONFIGS, ["python run.py"])
    assert run(out, table.command("python run.py")) == run(src, "python run.py")
    for key in ("width", "learning_rate", "model", "epochs", "n_rows", "momentum"):
        assert key in table.config_keys, key
    assert table.config_keys["width"] in (out / "settings.json").read_text()
    toml = (out / "settings.toml").read_text()
    assert "epochs" not in toml and "#" not in toml
    assert len(toml.split("\n")) == len(CONFIGS["settings.toml"].split("\n"))
    assert "momentum" not in (out / "settings.ini").read_text()


def test_names_a_library_may_own_keep_their_spelling_with_the_reason(tmp_path):
    src, out, table = renamed(tmp_path, {"train.py": '''
        import torch
        from torch import nn


        class Gate(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(3, 1)
                self.register_buffer("scale", torch.ones(1))

            def forward(self, x):
                return self.proj(x) * getattr(self, "scale")

            def extra_repr(self):
                return "gate"


        model = Gate()
        names = [n for n, _ in model.named_parameters() if n.startswith("proj.")]
        print("METRIC n=%d" % len(names))
    '''}, ["python train.py"])  # fmt: skip
    kept = {k.spelling: k.reason for k in table.kept}
    assert (
        "scale" not in table.names
        and 'getattr(self, "scale")' in next(out.glob("*.py")).read_text()
    )
    assert "compared with or named in a string" in kept["proj"]
    assert kept["extra_repr"] == "overrides a library attribute"
    assert "forward" in kept
    assert "Gate" in table.names
    assert run(out, table.command("python train.py")) == run(src, "python train.py")


def test_a_keyword_to_a_call_it_cannot_resolve_keeps_the_parameter(tmp_path):
    _, out, table = renamed(tmp_path, {"run.py": '''
        def scale(x, factor):
            return x * factor


        def apply(fn, **kw):
            return fn(2, **kw)


        callbacks = {"s": scale}
        print("METRIC v=%s" % callbacks["s"](3, factor=2))
    '''}, [])  # fmt: skip
    assert "factor" not in table.names or any(k.spelling == "factor" for k in table.kept)
    assert "factor=2" in next(out.glob("*.py")).read_text()


def test_scripts_in_a_folder_a_makefile_and_a_code_string_follow_the_files(tmp_path):
    files = {
        "Makefile": "PYTHON ?= python\n\n# build then train\ntrain:\n\t$(PYTHON) scripts/prepare.py\n\t$(PYTHON) scripts/fit.py --steps 3\n",
        "scripts/prepare.py": 'import pathlib\npathlib.Path("ready.txt").write_text("1")\n',
        "scripts/fit.py": """
            import argparse
            import subprocess
            import sys

            subprocess.run([sys.executable, "scripts/prepare.py"], check=True)
            p = argparse.ArgumentParser()
            p.add_argument("--steps", type=int)
            print("METRIC steps=%d" % p.parse_args().steps)
        """,
    }
    src, out, table = renamed(tmp_path, files, ["make train"])
    assert table.file("scripts/fit.py").startswith("scripts/m")
    makefile = (out / "Makefile").read_text()
    assert "fit.py" not in makefile and "#" not in makefile and "--steps" not in makefile
    assert run(out, "make -s train") == run(src, "make -s train")


@pytest.mark.parametrize("fixture", ["PACKAGE", "CONFIGS"])
def test_the_rewrite_is_a_function_of_the_input(tmp_path, fixture):
    files = globals()[fixture]
    src = write(tmp_path / "src", files)
    rename_repo(src, tmp_path / "a")
    rename_repo(src, tmp_path / "b")
    listing = sorted(
        p.relative_to(tmp_path / "a").as_posix() for p in (tmp_path / "a").rglob("*") if p.is_file()
    )
    assert listing == sorted(
        p.relative_to(tmp_path / "b").as_posix() for p in (tmp_path / "b").rglob("*") if p.is_file()
    )
    for name in listing:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


LOOP = {
    "train.py": """
        import torch


        def accuracy(logits, ys):
            return (logits.argmax(1) == ys).float().mean().item()


        def fit(steps):
            torch.manual_seed(0)
            xs = torch.randn(64, 3)
            ys = (xs[:, 0] > 0).long()
            model = torch.nn.Linear(3, 2)
            opt = torch.optim.SGD(model.parameters(), lr=0.3)
            for _ in range(steps):
                opt.zero_grad()
                loss = torch.nn.functional.cross_entropy(model(xs), ys)
                loss.backward()
                opt.step()
            return accuracy(
                model(xs),
                ys,
            )


        print("METRIC acc=%.6f" % fit(20))
    """,
}


def test_restyle_moves_the_loop_into_a_class_and_inlines_a_helper(tmp_path):
    from torch_investigate.evals.rename.restyle import restyle_repo
    from torch_investigate.tools.code.index import CodeIndex

    src, out, table = renamed(tmp_path, LOOP, ["python train.py"])
    script = table.file("train.py")
    done, lines = restyle_repo(out, [(script, 5)])
    assert any(d.startswith("helper inlined") for d in done)
    assert any(d.startswith("training loop moved into a class") for d in done)
    after = (out / script).read_text().split("\n")
    fit = table.names["fit"]
    # the helper's line is now blank, its body at its call, which moved with the loop
    truth = {"file": script, "line": 5, "symbol": table.names["accuracy"]}
    lines.map(truth)
    assert "argmax(1)" in after[truth["line"] - 1] and not after[4].strip()
    assert truth["symbol"].endswith(f".{fit}") and truth["symbol"] != fit
    backward = {"file": script, "line": 17, "symbol": fit}
    lines.map(backward)
    assert after[backward["line"] - 1].strip().endswith(".backward()")
    assert backward["symbol"] == CodeIndex.build(out).enclosing_symbol(script, backward["line"])
    assert run(out, table.command("python train.py")) == run(src, "python train.py")


def test_a_suite_is_rewritten_with_its_ground_truth_carried(tmp_path):
    import json

    from torch_investigate.evals.rename.suite import rewrite_suite
    from torch_investigate.tools.code.index import CodeIndex

    suite = Path(__file__).resolve().parents[1] / "evals" / "suite" / "ci"
    record = rewrite_suite(suite, tmp_path / "ci", progress=False)
    assert not [c.error for c in record.cases if c.error]
    manifest = json.loads((tmp_path / "ci" / "manifest.json").read_text())
    for case in manifest["cases"]:
        folder = tmp_path / "ci" / case["path"]
        truth = case["truth"]
        assert (folder / truth["file"]).is_file()
        assert (
            CodeIndex.build(folder).enclosing_symbol(truth["file"], truth["line"])
            == truth["symbol"]
        )
        assert case["command"].startswith("python m")


TRAINER = {
    "fit.py": """
        import torch


        class Trainer:
            def __init__(self, model):
                self.model = model
                self.opt = torch.optim.SGD(model.parameters(), lr=0.2)

            def epoch(self, xs, ys):
                for i in range(0, len(xs), 16):
                    self.opt.zero_grad()
                    loss = torch.nn.functional.mse_loss(self.model(xs[i : i + 16]), ys[i : i + 16])
                    loss.backward()
                    self.opt.step()
                return loss.item()

            def report(self, loss):
                print("METRIC loss=%.6f" % loss)


        torch.manual_seed(0)
        xs = torch.randn(64, 2)
        trainer = Trainer(torch.nn.Linear(2, 1))
        for _ in range(5):
            last = trainer.epoch(xs, xs.sum(1, keepdim=True))
        trainer.report(last)
    """,
}


def test_restyle_moves_a_training_method_out_of_its_class(tmp_path):
    from torch_investigate.evals.rename.restyle import restyle_repo

    src, out, table = renamed(tmp_path, TRAINER, ["python fit.py"])
    script = table.file("fit.py")
    done, lines = restyle_repo(out, [])
    assert any(d.startswith("training loop moved out of its class") for d in done)
    truth = {
        "file": script,
        "line": 13,
        "symbol": f"{table.names['Trainer']}.{table.names['epoch']}",
    }
    lines.map(truth)
    assert truth["symbol"] == table.names["epoch"]
    assert ".backward()" in (out / script).read_text().split("\n")[truth["line"] - 1]
    assert run(out, table.command("python fit.py")) == run(src, "python fit.py")


def test_a_dotted_path_in_a_config_keeps_its_modules_and_a_file_that_does_not_parse_stops(tmp_path):
    from torch_investigate.evals.rename.repo import UnparsableFile

    _, out, table = renamed(tmp_path, {
        "conf.yaml": "target: nets.mlp.Net\nweights: nets.pt\n",
        "nets/__init__.py": "",
        "nets/mlp.py": "class Net:\n    pass\n",
        "nets/util.py": "def helper():\n    return 1\n",
    }, [])  # fmt: skip
    kept = {(k.group, k.spelling) for k in table.kept}
    assert {("module", "nets"), ("module", "mlp"), ("module-level", "Net")} <= kept
    assert "util" in table.modules and (out / "nets" / f"{table.modules['util']}.py").is_file()
    with pytest.raises(UnparsableFile):
        renamed(tmp_path / "bad", {"broken.py": "def f(:\n    pass\n"}, [])


def test_an_attribute_a_config_value_names_is_kept_when_parameter_names_are_read(tmp_path):
    """Round 31's case13 spelling: `train_only: "emb"` in a JSON file, matched against
    `model.named_parameters()` names. Renaming `self.emb` would freeze every parameter
    and change what the program does; the spelling is kept."""
    src, out, table = renamed(tmp_path, {
        "settings.json": '{"train_only": "emb"}\n',
        "train.py": '''
        import json
        from torch import nn


        class Rate(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(4, 2)
                self.head = nn.Linear(2, 1)


        cfg = json.load(open("settings.json"))
        model = Rate()
        for name, p in model.named_parameters():
            p.requires_grad_(name.startswith(cfg["train_only"]))
        print("METRIC trained=%d" % sum(p.requires_grad for p in model.parameters()))
    '''}, ["python train.py"])  # fmt: skip
    assert "emb" not in table.names and "head" in table.names
    assert run(out, table.command("python train.py")) == run(src, "python train.py")
