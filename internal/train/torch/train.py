"""Train the OmniHSR model in PyTorch with the Go trainer's data, sampling,
losses and optimiser (package train; docs/CONVENTIONS.md section 8), on a
training pack (pack.py). Writes .omw weight files the Go code reads.

    python3 internal/train/torch/train.py --pack internal/train/torch/pack/pack.zip --out runs/torch1 \\
        --init internal/model/weights/default.omw --lr 5e-5 --patch 128 --patch-min 32 --minutes 8.5

What is the same as the Go trainer (train.Trainer, train.Dataset.Draw,
loss.Compute): the model (model.py, checked against Go on goldens); the pools
(a scene with probability --hsi-prob, else a natural image), the patch side
(--patch, or uniform in [--patch-min, --patch]) limited by the image's
training rows and width, the random crop, the 8 flips/rotations, the band
subset of a scene (probability --band-subset: a contiguous range of >= 8
bands, every 1st-3rd), the factor uniform in [--min-scale, --max-scale], the
low-res input by the antialiased bicubic downsampling to round(side / s),
the synthetic noise of noise.Draw with probability --noise-prob (its level
given to FiLM with --noise-input), the loss (Charbonnier + 0.1 consistency
against the clean input + 0.1 spectral angle + 0.05 curvature, weights as
flags), Adam (0.9, 0.999, 1e-8), the learning rate halved at 30/60/80 % of
the steps, the gradient norm clipped at 1, and the batch's loss the mean of
its samples' losses.

What differs, for speed on a GPU: the samples of a step are drawn in groups
of --group samples that share the factor and the patch side (each sample
keeps its own image, crop, orientation, bands and noise), so that a group is
one batched forward pass (in subgroups: the natural images apart from the
scenes, and the samples whose image limits the side apart); the bands of a
subgroup are zero-padded to its widest sample and
every loss term is masked to each sample's own bands (exactly its unpadded
loss; tested). --group 1 draws every sample on its own, as the Go trainer
does. The random streams are numpy's and torch's, not Go's PCG.

Outputs in --out: checkpoint.pt (every --checkpoint-minutes and at the end;
--resume continues from it), last.omw, best.omw (best validation gain),
log.csv (losses, learning rate, samples/s, validation), run.json (settings,
device, throughput, timings).
"""

import argparse
import csv
import json
import math
import os
import platform
import signal
import socket
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import model as M  # noqa: E402
import omw  # noqa: E402
import pack as P  # noqa: E402

CHARB_EPS2 = 1e-6
ANGLE_CLIP = 1e-6
NORM_EPS = 1e-8


# ---------------------------------------------------------------- schedule


def lr_at(step, total, base, milestones=(0.3, 0.6, 0.8), gamma=0.5):
    """nn.StepSchedule.LR: base halved at every milestone floor(f*total) reached."""
    lr = base
    for f in milestones:
        if step >= int(math.floor(f * total)):
            lr *= gamma
    return lr


# ---------------------------------------------------------------- noise (noise.Draw, Spec.Add)


def random_profile(rng, bands):
    out = np.zeros(bands)
    tilt = 1.5 * (rng.random() * 2 - 1)
    peaks = [(rng.random(), 0.01 + 0.04 * rng.random(), 1 + 4 * rng.random()) for _ in range(rng.integers(4))]
    for b in range(bands):
        x = b / max(1, bands - 1)
        f = math.exp(tilt * (x - 0.5))
        for at, width, height in peaks:
            f += height * math.exp(-0.5 * ((x - at) / width) ** 2)
        out[b] = f
    return out * (bands / out.sum())


def draw_noise(rng, bands, lo, hi):
    """noise.Draw: white 40 %, signal-dependent 25 %, band profile 20 %,
    striping 15 %, level log-uniform in [lo, hi]."""
    level = lo * math.exp(rng.random() * math.log(hi / lo))
    u = rng.random()
    if u < 0.40:
        return {"kind": "white", "sigma": level}
    if u < 0.65:
        f = 0.3 + 0.7 * rng.random()
        return {"kind": "signal", "shot": f * level * level / 0.5, "read": math.sqrt(1 - f) * level}
    if u < 0.85:
        return {"kind": "profile", "sigma": level, "band": random_profile(rng, bands)}
    return {"kind": "stripes", "sigma": level, "stripe": level * (0.2 + 0.8 * rng.random())}


