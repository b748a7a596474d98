#!/usr/bin/python3
"""Generates encoder_golden.json for internal/model/encoder_test.go: a PyTorch
(float64) implementation of the CSM encoder of internal/model/encoder.go, on a tiny
configuration with random weights, its output on a random input and the
gradients of L = sum(out * r) with respect to every parameter and the
input. Tensors are in the Go layouts (activations NHWC, conv weights
Cout x KH x KW x Cin, linear weights Cout x Cin) and named as
Encoder.Params names them.

Run from this directory:  /usr/bin/python3 gen_encoder_golden.py   (Debian python3-torch)
"""
import json
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
torch.set_default_dtype(torch.float64)

IN, C, BLOCKS, RATIO = 3, 4, 2, 2


def conv(cin, cout):
    return nn.Conv2d(cin, cout, 3, padding=1, padding_mode="replicate")


class ESSAttn(nn.Module):  # ESSAformer's attention
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, dim * 3)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, N, C = x.shape
        q, k, v = torch.split(self.qkv(x), C, 2)
        q = q - torch.mean(q, dim=2, keepdim=True)
        k = k - torch.mean(k, dim=2, keepdim=True)
        q2 = torch.pow(q, 2)
        q2s = torch.sum(q2, dim=2, keepdim=True)
        k2 = torch.pow(k, 2)
        k2s = torch.sum(k2, dim=2, keepdim=True)
        k2 = F.normalize((k2 / (k2s + 1e-7)), dim=-2)
        q2 = F.normalize((q2 / (q2s + 1e-7)), dim=-1)
        t2 = q2 @ (k2.transpose(-2, -1) @ v) / math.sqrt(N)
        return self.out(v + t2)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(C)
        self.attn = ESSAttn(C)
        self.ln2 = nn.LayerNorm(C)
        self.ffn1 = conv(C, RATIO * C)
        self.ffn2 = conv(RATIO * C, C)

    def forward(self, x):  # NCHW
        b, c, h, w = x.shape
        t = x.permute(0, 2, 3, 1).reshape(b, h * w, c)
        t = self.attn(self.ln1(t))
        x = x + t.reshape(b, h, w, c).permute(0, 3, 1, 2)
        y = self.ln2(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
        return x + self.ffn2(F.gelu(self.ffn1(y)))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = conv(IN, C)
        self.blocks = nn.ModuleList([Block() for _ in range(BLOCKS)])
        self.tail = conv(C, C)

    def forward(self, z):
        s = self.stem(z)
        x = s
        for b in self.blocks:
            x = b(x)
        return self.tail(x) + s


def to32(t):
    return t.to(torch.float32).to(torch.float64)


enc = Encoder()
with torch.no_grad():
    for name, p in enc.named_parameters():
        if name.endswith("ln1.weight") or name.endswith("ln2.weight"):
            p.copy_(1 + 0.5 * torch.randn_like(p))
        elif name.endswith("ln1.bias") or name.endswith("ln2.bias"):
            p.copy_(0.3 * torch.randn_like(p))
        p.copy_(to32(p))

z = to32(torch.randn(2, IN, 5, 6)).requires_grad_(True)
out = enc(z)
r = to32(torch.randn_like(out))
(out * r).sum().backward()


def go_layout(name, t):
    if t.dim() == 4:  # conv weight (Cout, Cin, KH, KW) -> (Cout, KH, KW, Cin)
        return t.permute(0, 2, 3, 1)
    return t


def flat(t):
    return [float("%.9g" % v) for v in t.detach().reshape(-1).tolist()]


params = {}
for name, p in enc.named_parameters():
    params[name] = {"shape": list(go_layout(name, p).shape), "data": flat(go_layout(name, p)),
                    "grad": flat(go_layout(name, p.grad))}
nhwc = lambda t: t.permute(0, 2, 3, 1)
doc = {
    "generator": "gen_encoder_golden.py, PyTorch " + torch.__version__ + ", float64",
    "config": {"in": IN, "c": C, "blocks": BLOCKS, "ffn_ratio": RATIO},
    "input": {"shape": list(nhwc(z).shape), "data": flat(nhwc(z)), "grad": flat(nhwc(z.grad))},
    "out": {"shape": list(nhwc(out).shape), "data": flat(nhwc(out))},
    "r": flat(nhwc(r)),
    "params": params,
}
with open("encoder_golden.json", "w") as f:
    json.dump(doc, f)
print("wrote encoder_golden.json:", len(params), "parameters")
