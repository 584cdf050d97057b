"""The tracer on two differently written repos (a DataLoader/class-based trainer and a
flat full-batch script): what it records, and what each intervention changes.

All variants live in one workspace and run on one warm sandbox, so the module pays
torch's import once.
"""

from __future__ import annotations

import pytest
from conftest import TRACE_FIXTURES as FIXTURES
from conftest import traced_variants

from torch_investigate.agent.checks.loss import _misuse_site

MLP = "mlp_loader/train.py"
FLAT = "flat_fullbatch/fit.py"

VARIANTS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "mlp": (MLP, []),
    "mlp_nozero": (MLP, [("            opt.zero_grad()\n", "")]),
    "mlp_softmax": (MLP, [("F.cross_entropy(model(xb), yb)", "F.cross_entropy(F.softmax(model(xb), dim=1), yb)")]),
    # the softmax in the model's forward, and in a method applied to what forward returned
    "mlp_softmax_fw": (MLP, [("return self.out(self.drop(h))", "return F.softmax(self.out(self.drop(h)), dim=1)")]),
    "mlp_proba": (MLP, [("        return self.out(self.drop(h))\n", "        return self.out(self.drop(h))\n\n    def proba(self, x):\n        return F.softmax(self(x), dim=1)\n"), ("F.cross_entropy(model(xb), yb)", "F.cross_entropy(model.proba(xb), yb)")]),
    "mlp_handce": (MLP, [("        return self.out(self.drop(h))\n", "        return self.out(self.drop(h))\n\n    def proba(self, x):\n        return self.forward(x).softmax(dim=-1)\n"), ("def make_data(n, gen):", "def smoothed_ce(scores, target):\n    logp = F.log_softmax(scores, dim=-1)\n    return -logp.gather(1, target.unsqueeze(1)).mean()\n\n\ndef make_data(n, gen):"), ("F.cross_entropy(model(xb), yb)", "smoothed_ce(model.proba(xb), yb)")]),
    # the prediction reshaped in the loop where a transpose was meant, before the loss
    "mlp_loop_reshape": (MLP, [("F.cross_entropy(model(xb), yb)", "F.cross_entropy(model(xb).reshape(3, -1).t(), yb)")]),
    # the scheduler stepped by library code (as Lightning does), not by a line of the program
    "mlp_sched_by_library": (MLP, [("sched.step()", "__import__('threading').Thread(target=sched.step).run()")]),
    # a pass in train mode under no_grad whose outputs nothing reads (statistics refreshed,
    # as torch.optim.swa_utils.update_bn does) before the evaluation
    "mlp_refresh": (MLP, [("        model.eval()\n", "        with torch.no_grad():\n            for xb, _ in loader:\n                model(xb)\n        model.eval()\n")]),
    # a target network of two modules chained under no_grad, regressed by a hand-written term
    "mlp_target_net": (MLP, [("    loader = DataLoader(", "    tgt_a, tgt_b = nn.Linear(4, 16), nn.Linear(16, 3)\n    loader = DataLoader("), ("            loss = F.cross_entropy(model(xb), yb)\n", "            with torch.no_grad():\n                z = tgt_b(tgt_a(xb))\n            loss = F.cross_entropy(model(xb), yb) + (1 - F.cosine_similarity(model(xb), z, dim=-1)).mean()\n")]),
    "mlp_evalmode": (MLP, [("        model.train()\n", "")]),
    "mlp_detach": (MLP, [("return self.out(self.drop(h))", "return self.out(self.drop(h.detach()))")]),
    "mlp_subset": (MLP, [("torch.optim.Adam(model.parameters()", "torch.optim.Adam(model.out.parameters()")]),
    "mlp_cuda": (MLP, [("model = Classifier()", "model = Classifier().cuda()"), ("model(xb)", "model(xb.cuda())"), ("yb)", "yb.to('cuda'))")]),
    "mlp_crash": (MLP, [("F.cross_entropy(model(xb), yb)", "F.cross_entropy(model(xb), yb.float())")]),
    # a leaf made afresh in every iteration (as `torch.tensor(total, requires_grad=True)`)
    "mlp_fresh_leaf": (MLP, [("loss = F.cross_entropy(model(xb), yb)", "loss = F.cross_entropy(model(xb), yb) + 0.0 * torch.tensor(1.0, requires_grad=True)")]),
    "mlp_rolled": (MLP, [("loss = F.cross_entropy(model(xb), yb)", "loss = F.cross_entropy(model(xb), yb.roll(1, 0))")]),
    "mlp_workers": (MLP, [("batch_size=32, shuffle=True)", "batch_size=32, shuffle=True, num_workers=2, persistent_workers=True, prefetch_factor=4, pin_memory=True)")]),
    # a penalty turned into a number and added back (its gradient gone), and a pairwise term
    # over axes the program added itself
    "mlp_float_term": (MLP, [("loss = F.cross_entropy(model(xb), yb)", "loss = F.cross_entropy(model(xb), yb) + float(1e-3 * model.out.weight.pow(2).sum())")]),
    "mlp_pairwise": (MLP, [("loss = F.cross_entropy(model(xb), yb)", "s = model(xb)[:, 0]\n            loss = F.cross_entropy(model(xb), yb) + 1e-3 * (s.unsqueeze(1) - s.unsqueeze(0)).clamp(min=0).mean()")]),
    # pretraining scored on its own training rows, then a head fitted on cached features
    "transfer": ("transfer/transfer.py", []),
    "func_vmap": ("func_vmap/train.py", []),
    # a lazy layer: its parameters have no shape until the first forward
    "mlp_lazy": (MLP, [("self.hidden = nn.Linear(4, 16)", "self.hidden = nn.LazyLinear(16)")]),
    "flat": (FLAT, []),
    "flat_nozero": (FLAT, [("    sgd.zero_grad()\n", "")]),
    "flat_cuda": (FLAT, [("net = torch.nn.Sequential(", "dev = torch.device('cuda')\nX, Y = X.to(dev), Y.cuda()\nnet = torch.nn.Sequential("), ("crit = torch.nn.MSELoss()", "net.to(dev)\ncrit = torch.nn.MSELoss()")]),
    # per-sample terms added before the mean, one of them weighted
    "mlp_terms": (MLP, [("            loss = F.cross_entropy(model(xb), yb)\n", "            per = F.cross_entropy(model(xb), yb, reduction='none')\n            pen = model(xb).pow(2).sum(1)\n            loss = (per + 0.5 * pen).mean()\n")]),
    # code that reads a class's signature (Lightning re-instantiating a DataLoader by it)
    "mlp_signatures": (MLP, [("    loader = DataLoader(", "    from inspect import signature\n    assert {'dataset', 'batch_size'} <= set(signature(DataLoader.__init__).parameters)\n    assert {'params', 'defaults'} <= set(signature(torch.optim.Optimizer.__init__).parameters)\n    assert 'optimizer' in signature(torch.optim.lr_scheduler.LRScheduler.__init__).parameters\n    loader = DataLoader(")]),
    # the pre-0.4 wrapper old code still calls (PyTorch-GAN's labels)
    "mlp_variable": (MLP, [("F.cross_entropy(model(xb), yb)", "F.cross_entropy(torch.autograd.Variable(F.softmax(model(xb), dim=1)), yb)")]),
    # pseudo-labels from a no-grad forward on another view, the targets of a training loss
    "mlp_pseudo": (MLP, [("            loss = F.cross_entropy(model(xb), yb)\n", "            with torch.no_grad():\n                pseudo = model(xb + 0.01).softmax(dim=1).max(dim=1).indices\n            loss = F.cross_entropy(model(xb), yb) + F.cross_entropy(model(xb * 0.5), pseudo)\n"),
                        # an evaluation's loss computed outside no_grad on its no-grad logits
                        ("            acc = (model(xv).argmax(dim=1) == yv).float().mean()\n", "            vlog = model(xv)\n        acc = (vlog.argmax(dim=1) == yv).float().mean()\n        vloss = F.cross_entropy(vlog, yv).item()\n")]),
    "flat_tinyclip": (FLAT, [("    sgd.step()\n", "    torch.nn.utils.clip_grad_norm_(net.parameters(), 1e-4)\n    sgd.step()\n")]),
    "flat_bcast": (FLAT, [("Y = 3 * X - 0.5 + 0.05 * torch.randn(64, 1)", "Y = (3 * X - 0.5 + 0.05 * torch.randn(64, 1)).squeeze(1)")]),
}  # fmt: skip