def add_noise(x, spec, gen):
    """noise.Spec.Add on one cube x (B x h x w), returning a new tensor."""
    n = torch.randn(x.shape, generator=gen, device=x.device, dtype=torch.float64)
    k = spec["kind"]
    if k == "white":
        d = spec["sigma"] * n
    elif k == "signal":
        d = torch.sqrt(spec["shot"] * x.double().clamp_min(0) + spec["read"] ** 2) * n
    elif k == "profile":
        d = spec["sigma"] * torch.as_tensor(spec["band"], device=x.device).view(-1, 1, 1) * n
    elif k == "stripes":
        off = spec["stripe"] * torch.randn((x.shape[0], 1, x.shape[2]), generator=gen, device=x.device, dtype=torch.float64)
        d = off + spec["sigma"] * n
    else:
        raise ValueError("unknown noise kind %r" % k)
    return x + d.float()


# ---------------------------------------------------------------- sampling


def dihedral(x, d):
    """model.Dihedral(d).Apply on B x H x W: out(i, j) = in(source(i, j))."""
    if d & 4:
        x = x.transpose(1, 2)
    dims = [k for bit, k in ((2, 1), (1, 2)) if d & bit]
    return x.flip(dims) if dims else x


def random_bands(b, rng):
    """train.randomBands: the band indices of a random subset (all when b < 16)."""
    if b < 16:
        return None
    n = 8 + int(rng.integers(b - 7))
    start = int(rng.integers(b - n + 1))
    step = 1 + int(rng.integers(3))
    return list(range(start, start + n, step))


def out_size(side, s):
    """resample.OutSize: round(side / s), halves away from zero."""
    return int(math.floor(side / s + 0.5))


class Sampler:
    """train.Dataset.Draw on a pack, in groups (see the module doc)."""

    def __init__(self, natural, hsi, opt, device):
        self.nat, self.hsi, self.o, self.device = natural, hsi, opt, device

    def draw_one(self, rng, side):
        o = self.o
        if self.hsi and rng.random() < o.hsi_prob:
            pool = self.hsi
        else:
            pool = self.nat
        if not pool:
            raise ValueError("train: no training images")
        im = pool[int(rng.integers(len(pool)))]
        b, _, w = im.shape
        p = min(side, im.train_rows, w)
        y0 = int(rng.integers(im.train_rows - p + 1))
        x0 = int(rng.integers(w - p + 1))
        d = int(rng.integers(8))
        bands = random_bands(b, rng) if (im.hsi and rng.random() < o.band_subset) else None
        noise = None
        if o.noise_prob > 0 and rng.random() < o.noise_prob:
            nb = len(bands) if bands is not None else b
            noise = draw_noise(rng, nb, o.noise_min, o.noise_max)
        return {"im": im, "p": p, "y0": y0, "x0": x0, "d": d, "bands": bands, "noise": noise}

    def make(self, draws, s, gen):
        """One subgroup (equal p) as batched tensors: hr N x Bmax x p x p,
        lr and clean lr N x Bmax x l x l, the band counts and noise features
        (None unless needed)."""
        p = draws[0]["p"]
        l = out_size(p, s)
        if l < 1:
            raise ValueError("train: factor %g leaves no pixel of a %dx%d patch" % (s, p, p))
        hrs, nbs = [], []
        for dr in draws:
            c = dr["im"].crop(dr["y0"], dr["x0"], p, p)
            c = dihedral(c, dr["d"])
            if dr["bands"] is not None:
                c = c.index_select(0, torch.tensor(dr["bands"], device=c.device))
            hrs.append(c)
            nbs.append(c.shape[0])
        bmax = max(nbs)
        hr = torch.zeros((len(draws), bmax, p, p), device=self.device)
        for k, c in enumerate(hrs):
            hr[k, :c.shape[0]] = c
        clean = M.downsample(hr, l, l)
        lr = clean
        if any(dr["noise"] is not None for dr in draws):
            lr = clean.clone()
            for k, dr in enumerate(draws):
                if dr["noise"] is not None:
                    lr[k, :nbs[k]] = add_noise(clean[k, :nbs[k]], dr["noise"], gen)
        return hr, lr, clean, nbs

    def group(self, rng, n):
        """Draw n samples sharing a patch side and a factor; returns the
        subgroups (lists of draws of equal p) and the factor."""
        o = self.o
        side = o.patch
        if 0 < o.patch_min < o.patch:
            side = o.patch_min + int(rng.integers(o.patch - o.patch_min + 1))
        s = o.min_scale + (o.max_scale - o.min_scale) * rng.random()
        draws = [self.draw_one(rng, side) for _ in range(n)]
        # Subgroups: one patch side each (an image may limit it), and the
        # scenes apart from the natural images, so that 1- and 3-band samples
        # are not padded to a scene's hundreds of bands.
        subs = {}
        for dr in draws:
            subs.setdefault((dr["p"], dr["im"].hsi), []).append(dr)
        return list(subs.values()), s


