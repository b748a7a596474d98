"""The pack and the trainer on a tiny synthetic export: a few-step CPU smoke
run (the CI check), resume, the noise-aware companion, and the masked loss
of band-padded groups. Run: cd internal/train/torch && python3 -m pytest -q"""

import json
import math
import os

import numpy as np
import pytest
import torch

import model as M
import omw
import pack as P
import train as T


def make_export(d, rng):
    """A torchpack-like export: 3 natural images (RGB, grey), 2 scenes (uint16
    codes, float32 values) and 2 validation samples."""
    idx = {"version": 1, "options": {}, "rgb_dir": "synthetic", "scenes_tsv": "synthetic", "held_out_natural": [],
           "natural": [], "hsi": [], "val": []}
    for k, (h, w, b) in enumerate([(40, 44, 3), (36, 50, 1), (45, 40, 3)]):
        a = rng.integers(0, 256, (h, w, b), dtype=np.uint8)
        f = "nat%04d.u1" % k
        a.tofile(os.path.join(d, f))
        idx["natural"].append({"name": "n%d.png" % k, "hsi": False, "h": h, "w": w, "b": b, "full_h": h, "dtype": "u1",
                               "inv": float(np.float32(1) / np.float32(a.max())), "file": f})
    a = rng.integers(0, 4000, (27, 30, 20), dtype=np.uint16)
    a.tofile(os.path.join(d, "hsi00.u2"))
    idx["hsi"].append({"name": "s0", "hsi": True, "h": 27, "w": 30, "b": 20, "full_h": 36, "dtype": "u2",
                       "inv": float(np.float32(1) / np.float32(a.max())), "file": "hsi00.u2"})
    f = rng.random((24, 26, 9), dtype=np.float32)
    f.tofile(os.path.join(d, "hsi01.f4"))
    idx["hsi"].append({"name": "s1", "hsi": True, "h": 24, "w": 26, "b": 9, "full_h": 32, "dtype": "f4", "inv": 1, "file": "hsi01.f4"})
    for k, (p, b, s) in enumerate([(24, 3, 2.0), (16, 20, 4.0)]):
        hr = rng.random((p, p, b), dtype=np.float32)
        l = int(p / s)
        lr = torch.nn.functional.interpolate(torch.from_numpy(hr.transpose(2, 0, 1).copy())[None], size=(l, l), mode="bicubic",
                                             align_corners=False, antialias=True)[0].numpy().transpose(1, 2, 0).copy()
        noisy = (lr + 0.02 * rng.standard_normal(lr.shape)).astype(np.float32)
        for part, arr in (("hr", hr), ("lr", lr), ("noisy", noisy)):
            arr.astype("<f4").tofile(os.path.join(d, "val%02d.%s.f4" % (k, part)))
        idx["val"].append({"name": "v%d" % k, "scale": s, "hr": [p, p, b], "lr": [l, l, b], "hr_file": "val%02d.hr.f4" % k,
                           "lr_file": "val%02d.lr.f4" % k, "noisy_file": "val%02d.noisy.f4" % k, "noise": "white (sigma 0.02)"})
    with open(os.path.join(d, "index.json"), "w") as fh:
        json.dump(idx, fh)
    return idx


@pytest.fixture(scope="module")
def tiny_pack(tmp_path_factory):
    d = tmp_path_factory.mktemp("export")
    idx = make_export(str(d), np.random.default_rng(1))
    out = str(d / "pack.zip")
    P.build(str(d), out, budget_mib=1.0, side=32, log=lambda *_: None)
    return out, idx, str(d)


