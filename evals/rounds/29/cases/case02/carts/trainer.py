import torch


class Trainer:
    """Tiny loop with hooks so the notebook and the CLI share one code path."""

    def __init__(self, model, optimizer, loss_fn, log_every=10):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.log_every = log_every
        self.history = []

    def on_epoch_start(self, epoch):
        self.model.train()
        self.optimizer.zero_grad(set_to_none=True)

    def training_step(self, batch):
        num, ent, y = batch
        loss = self.loss_fn(self.model(num, ent), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def on_epoch_end(self, epoch, losses):
        mean = sum(losses) / len(losses)
        self.history.append(mean)
        if epoch % self.log_every == 0:
            print(f"epoch {epoch:3d} train_loss {mean:.4f}")

    def fit(self, loader, epochs):
        for epoch in range(epochs):
            self.on_epoch_start(epoch)
            losses = [self.training_step(b) for b in loader]
            self.on_epoch_end(epoch, losses)

    @torch.no_grad()
    def predict(self, num, ent):
        self.model.eval()
        return self.model(num, ent)