# ---------------------------------------------------------------- loss (loss.Compute)


def band_mask(nbs, bmax, device):
    idx = torch.arange(bmax, device=device).view(1, -1)
    return (idx < torch.tensor(nbs, device=device).view(-1, 1)).float()  # N x Bmax


def sample_losses(y, hr, clean_lr, nbs, w):
    """Per-sample loss terms (N-vectors) and weighted totals, each sample over
    its own bands: Charbonnier, consistency (antialiased bicubic downsampling
    of y against the clean input), spectral angle (radians, float64),
    spectral curvature."""
    n, bmax, hh, ww = y.shape
    m = band_mask(nbs, bmax, y.device)
    mb = m.view(n, bmax, 1, 1)
    cnt = torch.tensor(nbs, device=y.device, dtype=torch.float64)
    d = y - hr
    charb = (torch.sqrt(d * d + CHARB_EPS2) * mb).double().sum((1, 2, 3)) / (cnt * hh * ww)
    parts = {"charbonnier": charb}
    total = charb
    if w["consistency"]:
        lh, lw = clean_lr.shape[2], clean_lr.shape[3]
        dd = M.downsample(y, lh, lw) - clean_lr
        cons = (torch.sqrt(dd * dd + CHARB_EPS2) * mb).double().sum((1, 2, 3)) / (cnt * lh * lw)
        parts["consistency"] = cons
        total = total + w["consistency"] * cons
    if w["angle"]:
        yd, td = y.double(), hr.double()
        dot = (yd * td).sum(1)
        n1 = torch.sqrt((yd * yd).sum(1)).clamp_min(NORM_EPS)
        n2 = torch.sqrt((td * td).sum(1)).clamp_min(NORM_EPS)
        cos = (dot / (n1 * n2)).clamp(-1 + ANGLE_CLIP, 1 - ANGLE_CLIP)
        ang = torch.acos(cos).mean((1, 2))
        parts["angle"] = ang
        total = total + w["angle"] * ang
    if w["curvature"]:
        sd = d[:, 2:] - 2 * d[:, 1:-1] + d[:, :-2] if bmax >= 3 else d[:, :0]
        cm = (torch.arange(max(bmax - 2, 0), device=y.device).view(1, -1) < (cnt - 2).view(-1, 1)).float()
        ccount = (cnt - 2).clamp_min(0) * hh * ww
        csum = (sd.abs() * cm.view(n, -1, 1, 1)).double().sum((1, 2, 3))
        curv = torch.where(ccount > 0, csum / ccount.clamp_min(1), torch.zeros_like(csum))
        parts["curvature"] = curv
        total = total + w["curvature"] * curv
    parts["total"] = total
    return parts


# ---------------------------------------------------------------- validation (train.Validate)


