import copy

import torch
import torch.nn.functional as F


class Client:
    def __init__(self, cid, x, y, model_fn, lr, batch_size):
        self.cid = cid
        self.x, self.y = x, y
        self.batch_size = batch_size
        self.model = model_fn()
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)

    def __len__(self):
        return len(self.y)

    def local_update(self, global_model, epochs, gen):
        # start from the current global weights
        self.model = copy.deepcopy(global_model)
        self.model.train()
        for _ in range(epochs):
            perm = torch.randperm(len(self.y), generator=gen)
            for i in range(0, len(perm), self.batch_size):
                idx = perm[i:i + self.batch_size]
                loss = F.cross_entropy(self.model(self.x[idx]), self.y[idx])
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
        return {k: v.detach().clone() for k, v in self.model.state_dict().items()}, len(self)