def test_pack_round_trip(tiny_pack):
    out, idx, d = tiny_pack
    nat, hs, val, index = P.load(out)
    assert len(nat) == 3 and len(hs) == 2 and len(val) == 2
    assert index["natural_side"] == 32
    # Natural crops: the export's codes times inv, bit for bit.
    for e, im, src in zip(index["natural"], nat, idx["natural"]):
        a = np.fromfile(os.path.join(d, src["file"]), dtype=np.uint8).reshape(src["h"], src["w"], src["b"])
        y0, x0 = e["crop"]
        want = a[y0:y0 + e["h"], x0:x0 + e["w"]].astype(np.float32) * np.float32(src["inv"])
        got = im.crop(0, 0, e["h"], e["w"]).numpy().transpose(1, 2, 0)
        assert e["h"] == min(32, src["h"]) and e["w"] == min(32, src["w"])
        assert np.array_equal(got, want)
    for im, src in zip(hs, idx["hsi"]):
        a = np.fromfile(os.path.join(d, src["file"]), dtype="<" + src["dtype"]).reshape(src["h"], src["w"], src["b"])
        if src["dtype"] == "u2":
            a = a.astype(np.float32) * np.float32(src["inv"])
        assert np.array_equal(im.crop(0, 0, src["h"], src["w"]).numpy().transpose(1, 2, 0), a)
    for v, src in zip(val, idx["val"]):
        hr = np.fromfile(os.path.join(d, src["hr_file"]), dtype="<f4").reshape(src["hr"])
        assert np.array_equal(v["hr"][0].numpy().transpose(1, 2, 0), hr)
        assert v["noisy"].shape == v["lr"].shape


def test_pack_over_budget_fails(tiny_pack, tmp_path):
    _, _, d = tiny_pack
    with pytest.raises(ValueError, match="budget"):
        P.build(d, str(tmp_path / "p.zip"), budget_mib=0.05, side=32, log=lambda *_: None)
    assert not os.path.exists(tmp_path / "p.zip")


def test_filters_invert():
    rng = np.random.default_rng(2)
    a = rng.integers(0, 256, (5, 7, 3), dtype=np.uint8)
    assert np.array_equal(P.decode_array(P.encode_array(a, "nat"), "nat", a.shape), a)
    b = rng.integers(0, 65536, (4, 6, 9), dtype=np.uint16)
    assert np.array_equal(P.decode_array(P.encode_array(b, "u2"), "u2", b.shape), b)
    c = rng.standard_normal((3, 4, 5)).astype(np.float32)
    assert np.array_equal(P.decode_array(P.encode_array(c, "f4"), "f4", c.shape), c)


def test_masked_loss_equals_unpadded():
    torch.manual_seed(3)
    w = {"consistency": 0.1, "angle": 0.1, "curvature": 0.05}
    y = torch.rand(2, 7, 12, 12)
    hr = torch.rand(2, 7, 12, 12)
    lr = torch.rand(2, 7, 4, 4)
    nbs = [7, 4]
    y[1, 4:], hr[1, 4:], lr[1, 4:] = 0, 0, 0
    parts = T.sample_losses(y, hr, lr, nbs, w)
    solo = T.sample_losses(y[1:, :4], hr[1:, :4], lr[1:, :4], [4], w)
    for k in parts:
        assert float(parts[k][1]) == pytest.approx(float(solo[k][0]), rel=1e-6, abs=1e-9)
    # The terms as defined: Charbonnier of a known difference.
    z = torch.zeros(1, 3, 4, 4)
    p = T.sample_losses(z + 0.5, z, torch.zeros(1, 3, 2, 2), [3], {"consistency": 0, "angle": 0, "curvature": 0})
    assert float(p["charbonnier"][0]) == pytest.approx(math.sqrt(0.25 + 1e-6), rel=1e-6)


def test_schedule_and_sizes():
    assert [T.lr_at(s, 100, 1.0) for s in (0, 29, 30, 59, 60, 80, 99)] == [1, 1, 0.5, 0.5, 0.25, 0.125, 0.125]
    assert T.out_size(96, 8) == 12 and T.out_size(5, 2) == 3 and T.out_size(7, 2) == 4


def test_dihedral_is_a_group_of_8():
    x = torch.arange(12.0).view(1, 3, 4)
    outs = {tuple(T.dihedral(x, d).flatten().tolist()) + tuple(T.dihedral(x, d).shape) for d in range(8)}
    assert len(outs) == 8
    assert torch.equal(T.dihedral(x, 0), x)


