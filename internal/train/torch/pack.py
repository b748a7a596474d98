"""The training pack: the Go trainer's data, compressed to travel to a GPU
machine (at most 64 MiB per call together with the working tree).

Build (needs Go and ../shared/data; reads hsi/train and rgb only, never
hsi/eval):

    python3 internal/train/torch/pack.py --out internal/train/torch/pack/pack.zip

It runs `go run ./scripts/torchpack`, which exports the data exactly as the
Go trainer reads it (train.LoadDataset's listing, hold-out rules and
normalisation codes), then writes one zip file:

- pack.json: the index (images, validation samples, how the pack was made);
- the 18 hyperspectral training scenes' training rows (top 75 %) in full:
  integer codes with a spectral delta filter, or float32 byte planes;
- the 40 fixed validation samples (high-res patch, the Go trainer's low-res
  input and its noisy input), float32 byte planes;
- one crop of every natural training image (588 images), its side chosen so
  that the pack fits --budget-mib (the crop position is seeded), uint8 codes
  with a horizontal delta filter.

Every member is LZMA-compressed in the zip. Codes decode to the Go trainer's
values bit for bit: float32(code) * inv.

`load(path, device)` reads a pack for train.py.
"""

import argparse
import io
import json
import lzma
import math
import os
import subprocess
import sys
import tempfile
import time
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
PACK_VERSION = 1


# ---------------------------------------------------------------- filters


def encode_array(a, kind):
    """Filtered bytes of array a (H x W x B): "nat" uint8 codes, horizontal
    delta mod 256; "u2" uint16 codes, spectral delta mod 65536; "f4" float32,
    byte planes."""
    if kind == "nat":
        d = np.diff(a.astype(np.int16), axis=1, prepend=0).astype(np.uint8)
        return d.tobytes()
    if kind == "u2":
        d = np.diff(a.astype(np.int32), axis=2, prepend=0).astype(np.uint16)
        return d.tobytes()
    if kind == "f4":
        return np.ascontiguousarray(a, dtype="<f4").view(np.uint8).reshape(-1, 4).T.tobytes()
    raise ValueError("pack: unknown kind %r" % kind)


def decode_array(b, kind, shape):
    """The inverse of encode_array."""
    if kind == "nat":
        d = np.frombuffer(b, dtype=np.uint8).reshape(shape)
        return np.cumsum(d, axis=1, dtype=np.uint8)
    if kind == "u2":
        d = np.frombuffer(b, dtype="<u2").reshape(shape)
        return np.cumsum(d, axis=2, dtype=np.uint16)
    if kind == "f4":
        n = int(np.prod(shape))
        planes = np.frombuffer(b, dtype=np.uint8).reshape(4, n)
        return planes.T.copy().view("<f4").reshape(shape)
    raise ValueError("pack: unknown kind %r" % kind)


# ---------------------------------------------------------------- build


def _read_export(d, name, dtype, shape):
    a = np.fromfile(os.path.join(d, name), dtype=dtype)
    if a.size != int(np.prod(shape)):
        raise ValueError("pack: %s holds %d values, the index says %r" % (name, a.size, shape))
    return a.reshape(shape)


def _lzma_size(b):
    return len(lzma.compress(b, preset=6))


