"""Loss functions by what their target is: a class index (cross entropy, NLL) or a
probability per element (binary cross entropy). Imports nothing, so the tracer (in the
sandbox) and the host's checks read the same lists."""

# losses whose target is a class index (not an element-wise target of the input's shape)
INDEX_TARGET = ("cross_entropy", "nll_loss")
# losses whose target is a probability per element of the input
BINARY_TARGET = ("binary_cross_entropy", "binary_cross_entropy_with_logits")
# losses whose target need not have the input's shape (no silent broadcasting to check)
NO_BROADCAST = (*INDEX_TARGET, "multi_margin_loss", "multilabel_margin_loss")
# losses that regress the input onto a target of its shape by distance
REGRESSION = ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss")