def psnr_sam(ref, est):
    """loss.Score: PSNR (dB) and SAM (degrees) of est clipped to [0, 1]
    against ref (1 x B x H x W), in float64 (metrics package rules)."""
    r, e = ref.double(), est.double().clamp(0, 1)
    mse = float(((r - e) ** 2).mean())
    psnr = float("inf") if mse == 0 else 10 * math.log10(1 / mse)
    dot = (r * e).sum(1)
    nr, ne = torch.sqrt((r * r).sum(1)), torch.sqrt((e * e).sum(1))
    keep = nr > 0
    cos = torch.where(ne > 0, dot / (nr * ne).clamp_min(1e-300), torch.zeros_like(dot)).clamp(-1 + 1e-6, 1 - 1e-6)
    ang = torch.rad2deg(torch.acos(cos))
    ang = torch.where(ne > 0, ang, torch.full_like(ang, 90.0))
    sam = float(ang[keep].mean()) if bool(keep.any()) else 0.0
    return psnr, sam


def validate(model, samples, noisy=False):
    """Mean PSNR, bicubic PSNR, gain, SAM, bicubic SAM over the samples."""
    v = {"psnr": 0.0, "bicubic_psnr": 0.0, "sam": 0.0, "bicubic_sam": 0.0}
    model.eval()
    with torch.no_grad():
        for s in samples:
            lr = s["noisy"] if noisy else s["lr"]
            hr = s["hr"]
            nf = None
            if model.film_inputs == 2:
                nf = M.noise_feature(lr[0], float(M.input_scale(lr)[0]))
            y = model(lr, hr.shape[2], hr.shape[3], nf=nf)
            b = M.bicubic(lr, hr.shape[2], hr.shape[3])
            p, a = psnr_sam(hr, y)
            pb, ab = psnr_sam(hr, b)
            v["psnr"] += p
            v["bicubic_psnr"] += pb
            v["sam"] += a
            v["bicubic_sam"] += ab
    model.train()
    for k in v:
        v[k] /= len(samples)
    v["gain"] = v["psnr"] - v["bicubic_psnr"]
    return v


# ---------------------------------------------------------------- trainer