@pytest.fixture(scope="module")
def tracer(tmp_path_factory):
    with traced_variants(tmp_path_factory.mktemp("trace-ws"), VARIANTS) as run:
        yield run


# ---- what is recorded -------------------------------------------------------------------


def test_a_cut_number_used_again_is_seen_and_rejoined_on_request(tracer):
    t = tracer("mlp_float_term")
    (site,) = [o for o in t.ops if o.kind == "reentered_cut"]
    assert site.op in ("__add__", "add") and site.cut is not None and site.phases.get("train")
    assert not [o for o in tracer("mlp").ops if o.kind == "reentered_cut"]
    rejoined = tracer("mlp_float_term", interventions={"rejoin_cuts": True})
    assert rejoined.error is None and rejoined.n_steps == t.n_steps


def test_a_lazy_layer_is_traced_with_the_shape_its_first_forward_gave_it(tracer):
    """The optimizer is built over parameters that have no shape yet (nn.LazyLinear)."""
    lazy, plain = tracer("mlp_lazy"), tracer("mlp")
    assert lazy.error is None and lazy.n_steps == plain.n_steps
    weight = lazy.param("hidden.weight")
    assert weight is not None and weight.shape == [16, 4] and weight.numel == 64
    assert weight.in_optimizer and weight.weight_norm_start is not None


