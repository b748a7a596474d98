"""Memory: no growth over repeated calls, no copy of a large input.

Both run in a fresh interpreter, so that the figures are that process's
alone. The figures are printed (pytest -s, or in the failure message).
"""

from __future__ import annotations

import json
import os

import pytest

from conftest import run_python

# These measure the library's memory in this process; the subprocess
# backend's work is in its children (its own tests are the rest of the suite).
pytestmark = pytest.mark.skipif(os.environ.get("OMNIHSR_BACKEND") == "subprocess",
                                reason="OMNIHSR_BACKEND=subprocess: the library does not run in this process")

GROWTH = r'''
import json, os, tempfile
import numpy as np
import omnihsr

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

rng = np.random.default_rng(5)
x = rng.random((32, 32, 8), dtype=np.float32)
d = tempfile.mkdtemp()
np.save(os.path.join(d, "in.npy"), x)

def one(i):
    omnihsr.upscale(x, scale=2)
    omnihsr.upscale(x, scale=1.5, method="bicubic")
    omnihsr.open(os.path.join(d, "in.npy"))
    omnihsr.upscale_file(os.path.join(d, "in.npy"), os.path.join(d, "out.npy"), scale=2, overwrite=True)
    try:
        omnihsr.upscale(x, scale=-1)
    except omnihsr.OptionError:
        pass

for i in range(30):
    one(i)
rs = [rss()]
for i in range(200):
    one(i)
    if i % 50 == 49:
        rs.append(rss())
print(json.dumps({"rss_mb": rs}))
'''


def test_no_growth_over_200_calls() -> None:
    p = run_python(GROWTH, timeout=240)
    assert p.returncode == 0, p.stderr
    rs = json.loads(p.stdout.strip().splitlines()[-1])["rss_mb"]
    print("RSS (MiB) after 30 warm-up rounds, then every 50 of 200 rounds (5 calls each):", rs)
    # Each round allocates about 0.3 MiB of outputs in Go and numpy, and
    # strings in C: a leak of any of them would add 60 MiB or more.
    assert max(rs) - rs[0] < 24, rs
    assert rs[-1] - rs[2] < 8, rs


NOCOPY = r'''
import json
import numpy as np
import xarray as xr
import omnihsr

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024

omnihsr.version()  # load the library and start its runtime first
a = np.empty((4096, 4096, 16), dtype=np.float32)  # 1 GiB
a.fill(0.5)
a[::7, ::5, :] = 2.0
da = xr.DataArray(a, dims=("y", "x", "band"))
omnihsr.upscale(a[:64, :64], scale=0.125, method="bicubic")
base = status("VmHWM")
sr = omnihsr.upscale(a, scale=0.125, method="bicubic")
peak_np = status("VmHWM")
sr2 = omnihsr.upscale(da, size=(512, 512), method="bicubic")
peak_xr = status("VmHWM")
print(json.dumps({"input_mb": a.nbytes / 2**20, "base_mb": base, "peak_numpy_mb": peak_np, "peak_xarray_mb": peak_xr,
                  "shape": list(sr.shape), "same": bool(np.array_equal(sr, sr2.values)),
                  "finite": bool(np.isfinite(sr).all()), "lo": float(sr.min()), "hi": float(sr.max())}))
'''


def test_1gib_input_not_copied() -> None:
    p = run_python(NOCOPY, timeout=240)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout.strip().splitlines()[-1])
    print("1 GiB input, peak RSS (MiB):", r)
    assert r["input_mb"] == 1024 and r["shape"] == [512, 512, 16] and r["same"] and r["finite"]
    assert 0.25 < r["lo"] < r["hi"] < 2.25, r  # between the input's values, bicubic's ringing aside
    # A copy of the input would raise the peak by 1024 MiB. What is there
    # is Go's heap: bicubic's intermediate (4096 x 512 x 16 samples, 128
    # MiB) and the output, 177 MiB after the first call, 337 MiB after the
    # second (the first's not yet returned to the system), in either order.
    assert r["peak_numpy_mb"] - r["base_mb"] < 512, r
    assert r["peak_xarray_mb"] - r["base_mb"] < 512, r