class Trainer:
    def __init__(self, opt):
        self.o = opt
        dev = torch.device(opt.device)
        self.dev = dev
        t0 = time.time()
        self.nat, self.hsi, self.val, self.pack_index = P.load(opt.pack, dev)
        if opt.natural_only:
            self.hsi = []
        self.load_s = time.time() - t0
        self.sampler = Sampler(self.nat, self.hsi, opt, dev)
        os.makedirs(opt.out, exist_ok=True)
        self.ck = os.path.join(opt.out, "checkpoint.pt")
        self.init_lineage = None
        self.base_weights = None
        self.hist = []
        self.best = -math.inf
        self.step = 0
        self.wall = 0.0
        self.steps = opt.steps
        self.stop = False
        if opt.resume:
            st = torch.load(self.ck, map_location=dev, weights_only=False)
            self.m = M.OmniHSR(st["config"]).to(dev)
            self.m.load_state_dict(st["model"])
            self.adam = torch.optim.Adam(self.m.parameters(), lr=opt.lr, betas=(0.9, 0.999), eps=1e-8)
            self.adam.load_state_dict(st["adam"])
            self.step, self.wall, self.steps = st["step"], st["wall"], st["steps"]
            self.hist, self.best, self.init_lineage = st["history"], st["best"], st.get("init")
            self.rng = np.random.default_rng()
            self.rng.bit_generator.state = st["rng"]
            self.gen = torch.Generator(device=dev)
            self.gen.set_state(st["torch_rng"].cpu() if hasattr(st["torch_rng"], "cpu") else st["torch_rng"])
            if st["config"].get("noise_input", False) != bool(opt.noise_input):
                raise ValueError("train: resume %s: the checkpoint's noise input is %s, this run asks for %s" % (
                    self.ck, st["config"].get("noise_input", False), bool(opt.noise_input)))
            self.log("resumed %s at step %d of %d" % (self.ck, self.step, self.steps))
        else:
            torch.manual_seed(opt.seed)
            if opt.init:
                self.m, w = M.load_omw(opt.init, dev)
                if opt.noise_input and self.m.film_inputs == 1:
                    self.log("widening the FiLM input of %s by the noise feature (zero weights)" % opt.init)
                    self.m = M.with_noise_input(self.m)
                md = w.meta or {}
                self.init_lineage = {"file": opt.init, "steps": md.get("step", 0), "wall_seconds": md.get("wall_seconds", 0)}
                if md.get("init"):
                    self.init_lineage["init"] = md["init"]
                self.log("starting from the weights of %s" % opt.init)
            else:
                cfg = M.default_config()
                if opt.noise_input:
                    cfg["noise_input"] = True
                self.m = M.OmniHSR(cfg).to(dev)
            self.adam = torch.optim.Adam(self.m.parameters(), lr=opt.lr, betas=(0.9, 0.999), eps=1e-8)
            self.rng = np.random.default_rng(opt.seed)
            self.gen = torch.Generator(device=dev)
            self.gen.manual_seed(opt.seed)
        self.m.train()
        self.weights = {"consistency": opt.loss_consistency, "angle": opt.loss_angle, "curvature": opt.loss_curvature}

    def log(self, msg):
        print("train: " + msg, flush=True)

    def request_stop(self):
        """Stop after the current step (SIGTERM): the run saves as at its end."""
        self.stop = True

    def train_step(self):
        """One optimizer step over --batch samples; returns the mean loss parts and the gradient norm."""
        o = self.o
        self.adam.zero_grad(set_to_none=True)
        acc = {}
        left = o.batch
        while left > 0:
            n = min(o.group, left)
            left -= n
            subs, s = self.sampler.group(self.rng, n)
            for draws in subs:
                hr, lr, clean, nbs = self.sampler.make(draws, s, self.gen)
                nf = None
                if self.m.film_inputs == 2:
                    nf = [M.noise_feature(lr[k, :nbs[k]], float(M.input_scale(lr[k:k + 1, :nbs[k]])[0])) for k in range(len(draws))]
                y = self.m(lr, hr.shape[2], hr.shape[3], nf=nf, bands=nbs)
                parts = sample_losses(y, hr, clean, nbs, self.weights)
                loss = parts["total"].sum() / o.batch
                loss.backward()
                for k, v in parts.items():
                    acc[k] = acc.get(k, 0.0) + float(v.detach().sum()) / o.batch
        if not math.isfinite(acc["total"]):
            raise FloatingPointError("train: loss is %s at step %d; checkpoint left at the last good state" % (acc["total"], self.step))
        gn = float(torch.nn.utils.clip_grad_norm_(self.m.parameters(), o.clip if o.clip > 0 else float("inf")))
        lr = lr_at(self.step, self.steps, o.lr)
        for g in self.adam.param_groups:
            g["lr"] = lr
        self.adam.step()
        self.step += 1
        return acc, gn, lr

    def meta(self, val=None, extra=None):
        o = self.o
        md = {"trained": self.step > 0, "step": self.step, "steps": self.steps, "batch": o.batch, "patch": o.patch}
        if o.patch_min:
            md["patch_min"] = o.patch_min
        if self.init_lineage:
            md["init"] = self.init_lineage
        dev = torch.cuda.get_device_name(self.dev) if self.dev.type == "cuda" else platform.processor() or "cpu"
        md.update({"scales": [o.min_scale, o.max_scale], "hsi_prob": o.hsi_prob, "band_subset": o.band_subset,
                   "natural_only": bool(o.natural_only), "lr": o.lr,
                   "loss": {"Consistency": o.loss_consistency, "Angle": o.loss_angle, "Curvature": o.loss_curvature},
                   "seed": o.seed, "wall_seconds": round(self.wall),
                   "machine": "%s, %s, %d CPU cores" % (socket.gethostname(), dev, os.cpu_count() or 0),
                   "gemm": "pytorch %s (%s)" % (torch.__version__, self.dev.type),
                   "truncation": "%dx%d primitive neighbourhood" % (self.m.cfg["neighbourhood"], self.m.cfg["neighbourhood"]),
                   "params": sum(p.numel() for p in self.m.parameters())})
        if o.noise_prob > 0 or self.m.film_inputs == 2:
            md["noise"] = {"prob": o.noise_prob, "min": o.noise_min, "max": o.noise_max, "input": self.m.film_inputs == 2}
        if val is not None:
            md["val"] = val
        if self.hist:
            md["history"] = self.hist
        ex = {"trainer": "internal/train/torch", "group": o.group, "pack": os.path.basename(o.pack)}
        ex.update(extra or {})
        md["extra"] = ex
        return md

    def save_omw(self, path, val=None, extra=None):
        cfg = dict(self.m.cfg)
        cfg_json = omw.go_json(cfg)
        w = M.to_weights(self.m, config_json=cfg_json, meta_json=omw.go_json(self.meta(val, extra)))
        omw.write(path, w)

    def save_checkpoint(self):
        st = {"config": self.m.cfg, "model": self.m.state_dict(), "adam": self.adam.state_dict(), "step": self.step,
              "steps": self.steps, "wall": self.wall, "history": self.hist, "best": self.best, "init": self.init_lineage,
              "rng": self.rng.bit_generator.state, "torch_rng": self.gen.get_state(), "args": vars(self.o)}
        tmp = self.ck + ".tmp"
        torch.save(st, tmp)
        os.replace(tmp, self.ck)

    def run(self):
        o = self.o
        logp = os.path.join(o.out, "log.csv")
        new = self.step == 0 or not os.path.exists(logp)
        lf = open(logp, "a", newline="")
        wr = csv.writer(lf)
        noisy_val = self.m.film_inputs == 2 and all("noisy" in v for v in self.val)
        if new:
            head = ["step", "wall_s", "lr", "loss", "charbonnier", "consistency", "angle", "curvature", "grad_norm", "samples_per_s",
                    "val_psnr", "val_bicubic_psnr", "val_gain", "val_sam", "val_bicubic_sam"]
            if noisy_val:
                head += ["noisy_psnr", "noisy_bicubic_psnr", "noisy_gain", "noisy_sam", "noisy_bicubic_sam"]
            wr.writerow(head)
        start = time.time()
        wall0 = self.wall
        deadline = start + o.minutes * 60 if o.minutes > 0 else math.inf
        end = o.stop_at if o.stop_at else self.steps
        acc, accn = {}, 0
        last_ck = time.time()
        t_win, n_win = time.time(), 0
        rate = 0.0
        calibrated = not (o.minutes > 0 and o.fit_steps and self.step == 0)
        sync = (lambda: torch.cuda.synchronize(self.dev)) if self.dev.type == "cuda" else (lambda: None)
        stopped = "steps"
        while self.step < end:
            if time.time() >= deadline - o.reserve_s:
                stopped = "time"
                break
            if self.stop:
                stopped = "signal"
                break
            parts, gn, lr = self.train_step()
            self.wall = wall0 + time.time() - start
            n_win += o.batch
            for k, v in parts.items():
                acc[k] = acc.get(k, 0.0) + v
            accn += 1
            if not calibrated and self.step == min(5, o.calib_steps - 1):
                sync()
                t_cal = (self.step, time.time())  # after the first steps' warm-up (CUDA, allocator)
            if not calibrated and self.step == o.calib_steps:
                # Fit the schedule to the time left: steps = done + rate * remaining.
                sync()
                r = (self.step - t_cal[0]) / (time.time() - t_cal[1])
                left = deadline - o.reserve_s - time.time()
                self.steps = min(self.steps, self.step + int(r * left * 0.97))
                end = o.stop_at if o.stop_at else self.steps
                calibrated = True
                self.log("calibrated: %.2f steps/s (%.1f samples/s) -> %d steps in all" % (r, r * o.batch, self.steps))
            val_due = o.val_every > 0 and (self.step % o.val_every == 0 or self.step == end)
            if self.step % o.log_every == 0 or val_due or self.step == end:
                sync()
                now = time.time()
                rate = n_win / max(now - t_win, 1e-9)
                t_win, n_win = now, 0
                row = [self.step, "%.1f" % self.wall, "%.3g" % lr] + ["%.6f" % (acc.get(k, 0.0) / accn) for k in
                                                                       ("total", "charbonnier", "consistency", "angle", "curvature")]
                row += ["%.4f" % gn, "%.2f" % rate]
                msg = "step %d/%d loss %.5f lr %.3g %.2f samples/s" % (self.step, self.steps, acc["total"] / accn, lr, rate)
                if val_due:
                    v = validate(self.m, self.val)
                    v["step"] = self.step
                    row += ["%.4f" % v[k] for k in ("psnr", "bicubic_psnr", "gain", "sam", "bicubic_sam")]
                    score = v["gain"]
                    if noisy_val:
                        nv = validate(self.m, self.val, noisy=True)
                        nv["step"] = self.step
                        v["noisy"] = nv
                        row += ["%.4f" % nv[k] for k in ("psnr", "bicubic_psnr", "gain", "sam", "bicubic_sam")]
                        score += nv["gain"]
                    self.hist.append(v)
                    msg += "; val PSNR %.3f dB (bicubic %.3f, gain %+.3f), SAM %.3f (bicubic %.3f)" % (
                        v["psnr"], v["bicubic_psnr"], v["gain"], v["sam"], v["bicubic_sam"])
                    if score > self.best:
                        self.best = score
                        self.save_omw(os.path.join(o.out, "best.omw"), v)
                else:
                    row += [""] * (10 if noisy_val else 5)
                wr.writerow(row)
                lf.flush()
                self.log(msg)
                acc, accn = {}, 0
                t_win = time.time()  # validation time is not training time
            if o.checkpoint_minutes > 0 and time.time() - last_ck >= o.checkpoint_minutes * 60:
                self.save_checkpoint()
                last_ck = time.time()
        lf.close()
        self.save_checkpoint()
        last = self.hist[-1] if self.hist and self.hist[-1]["step"] == self.step else None
        if last is None and o.val_every > 0 and self.val:
            last = validate(self.m, self.val)
            last["step"] = self.step
        self.save_omw(os.path.join(o.out, "last.omw"), last, {"samples_per_s": round(rate, 2)})
        run = {"stopped_by": stopped, "step": self.step, "steps": self.steps, "wall_s": round(self.wall, 1),
               "samples_per_s_last": round(rate, 2), "samples_per_s_mean": round(self.step * o.batch / max(self.wall, 1e-9), 2),
               "pack_load_s": round(self.load_s, 1), "device": str(self.dev),
               "device_name": torch.cuda.get_device_name(self.dev) if self.dev.type == "cuda" else platform.processor(),
               "torch": torch.__version__, "python": platform.python_version(), "host": socket.gethostname(),
               "threads": torch.get_num_threads(), "args": vars(o), "best_score": self.best if math.isfinite(self.best) else None,
               "last_val": last, "pack_natural_side": self.pack_index.get("natural_side")}
        if self.dev.type == "cuda":
            run["max_memory_allocated_gib"] = round(torch.cuda.max_memory_allocated(self.dev) / 2**30, 2)
        with open(os.path.join(o.out, "run.json"), "w") as f:
            json.dump(run, f, indent=1)
        self.log("stopped at step %d of %d (%s) after %.0f s; %.2f samples/s" % (self.step, self.steps, stopped, self.wall, rate))
        return run


