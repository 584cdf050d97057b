PAD, BOS, EOS = 0, 1, 2
N_SPECIAL = 3


def symbol_ids(n_symbols):
    return list(range(N_SPECIAL, N_SPECIAL + n_symbols))
