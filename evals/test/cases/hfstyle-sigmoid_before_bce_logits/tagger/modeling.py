from dataclasses import dataclass
from typing import Optional

import torch
from torch import nn


@dataclass
class TaggerConfig:
    vocab_size: int = 600
    hidden_size: int = 64
    num_labels: int = 8
    dropout: float = 0.1
    pad_token_id: int = 0


@dataclass
class SequenceClassifierOutput:
    loss: Optional[torch.Tensor] = None
    logits: Optional[torch.Tensor] = None

    def __getitem__(self, key):
        return getattr(self, key)


class ClassificationHead(nn.Module):
    def __init__(self, config: TaggerConfig):
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.dropout)
        self.out_proj = nn.Linear(config.hidden_size, config.num_labels)
        self.activation = nn.Sigmoid()

    def forward(self, pooled):
        x = self.dropout(pooled)
        x = torch.tanh(self.dense(x))
        x = self.dropout(x)
        return self.activation(self.out_proj(x))


class TicketTagger(nn.Module):
    def __init__(self, config: TaggerConfig):
        super().__init__()
        self.config = config
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=config.pad_token_id)
        self.encoder = nn.Sequential(
            nn.Linear(config.hidden_size, config.hidden_size),
            nn.GELU(),
            nn.LayerNorm(config.hidden_size),
        )
        self.classifier = ClassificationHead(config)

    def forward(self, input_ids, attention_mask=None, labels=None):
        if attention_mask is None:
            attention_mask = (input_ids != self.config.pad_token_id).long()
        hidden = self.encoder(self.embeddings(input_ids))
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
        logits = self.classifier(pooled)

        loss = None
        if labels is not None:
            loss_fct = nn.BCEWithLogitsLoss()
            loss = loss_fct(logits, labels)
        return SequenceClassifierOutput(loss=loss, logits=logits)