def golden_check(device):
    """The largest difference between this device's forward pass of the
    shipped weights and the Go goldens (testdata/): the equivalence check
    on the training device (float32, TF32 off)."""
    d = os.path.join(HERE, "testdata")
    with open(os.path.join(d, "manifest.json")) as f:
        cases = json.load(f)
    root = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
    models, worst = {}, 0.0
    for c in cases:
        if c["weights"] not in models:
            models[c["weights"]] = M.load_omw(os.path.join(root, c["weights"]), device)[0].eval()
        m = models[c["weights"]]

        def gold(s, ch, big):
            h, w = (c["out_h"], c["out_w"]) if big else (c["h"], c["w"])
            a = np.fromfile(os.path.join(d, "%s.%s.f32" % (c["name"], s)), dtype="<f4").reshape(h, w, ch)
            return torch.from_numpy(a.transpose(2, 0, 1).copy()).unsqueeze(0).to(device)

        with torch.no_grad():
            y = m(gold("lr", c["b"], False), c["out_h"], c["out_w"], nf=c["noise_feature"] if m.film_inputs == 2 else None)
        worst = max(worst, float((y - gold("out", c["b"], True)).abs().max()))
    return worst


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pack", required=True, help="training pack (pack.py)")
    ap.add_argument("--out", required=True, help="run directory")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--init", default="", help="start from these weights (.omw or Go .ckpt): fine-tuning, fresh optimizer")
    ap.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    ap.add_argument("--steps", type=int, default=20000, help="the schedule's length (with --minutes: at most)")
    ap.add_argument("--stop-at", type=int, default=0, help="end after this step, keeping the schedule of --steps")
    ap.add_argument("--minutes", type=float, default=0, help="wall-time budget of this call (0 = none)")
    ap.add_argument("--fit-steps", type=int, default=1, help="with --minutes: fit --steps to the measured speed after --calib-steps")
    ap.add_argument("--calib-steps", type=int, default=30, help="steps after which --fit-steps measures the speed (from step 5 on)")
    ap.add_argument("--reserve-s", type=float, default=20, help="seconds kept for the final validation and saves")
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--group", type=int, default=1, help="samples per batched forward pass (sharing factor and patch side)")
    ap.add_argument("--lr", type=float, default=2e-4)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--patch", type=int, default=96)
    ap.add_argument("--patch-min", type=int, default=0)
    ap.add_argument("--min-scale", type=float, default=1.5)
    ap.add_argument("--max-scale", type=float, default=8)
    ap.add_argument("--hsi-prob", type=float, default=0.3)
    ap.add_argument("--band-subset", type=float, default=0.5)
    ap.add_argument("--natural-only", action="store_true")
    ap.add_argument("--noise-prob", type=float, default=0)
    ap.add_argument("--noise-min", type=float, default=0.002)
    ap.add_argument("--noise-max", type=float, default=0.06)
    ap.add_argument("--noise-input", action="store_true")
    ap.add_argument("--loss-consistency", type=float, default=0.1)
    ap.add_argument("--loss-angle", type=float, default=0.1)
    ap.add_argument("--loss-curvature", type=float, default=0.05)
    ap.add_argument("--clip", type=float, default=1)
    ap.add_argument("--val-every", type=int, default=500)
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--checkpoint-minutes", type=float, default=2)
    ap.add_argument("--threads", type=int, default=0, help="CPU threads for torch (0 = torch's default)")
    ap.add_argument("--golden-check", type=int, default=-1,
                    help="check the forward pass against the Go goldens on the device first and stop if it is off by more than 1e-5 (-1: on a GPU only)")
    o = ap.parse_args(argv)
    if o.steps < 1 or o.batch < 1 or o.group < 1:
        ap.error("--steps, --batch and --group must be positive")
    if o.calib_steps < 2:
        ap.error("--calib-steps must be at least 2")
    if o.stop_at < 0 or o.stop_at > o.steps:
        ap.error("--stop-at must be 0 (the end) to --steps")
    if not (0 < o.min_scale <= o.max_scale):
        ap.error("need 0 < --min-scale <= --max-scale")
    return o


def main(argv=None):
    o = parse(argv)
    if o.threads > 0:
        torch.set_num_threads(o.threads)
    if o.device.startswith("cuda"):
        # Full float32 everywhere: TF32 would break the 1e-5 equivalence with Go.
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    if o.golden_check == 1 or (o.golden_check < 0 and o.device.startswith("cuda")):
        t0 = time.time()
        worst = golden_check(torch.device(o.device))
        print("train: golden check on %s: largest difference from the Go forward pass %.2e (%.1f s)" % (o.device, worst, time.time() - t0), flush=True)
        if not worst <= 1e-5:
            print("train: the forward pass on this device differs from Go by more than 1e-5; not training", file=sys.stderr)
            return 3
        o.golden_max_diff = worst
    t = Trainer(o)
    signal.signal(signal.SIGTERM, lambda *_: t.request_stop())
    t.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
