"""Keys the tracer writes only in some records of a kind: the one exception to the trace
contract (tests/test_trace_contract.py), each with the reason."""

# The contract with the tracer. These models (and the TypedDicts, for the sections the
# stage checks read as plain dicts; their keys listed here are total=False) are the one
# definition of what the tracer writes:
# tests/test_trace_contract.py runs the tracer and requires every record to hold
# exactly the declared keys, except the keys listed here, which the tracer writes only
# in some records (the reason says when). Reading stays lenient (extra="ignore"), so an
# older reader does not break on a newer tracer; the test is what catches drift.
OMITTED_WHEN: dict[str, dict[str, str]] = {
    "TensorSummary": {
        "nonfinite": "an empty or complex tensor (or a bool one summarized without values) has no statistics",
        "min": "as nonfinite, and a tensor with no finite value",
        "max": "as min",
        "mean": "as min",
        "std": "as min",
        "values": "only summaries with values (targets), for integer values with at most 64 distinct",
    },
    "LossOperand": {
        "rows_sum_to_one": "only a floating input with a class dimension (>= 2 dims, > 1 column)",
        "rows_exp_sum_to_one": "as rows_sum_to_one",
        "in_unit_interval": "only a non-empty floating input",
    },
    "Provenance": {"dim": "a target's provenance has no dim"},
    "LossCall": {
        "ignore_index": "only cross_entropy/nll_loss with class-index targets",
        "contributing_values": "as ignore_index, when some target is not ignored",
        "ignored_tail": "as ignore_index",
        "broadcast_shape": "only when input and target shapes differ (losses without class dims)",
        "mask": "only when the target is a boolean-mask selection",
        "module_frame": "only when a loss module (nn.*Loss) made the call",
        "value": "only a one-element loss output; missing when the loss raised",
        "output_grad_fn": "missing when the loss call raised",
    },
    "Forward": {"outputs": "missing when the forward raised"},
    "OpSite": {
        "op": "written by the kinds that observe an op (not graph cuts, from_numpy)",
        "shapes": "broadcast, batch_reshape and graph cuts",
        "out_shape": "broadcast",
        "shape": "batch_dim, argmax_flat, batch_transpose, softmax_axis",
        "dim": "batch_dim, softmax_axis (the normalized axis, counted from the end)",
        "implicit": "batch_dim",
        "model_output": "reductions (batch_dim, argmax_flat) outside softmax",
        "roles": "broadcast",
        "deliberate": "broadcast",
        "cut": "reentered_cut, reentered_number",
        "empty": "mask_product",
        "kept": "mask_product, saturated_compare (the comparisons that came out one value)",
        "total": "mask_product, saturated_compare (the comparisons)",
        "threshold": "saturated_compare",
        "source": "renormalized, soft_target_axis (the softmax that made the targets), saturated_compare",
        "source_in_forward": "renormalized",
        "row_sum": "soft_target_axis",
        "source_dim": "soft_target_axis",
        "caller": "renormalized, softmax_axis (the product that sums over another axis), farthest (the comparison), opposite_sorts (the other sort)",
    },
    "IndexedRows": {"train_index_made": "only when an op the tracer saw made the training index"},
    "DropoutInEval": {"functional_dropout": "only functional dropout (not attention dropout)"},
    "ForwardProbe": {
        "reason": "only a skipped probe or one that raised",
        "sample_axis": "only a probe that ran",
        "stochastic": "only a probe that ran",
        "batch_size": "only a probe that ran (status ok)",
        "inputs_differ": "as batch_size",
        "output_scale": "as batch_size",
        "change_when_rows_reordered": "as batch_size",
        "cross_sample_error": "as batch_size",
        "cross_sample_relative": "as batch_size",
        "independent": "as batch_size",
        "ignores_input": "as batch_size",
        "rows_identical": "as batch_size",
        "all_zero": "as batch_size",
        "split_relative": "only a deterministic probe whose reordering found the samples independent",
    },
    "FutureProbe": {
        "reason": "only a skipped probe or one that raised",
        "time_axis": "only a probe that ran (status ok)",
        "length": "as time_axis",
        "cut": "as time_axis",
        "moved_before": "as time_axis",
        "moved_after": "as time_axis",
        "sees_future": "as time_axis",
        "model_class": "as time_axis",
        "mixers": "only a model that reads later positions",
    },
    "InitStat": {
        "identical_rows": "only weights with >= 2 dims and more than one row",
        "end_std": "only weights that started with identical rows or all zeros",
        "end_rows_moved": "only weights with >= 2 dims that started with identical rows",
        "end_distinct_moved": "as end_rows_moved",
    },
    "TraceWarning": {
        "file": "tracer errors and interventions are not Python warnings: no location",
        "line": "as file",
    },
}
