"""Runtime interventions: the code paths that change what the program does when a flag
of `Config.interventions` is set. Observation code never branches on a flag; it calls
these seams at named points and records what comes back.

Seams, by the hook that calls them (hooks/ and the function mode):
    module call      training.force_module_mode, batch.fixed_forward, batch.standardized_inputs
    DataLoader       batch.shuffled_iterator, batch.ordered_iterator, batch.fixed_loader_batch
    loss call        loss.loss_operands (swap, strip, fix broadcast, fixed/shuffled targets)
    log_softmax      loss.renormalizing (strip: the softmax's logits instead of its output)
    graph cut        loss.kept_graph
    zero_grad        training.drops_zero_grad
    optimizer step   training.add_missing_params, training.scale_hyperparameters (pre);
                     training.restore_hyperparameters, training.after_step,
                     batch.holdout_after_step (post)
    backward         training.before_backward; training.after_backward,
                     batch.holdout_after_backward
    clipping         training.clip_limit, training.clips
    seeding          seeds.shifted (hooks/seeds.py: the program's own seed calls)

Their state lives in `InterventionState` (recorder.iv_state); with no flag set every
seam returns its input unchanged.
"""
