"""What one intervention did to the loss, as the evidence carries it: the typed effect an
`Observation` holds (the report's JSON writes it into `values` under the same keys)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, StringConstraints

JSONValue = Any  # numbers, strings, lists and dicts of them; validated by json round trip
# an intervention's value: a switch, a scale, a pool size (tools/trace/config.py Interventions)
# or a call's place, `file:line:i:j` (note_call), or a softmax's place and axis,
# `file:line:axis` (softmax_dim_at): only those shapes stay text
CallPlace = Annotated[str, StringConstraints(pattern=r"^[^\s]+:\d+:\d+:\d+$")]
AxisPlace = Annotated[str, StringConstraints(pattern=r"^[^\s]+:\d+:-?\d+$")]
# loaders' sites, `file:line` (`#n`/`@n` for a helper's later calls), comma-separated
# (ordered_eval_loaders)
LoaderPlaces = Annotated[
    str, StringConstraints(pattern=r"^[^\s,]+:\d+([#@]\d+)?(,[^\s,]+:\d+([#@]\d+)?)*$")
]
# a number given as text stays a number
InterventionValue = int | float | bool | CallPlace | AxisPlace | LoaderPlaces


class InterventionEffect(BaseModel):
    """What one intervention did to the loss: the settled loss with the change against the
    run as written, over the same steps (agent/checks/effects.py makes it; the conclusion,
    the contradiction rule and the answer read it)."""

    loss_as_written: float | None
    loss_with_change: float | None
    relative_improvement: float  # (as written - with the change) / the loss scale
    improved: bool
    # the change (tracer keys) and the loader it applied to, so two fixes can be combined
    interventions: dict[str, InterventionValue] | None = None
    train_loader: str | None = None
    same_objective: bool = True  # False: the change alters the loss itself

    def as_values(self) -> dict[str, JSONValue]:
        """The effect as the report's `values` hold it (the JSON keeps these keys)."""
        values: dict[str, JSONValue] = {
            "loss_as_written": self.loss_as_written,
            "loss_with_change": self.loss_with_change,
            "relative_improvement": self.relative_improvement,
            "improved": self.improved,
        }
        if self.interventions:
            values.update(
                interventions=self.interventions,
                train_loader=self.train_loader,
                same_objective=self.same_objective,
            )
        return values