def test_a_broadcast_over_axes_the_program_added_is_deliberate(tracer):
    sites = [o for o in tracer("mlp_pairwise").ops if o.kind == "broadcast"]
    assert sites and all(o.deliberate for o in sites), sites


def test_an_evaluation_pass_over_the_training_rows_is_seen_as_one(tracer):
    from torch_investigate.agent.checks.data_holdout import _train_set_passes

    t = tracer("transfer", max_steps=600, detail_steps=40)
    first = t.batches.eval_batches[0]  # enc(xo): the pretraining rows, scored
    assert first.module_train_rows >= 20
    # every pretraining row the encoder learned from; the fine-tuning's 120 rows it turned
    # into features under no_grad (a frozen extractor) trained the new head, not it
    assert first.module_train_rows == first.holds_train_rows
    assert (first.site, first.step) in _train_set_passes(t.batches.eval_batches)
    # with the default budget the trace sees part of the pretraining (975 of its 1500 rows
    # here): the 120 feature rows counted as the encoder's would hide the train-set score
    short = tracer("transfer").batches.eval_batches[0]
    assert short.module_train_rows == short.holds_train_rows >= 20
    # the fine-tuning's test rows are held out
    last = t.batches.eval_batches[-1]
    assert last.holds_train_rows == 0
    assert (last.site, last.step) not in _train_set_passes(t.batches.eval_batches)


def test_which_models_compute_differently_by_mode(tracer):
    forwards = tracer("transfer", max_steps=600, detail_steps=40).forwards
    # the encoder holds a BatchNorm (12 input features); the heads only Linear and ReLU
    width = {f.index: f.inputs[0].shape[-1] for f in forwards if f.inputs}
    assert {f.mode_layers for f in forwards if width.get(f.index) == 12} == {True}
    assert {f.mode_layers for f in forwards if width.get(f.index) == 8} == {False}


