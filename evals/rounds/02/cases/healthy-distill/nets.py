import torch.nn as nn


def teacher_net(d_in, n_classes):
    return nn.Sequential(nn.Linear(d_in, 256), nn.ReLU(), nn.Dropout(0.2),
                         nn.Linear(256, 256), nn.ReLU(), nn.Dropout(0.2),
                         nn.Linear(256, n_classes))


def student_net(d_in, n_classes, hidden=24):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))
