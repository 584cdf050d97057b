import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEmbed(nn.Module):
    def __init__(self, img=16, patch=4, in_ch=1, dim=64):
        super().__init__()
        self.patch = patch
        self.n_patches = (img // patch) ** 2
        self.proj = nn.Linear(in_ch * patch * patch, dim)

    def forward(self, x):                                   # (B, C, H, W)
        B, C, H, W = x.shape
        p = self.patch
        x = x.reshape(B, C, H // p, p, W // p, p)
        x = x.permute(0, 2, 4, 1, 3, 5)                     # (B, h, w, C, p, p)
        x = x.reshape(B, self.n_patches, C * p * p)
        return self.proj(x)


class Attention(nn.Module):
    def __init__(self, dim, heads, p_drop=0.0):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.drop = nn.Dropout(p_drop)

    def forward(self, x):
        B, N, D = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]                    # (B, heads, N, d)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = self.drop(attn.softmax(dim=-1))
        y = (attn @ v).transpose(1, 2).reshape(B, N, D)
        return self.out(y)


class Block(nn.Module):
    def __init__(self, dim, heads, mlp_ratio=2, p_drop=0.1):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads, p_drop)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp_ratio * dim), nn.GELU(), nn.Dropout(p_drop),
                                 nn.Linear(mlp_ratio * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class TinyViT(nn.Module):
    def __init__(self, n_classes, dim=48, depth=2, heads=4, patch=4, img=16):
        super().__init__()
        self.patch_embed = PatchEmbed(img, patch, 1, dim)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, self.patch_embed.n_patches + 1, dim) * 0.02)
        self.blocks = nn.Sequential(*[Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        tokens = self.patch_embed(x)
        cls = self.cls_token.expand(tokens.size(0), -1, -1)
        h = torch.cat([cls, tokens], dim=1) + self.pos_embed
        h = self.norm(self.blocks(h))
        return F.log_softmax(self.head(h[:, 0]), dim=-1)    # log-probabilities