def test_torch_func_transforms_run_untouched_under_the_tracer(tracer):
    # per-example gradients by vmap(grad(functional_call)): a data-dependent read by the
    # tracer inside the transform would raise in the program
    t = tracer("func_vmap")
    assert t.error is None and t.status == "completed", t.error
    assert t.counts.get("functional_grad", 0) > 0


def test_loader_workers_load_in_process_and_every_batch_is_traced(tracer):
    plain, workers = tracer("mlp"), tracer("mlp_workers")
    (loader,) = [lo for lo in workers.loaders if lo.role == "train"]
    assert loader.num_workers == 2  # what the program asked for
    assert workers.n_steps == plain.n_steps
    assert workers.batches.train_unique == plain.batches.train_unique
    assert workers.error is None


def test_call_order_per_iteration(tracer):
    assert tracer("mlp").iterations[1] == [
        "zero_grad",
        "forward",
        "loss",
        "backward",
        "clip",
        "step",
    ]
    assert tracer("flat").iterations[1] == ["zero_grad", "forward", "loss", "backward", "step"]
    assert tracer("mlp_nozero").iterations[1] == ["forward", "loss", "backward", "clip", "step"]


def test_batches_shapes_ranges_and_label_histograms(tracer):
    t = tracer("mlp")
    first = t.train_forwards()[0]
    assert first.inputs[0].shape == [32, 4] and first.inputs[0].dtype == "float32"
    assert (
        t.batches.moments["Classifier"]["train"] is not None
        and len(t.batches.moments["Classifier"]["train"].mean) == 4
    )
    assert set(t.batches.targets["train"].values) <= {"0", "1", "2"}
    assert t.batches.target_values_per_batch and t.batches.train_unique > 0
    f = tracer("flat")
    assert f.train_forwards()[0].inputs[0].shape == [64, 1]
    assert f.loss_calls[0].target.shape == [64, 1]


def test_loss_calls_with_operands_reduction_and_elements(tracer):
    c = tracer("mlp").train_loss_calls()[0]
    assert c.fn == "cross_entropy" and c.reduction == "mean"
    assert c.input.model_output and c.input.requires_grad and not c.target.requires_grad
    assert c.contributing_elements == c.total_elements == 32
    f = tracer("flat").train_loss_calls()[0]
    assert f.fn == "mse_loss" and f.frame.file == "flat/fit.py" and f.frame.function == "<module>"


def test_provenance_reaches_the_loss(tracer):
    c = tracer("mlp_softmax").train_loss_calls()[0]
    assert c.input.provenance.op == "softmax"
    assert c.input.provenance.frame.file == "mlp_softmax/train.py"
    assert c.input.rows_sum_to_one == 1.0


def test_a_probability_op_knows_whether_a_forward_applied_it(tracer):
    """The softmax's place decides where the mistake is: in the model's forward (the model
    returns probabilities) or in a helper that the loss borrowed from reporting."""
    in_loop, in_forward, borrowed = (
        tracer(name).train_loss_calls()[0]
        for name in ("mlp_softmax", "mlp_softmax_fw", "mlp_proba")
    )
    assert in_loop.input.provenance.in_forward is False
    assert in_forward.input.provenance.in_forward is True
    assert in_forward.input.provenance.frame.function == "forward"
    assert borrowed.input.provenance.in_forward is False
    # placed at the line that wrote the softmax, unless a helper the loss borrowed did
    assert _misuse_site(in_loop) == in_loop.input.provenance.frame
    assert _misuse_site(in_forward) == in_forward.input.provenance.frame
    assert _misuse_site(borrowed) == borrowed.frame
    assert borrowed.frame.function == "train"


def test_silent_broadcast_is_flagged_at_the_loss(tracer):
    c = tracer("flat_bcast").train_loss_calls()[0]
    assert c.input.shape == [64, 1] and c.target.shape == [64]
    assert c.broadcast_shape == [64, 64] and c.total_elements == 64 * 64


