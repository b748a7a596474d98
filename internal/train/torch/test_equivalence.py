"""The PyTorch model against the Go model on the committed goldens
(testdata/, written by `go run ./scripts/torchgolden`), and the .omw
round trip. Run: cd internal/train/torch && python3 -m pytest -q"""

import json
import math
import os

import numpy as np
import pytest
import torch

import model as M
import omw

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DATA = os.path.join(HERE, "testdata")
TOL = 1e-5

with open(os.path.join(DATA, "manifest.json")) as f:
    CASES = json.load(f)


def golden(case, suffix, chans):
    """A golden array as a 1 x C x H x W tensor (the files are H x W x C)."""
    big = suffix in ("bicubic", "out")
    h, w = (case["out_h"], case["out_w"]) if big else (case["h"], case["w"])
    a = np.fromfile(os.path.join(DATA, "%s.%s.f32" % (case["name"], suffix)), dtype="<f4")
    assert a.size == h * w * chans, (case["name"], suffix, a.size)
    return torch.from_numpy(a.reshape(h, w, chans).transpose(2, 0, 1).copy()).unsqueeze(0)


_models = {}


def load(case):
    if case["weights"] not in _models:
        _models[case["weights"]] = M.load_omw(os.path.join(ROOT, case["weights"]))[0].eval()
    return _models[case["weights"]]


def maxdiff(a, b):
    assert a.shape == b.shape, (a.shape, b.shape)
    return float((a.double() - b.double()).abs().max())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_forward_matches_go(case):
    m = load(case)
    b, mm, c = case["b"], case["m"], case["c"]
    x = golden(case, "lr", b)
    with torch.no_grad():
        # Network input: C_B and the input scale.
        z, sc = m.network_input(x)
        assert float(sc[0]) == pytest.approx(case["input_scale"], rel=1e-7)
        assert maxdiff(z, golden(case, "z", mm)) <= TOL
        # Encoder, on the Go input (each stage checked on its own).
        feat = m.encoder(golden(case, "z", mm))
        gf = golden(case, "feat", c)
        assert maxdiff(feat, gf) <= TOL * max(1.0, float(gf.abs().max()))
        # FiLM and head at the case's factor and noise feature.
        s = M.effective_factor(case["h"], case["w"], case["out_h"], case["out_w"])
        assert s == case["factor"]
        raw = m.head_raw(gf, s, case["noise_feature"])
        gr = golden(case, "raw", M.RAW_CHANS)
        assert maxdiff(raw, gr) <= TOL * max(1.0, float(gr.abs().max()))
        # Bicubic U_s X.
        assert maxdiff(M.bicubic(x, case["out_h"], case["out_w"]), golden(case, "bicubic", b)) <= TOL
        # COFR on the Go head output, then the whole forward pass from the input.
        y_go = golden(case, "out", b)
        y = M.render(x, M.primitives(gr), case["out_h"], case["out_w"], m.cfg["neighbourhood"])
        assert maxdiff(y, y_go) <= TOL
        nf = case["noise_feature"] if m.film_inputs == 2 else None
        y = m(x, case["out_h"], case["out_w"], nf=nf)
        assert maxdiff(y, y_go) <= TOL
        # The field is not zero: the test checks more than bicubic.
        assert maxdiff(y_go, golden(case, "bicubic", b)) > 1e-3


def test_noise_feature_matches_go():
    cases = [c for c in CASES if c["noise_feature"] > 0]
    assert cases
    for case in cases:
        x = golden(case, "lr", case["b"])
        sc = M.input_scale(x)
        nf = M.noise_feature(x[0], float(sc[0]))
        assert nf == pytest.approx(case["noise_feature"], abs=1e-6)


def test_forward_float64_and_batched():
    """A batch of two inputs gives each one's output; float64 stays within TOL of Go."""
    case = CASES[0]
    m = load(case)
    x = golden(case, "lr", case["b"])
    with torch.no_grad():
        y1 = m(x, case["out_h"], case["out_w"])
        y2 = m(torch.cat([x, x.flip(3)]), case["out_h"], case["out_w"])
        assert maxdiff(y2[:1], y1) <= 1e-6
        m64 = M.OmniHSR(m.cfg).double()
        m64.load_state_dict({k: v.double() for k, v in m.state_dict().items()})
        y64 = m64(x.double(), case["out_h"], case["out_w"])
        assert maxdiff(y64, golden(case, "out", case["b"])) <= TOL


