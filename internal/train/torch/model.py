"""The OmniHSR model in PyTorch: the same forward pass as the Go packages
model (CSM) and cofr (COFR), for training on a GPU.

Every definition follows docs/CONVENTIONS.md sections 2-3 and the Go code
it names; tests (test_equivalence.py) check it against the Go forward pass
of the shipped weights within 1e-5 on committed goldens.

Layout: cubes are N x B x H x W tensors (the Go code is pixel-interleaved
H x W x B). Parameter names equal the Go names, so a state_dict maps onto
an .omw file name by name (omw.py converts the layouts).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint as tckpt

# Raw head channels (internal/model/model.go): 6 geometry values, then 25 operator values.
RAW_OFF_Y, RAW_OFF_X, RAW_THETA, RAW_SIGMA1, RAW_SIGMA2, RAW_ALPHA, RAW_K = range(7)
TAPS = 25
RAW_CHANS = RAW_K + TAPS
SIGMA_MIN, SIGMA_MAX = 0.05, 2.5
COFR_EPS = 1e-6  # cofr.Eps
COFR_A = 0.5  # cofr.DefaultA: sigma_eff = sqrt(sigma^2 + (a/s)^2)
NOISE_REF = 0.005  # model.noiseRef


def default_config():
    """model.DefaultConfig: M = 31, C = 32, 6 blocks, FFN ratio 4, FiLM 64, K = 7."""
    return {"version": 1, "m": 31, "encoder": {"in": 31, "c": 32, "blocks": 6, "ffn_ratio": 4},
            "film_hidden": 64, "neighbourhood": 7}


# ---------------------------------------------------------------- CSM input


def band_map(b, m):
    """C_B (model.NewBandMap): for each of m reference positions the lower
    band and its weight (the next band gets 1 - weight), as Python lists;
    the weights are float32 values computed in float64."""
    lo, wlo = [], []
    for i in range(m):
        if b == 1:
            lo.append(0)
            wlo.append(1.0)
            continue
        t = i / (m - 1) if m > 1 else 0.5
        pos = t * (b - 1)
        l = int(math.floor(pos))
        if l >= b - 1:
            l = b - 2
        lo.append(l)
        wlo.append(1 - (pos - l))
    return lo, wlo


def band_counts(x, bands):
    """The band count of every sample (bands, or x's band axis for all)."""
    return [x.shape[1]] * x.shape[0] if bands is None else list(bands)


def band_mask(x, bands):
    """N x B x 1 x 1 float mask of every sample's own bands (None: all)."""
    if bands is None:
        return None
    idx = torch.arange(x.shape[1], device=x.device).view(1, -1)
    return (idx < torch.tensor(bands, device=x.device).view(-1, 1)).to(x.dtype).view(x.shape[0], x.shape[1], 1, 1)


def input_scale(x, bands=None):
    """model.InputScale per sample: 1 / mean |x| (float64, then float32), 1
    for an all-zero or non-finite cube. x is N x B x H x W; bands (N ints),
    when given, counts only the first bands[n] bands of sample n (the rest
    is padding). Returns an N-vector (float32, x's device), without a sync."""
    a = x.double().abs()
    mk = band_mask(x, bands)
    if mk is not None:
        a = a * mk.double()
    s = a.sum((1, 2, 3))
    cnt = torch.tensor(band_counts(x, bands), dtype=torch.float64, device=x.device) * (x.shape[2] * x.shape[3])
    ok = (s != 0) & torch.isfinite(s)
    return torch.where(ok, 1 / (s / cnt), torch.ones_like(s)).float()


def csm_input(x, scale, m, bands=None):
    """The network input z = C_B x * scale (model.Model.Input): N x m x H x W.
    Float32 arithmetic in the order of model.BandMap.apply; bands gives
    every sample's own band count (its C_B)."""
    n = x.shape[0]
    los, ws = [], []
    for b in band_counts(x, bands):
        lo, wlo = band_map(b, m)
        hi = [l + 1 if b > 1 else l for l in lo]
        los.append(lo + hi)
        ws.append(wlo)
    idx = torch.tensor(los, device=x.device)  # N x 2m: lower bands, then upper
    w = torch.tensor(ws, dtype=torch.float32, device=x.device).to(x.dtype).view(n, m, 1, 1)
    g = x.gather(1, idx.view(n, 2 * m, 1, 1).expand(n, 2 * m, x.shape[2], x.shape[3]))
    single = torch.tensor([b == 1 for b in band_counts(x, bands)], device=x.device).view(n, 1, 1, 1)
    v = w * g[:, :m]
    v = torch.where(single, v, v + (1 - w) * g[:, m:])
    return v * scale.to(x.dtype).view(n, 1, 1, 1)


# ---------------------------------------------------------------- network


def linear(x, w, b):
    """A per-pixel linear map on the channel axis of an N x C x H x W tensor."""
    return F.conv2d(x, w.view(w.shape[0], w.shape[1], 1, 1), b)


class Linear(nn.Module):
    """nn.LinearLayer: weight Cout x Cin, bias Cout, applied per pixel."""

    def __init__(self, cin, cout):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(cout, cin))
        self.bias = nn.Parameter(torch.empty(cout))
        bound = 1 / math.sqrt(max(cin, 1))
        nn.init.uniform_(self.weight, -bound, bound)
        nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class LayerNorm(nn.Module):
    """LayerNorm over the channels of every pixel (biased variance, eps
    inside the square root): nn.Graph.LayerNorm."""

    def __init__(self, c, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(c))
        self.bias = nn.Parameter(torch.zeros(c))
        self.eps = eps

    def forward(self, x):
        m = x.mean(1, keepdim=True)
        d = x - m
        v = (d * d).mean(1, keepdim=True)
        return d * torch.rsqrt(v + self.eps) * self.weight.view(1, -1, 1, 1) + self.bias.view(1, -1, 1, 1)