def build(export_dir, out, budget_mib=46.0, side=0, seed=2026, log=print):
    """Write the pack from a torchpack export directory. side 0 chooses the
    natural crop side to fit budget_mib."""
    with open(os.path.join(export_dir, "index.json")) as f:
        idx = json.load(f)
    for im in idx["hsi"]:
        if "eval" in os.path.normpath(im["name"]).split(os.sep):
            raise ValueError("pack: %s looks like an evaluation scene" % im["name"])
    rng = np.random.default_rng(seed)
    index = {"version": PACK_VERSION, "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
             "source": {"rgb_dir": idx["rgb_dir"], "scenes_tsv": idx["scenes_tsv"], "options": idx["options"],
                        "held_out_natural": idx["held_out_natural"]},
             "natural": [], "hsi": [], "val": []}
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".tmp"
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_LZMA) as z:
            for k, im in enumerate(idx["hsi"]):
                a = _read_export(export_dir, im["file"], "<" + im["dtype"], (im["h"], im["w"], im["b"]))
                kind = "u2" if im["dtype"] in ("u1", "u2") else "f4"
                if im["dtype"] == "u1":
                    a = a.astype(np.uint16)
                key = "hsi/%02d.%s" % (k, kind)
                z.writestr(key, encode_array(a, kind))
                index["hsi"].append({"name": im["name"], "h": im["h"], "w": im["w"], "b": im["b"], "train_rows": im["h"],
                                     "full_h": im["full_h"], "kind": kind, "inv": im["inv"], "key": key})
            log("pack: %d scenes, %.1f MiB compressed" % (len(index["hsi"]), z.fp.tell() / 2**20))
            for k, v in enumerate(idx["val"]):
                e = {"name": v["name"], "scale": v["scale"], "hr": v["hr"], "lr": v["lr"], "noise": v.get("noise", "")}
                for part, fname, shape in (("hr", v["hr_file"], v["hr"]), ("lr", v["lr_file"], v["lr"]),
                                           ("noisy", v.get("noisy_file"), v["lr"])):
                    if not fname:
                        continue
                    key = "val/%02d.%s.f4" % (k, part)
                    z.writestr(key, encode_array(_read_export(export_dir, fname, "<f4", shape), "f4"))
                    e[part + "_key"] = key
                index["val"].append(e)
            fixed = z.fp.tell()
            log("pack: and %d validation samples, %.1f MiB compressed" % (len(index["val"]), fixed / 2**20))
            nat = idx["natural"]
            room = budget_mib * 2**20 - fixed - min(512 * 1024, 0.02 * budget_mib * 2**20)  # the index and the zip directory
            if room <= 0:
                raise ValueError("pack: the scenes and validation samples alone take %.2f MiB of the budget of %.2f MiB" % (fixed / 2**20, budget_mib))
            u = rng.random((len(nat), 2))  # one crop position per image, whatever the side

            def crop(k, s):
                im = nat[k]
                if im["dtype"] != "u1":
                    raise ValueError("pack: natural image %s is not 8-bit (%s); not supported" % (im["name"], im["dtype"]))
                a = _read_export(export_dir, im["file"], "<u1", (im["h"], im["w"], im["b"]))
                ch, cw = min(s, im["h"]), min(s, im["w"])
                y0 = int(u[k, 0] * (im["h"] - ch + 1))
                x0 = int(u[k, 1] * (im["w"] - cw + 1))
                return a[y0:y0 + ch, x0:x0 + cw], y0, x0

            if side <= 0:
                # Compressed bytes per value, measured on every 25th image at side 192.
                px = cb = 0
                for k in range(0, len(nat), 25):
                    a, _, _ = crop(k, 192)
                    px += a.size
                    cb += _lzma_size(encode_array(a, "nat"))
                per = cb / px * 1.04  # margin
                lo, hi = 16, 4096  # the largest side whose total fits (image sizes clip the crops)
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if sum(min(mid, im["h"]) * min(mid, im["w"]) * im["b"] for im in nat) * per <= room:
                        lo = mid
                    else:
                        hi = mid - 1
                side = lo
                log("pack: natural crops of side %d (%.2f bytes per value)" % (side, per))
            nb = 0
            for k, im in enumerate(nat):
                a, y0, x0 = crop(k, side)
                key = "nat/%04d.u1" % k
                z.writestr(key, encode_array(a, "nat"))
                nb += a.size
                index["natural"].append({"name": im["name"], "h": a.shape[0], "w": a.shape[1], "b": a.shape[2],
                                         "train_rows": a.shape[0], "crop": [y0, x0], "full": [im["h"], im["w"]],
                                         "kind": "nat", "inv": im["inv"], "key": key})
            index["natural_side"] = side
            index["seed"] = seed
            index["budget_mib"] = budget_mib
            z.writestr("pack.json", json.dumps(index, indent=1))
        size = os.path.getsize(tmp)
        if size > budget_mib * 2**20:
            raise ValueError("pack: %.1f MiB exceeds the budget of %.1f MiB; pass a smaller --side" % (size / 2**20, budget_mib))
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    log("pack: %s: %.1f MiB (%d natural crops, %.1f MiB of natural values)" % (out, size / 2**20, len(nat), nb / 2**20))
    return index


