"""The renamer keeps a spelling something else reads by string: a config key that is
also a key into torch's dicts, dataclass fields from which options are computed."""

from __future__ import annotations

from test_rename import renamed, run


def test_a_config_key_also_a_key_of_a_library_dict_keeps_its_spelling(tmp_path):
    """`lr` in the config and in torch's param groups: renaming the config key must not
    rename `group["lr"]` (the schedule would write a key torch never reads)."""
    src, out, table = renamed(tmp_path, {
        "run.json": '{"lr": 0.5, "steps": 4}\n',
        "run.py": """
            import json

            import torch

            cfg = json.load(open("run.json"))
            w = torch.nn.Parameter(torch.ones(3))
            opt = torch.optim.SGD([{"params": [w], "lr": cfg["lr"]}])
            for step in range(cfg["steps"]):
                for group in opt.param_groups:
                    group["lr"] = cfg["lr"] / (step + 1)
                opt.zero_grad()
                (w ** 2).sum().backward()
                opt.step()
            print(f"METRIC w={w.sum().item():.6f}")
        """,
    }, ["python run.py"])  # fmt: skip
    assert run(out, table.command("python run.py")) == run(src, "python run.py")
    kept = {k.spelling: k.reason for k in table.kept}
    assert "lr" in kept and "lr" not in table.config_keys
    assert "steps" in table.config_keys


def test_dataclass_fields_that_become_computed_options_keep_their_names(tmp_path):
    """Options spelled from a dataclass's fields (`"--" + k` over `vars(cfg)`): the
    command line writes `--steps`, so the field keeps its name."""
    src, out, table = renamed(tmp_path, {"run.py": """
        import argparse
        from dataclasses import dataclass


        @dataclass
        class Config:
            steps: int = 1
            step_size: float = 0.5


        def parse():
            cfg = Config()
            ap = argparse.ArgumentParser()
            for k, v in vars(cfg).items():
                ap.add_argument("--" + k.replace("_", "-"), type=type(v), default=v)
            return Config(**vars(ap.parse_args()))


        cfg = parse()
        print(f"METRIC total={cfg.steps * cfg.step_size}")
    """}, ["python run.py --steps 4"])  # fmt: skip
    command = table.command("python run.py --steps 4")
    assert "--steps 4" in command and "Config" in table.names
    assert run(out, command) == run(src, "python run.py --steps 4")
    assert {k.spelling for k in table.kept} >= {"steps", "step_size"}


def test_parameters_a_splatted_dict_spells_as_keys_keep_their_names(tmp_path):
    """`Net(**dict(dim=4))` and `build(**{"width": 4})`: the dict's keys are the repo's
    parameter names written where the rewrite does not follow them; renaming the
    parameters would crash the program (round 04's molgnn under --rename)."""
    src, out, table = renamed(tmp_path, {"run.py": """
        class Net:
            def __init__(self, dim, layers):
                self.size = dim * layers


        def build(width, depth):
            return Net(dim=width, layers=depth)


        hp = dict(dim=4, layers=2)
        cfg = {"width": 3, "depth": 5}
        print(f"METRIC total={Net(**hp).size + build(**cfg).size}")
    """}, ["python run.py"])  # fmt: skip
    assert run(out, table.command("python run.py")) == run(src, "python run.py")
    kept = {k.spelling: k.reason for k in table.kept}
    assert {"dim", "layers", "width", "depth"} <= set(kept)
    assert "size" not in kept  # what no dict spells is still renamed