def conv3(cin, cout):
    """nn.Conv2DLayer with K = 3 and replicate padding (PyTorch's default
    initialisation, as the Go code's)."""
    return nn.Conv2d(cin, cout, 3, padding=1, padding_mode="replicate")


def essa(qkv):
    """nn.Graph.ESSA on N x 3C x H x W: per sample, the T = H*W pixels as tokens,

        q = q - mean_c(q); q2 = q^2 / (sum_c q^2 + 1e-7); q2 /= max(||q2||_c, 1e-12)
        k = k - mean_c(k); k2 = k^2 / (sum_c k^2 + 1e-7); k2 /= max(||k2||_tokens, 1e-12)
        out = v + q2 (k2^T v) / sqrt(T)."""
    n, c3, h, w = qkv.shape
    c, t = c3 // 3, h * w
    x = qkv.reshape(n, c3, t)
    q, k, v = x[:, :c], x[:, c:2 * c], x[:, 2 * c:]

    def sq(a):
        d = a - a.mean(1, keepdim=True)
        d2 = d * d
        return d2 / (d2.sum(1, keepdim=True) + 1e-7)

    q2 = sq(q)
    q2 = q2 / q2.norm(dim=1, keepdim=True).clamp_min(1e-12)
    k2 = sq(k)
    k2 = k2 / k2.norm(dim=2, keepdim=True).clamp_min(1e-12)
    a = torch.bmm(k2, v.transpose(1, 2))  # C x C: a[i, j] = sum_t k2[i, t] v[j, t]
    out = v + torch.bmm(a.transpose(1, 2), q2) * (1 / math.sqrt(t))
    return out.reshape(n, c, h, w)


class ESSA(nn.Module):
    """nn.ESSALayer: Linear(C -> 3C), ESSA, Linear(C -> C)."""

    def __init__(self, c):
        super().__init__()
        self.qkv = Linear(c, 3 * c)
        self.out = Linear(c, c)

    def forward(self, x):
        return self.out(essa(self.qkv(x)))


class Block(nn.Module):
    def __init__(self, c, hidden):
        super().__init__()
        self.ln1 = LayerNorm(c)
        self.attn = ESSA(c)
        self.ln2 = LayerNorm(c)
        self.ffn1 = conv3(c, hidden)
        self.ffn2 = conv3(hidden, c)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ffn2(F.gelu(self.ffn1(self.ln2(x))))


class Encoder(nn.Module):
    """model.Encoder: stem, blocks, tail + stem (global residual)."""

    def __init__(self, cfg):
        super().__init__()
        c, hid = cfg["c"], cfg["c"] * cfg["ffn_ratio"]
        self.stem = conv3(cfg["in"], c)
        self.blocks = nn.ModuleList([Block(c, hid) for _ in range(cfg["blocks"])])
        self.tail = conv3(c, c)

    def forward(self, z):
        s = self.stem(z)
        x = s
        for b in self.blocks:
            x = b(x)
        return self.tail(x) + s


