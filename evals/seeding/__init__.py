"""Bug seeding: one operator per taxonomy category injects it into a copy of a repo.

operators/   one module per protocol stage; each operator yields `Mutation`s (edits
             located with the code index, one of them the ground-truth anchor)
source.py    node lookups and edit builders over a repo's CodeIndex
sites.py     where the training path lives: trained model, optimizer, loss calls
apply.py     copy + edit + ground truth;  verify.py  one plain run, its METRIC
generate.py  `python -m evals.seeding.generate`: the suite in evals/suite
cli.py       `investigate seed PATH --category ID --out DIR`
"""