def run_train(pack, out, *extra):
    args = ["--pack", pack, "--out", out, "--device", "cpu", "--steps", "3", "--batch", "3", "--group", "2", "--patch", "24",
            "--patch-min", "16", "--val-every", "3", "--log-every", "1", "--hsi-prob", "0.5", "--threads", "1"] + list(extra)
    return T.main(args)


def test_smoke_train_resume_and_omw(tiny_pack, tmp_path):
    """A 3-step run from scratch: losses finite, weights move, .omw files a
    Go model reads (config, tensors), and --stop-at 2 + --resume give the
    same weights as the straight run."""
    pack = tiny_pack[0]
    out = str(tmp_path / "run")
    assert run_train(pack, out) == 0
    for f in ("checkpoint.pt", "last.omw", "best.omw", "log.csv", "run.json"):
        assert os.path.exists(os.path.join(out, f)), f
    with open(os.path.join(out, "log.csv")) as fh:
        rows = list(fh)
    assert len(rows) == 4 and rows[0].startswith("step,wall_s,lr,loss")
    assert all(math.isfinite(float(r.split(",")[3])) for r in rows[1:])
    w = omw.read(os.path.join(out, "last.omw"))
    assert w.kind == "weights" and w.config["m"] == 31
    md = w.meta
    assert md["step"] == 3 and md["trained"] and md["val"]["step"] == 3 and md["extra"]["trainer"] == "internal/train/torch"
    m, _ = M.load_omw(w)
    fresh = M.OmniHSR()
    assert not torch.equal(m.operator.weight, fresh.operator.weight)  # the zero-initialised layer moved
    # Resume: 2 steps, then 1 more.
    out2 = str(tmp_path / "run2")
    assert run_train(pack, out2, "--stop-at", "2") == 0
    assert omw.read(os.path.join(out2, "last.omw")).meta["step"] == 2
    assert run_train(pack, out2, "--resume") == 0
    a = omw.read(os.path.join(out, "last.omw")).params()
    b = omw.read(os.path.join(out2, "last.omw")).params()
    for k in a:
        assert np.allclose(a[k][1], b[k][1], atol=1e-6), k


def test_smoke_noise_companion_from_shipped_weights(tiny_pack, tmp_path):
    pack = tiny_pack[0]
    root = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    out = str(tmp_path / "noise")
    assert run_train(pack, out, "--init", os.path.join(root, "internal", "model", "weights", "default.omw"), "--noise-input",
                     "--noise-prob", "1", "--lr", "5e-5", "--steps", "2") == 0
    w = omw.read(os.path.join(out, "last.omw"))
    assert w.config["noise_input"] is True
    assert w.tensors["film.0.weight"][0] == (64, 1, 1, 2)
    md = w.meta
    assert md["noise"]["input"] and md["init"]["file"].endswith("default.omw") and md["init"]["steps"] > 0
    assert "noisy" in md["val"]
    with open(os.path.join(out, "log.csv")) as fh:
        assert "noisy_gain" in fh.readline()


def test_noise_models_match_levels():
    """The noise draws have their level: white noise of sigma on a flat cube
    is estimated near sigma by the noise estimator."""
    rng = np.random.default_rng(5)
    gen = torch.Generator().manual_seed(5)
    x = torch.full((12, 40, 40), 0.5)
    y = T.add_noise(x, {"kind": "white", "sigma": 0.02}, gen)
    est = M.noise_bands(y)
    assert float(est.mean()) == pytest.approx(0.02, rel=0.1)
    kinds = {T.draw_noise(rng, 12, 0.002, 0.06)["kind"] for _ in range(200)}
    assert kinds == {"white", "signal", "profile", "stripes"}
    for kind in ("signal", "profile", "stripes"):
        sp = next(s for s in (T.draw_noise(rng, 12, 0.01, 0.01) for _ in range(500)) if s["kind"] == kind)
        d = T.add_noise(x, sp, gen) - x
        assert 0.003 < float(d.std()) < 0.05, kind
