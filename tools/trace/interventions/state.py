"""What the interventions remember between calls (one instance per traced run)."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch


@dataclass
class InterventionState:
    # fixed_batch: "loader" replays the first batch of the training DataLoader (its
    # creation site is known), "forward" the first training forward's inputs
    level: str = "forward"
    n_forward: int = 0  # training forwards seen under fixed_batch
    pool: list = field(default_factory=list)  # (args, kwargs) of the replayed forwards
    targets: dict[str, list] = field(default_factory=dict)  # per loss site, per pool entry
    index: int = 0  # the pool entry the current step replays
    loader_pool: list = field(default_factory=list)  # replayed DataLoader batches
    n_loader: int = 0  # training batches the loader gave under fixed_batch
    # holdout: a second, unseen batch whose loss is measured after each update
    holdout_args: tuple | None = None  # (args, kwargs)
    holdout_model: torch.nn.Module | None = None
    holdout_pending: bool = False  # the next training loss call supplies the target
    holdout_pending_forward: bool = False  # the next training forward is the held-out one
    holdout_taken: bool = False  # the loader already gave its held-out batch
    # the held-out batch a DataLoader gave passes through the program's forward and loss
    # (that is where its inputs and target are read): its update must not happen
    holdout_in_step: bool = False
    holdout_target: torch.Tensor | None = None
    holdout_level: float | None = None  # a float target's spread about its own mean
    holdout_input_shape: tuple | None = None
    perm: torch.Tensor | None = None  # shuffle_targets: one fixed permutation
    standardize: tuple | None = None  # standardize_inputs: (mean, std) of the first batch
    align: list | None = None  # align_eval_inputs: [rows, sum, sum of squares] of training inputs
    align_rows: list | None = None  # align_eval_rows: [rows, sum of row means, of row stds]
    reference: object | None = None  # reference_lr with a hand-written update: its Adam
    # reference_model: the wide network standing in for the model, its Adam, (in, out) sizes
    reference_net: torch.nn.Module | None = None
    reference_net_opt: object | None = None
    reference_net_shape: tuple | None = None
    reference_net_range: str = ""  # the model's output range the stand-in keeps (_range)
    saved_groups: list | None = None  # (lr, weight_decay) per group, restored after step
    added_missing: bool = False  # add_missing_params runs once
    unfrozen: bool = False  # unfreeze_params runs once
    left_out_added: bool = False  # train_left_out runs once

    def take_pending_forward(self) -> bool:
        pending, self.holdout_pending_forward = self.holdout_pending_forward, False
        return pending
