#!/usr/bin/python3
"""Generates golden.json for the nn package tests: forward values and
gradients of OmniHSR's ops computed by PyTorch (float64) on small random
float32 inputs. Tensors are stored in the Go package's layouts: activations
NHWC, conv weights Cout x KH x KW x Cin, linear weights Cout x Cin.

Each case holds inputs, the output and the gradients of
L = sum(output * r) for the stored weights r.

Run from this directory:  /usr/bin/python3 gen_golden.py   (Debian python3-torch)
"""
import json
import math

import torch
import torch.nn.functional as F

torch.manual_seed(2026)
DT = torch.float64


def rnd(*shape, scale=1.0):
    # float32 values, so that Go's float32 inputs are exact
    return (torch.randn(*shape) * scale).to(torch.float32).to(DT)


def flat(t):
    # 9 significant digits: exact for float32 inputs, ample for references
    return [float("%.9g" % v) for v in t.detach().reshape(-1).tolist()]


def nhwc(t):  # NCHW -> NHWC
    return t.permute(0, 2, 3, 1)


def case(name, inputs, fn, extra=None):
    """inputs: dict name -> (tensor in torch layout, to_go layout fn)."""
    leaves = {k: v[0].clone().requires_grad_(True) for k, v in inputs.items()}
    out_t, out_go = fn(leaves)
    r = rnd(*out_go.shape)
    (out_go * r).sum().backward()
    c = {"name": name, "out_shape": list(out_go.shape), "out": flat(out_go), "r": flat(r), "inputs": {}, "grads": {}}
    for k, (t, to_go) in inputs.items():
        c["inputs"][k] = {"shape": list(to_go(t).shape), "data": flat(to_go(t))}
        c["grads"][k] = flat(to_go(leaves[k].grad))
    if extra:
        c.update(extra)
    return c


ident = lambda t: t
conv_w = lambda t: t.permute(0, 2, 3, 1)  # (Cout, Cin, KH, KW) -> (Cout, KH, KW, Cin)
cases = []

# Conv2D 3x3, zero and replicate padding; 5x5 replicate; 1x1.
for k, mode in [(3, "zeros"), (3, "replicate"), (5, "replicate"), (1, "zeros")]:
    x = rnd(2, 3, 5, 4)          # N C H W
    w = rnd(4, 3, k, k, scale=0.5)
    b = rnd(4, scale=0.5)

    def f(L, k=k, mode=mode):
        p = k // 2
        xx = L["x"]
        if p > 0:
            xx = F.pad(xx, (p, p, p, p), mode="constant" if mode == "zeros" else "replicate")
        y = F.conv2d(xx, L["w"], L["b"])
        return y, nhwc(y)
    cases.append(case(f"conv{k}x{k}_{mode}", {"x": (x, nhwc), "w": (w, conv_w), "b": (b, ident)}, f,
                      {"pad": mode, "k": k}))

# LayerNorm over channels (affine), eps 1e-5.
x = rnd(2, 3, 2, 6)  # NHWC directly
gm = rnd(6)
bt = rnd(6)
cases.append(case("layernorm", {"x": (x, ident), "gamma": (gm, ident), "beta": (bt, ident)},
                  lambda L: (None, F.layer_norm(L["x"], (6,), L["gamma"], L["beta"], 1e-5))))

# GELU (erf), Softplus, Tanh, Sigmoid, LeakyReLU(0.1).
x = rnd(2, 3, 2, 5, scale=2.0)
cases.append(case("gelu", {"x": (x, ident)}, lambda L: (None, F.gelu(L["x"]))))
cases.append(case("softplus", {"x": (x * 8, ident)}, lambda L: (None, F.softplus(L["x"]))))
cases.append(case("tanh", {"x": (x, ident)}, lambda L: (None, torch.tanh(L["x"]))))
cases.append(case("sigmoid", {"x": (x, ident)}, lambda L: (None, torch.sigmoid(L["x"]))))
cases.append(case("leakyrelu", {"x": (x, ident)}, lambda L: (None, F.leaky_relu(L["x"], 0.1))))


# ESSA attention layer, as ESSAformer's ESSAttn (lnqkv, core, ln).
def essattn(x, wqkv, bqkv, wo, bo):
    b, N, C = x.shape
    qkv = F.linear(x, wqkv, bqkv)
    q, k, v = torch.split(qkv, C, 2)
    q = q - torch.mean(q, dim=2, keepdim=True)
    k = k - torch.mean(k, dim=2, keepdim=True)
    q2 = torch.pow(q, 2)
    q2s = torch.sum(q2, dim=2, keepdim=True)
    k2 = torch.pow(k, 2)
    k2s = torch.sum(k2, dim=2, keepdim=True)
    t1 = v
    k2 = F.normalize((k2 / (k2s + 1e-7)), dim=-2)
    q2 = F.normalize((q2 / (q2s + 1e-7)), dim=-1)
    t2 = q2 @ (k2.transpose(-2, -1) @ v) / math.sqrt(N)
    return F.linear(t1 + t2, wo, bo)


C = 6
x = rnd(2, 3, 4, C)  # N H W C
wqkv, bqkv = rnd(3 * C, C, scale=0.4), rnd(3 * C, scale=0.2)
wo, bo = rnd(C, C, scale=0.4), rnd(C, scale=0.2)
cases.append(case("essa_layer", {"x": (x, ident), "wqkv": (wqkv, ident), "bqkv": (bqkv, ident),
                                 "wo": (wo, ident), "bo": (bo, ident)},
                  lambda L: (None, essattn(L["x"].reshape(2, 12, C), L["wqkv"], L["bqkv"], L["wo"], L["bo"]).reshape(2, 3, 4, C))))

# Losses (docs/CONVENTIONS.md section 8), channels = bands.
p = rnd(2, 3, 2, 7).abs() + 0.1
t = rnd(2, 3, 2, 7).abs() + 0.1


def charb(L):
    return None, torch.sqrt((L["p"] - L["t"]) ** 2 + 1e-6).mean().reshape(1, 1, 1, 1)


def sam(L):
    pp, tt = L["p"], L["t"]
    cos = (pp * tt).sum(-1) / (pp.norm(dim=-1).clamp_min(1e-8) * tt.norm(dim=-1).clamp_min(1e-8))
    return None, torch.acos(cos.clamp(-1 + 1e-6, 1 - 1e-6)).mean().reshape(1, 1, 1, 1)


def curv(L):
    d = L["p"] - L["t"]
    sd = d[..., 2:] - 2 * d[..., 1:-1] + d[..., :-2]
    return None, sd.abs().mean().reshape(1, 1, 1, 1)


for name, fn in [("charbonnier", charb), ("spectral_angle", sam), ("spectral_curvature", curv)]:
    cases.append(case(name, {"p": (p, ident), "t": (t, ident)}, fn))

with open("golden.json", "w") as f:
    json.dump({"generator": "gen_golden.py, PyTorch " + torch.__version__ + ", float64", "cases": cases}, f)
print("wrote golden.json with", len(cases), "cases")
