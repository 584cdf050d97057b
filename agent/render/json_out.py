"""The report for machines: the `Report` record itself, in its versioned schema.

The schema is `tools.records.report_json_schema()`; nothing is added or renamed
here, so `Report.model_validate_json` reads back what this writes.
"""

from __future__ import annotations

from torch_investigate.tools.records import Report


def to_json(report: Report) -> str:
    return report.model_dump_json(indent=2)