def mlp(cin, hidden, cout):
    """nn.MLP: Linear -> GELU -> Linear on N x in vectors; as an
    nn.Sequential its parameters are "0.*" and "2.*", the Go names.
    nn.Linear's default initialisation is the Go one (uniform in
    +-1/sqrt(fan_in) for weights and biases)."""
    return nn.Sequential(nn.Linear(cin, hidden), nn.GELU(), nn.Linear(hidden, cout))


class OmniHSR(nn.Module):
    """CSM (model.Model): the encoder, FiLM on log2 s (and the noise feature
    for a model with noise_input), the head. Rendering is `render`.

    A fresh model starts like the Go model.New: the last FiLM layer and
    the operator layer at zero (an untrained model renders bicubic)."""

    def __init__(self, cfg=None):
        super().__init__()
        cfg = dict(cfg or default_config())
        if cfg.get("variant", ""):
            raise ValueError("model: variant %r is not supported by the PyTorch port (OmniHSR only)" % cfg["variant"])
        if cfg["encoder"]["in"] != cfg["m"]:
            raise ValueError("model: %d reference positions but an encoder of %d inputs" % (cfg["m"], cfg["encoder"]["in"]))
        if cfg["neighbourhood"] < 1 or cfg["neighbourhood"] % 2 == 0:
            raise ValueError("model: neighbourhood %d must be odd and positive" % cfg["neighbourhood"])
        self.cfg = cfg
        c = cfg["encoder"]["c"]
        self.encoder = Encoder(cfg["encoder"])
        self.film = mlp(self.film_inputs, cfg["film_hidden"], 2 * c)
        self.head = conv3(c, c)
        self.geometry = Linear(c, RAW_K)
        self.operator = Linear(c, TAPS)
        with torch.no_grad():
            self.film[2].weight.zero_()
            self.film[2].bias.zero_()
            self.operator.weight.zero_()
            self.operator.bias.zero_()

    @property
    def film_inputs(self):
        return 2 if self.cfg.get("noise_input") else 1

    @property
    def m(self):
        return self.cfg["m"]

    def network_input(self, x, bands=None):
        """z = C_B x * InputScale(x) (N x M x h x w) and the scales (N)."""
        sc = input_scale(x, bands)
        return csm_input(x, sc, self.m, bands), sc

    def head_raw(self, feat, s, nf=None):
        """FiLM for factors s (N values or a float) and noise features nf,
        then the head: the raw head output, N x 31 x h x w."""
        n = feat.shape[0]
        s = torch.as_tensor(s, dtype=torch.float64).reshape(-1).expand(n)
        cols = [torch.log2(s).float()]
        if self.film_inputs == 2:
            nf = torch.zeros(n, dtype=torch.float64) if nf is None else torch.as_tensor(nf, dtype=torch.float64).reshape(-1).expand(n)
            cols.append(nf.float())
        ls = torch.stack(cols, 1).to(device=feat.device, dtype=feat.dtype)
        gb = self.film(ls)
        c = feat.shape[1]
        gamma, beta = gb[:, :c, None, None], gb[:, c:, None, None]
        f = (1 + gamma) * feat + beta
        h = F.gelu(self.head(f))
        return torch.cat([self.geometry(h), self.operator(h)], 1)

    def forward(self, x, out_h, out_w, nf=None, bands=None, checkpoint=None):
        """The output (N x B x out_h x out_w) for inputs x (N x B x h x w):
        the network, the primitives and COFR with the model's truncation."""
        z, _ = self.network_input(x, bands)
        feat = self.encoder(z)
        s = effective_factor(x.shape[2], x.shape[3], out_h, out_w)
        raw = self.head_raw(feat, s, nf)
        return render(x, primitives(raw), out_h, out_w, self.cfg["neighbourhood"], checkpoint=checkpoint)


# ---------------------------------------------------------------- primitives and COFR


def effective_factor(h, w, out_h, out_w):
    """model.EffectiveFactor: the mean of the two axis factors."""
    return (out_h / h + out_w / w) / 2