# ---------------------------------------------------------------- load


class Image:
    """One training image: values = float32(codes) * inv (H x W x B codes as
    a torch tensor, uint8 for natural images, float32 values for scenes)."""

    def __init__(self, name, hsi, data, inv, train_rows):
        self.name, self.hsi, self.data, self.inv, self.train_rows = name, hsi, data, inv, train_rows

    @property
    def shape(self):
        return tuple(self.data.shape)  # B x H x W

    def crop(self, y0, x0, h, w):
        """Normalised float32 values of a window, B x h x w."""
        import torch

        c = self.data[:, y0:y0 + h, x0:x0 + w]
        if c.dtype == torch.uint8:
            return c.float() * self.inv
        return c


def load(path, device="cpu"):
    """Read a pack: (natural images, scenes, validation samples, index).
    Images are on device (natural ones as uint8 codes); validation samples
    are dicts with hr, lr, noisy (1 x B x h x w float32 on device), name,
    scale."""
    import torch

    with zipfile.ZipFile(path) as z:
        index = json.loads(z.read("pack.json"))
        if index.get("version") != PACK_VERSION:
            raise ValueError("pack: %s: version %r, this program reads %d" % (path, index.get("version"), PACK_VERSION))

        def arr(e, key, shape, kind):
            return decode_array(z.read(e[key]), kind, shape)

        nat, hs, val = [], [], []
        for e in index["natural"]:
            a = arr(e, "key", (e["h"], e["w"], e["b"]), "nat")
            t = torch.from_numpy(a.transpose(2, 0, 1).copy()).to(device)
            nat.append(Image(e["name"], False, t, np.float32(e["inv"]), e["train_rows"]))
        for e in index["hsi"]:
            a = arr(e, "key", (e["h"], e["w"], e["b"]), e["kind"])
            if e["kind"] == "u2":
                a = a.astype(np.float32) * np.float32(e["inv"])
            t = torch.from_numpy(np.ascontiguousarray(a.transpose(2, 0, 1))).to(device)
            hs.append(Image(e["name"], True, t, np.float32(1), e["train_rows"]))
        for e in index["val"]:
            v = {"name": e["name"], "scale": e["scale"], "noise": e.get("noise", "")}
            for part, shape in (("hr", e["hr"]), ("lr", e["lr"]), ("noisy", e["lr"])):
                if part + "_key" in e:
                    a = arr(e, part + "_key", tuple(shape), "f4")
                    v[part] = torch.from_numpy(a.transpose(2, 0, 1).copy()).unsqueeze(0).to(device)
            val.append(v)
    return nat, hs, val, index


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(HERE, "pack", "pack.zip"), help="pack file to write")
    ap.add_argument("--export", default="", help="an existing torchpack export directory (default: run go run ./scripts/torchpack)")
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"), help="the shared directory holding data/")
    ap.add_argument("--budget-mib", type=float, default=46.0,
                    help="largest pack size (MiB); the working tree (about 15 MiB) travels with it within the 64 MiB a call carries")
    ap.add_argument("--side", type=int, default=0, help="natural crop side (0: the largest that fits the budget)")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args(argv)
    t0 = time.time()
    if a.export:
        build(a.export, a.out, a.budget_mib, a.side, a.seed)
    else:
        with tempfile.TemporaryDirectory(prefix="torchpack-") as d:
            cmd = ["go", "run", "./scripts/torchpack", "-shared", a.shared, "-out", d]
            print("pack: " + " ".join(cmd), flush=True)
            subprocess.run(cmd, cwd=ROOT, check=True)
            build(d, a.out, a.budget_mib, a.side, a.seed)
    print("pack: done in %.0f s" % (time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
