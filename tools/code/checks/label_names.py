"""What a name says an array is (features or labels). Names never decide a pairing
the data flow can follow: they break ties and decide alone only where it finds none."""

from __future__ import annotations

import re

FEATURES = re.compile(
    r"^(x|xs|xb|data|inputs?|features?|feats|images?|imgs|samples|examples|texts?|sentences|tokens|seqs"
    r"|files|paths|filenames)(_.*)?$",
    re.IGNORECASE,
)
LABELS = re.compile(
    r"^(y|ys|yb|labels?|targets?|classes|tags|clusters?|annotations|gts?)(_.*)?$", re.IGNORECASE
)


def name_kind(text: str) -> str | None:
    """ "features" or "labels" as the name reads, else None."""
    found = kind_and_stem(text)
    return found[0] if found else None


def kind_and_stem(text: str) -> tuple[str, str] | None:
    """("features" | "labels", the rest of the name): `X_train` -> ("features", "_train"),
    so `X_train` pairs with `y_train` and not with `y_val`."""
    base = text.rsplit(".", 1)[-1]
    for kind, pattern in (("features", FEATURES), ("labels", LABELS)):
        m = pattern.match(base)
        if m:
            return kind, (m.group(2) or "").lower()
    return None