def primitives(raw):
    """model.Primitives: offsets 0.5 tanh, angle pi tanh, widths softplus +
    0.05 clipped to [0.05, 2.5], opacity sigmoid, the operator minus its mean.
    Returns a dict of N x h x w tensors (K: N x 25 x h x w)."""
    k = raw[:, RAW_K:RAW_K + TAPS]
    return {
        "off_y": 0.5 * torch.tanh(raw[:, RAW_OFF_Y]),
        "off_x": 0.5 * torch.tanh(raw[:, RAW_OFF_X]),
        "theta": math.pi * torch.tanh(raw[:, RAW_THETA]),
        "sigma1": (F.softplus(raw[:, RAW_SIGMA1]) + SIGMA_MIN).clamp(SIGMA_MIN, SIGMA_MAX),
        "sigma2": (F.softplus(raw[:, RAW_SIGMA2]) + SIGMA_MIN).clamp(SIGMA_MIN, SIGMA_MAX),
        "alpha": torch.sigmoid(raw[:, RAW_ALPHA]),
        "k": k - k.mean(1, keepdim=True),
    }


def bicubic(x, out_h, out_w):
    """U_s X: PyTorch's bicubic interpolation, align_corners=False (resample.Upsample)."""
    return F.interpolate(x, size=(out_h, out_w), mode="bicubic", align_corners=False)


def downsample(x, out_h, out_w):
    """The antialiased bicubic degradation (resample.Downsample)."""
    return F.interpolate(x, size=(out_h, out_w), mode="bicubic", align_corners=False, antialias=True)


def apply_operators(x, k):
    """r_n = sum_q k_nq x(q) over the 5 x 5 window of every low-res pixel,
    replicate border (cofr operatorRowCols): N x B x h x w."""
    n, b, h, w = x.shape
    xp = F.pad(x, (2, 2, 2, 2), mode="replicate")
    r = None
    for t in range(TAPS):
        ty, tx = divmod(t, 5)
        term = k[:, t:t + 1] * xp[:, :, ty:ty + h, tx:tx + w]
        r = term if r is None else r + term
    return r


def cells(n, m, device):
    """The low-res cell of every one of m target samples over n cells,
    floor((2u+1) n / 2m) in integers (cofr cellOf), and the sample centres
    (u + 0.5) n/m in low-res units (float64)."""
    u = torch.arange(m, device=device, dtype=torch.int64)
    c = ((2 * u + 1) * n) // (2 * m)
    pos = (u.double() + 0.5) * (n / m)
    return c, pos


def _gather(a, ri, cj):
    """a (N x C x h x w) at rows ri (H) and columns cj (W): N x C x H x W."""
    return a.index_select(2, ri).index_select(3, cj)


def cofr_weights(p, h, w, out_h, out_w, neighbourhood=7, dtype=torch.float32):
    """The normalised weights w_n(p) of the K x K primitives around every
    target pixel's cell (docs/CONVENTIONS.md section 3): an N x K*K x H x W
    tensor over the offsets (di, dj) in row-major order, with the candidates'
    row indices (K*K x H) and column indices (K*K x W), clamped to the image
    (a candidate outside it has weight zero). The geometry is evaluated with
    the pixel offsets in float64 (exact for any image size)."""
    dev = p["alpha"].device
    s = effective_factor(h, w, out_h, out_w)
    a2 = (COFR_A / s) ** 2
    ci, py = cells(h, out_h, dev)
    cj, px = cells(w, out_w, dev)
    rad = neighbourhood // 2
    k = 2 * rad + 1
    sn, cs = torch.sin(p["theta"].to(dtype)), torch.cos(p["theta"].to(dtype))
    u1 = 1 / (p["sigma1"].to(dtype) ** 2 + a2)
    u2 = 1 / (p["sigma2"].to(dtype) ** 2 + a2)
    geo = torch.stack([p["off_y"].to(dtype), p["off_x"].to(dtype),
                       sn * sn * u1 + cs * cs * u2, cs * sn * (u1 - u2), cs * cs * u1 + sn * sn * u2,
                       p["alpha"].to(dtype)], 1)  # N x 6 x h x w: offsets, iyy, ixy, ixx, alpha
    off = torch.arange(-rad, rad + 1, device=dev)
    rr = ci.view(1, -1) + off.view(-1, 1)  # K x H
    cc = cj.view(1, -1) + off.view(-1, 1)  # K x W
    vy, vx = (rr >= 0) & (rr < h), (cc >= 0) & (cc < w)
    rr, cc = rr.clamp(0, h - 1), cc.clamp(0, w - 1)
    dyc = (py.view(1, -1) - rr.double() - 0.5).to(dtype)  # K x H: from the candidate cell's centre
    dxc = (px.view(1, -1) - cc.double() - 0.5).to(dtype)  # K x W
    # N x 6 x K x H x K x W, then N x 6 x (K*K) x H x W.
    g = geo[:, :, rr.view(k, -1, 1, 1), cc.view(1, 1, k, -1)]
    n = g.shape[0]
    g = g.permute(0, 1, 2, 4, 3, 5).reshape(n, 6, k * k, out_h, out_w)
    dy = dyc.view(k, 1, out_h, 1).expand(k, k, out_h, 1).reshape(1, k * k, out_h, 1) - g[:, 0]
    dx = dxc.view(1, k, 1, out_w).expand(k, k, 1, out_w).reshape(1, k * k, 1, out_w) - g[:, 1]
    e = -0.5 * (g[:, 2] * dy * dy + 2 * g[:, 3] * dy * dx + g[:, 4] * dx * dx)
    valid = (vy.view(k, 1, out_h, 1) & vx.view(1, k, 1, out_w)).reshape(1, k * k, out_h, out_w).to(dtype)
    ag = g[:, 5] * torch.exp(e) * valid
    wts = ag / (ag.sum(1, keepdim=True) + COFR_EPS)
    ri = rr.view(k, 1, out_h).expand(k, k, out_h).reshape(k * k, out_h)
    cjs = cc.view(1, k, out_w).expand(k, k, out_w).reshape(k * k, out_w)
    return wts, ri, cjs