def test_grad_mode_and_module_training_at_every_forward(tracer):
    t = tracer("mlp")
    assert all(f.training and f.grad_enabled for f in t.train_forwards())
    evals = t.eval_forwards()
    assert evals and all(not f.training and not f.grad_enabled for f in evals)
    assert all(not f.training for f in tracer("mlp_evalmode").train_forwards()[8:])


def test_the_line_that_switched_training_to_eval_mode_is_kept(tracer):
    first = (tracer("mlp_evalmode").train_mode_counts or {}).get("first_eval") or {}
    switched = first.get("switched_at")
    assert switched is not None and (switched.file, switched.line) == (
        "mlp_evalmode/train.py",
        43,
    )  # model.eval() in the loop


def test_gradients_and_reachable_leaves_after_backward(tracer):
    t = tracer("mlp")
    names = {p.name for p in t.parameters}
    assert names == {"hidden.weight", "hidden.bias", "out.weight", "out.bias"}
    assert set(t.backwards[0].reachable) == names
    assert all(
        p.grad.observed > 0 and p.grad.none == 0 and p.grad.mean_norm > 0 for p in t.parameters
    )
    d = tracer("mlp_detach")
    assert set(d.backwards[0].unreachable_executed) == {"hidden.weight", "hidden.bias"}
    assert any(o.kind == "detach" and o.in_forward for o in d.ops)


def test_optimizer_groups_deltas_lr_and_clipping(tracer):
    t = tracer("mlp")
    opt = t.optimizers[0]
    assert opt.class_ == "Adam" and opt.param_groups[0].lr == pytest.approx(
        0.01 * 0.5
    )  # after StepLR
    assert all(p.in_optimizer and p.update.mean_norm > 0 for p in t.parameters)
    assert t.lrs[0] == [0.01] and t.lrs[-1][0] < 0.01
    assert t.schedulers[0].class_ == "StepLR" and t.schedulers[0].before_first_optimizer_step == 0
    assert t.schedulers[0].stepped_by_program and t.schedulers[0].frame.line == 33
    by_library = tracer("mlp_sched_by_library").schedulers[0]
    assert not by_library.stepped_by_program and by_library.frame.function == "train"
    assert t.clips[0].limit == 1.0 and t.clips[0].n_params_min == 4
    s = tracer("mlp_subset")
    missing = {p.name for p in s.parameters if not p.in_optimizer}
    assert missing == {"hidden.weight", "hidden.bias"}


def test_a_clip_can_be_moved_to_the_typical_norm_or_removed(tracer):
    """The counterfactual of a clip that shrinks every step: the clip at the gradients'
    typical norm (spikes still clipped), or none; the program's limit stays on record."""
    steps = {}
    for label, changes in (
        ("as written", {}),
        ("typical", {"clip_to": 1.0}),
        ("none", {"no_clip": True}),
    ):
        t = tracer("flat_tinyclip", interventions=changes)
        assert t.clips[0].limit == 1e-4 and t.clips[0].clipped == t.clips[0].calls
        steps[label] = max(p.update.mean_ratio for p in t.parameters)
    assert steps["typical"] > 100 * steps["as written"]
    assert steps["none"] >= steps["typical"]


def test_per_sample_terms_are_followed_to_the_lines_that_computed_them(tracer):
    """A loss summed per sample before its mean (`(rec + beta * kl).mean()`): each term's
    values by the line that computed it, a positive weighting keeping that line."""
    (site,) = tracer("mlp_terms").loss_terms
    assert site.frame.line == 41
    assert {term.source for term in site.terms} == {
        "mlp_terms/train.py:39",
        "mlp_terms/train.py:40",
    }
    pen = next(term for term in site.terms if term.source.endswith(":40"))
    assert len(pen.values) >= 8 and all(v is not None and v > 0 for _, v in pen.values)


def test_a_legacy_variable_keeps_what_the_tracer_knows_of_its_tensor(tracer):
    c = tracer("mlp_variable").train_loss_calls()[0]
    assert c.input.provenance is not None and c.input.provenance.op == "softmax"


