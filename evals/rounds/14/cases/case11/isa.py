import random

OPCODES = ["<pad>", "<bos>", "<eos>", "LOAD", "STORE", "MOV", "ADD", "SUB", "MUL",
           "CMP", "JZ", "JNZ", "JMP", "PUSH", "POP", "CALL", "RET", "NOP", "INC"]
PAD, BOS, EOS = 0, 1, 2
ID = {op: i for i, op in enumerate(OPCODES)}


def _block(rng):
    kind = rng.random()
    if kind < 0.3:
        ops = ["LOAD"] * rng.randint(1, 2) + [rng.choice(["ADD", "SUB", "MUL"])] + ["STORE"]
    elif kind < 0.5:
        ops = ["LOAD", "CMP", rng.choice(["JZ", "JNZ"])]
    elif kind < 0.7:
        k = rng.randint(1, 3)
        ops = ["PUSH"] * k + ["CALL"] + ["POP"] * k
    elif kind < 0.85:
        ops = ["MOV", "INC", "CMP", "JNZ"]
    else:
        ops = [rng.choice(["NOP", "MOV"]), "JMP"]
    return ops


def sample_program(rng, max_blocks=8):
    ops = []
    for _ in range(rng.randint(2, max_blocks)):
        ops += _block(rng)
    ops.append("RET")
    return [BOS] + [ID[o] for o in ops] + [EOS]


def make_corpus(n, seed):
    rng = random.Random(seed)
    return [sample_program(rng) for _ in range(n)]
