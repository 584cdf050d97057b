from .dataset import GestureDataset, pad_collate, CLASSES

__all__ = ["GestureDataset", "pad_collate", "CLASSES"]
