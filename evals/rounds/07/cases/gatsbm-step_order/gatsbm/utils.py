import json
import os


def log_gradients(model, history, step):
    """Append per-parameter gradient norms for this step to `history`."""
    row = {"step": step}
    for name, p in model.named_parameters():
        if p.grad is not None:
            row[name] = round(p.grad.norm().item(), 6)
    history.append(row)
    # the graph-sized grad buffers are not needed past this point
    model.zero_grad(set_to_none=True)
    return row


def dump_history(history, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "grad_log.json"), "w") as f:
        json.dump(history, f)
