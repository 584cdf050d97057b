"""What an intervention did: the training path rerun with one change, its settled loss
compared with the run as written over the same steps, as intervention evidence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.spread import chance_band
from torch_investigate.agent.core.curves import window
from torch_investigate.tools.intervention_effect import InterventionEffect, InterventionValue
from torch_investigate.tools.interventions import changes_loss
from torch_investigate.tools.records import Observation

if TYPE_CHECKING:
    from torch_investigate.agent.core.runs import Run
    from torch_investigate.agent.core.session import Session


def compared_steps(session: Session) -> int:
    """The steps a rerun with one change makes (and the test a finding proposes compares)."""
    from torch_investigate.agent.core.runs import PROBE_STEPS

    return min(session.options.steps, PROBE_STEPS)


@dataclass
class Effect:
    """How an intervention changed the loss the run settled at."""

    base_final: float | None
    iv_final: float | None
    first: float | None
    improved: bool
    text: str
    base_nonfinite: int = 0
    iv_nonfinite: int = 0
    interventions: dict[str, InterventionValue] | None = (
        None  # the change, to combine it with others
    )
    train_loader: str | None = None
    steps: int = 0  # the losses compared (the shorter curve, or the steps given)

    def observation(self) -> Observation:
        """The comparison as intervention evidence, with its numbers (and the change
        itself, so the root-cause choice can combine two fixes)."""
        effect = InterventionEffect(
            loss_as_written=self.base_final,
            loss_with_change=self.iv_final,
            relative_improvement=round(self.relative, 4),
            improved=self.improved,
        )
        if self.interventions:
            # a change to the loss itself makes the two losses different quantities
            effect = effect.model_copy(
                update={
                    "interventions": self.interventions,
                    "train_loader": self.train_loader,
                    "same_objective": not changes_loss(self.interventions),
                }
            )
        text = self.text
        if not effect.same_objective:
            text += " (the change alters the loss itself or the rows each batch holds, so the two values are different quantities: the runtime observation is the proof)"
        return Observation(source="intervention", text=text, effect=effect)

    @property
    def relative(self) -> float:
        if self.base_final is None or self.iv_final is None:
            return 0.0
        scale = max(abs(self.first or 0.0), abs(self.base_final), 1e-12)
        return (self.base_final - self.iv_final) / scale


def compare(
    base: Run, iv: Run, what: str, *, steps: int | None = None, optimizer: int | None = None
) -> Effect:
    """Settled loss with and without the intervention, over the same number of steps (of
    one optimizer's steps when `optimizer` names one of several)."""
    w = window(
        base.trace.optimizer_curve(optimizer) if base.trace else [],
        iv.trace.optimizer_curve(optimizer) if iv.trace else [],
        steps,
    )
    i = w.other
    bnf, inf_ = w.base_nonfinite, w.other_nonfinite
    bf, if_ = w.base_settled, w.settled
    first = w.base_first
    if iv.trace is None or not i:
        return Effect(
            bf,
            if_,
            first,
            False,
            f"the run {what} produced no loss values ({iv.summary().message or iv.summary().status})",
            bnf,
            inf_,
        )
    if bnf and not inf_:
        return Effect(
            bf,
            if_,
            first,
            True,
            f"{what}: the loss stays finite for {len(i)} steps (settles at {fmt(if_)}), while as written {bnf} of {w.base_steps} steps are non-finite",
            bnf,
            inf_,
        )
    if bf is None:
        return Effect(
            bf, if_, first, False, f"{what}: no finite baseline loss to compare", bnf, inf_
        )
    eff = Effect(bf, if_, first, False, "", bnf, inf_, steps=w.steps)
    eff.improved = if_ is not None and if_ < bf and eff.relative > 0.05 and if_ < 0.85 * bf + 1e-12
    eff.text = _settled_text(what, w.steps, eff)
    return eff


def _settled_text(what: str, steps: int, eff: Effect) -> str:
    verb = "falls to" if eff.improved else "settles at"
    return (
        f"{what}: after {steps} steps the loss {verb} {fmt(eff.iv_final)} instead of {fmt(eff.base_final)} as written"
        f" (the run as written starts at {fmt(eff.first)})"
    )


def intervene(
    session: Session,
    interventions: dict[str, InterventionValue],
    what: str,
    *,
    train_loader: str | None = None,
    optimizer: int | None = None,
) -> Effect:
    """Rerun the training path with one change and compare its loss with the baseline's
    (the loss of one optimizer's steps when `optimizer` names one of several: a change to
    a GAN's discriminator shows in the discriminator's loss)."""
    run = session.runner.get(interventions, train_loader=train_loader)
    effect = compare(session.baseline(), run, what, optimizer=optimizer)
    effect.interventions, effect.train_loader = dict(interventions), train_loader
    if (
        effect.improved
        and effect.iv_final is not None
        and not effect.base_nonfinite
        and not changes_loss(interventions)
    ):
        # a smaller loss proves the change only beyond what reseeding alone moves it by
        band = chance_band(session, effect.steps, optimizer)
        if band is not None:
            effect.improved = band.beyond(effect.iv_final)
            verdict = "beyond chance" if effect.improved else "not beyond chance"
            effect.text = f"{_settled_text(what, effect.steps, effect)}; {verdict}: {band.text()}"
    return effect