def test_a_no_grad_forward_whose_output_is_a_training_target_is_training(tracer):
    """FixMatch's pseudo-labels: a no-grad forward on a weak view, in train mode, whose
    argmax is the target of the strong view's loss, is part of training, not an
    evaluation in train mode (round 03's healthy-looking waveform repo got a confirmed
    train_mode_in_eval); the real evaluation stays one."""
    t = tracer("mlp_pseudo", max_steps=60)  # past the detailed steps, and fast-forwarded
    at = {f.phase for f in t.forwards if f.frame.line == 40}
    assert at == {"train"}, at
    assert t.eval_forwards() and all(f.frame.line == 48 for f in t.eval_forwards())


def test_the_hooked_constructors_keep_their_signatures(tracer):
    """Lightning stores a DataLoader's dataset by reading its __init__'s parameters; a
    hook that hides them made a healthy Lightning example crash under the tracer."""
    t = tracer("mlp_signatures")
    assert t.error is None and t.ran_training


def test_a_leaf_made_afresh_each_iteration_is_not_a_parameter(tracer):
    """Only a tensor a later backward reaches again is a parameter: a fresh leaf per
    iteration is neither missing from the optimizer, nor a left-over gradient, nor (by
    appearing) a hand-written update."""
    t = tracer("mlp_fresh_leaf")
    assert {p.name for p in t.parameters} == {
        "hidden.weight",
        "hidden.bias",
        "out.weight",
        "out.bias",
    }
    assert t.counts["leaves_reached_once"] >= 5
    assert t.counts.get("hand_update", 0) == 0 and t.n_steps >= 20
    assert all(not b.left_over for b in t.backwards)


def test_targets_reordered_against_their_batch(tracer):
    """The loss's targets compared with the batch the DataLoader gave, while the model got
    that batch's inputs: in order in the original, rolled across samples in the variant."""
    same = tracer("mlp").target_order
    assert same.compared >= 5 and same.reordered == 0
    rolled = tracer("mlp_rolled").target_order
    assert rolled.reordered == rolled.compared >= 5 and rolled.moved > 0.3
    assert rolled.frame is not None and rolled.frame.file.endswith("train.py")


def test_left_over_gradients_when_zero_grad_is_missing(tracer):
    assert all(not b.left_over for b in tracer("flat").backwards)
    leftover = [b for b in tracer("flat_nozero").backwards if b.left_over]
    assert len(leftover) >= 5 and not leftover[0].zero_grad_since_last_step


def test_frames_point_into_the_repo(tracer):
    t = tracer("mlp")
    fr = t.event_frames["backward"]
    assert fr.file == "mlp/train.py" and fr.function == "train"
    assert "mlp/train.py:train" in t.seen_functions


def test_probe_says_samples_are_independent(tracer):
    p = tracer("mlp").probes["forward"]
    assert p.status == "ok" and p.independent and not p.ignores_input


@pytest.mark.parametrize("name", ["mlp_cuda", "flat_cuda"])
def test_gpu_only_code_traces_on_cpu(tracer, name):
    t = tracer(name)
    assert t.status in ("completed", "stopped") and t.error is None and t.n_steps > 0


def test_crash_is_located_to_file_line_and_function(tracer):
    t = tracer("mlp_crash")
    assert t.status == "crashed" and t.error.type == "RuntimeError"
    fr = t.error.repo_frame
    line = next(
        i
        for i, text in enumerate((FIXTURES / "mlp_loader" / "train.py").read_text().splitlines(), 1)
        if "cross_entropy" in text
    )
    assert fr.file == "mlp_crash/train.py" and fr.function == "train" and fr.line == line
    assert t.loss_calls and t.loss_calls[-1].target.dtype == "float32"