def _field_term(wt, r, ri, cj):
    return wt * _gather(r, ri, cj)


def render(x, p, out_h, out_w, neighbourhood=7, checkpoint=None, weight_dtype=torch.float32):
    """COFR (cofr.Render): Y = U_s X + sum_n w_n(p) r_n on an out_h x out_w
    grid. checkpoint (default: when gradients are on) recomputes each
    offset's gathered r_n in the backward pass instead of keeping K*K
    high-resolution cubes."""
    n, b, h, w = x.shape
    base = bicubic(x, out_h, out_w)
    r = apply_operators(x, p["k"])
    if checkpoint is None:
        checkpoint = torch.is_grad_enabled()
    wts, ris, cjs = cofr_weights(p, h, w, out_h, out_w, neighbourhood, weight_dtype)
    wts = wts.to(x.dtype)
    field = None
    for o in range(wts.shape[1]):
        args = (wts[:, o:o + 1], r, ris[o], cjs[o])
        term = tckpt.checkpoint(_field_term, *args, use_reentrant=False) if checkpoint else _field_term(*args)
        field = term if field is None else field + term
    return base + field


# ---------------------------------------------------------------- noise feature


MAD_TO_SIGMA = 1.482602218505602
LAP_NORM = 6.0
MAX_RESIDUALS = 1 << 15


def _stride(h, w):
    s = 1
    while (h - 2) // s * ((w - 2) // s) > MAX_RESIDUALS:
        s += 1
    return s


def _medians(a):
    """noise.median of every row of a (rows x n, float32 values): MAD_TO_SIGMA
    times the median, float64 (n-vector of NaN when n is 0)."""
    if a.shape[1] == 0:
        return torch.full((a.shape[0],), float("nan"), dtype=torch.float64, device=a.device)
    v = torch.sort(a, dim=1).values
    n = a.shape[1]
    k = n // 2
    m = v[:, k].double()
    if n % 2 == 0:
        m = 0.5 * (v[:, k - 1].double() + m)
    return MAD_TO_SIGMA * m


def noise_bands(x):
    """noise.Bands(x, spectral=True) for one cube x (B x h x w, finite, no
    no-data): the estimated noise standard deviation of every band, a
    float64 B-vector (NaN for images smaller than 3 x 3)."""
    b, h, w = x.shape
    if h < 3 or w < 3:
        return torch.full((b,), float("nan"), dtype=torch.float64, device=x.device)
    st = _stride(h, w)
    xd = x.double()
    ys = torch.arange(1, h - 1, st, device=x.device)
    xs = torch.arange(1, w - 1, st, device=x.device)

    def at(dy, dx):
        return xd.index_select(1, ys + dy).index_select(2, xs + dx)

    corners = at(-1, -1) + at(-1, 1) + at(1, -1) + at(1, 1)
    edges = at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1)
    r = (4 * at(0, 0) - 2 * edges + corners).reshape(b, -1)
    out = _medians(r.abs().float()) / LAP_NORM
    if b < 3:
        return out
    d = torch.empty_like(r)
    d[0] = r[0] - 2 * r[1] + r[2]
    d[1:b - 1] = r[1:b - 1] - 0.5 * (r[0:b - 2] + r[2:b])
    d[b - 1] = r[b - 1] - 2 * r[b - 2] + r[b - 3]
    g = torch.full((b,), math.sqrt(1.5), dtype=torch.float64, device=x.device)
    g[0] = g[b - 1] = math.sqrt(6)
    ss = _medians(d.abs().float()) / LAP_NORM / g
    return torch.where((ss < out) | torch.isnan(out), ss, out)


