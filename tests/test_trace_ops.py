"""What the tracer sees of the ops between the forward and the backward, and the phase of
no-grad forwards: a log_softmax of probabilities, a prediction reshaped to permuted sizes,
forwards whose output nothing reads, chains of no-grad forwards a training term consumes,
and the program's own seed calls shifted under `reseed`. The programs are test_trace.py's
variants, traced by its `tracer` fixture."""

from __future__ import annotations

import test_trace

from torch_investigate.agent.core.curves import final_level

tracer = test_trace.tracer  # its module-scoped fixture, shared by these tests


def test_a_log_softmax_of_probabilities_is_seen_and_stripped_on_request(tracer):
    t = tracer("mlp_handce")
    (o,) = [o for o in t.ops if o.kind == "renormalized"]
    assert o.phases.get("train") and o.frame.function == "smoothed_ce"
    assert (o.source.function, o.source_in_forward) == ("proba", False)
    assert o.caller.function == "train"
    stripped = tracer("mlp_handce", interventions={"strip_prob": True})
    assert stripped.counts.get("strip_renormalized")
    assert final_level(stripped.raw_curve()) < final_level(t.raw_curve())


def test_a_prediction_reshaped_to_permuted_sizes_before_the_loss_is_seen_and_undone(tracer):
    t = tracer("mlp_loop_reshape")
    (o,) = [o for o in t.ops if o.kind == "permuting_reshape"]
    assert o.phases.get("train") and not o.in_forward and o.frame.function == "train"
    assert o.shapes[1] == [o.shapes[0][1], o.shapes[0][0]]
    permuted = tracer("mlp_loop_reshape", interventions={"reshape_as_permute": True})
    assert final_level(permuted.raw_curve()) < 0.8 * final_level(t.raw_curve())
    # the same reshape in an evaluation, or of a tensor the model did not predict: nothing
    assert not [o for o in tracer("mlp").ops if o.kind == "permuting_reshape"]


def test_a_forward_whose_output_nothing_reads_is_told_from_an_evaluation(tracer):
    t = tracer("mlp_refresh")
    nograd = [f for f in t.forwards if not f.grad_enabled]
    refresh = [f for f in nograd if f.training]
    assert refresh and not any(f.output_read for f in refresh)
    assert all(f.output_read for f in nograd if not f.training)  # the evaluation's
    assert all(f.output_read for f in t.train_forwards())


def test_a_chain_of_no_grad_forwards_whose_output_a_training_term_regresses_is_training(tracer):
    t = tracer("mlp_target_net")
    target = [f for f in t.forwards if not f.grad_enabled and f.model == "Linear"]
    assert target and {f.phase for f in target} == {"train"}
    # the evaluation's no-grad forwards stay evaluations
    assert {f.phase for f in t.forwards if f.model == "Classifier" and not f.grad_enabled} == {
        "eval"
    }


def test_reseeding_shifts_the_programs_own_seed_calls(tracer):
    # the script seeds itself (torch.manual_seed(1)): only shifting that call changes the draw
    plain, reseeded = tracer("flat"), tracer("flat", interventions={"reseed": 1})
    assert reseeded.interventions == ["reseed=1"]
    assert plain.raw_curve()[0] != reseeded.raw_curve()[0]
    assert tracer("flat", seed=0).raw_curve() == plain.raw_curve()  # as written: one draw
