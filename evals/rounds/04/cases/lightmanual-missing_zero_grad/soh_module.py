import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


class SoHModule(L.LightningModule):
    def __init__(self, n_features, hidden=64, lr=2e-3, var_lr=1e-2):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.trunk = nn.Sequential(nn.Linear(n_features, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU())
        self.mean_head = nn.Linear(hidden, 1)
        self.var_head = nn.Sequential(nn.Linear(hidden, 32), nn.GELU(), nn.Linear(32, 1))
        self.nll = nn.GaussianNLLLoss(full=True)

    def forward(self, x):
        h = self.trunk(x)
        return self.mean_head(h).squeeze(-1), F.softplus(self.var_head(h)).squeeze(-1) + 1e-5, h

    def training_step(self, batch, batch_idx):
        opt_reg, opt_var = self.optimizers()
        x, y = batch

        mean, _, h = self(x)
        reg_loss = F.mse_loss(mean, y)
        opt_reg.zero_grad()
        self.manual_backward(reg_loss)
        opt_reg.step()

        # uncertainty head: trunk features and mean are treated as fixed inputs
        var = F.softplus(self.var_head(h.detach())).squeeze(-1) + 1e-5
        var_loss = self.nll(mean.detach(), y, var)
        self.manual_backward(var_loss)
        opt_var.step()

        self.log_dict({"train_mse": reg_loss, "train_nll": var_loss}, prog_bar=False)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        mean, var, _ = self(x)
        self.log("val_nll", self.nll(mean, y, var))
        self.log("val_rmse", F.mse_loss(mean, y).sqrt())

    def configure_optimizers(self):
        reg_params = list(self.trunk.parameters()) + list(self.mean_head.parameters())
        return [torch.optim.AdamW(reg_params, lr=self.hparams.lr, weight_decay=1e-4),
                torch.optim.SGD(self.var_head.parameters(), lr=self.hparams.var_lr, momentum=0.9)]