def test_padded_bands_match_unpadded():
    """Samples with fewer bands than the batch, zero-padded, give their own output."""
    case = CASES[0]
    m = load(case)
    x = golden(case, "lr", case["b"])
    xp = torch.cat([x, torch.zeros(1, 4, case["h"], case["w"])], 1)
    with torch.no_grad():
        y = m(x, case["out_h"], case["out_w"])
        yp = m(xp, case["out_h"], case["out_w"], bands=[case["b"]])
    assert maxdiff(yp[:, :case["b"]], y) <= 1e-6
    assert float(yp[:, case["b"]:].abs().max()) == 0


@pytest.mark.parametrize("name", ["default.omw", "noise.omw"])
def test_omw_round_trip_bit_exact(name, tmp_path):
    path = os.path.join(ROOT, "internal", "model", "weights", name)
    with open(path, "rb") as f:
        data = f.read()
    w = omw.decode(data, path)
    assert omw.encode(w) == data
    # Through a PyTorch model and back.
    m, _ = M.load_omw(w)
    back = M.to_weights(m, base=w)
    assert list(back.tensors) == list(w.tensors)
    out = tmp_path / name
    omw.write(str(out), back)
    assert out.read_bytes() == data


def test_omw_rejects_corruption():
    path = os.path.join(ROOT, "internal", "model", "weights", "default.omw")
    with open(path, "rb") as f:
        data = bytearray(f.read())
    bad = bytearray(data)
    bad[len(bad) // 2] ^= 1
    with pytest.raises(omw.FormatError, match="checksum"):
        omw.decode(bytes(bad))
    with pytest.raises(omw.FormatError, match="magic"):
        omw.decode(b"notanomw" + bytes(data[8:]))
    with pytest.raises(omw.FormatError, match="truncated"):
        omw.decode(bytes(data[:-10]))


def test_crc32c_known_value():
    # The check value of CRC-32C (RFC 3720): "123456789" -> e3069283.
    assert omw.crc32c(b"123456789") == 0xE3069283
    assert omw.crc32c(b"") == 0


def test_new_model_renders_bicubic():
    m = M.OmniHSR().eval()
    x = torch.rand(1, 4, 6, 7)
    with torch.no_grad():
        y = m(x, 15, 17)
    assert torch.equal(y, M.bicubic(x, 15, 17))
    assert sum(p.numel() for p in m.parameters()) == 502207


def test_with_noise_input_keeps_output():
    case = CASES[0]
    m = load(case)
    n = M.with_noise_input(m)
    x = golden(case, "lr", case["b"])
    with torch.no_grad():
        assert torch.equal(m(x, 20, 22), n(x, 20, 22, nf=1.7))


def test_render_gradients_finite_difference():
    """Autograd through COFR (with the checkpointed field) against central
    differences in float64, on every primitive parameter and the input."""
    torch.manual_seed(0)
    h, w, b = 4, 5, 3
    x = torch.rand(1, b, h, w, dtype=torch.float64, requires_grad=True)
    raw = (0.5 * torch.randn(1, M.RAW_CHANS, h, w, dtype=torch.float64)).requires_grad_()

    def f(x, raw):
        return M.render(x, M.primitives(raw), 11, 13, 7, checkpoint=True, weight_dtype=torch.float64)

    assert torch.autograd.gradcheck(f, (x, raw), eps=1e-6, atol=1e-6, rtol=1e-4, fast_mode=True)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_loss_matches_go(case):
    """train.py's loss terms against Go's loss.Compute (the paper's weights) on
    the golden output, with bicubic as the target and the input as the
    low-res image."""
    import train as T

    b = case["b"]
    y, hr, lr = golden(case, "out", b), golden(case, "bicubic", b), golden(case, "lr", b)
    parts = T.sample_losses(y, hr, lr, [b], {"consistency": 0.1, "angle": 0.1, "curvature": 0.05})
    go = case["loss"]
    for k, gk in (("total", "Total"), ("charbonnier", "Charbonnier"), ("consistency", "Consistency"),
                  ("angle", "Angle"), ("curvature", "Curvature")):
        if k not in parts:
            assert go[gk] == 0
            continue
        assert float(parts[k][0]) == pytest.approx(go[gk], rel=1e-5, abs=1e-9), k