def test_budget_stops_the_run_and_keeps_the_trace(tracer):
    t = tracer("flat", max_steps=10, max_total_steps=10, fast_forward=False)
    assert t.status == "stopped" and t.n_steps == 10 and "budget" in t.stop_reason


# ---- interventions -----------------------------------------------------------------------


def test_zero_grad_before_backward_removes_left_over(tracer):
    t = tracer("flat_nozero", interventions={"zero_grad_before_backward": True})
    assert not any(b.left_over for b in t.backwards)
    assert t.interventions == ["zero_grad_before_backward"]


def test_force_train_mode(tracer):
    t = tracer("mlp_evalmode", interventions={"force_train_mode": True})
    assert all(f.training for f in t.train_forwards())


def test_strip_prob_gives_the_loss_logits(tracer):
    base = tracer("mlp_softmax", max_total_steps=40, fast_forward=False)
    t = tracer(
        "mlp_softmax", max_total_steps=40, fast_forward=False, interventions={"strip_prob": True}
    )
    assert "strip_softmax" in t.train_loss_calls()[0].interventions
    assert t.curve()[-1] < base.curve()[-1]


def test_fixed_batch_repeats_one_batch(tracer):
    site = tracer("mlp").train_loader().site
    t = tracer(
        "mlp",
        train_loader=site,
        interventions={"fixed_batch": True},
        max_total_steps=20,
        fast_forward=False,
    )
    assert t.batches.train_unique == 32  # every training forward saw the same 32 rows
    assert t.curve()[-1] < t.curve()[0]


def test_lr_scale_scales_the_update(tracer):
    base = tracer("flat", max_steps=5, max_total_steps=5, fast_forward=False)
    big = tracer(
        "flat", max_steps=5, max_total_steps=5, fast_forward=False, interventions={"lr_scale": 10.0}
    )
    b = {p.name: p.update.mean_norm for p in base.parameters}
    g = {p.name: p.update.mean_norm for p in big.parameters}
    assert g["0.weight"] > 5 * b["0.weight"]


def test_add_missing_params_trains_them(tracer):
    t = tracer("mlp_subset", interventions={"add_missing_params": True})
    hidden = t.param("hidden.weight")
    assert hidden.in_optimizer and hidden.update.mean_norm and hidden.update.mean_norm > 0


def test_keep_graph_reconnects_a_detach(tracer):
    t = tracer("mlp_detach", interventions={"keep_graph": True})
    assert not t.backwards[0].unreachable_executed


def test_fix_broadcast_matches_shapes(tracer):
    t = tracer("flat_bcast", interventions={"fix_broadcast": True})
    c = t.train_loss_calls()[0]
    assert "fix_broadcast" in c.interventions and c.input.shape == [64]


def test_no_clip_measures_without_clipping(tracer):
    t = tracer("mlp", interventions={"no_clip": True}, max_total_steps=40, fast_forward=False)
    assert t.clips and t.clips[0].calls > 0 and t.interventions == ["no_clip"]


def test_a_null_intervention_reproduces_the_baseline_exactly(tracer):
    a = tracer("flat", max_steps=30, max_total_steps=30, fast_forward=False)
    b = tracer("flat", max_steps=30, max_total_steps=30, fast_forward=False, detail_steps=3)
    assert a.curve() == b.curve()


def test_a_user_probe_sees_the_programs_objects(tracer):
    """The LLM's run_probe: model, batch, target, loss, optimizer and the trained tensors."""
    code = (
        "print(type(model).__name__, tuple(inputs.shape), tuple(target.shape))\n"
        "print(len(params), sum(p.numel() for p in params), type(optimizer).__name__)\n"
        "result = float(loss_fn(model(inputs), target))"
    )
    t = tracer("mlp", probe_code=code)
    out = t.probe_result
    assert out is not None and out["error"] is None, out
    assert "Classifier (32, 4) (32,)" in out["stdout"]
    assert "4 131 Adam" in out["stdout"]  # hidden 4x16+16, out 16x3+3
    assert float(out["result"]) > 0
