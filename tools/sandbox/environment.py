"""The scrubbed environment of sandboxed processes.

Built from an allow-list, never by removing names from the host's environment: a
variable reaches the child only when listed here, and nothing whose name looks like
a credential reaches it even when the user passed it explicitly.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

_PASS_THROUGH = ("PATH", "LANG", "LANGUAGE", "TZ")
_SECRET_NAME = re.compile(
    r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|CERT"
    r"|^AWS_|^OPENAI_|^ANTHROPIC_|^AZURE_|^GOOGLE_|^GCP_|^GCLOUD|^HF_|^HUGGING|^GITHUB_|^GH_"
    r"|^GITLAB_|^WANDB_|^COMET_|^NEPTUNE_|^MLFLOW_|^SSH_|^GPG_|^NPM_|^PYPI|^TWINE_|^DOCKER_",
    re.IGNORECASE,
)
_FIXED = {
    "PYTHONHASHSEED": "0",
    "PYTHONUNBUFFERED": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "CUDA_VISIBLE_DEVICES": "",
    "MPLBACKEND": "Agg",
    "HF_HUB_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "WANDB_MODE": "disabled",
}
# Our own settings, which look like secrets to the pattern but are not.
_OWN = frozenset({"HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "WANDB_MODE"})


def is_secret(name: str) -> bool:
    return name not in _OWN and bool(_SECRET_NAME.search(name))


def sandbox_env(
    *,
    home: Path,
    tmpdir: Path,
    python: Path,
    single_thread: bool,
    host: Mapping[str, str] | None = None,
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment of a sandboxed process.

    `single_thread` sets OMP/MKL threads to 1 (runs in parallel on few cores); libgomp
    reads them when torch is imported, so the server must already start with them.
    `extra` holds the user's own variables (`PYTHONPATH=. python train.py`).
    """
    host = os.environ if host is None else host
    env = {k: v for k, v in host.items() if k in _PASS_THROUGH or k.startswith("LC_")}
    path = env.get("PATH") or "/usr/local/bin:/usr/bin:/bin"
    env["PATH"] = os.pathsep.join([str(python.parent), path])  # like an activated venv
    env.update(_FIXED)
    env["HOME"] = str(home)
    env["TMPDIR"] = str(tmpdir)
    if single_thread:
        env["OMP_NUM_THREADS"] = "1"
        env["MKL_NUM_THREADS"] = "1"
    for name, value in (extra or {}).items():
        env[name] = value
    return {k: v for k, v in env.items() if not is_secret(k)}