def noise_feature(x, scale):
    """model.NoiseLevel(x, nil).Feature for one cube x (B x h x w) whose
    input scale is scale: log2(1 + sigma * scale / 0.005), sigma the root
    mean square of the band estimates (0 when there is none)."""
    sb = noise_bands(x)
    ok = torch.isfinite(sb)
    n = int(ok.sum())
    level = math.sqrt(float((sb[ok] ** 2).sum()) / n) if n else 0.0
    net = level * float(scale)
    return math.log2(1 + max(net, 0) / NOISE_REF)


# ---------------------------------------------------------------- weights


def load_omw(path_or_weights, device="cpu"):
    """A model with the weights of an .omw file (or omw.Weights); returns
    (model, weights) so that the file's config and metadata can be kept."""
    import omw as omwlib

    w = omwlib.read(path_or_weights) if isinstance(path_or_weights, str) else path_or_weights
    cfg = w.config
    if cfg is None:
        raise ValueError("model: %s holds no model configuration" % path_or_weights)
    m = OmniHSR(cfg)
    set_weights(m, w)
    return m.to(device), w


def set_weights(m, w):
    """Copy the weights of omw.Weights w into model m (every parameter must
    be there with its shape, and no other weight)."""
    import omw as omwlib

    sd = m.state_dict()
    params = w.params()
    missing = sorted(set(sd) - set(params))
    extra = sorted(set(params) - set(sd))
    if missing or extra:
        raise ValueError("model: weights: missing %s, not in the model %s" % (missing, extra))
    new = {}
    for k, v in sd.items():
        shape, data = params[k]
        new[k] = torch.from_numpy(omwlib.to_torch(shape, data, v.shape))
    m.load_state_dict(new)


def go_param_order(m):
    """Parameter names in the Go model's order (model.Model.Params)."""
    names = []
    cfg = m.cfg
    names += ["encoder.stem.weight", "encoder.stem.bias"]
    for i in range(cfg["encoder"]["blocks"]):
        p = "encoder.blocks.%d." % i
        for sub in ("ln1", "attn.qkv", "attn.out", "ln2", "ffn1", "ffn2"):
            names += [p + sub + ".weight", p + sub + ".bias"]
    names += ["encoder.tail.weight", "encoder.tail.bias"]
    names += ["film.0.weight", "film.0.bias", "film.2.weight", "film.2.bias"]
    names += ["head.weight", "head.bias", "geometry.weight", "geometry.bias", "operator.weight", "operator.bias"]
    return names


def to_weights(m, config_json=None, meta_json=None, base=None):
    """omw.Weights of model m: tensors in the Go order; the config and meta
    raw JSON texts from base (an omw.Weights) unless given."""
    import omw as omwlib

    fields = {"kind": '"weights"'}
    if base is not None:
        for k in ("config", "meta"):
            if k in base.fields:
                fields[k] = base.fields[k]
    if config_json is not None:
        fields["config"] = config_json
    if meta_json is not None:
        fields["meta"] = meta_json
    sd = m.state_dict()
    tensors = {}
    for name in go_param_order(m):
        tensors[name] = omwlib.from_torch(sd[name].detach().cpu().numpy())
    return omwlib.Weights(fields, tensors)


def with_noise_input(m):
    """model.Model.WithNoiseInput: a copy taking the noise feature, the FiLM
    first layer widened by a zero column (renders what m renders)."""
    if m.film_inputs == 2:
        return m
    cfg = dict(m.cfg)
    cfg["noise_input"] = True
    n = OmniHSR(cfg).to(next(m.parameters()).device)
    sd = m.state_dict()
    w0 = sd["film.0.weight"]
    sd["film.0.weight"] = torch.cat([w0, torch.zeros_like(w0)], 1)
    n.load_state_dict(sd)
    return n
