"""The trace file the in-sandbox tracer writes, as the host reads it: its records
(records.py), the `Trace` with its views for the stage checks and `load_trace`
(trace.py), and the keys the tracer may leave out (contract.py)."""
