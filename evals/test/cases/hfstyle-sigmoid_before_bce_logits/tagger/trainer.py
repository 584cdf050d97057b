import math
import random
from dataclasses import dataclass, field

import numpy as np
import torch
from torch.utils.data import DataLoader


@dataclass
class TrainingArguments:
    output_dir: str = "outputs"
    num_train_epochs: float = 5
    per_device_train_batch_size: int = 32
    per_device_eval_batch_size: int = 128
    learning_rate: float = 1e-2
    weight_decay: float = 0.01
    warmup_ratio: float = 0.06
    max_grad_norm: float = 1.0
    logging_steps: int = 50
    seed: int = 42
    label_names: list = field(default_factory=lambda: ["labels"])


def set_seed(seed: int):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps):
    def lr_lambda(current_step):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        return max(0.0, float(num_training_steps - current_step) / float(max(1, num_training_steps - num_warmup_steps)))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)


class Trainer:
    def __init__(self, model, args, train_dataset=None, eval_dataset=None, data_collator=None, compute_metrics=None):
        self.model = model
        self.args = args
        self.train_dataset = train_dataset
        self.eval_dataset = eval_dataset
        self.data_collator = data_collator
        self.compute_metrics = compute_metrics
        self.optimizer = None
        self.lr_scheduler = None
        self.state = {"global_step": 0, "log_history": []}

    def get_train_dataloader(self):
        g = torch.Generator().manual_seed(self.args.seed)
        return DataLoader(self.train_dataset, batch_size=self.args.per_device_train_batch_size,
                          shuffle=True, collate_fn=self.data_collator, generator=g)

    def get_eval_dataloader(self, eval_dataset=None):
        ds = eval_dataset if eval_dataset is not None else self.eval_dataset
        return DataLoader(ds, batch_size=self.args.per_device_eval_batch_size, collate_fn=self.data_collator)

    def create_optimizer_and_scheduler(self, num_training_steps):
        no_decay = ["bias", "LayerNorm.weight", "norm.weight"]
        decay_params, other_params = [], []
        for name, p in self.model.named_parameters():
            if not p.requires_grad:
                continue
            if any(nd in name for nd in no_decay) or p.ndim == 1:
                other_params.append(p)
            else:
                decay_params.append(p)
        groups = [
            {"params": decay_params, "weight_decay": self.args.weight_decay},
            {"params": other_params, "weight_decay": 0.0},
        ]
        self.optimizer = torch.optim.AdamW(groups, lr=self.args.learning_rate)
        warmup = math.ceil(num_training_steps * self.args.warmup_ratio)
        self.lr_scheduler = get_linear_schedule_with_warmup(self.optimizer, warmup, num_training_steps)

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(**inputs)
        loss = outputs["loss"]
        return (loss, outputs) if return_outputs else loss

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        loss.backward()
        return loss.detach()

    def train(self):
        set_seed(self.args.seed)
        train_dataloader = self.get_train_dataloader()
        num_update_steps_per_epoch = len(train_dataloader)
        max_steps = math.ceil(self.args.num_train_epochs * num_update_steps_per_epoch)
        self.create_optimizer_and_scheduler(max_steps)

        tr_loss, logged_steps = 0.0, 0
        epochs = math.ceil(self.args.num_train_epochs)
        for epoch in range(epochs):
            for step, inputs in enumerate(train_dataloader):
                tr_loss += self.training_step(self.model, inputs).item()
                logged_steps += 1
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args.max_grad_norm)
                self.optimizer.step()
                self.lr_scheduler.step()
                self.optimizer.zero_grad()
                self.state["global_step"] += 1

                if self.state["global_step"] % self.args.logging_steps == 0:
                    entry = {"loss": round(tr_loss / logged_steps, 4),
                             "learning_rate": self.lr_scheduler.get_last_lr()[0],
                             "epoch": round(epoch + (step + 1) / num_update_steps_per_epoch, 2)}
                    self.state["log_history"].append(entry)
                    print(entry)
                    tr_loss, logged_steps = 0.0, 0
                if self.state["global_step"] >= max_steps:
                    break
        return self.state

    @torch.no_grad()
    def evaluate(self, eval_dataset=None, metric_key_prefix="eval"):
        self.model.eval()
        all_logits, all_labels, losses = [], [], []
        for inputs in self.get_eval_dataloader(eval_dataset):
            loss, outputs = self.compute_loss(self.model, inputs, return_outputs=True)
            losses.append(loss.item())
            all_logits.append(outputs.logits)
            all_labels.append(inputs["labels"])
        metrics = {"loss": float(np.mean(losses))}
        if self.compute_metrics is not None:
            metrics.update(self.compute_metrics((torch.cat(all_logits), torch.cat(all_labels))))
        return {f"{metric_key_prefix}_{k}": v for k, v in metrics.items()}
