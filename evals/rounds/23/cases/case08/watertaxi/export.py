import numpy as np


def dump_embeddings(model, path):
    np.save(path, model.pier_emb.weight.detach().numpy())
