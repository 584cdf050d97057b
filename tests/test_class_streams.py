"""Class order is judged per loss call: a GAN's real and fake labels are constants made by
the program, each loss call's targets always one value, and taken together they alternate
batch by batch; that is no dataset in class order (a healthy PyTorch-GAN got a confirmed
unshuffled_data). One stream of dataset labels in class order still is."""

from __future__ import annotations

from types import SimpleNamespace

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.class_order import single_class_by_chance
from torch_investigate.agent.checks.data import class_balance
from torch_investigate.tools.records import Stage
from torch_investigate.tools.tracefile.records import Batches


def _check(batches: Batches) -> Evidence:
    trace = SimpleNamespace(
        ran_training=True, batches=batches, train_loader=lambda: None, class_streams={}
    )
    session = SimpleNamespace(
        options=SimpleNamespace(static_only=False, steps=200),
        baseline=lambda: SimpleNamespace(trace=trace),
        static_findings=[],
    )
    ev = Evidence(Stage.DATA)
    class_balance(session, ev)
    return ev


def test_constant_targets_of_several_loss_calls_are_no_class_order():
    real, fake = {"1": 64}, {"0": 64}
    hists, sites = [], []
    for _ in range(12):  # the discriminator on real, on fake, the generator toward real
        hists += [real, fake, real]
        sites += ["gan.py:150", "gan.py:151", "gan.py:144"]
    batches = Batches(target_values_per_batch=hists, target_sites_per_batch=sites)
    assert [len(s) for s in batches.target_streams()] == [12, 12, 12]
    ev = _check(batches)
    assert not ev.findings
    assert ev.items["class_balance"][0] != "failed"


def test_one_stream_of_labels_in_class_order_is_still_found(monkeypatch):
    import torch_investigate.agent.checks.data as data

    found = []
    monkeypatch.setattr(data, "_unshuffled", lambda session, ev, t, text: found.append(text))
    hists = [{"0": 32}] * 10 + [{"1": 32}] * 10 + [{"2": 32}] * 10
    _check(Batches(target_values_per_batch=hists, target_sites_per_batch=["train.py:40"] * 30))
    assert found and "30 of 30 consecutive training batches hold a single class" in found[0]
    # a trace without sites (an older tracer) is one stream
    found.clear()
    _check(Batches(target_values_per_batch=hists))
    assert found


def test_single_class_batches_are_judged_against_chance(monkeypatch):
    """Rows drawn at random from a 95/5 split give many single-class batches of four:
    that is the class frequencies, not an order. An imbalanced stream whose batches are
    single-class far beyond those frequencies is in class order, even where a quarter of
    the batches are mixed."""
    import torch_investigate.agent.checks.data as data

    found = []
    monkeypatch.setattr(data, "_unshuffled", lambda session, ev, t, text: found.append(text))
    chance = [{"0": 4}] * 20 + [{"0": 3, "1": 1}] * 4
    ev = _check(Batches(target_values_per_batch=chance, target_one_per_row=True))
    assert not found and ev.items["class_balance"][0] == "passed"
    assert "expected by chance" in ev.items["class_balance"][1]

    ordered = [{"0": 32}] * 16 + [{"0": 24, "1": 8}] * 8 + [{"1": 32}]
    _check(Batches(target_values_per_batch=ordered, target_one_per_row=True))
    assert found and "17 of 25" in found[0] and "expected by chance" in found[0]


def test_targets_per_pixel_have_no_chance_model(monkeypatch):
    """A class per pixel: a batch of background-only masks is not a draw of independent
    rows, so the chance model does not apply and most batches must be one class."""
    import torch_investigate.agent.checks.data as data

    found = []
    monkeypatch.setattr(data, "_unshuffled", lambda session, ev, t, text: found.append(text))
    masks = [{"0": 4096}] * 13 + [{"0": 4000, "1": 96}] * 12
    ev = _check(Batches(target_values_per_batch=masks, target_one_per_row=False))
    assert not found and ev.items["class_balance"][0] == "passed"
    assert single_class_by_chance(masks)[1] < 1e-6  # what the chance model would say


def _gan_calls(*made: str):
    from torch_investigate.tools.tracefile.records import Frame

    def call(site: str, from_model: bool):
        file, line = site.split(":")
        return SimpleNamespace(
            frame=Frame(file=file, line=int(line)),
            target=SimpleNamespace(made_in_code=False, from_model=from_model),
        )

    return [call(s, s in made) for s in ("gan.py:66", "gan.py:73")]


def test_a_target_the_critic_computes_is_no_order_of_the_data(monkeypatch):
    """Round 26's generator matches the critic's mean features of real samples, which rise
    as the critic trains: the means of that target are no data in target order."""
    import torch_investigate.agent.checks.data as data

    found = []
    monkeypatch.setattr(data, "_unshuffled", lambda session, ev, t, text: found.append(text))
    means = [0.1 * k for k in range(12)]
    batches = Batches(target_means_per_batch=means, target_mean_sites=["gan.py:73"] * 12)

    def run(calls):
        trace = SimpleNamespace(
            ran_training=True,
            batches=batches,
            train_loader=lambda: None,
            class_streams={},
            train_loss_calls=lambda: calls,
        )
        session = SimpleNamespace(
            options=SimpleNamespace(static_only=False, steps=200),
            baseline=lambda: SimpleNamespace(trace=trace),
            static_findings=[],
        )
        ev = Evidence(Stage.DATA)
        class_balance(session, ev)
        return ev

    run(_gan_calls("gan.py:73"))
    assert not found
    run(_gan_calls())  # the same means from the data's own targets are in order
    assert found and "rises in 11 of 11" in found[0]
