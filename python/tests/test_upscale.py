"""omnihsr.upscale and upscale_file give the bytes of `omnihsr upscale`."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

import omnihsr
from conftest import read_envi, run_cli, write_envi


def cube(h: int, w: int, b: int, seed: int = 0) -> np.ndarray:
    """A smooth random-ish cube, positive, float32."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    base = np.sin(x[..., None] / 3.0 + np.arange(b) / 5.0) * np.cos(y[..., None] / 4.0)
    return (1.5 + base + 0.05 * rng.standard_normal((h, w, b))).astype(np.float32)


CASES = [
    ({"scale": 4}, ["-scale", "4"]),
    ({"scale": 2.5, "method": "bicubic"}, ["-scale", "2.5", "-method", "bicubic"]),
    ({"size": (30, 17), "noise": "clean"}, ["-size", "30x17", "-noise", "clean"]),
    ({"scale": 2, "method": "omnihsr-bp", "noise": 0.02}, ["-scale", "2", "-method", "omnihsr-bp", "-noise", "0.02"]),
]


@pytest.mark.parametrize("opts,flags", CASES)
def test_numpy_equals_cli_npy(tmp_path: Path, cli: str, opts: dict, flags: list) -> None:
    x = cube(19, 14, 9)
    np.save(tmp_path / "in.npy", x)
    run_cli(cli, "upscale", "-in", str(tmp_path / "in.npy"), "-out", str(tmp_path / "out.npy"), *flags)
    want = np.load(tmp_path / "out.npy")
    got = omnihsr.upscale(x, **opts)
    assert got.dtype == np.float32 and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def test_numpy_equals_cli_envi_nodata(tmp_path: Path, cli: str) -> None:
    x = cube(16, 13, 6, seed=1)
    x[3, 4, :] = -9999
    x[7, 2, 1] = -9999
    hdr = write_envi(tmp_path / "in", x, data_ignore_value="-9999")
    run_cli(cli, "upscale", "-in", str(hdr), "-out", str(tmp_path / "out.hdr"), "-scale", "3")
    want, _ = read_envi(tmp_path / "out.hdr")
    got = omnihsr.upscale(x, scale=3, nodata=-9999)
    assert got.tobytes() == want.tobytes()
    assert np.count_nonzero(got == -9999) == 9 * 6 + 9  # no-data again in the output, 3 x 3 pixels each
    # Without the no-data value, the -9999 samples are data: another result.
    assert omnihsr.upscale(x, scale=3).tobytes() != want.tobytes()


def test_input_kinds(tmp_path: Path) -> None:
    x = cube(12, 10, 4, seed=2)
    want = omnihsr.upscale(x, scale=2)
    # float64, non-contiguous and 2-D inputs are converted (a copy) first.
    assert omnihsr.upscale(x.astype(np.float64), scale=2).tobytes() == want.tobytes()
    f = np.asfortranarray(x)
    assert not f.flags.c_contiguous
    assert omnihsr.upscale(f, scale=2).tobytes() == want.tobytes()
    one = omnihsr.upscale(x[:, :, 0], scale=2)
    assert one.shape == (24, 20, 1)
    # The input is not modified.
    y = x.copy()
    omnihsr.upscale(y, scale=2, method="bicubic")
    assert y.tobytes() == x.tobytes()
    # out= receives the result.
    out = np.zeros((24, 20, 4), np.float32)
    assert omnihsr.upscale(x, scale=2, out=out) is out
    assert out.tobytes() == want.tobytes()
    with pytest.raises(omnihsr.OptionError):
        omnihsr.upscale(x, scale=2, out=np.zeros((24, 20, 3), np.float32))


def test_upscale_file_result(tmp_path: Path, cli: str) -> None:
    x = cube(18, 15, 5, seed=3)
    x[0, 0, 0] = 7e9  # clamped to uint16's range in the output
    np.save(tmp_path / "in.npy", x)
    res = omnihsr.upscale_file(tmp_path / "in.npy", tmp_path / "py.tif", scale=2, type="uint16")
    p = run_cli(cli, "upscale", "-in", str(tmp_path / "in.npy"), "-out", str(tmp_path / "cli.tif"), "-scale", "2", "-type", "uint16")
    assert (tmp_path / "py.tif").read_bytes() == (tmp_path / "cli.tif").read_bytes()
    assert (res["height"], res["width"], res["bands"], res["in_height"], res["in_width"]) == (36, 30, 5, 18, 15)
    assert res["method"] == "omnihsr"
    assert res["model"]["used"] and "% of the signal" in res["model"]["summary"]
    assert "upscale: " + res["model"]["summary"] in p.stderr
    assert res["file"]["clamped"] > 0 and res["file"]["clamp_range"] == "0..65535"
    for w in res["warnings"]:
        assert w.replace("py.tif", "cli.tif") in p.stderr
    assert any("clamp" in w for w in res["warnings"]), res["warnings"]


def test_progress_and_gil(tmp_path: Path) -> None:
    """The GIL is released: a Python thread runs while the library works."""
    x = cube(96, 96, 16, seed=4)
    seen = []
    ticks = [0]
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            ticks[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    t0 = time.perf_counter()
    try:
        omnihsr.upscale(x, scale=4, progress=lambda d, n: seen.append((d, n)))
    finally:
        stop.set()
        t.join()
    elapsed = time.perf_counter() - t0
    assert seen and seen[-1][0] == seen[-1][1] == 384
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    # A thread holding the GIL for the whole call would leave spin() at a
    # few iterations; a free GIL lets it run millions of times a second.
    assert ticks[0] > 10000 * elapsed, (ticks[0], elapsed)


@pytest.mark.parametrize("how", ["array", "dataarray", "file"])
def test_progress_work(tmp_path: Path, how: str) -> None:
    """progress_units="work" counts the whole call in 1,000,000 units,
    rising to the end; the output is the one without it; an unknown unit
    is an OptionError."""
    x = cube(40, 36, 8, seed=6)
    seen = []
    million = 1_000_000

    def progress(d: int, n: int) -> None:
        seen.append((d, n))

    if how == "array":
        got = omnihsr.upscale(x, scale=3, progress=progress, progress_units="work")
        assert np.array_equal(got, omnihsr.upscale(x, scale=3))
    elif how == "dataarray":
        xr = pytest.importorskip("xarray")
        da = xr.DataArray(x, dims=("y", "x", "band"))
        got = omnihsr.upscale(da, scale=3, progress=progress, progress_units="work")
        assert np.array_equal(got.values, omnihsr.upscale(x, scale=3))
    else:
        write_envi(tmp_path / "in.hdr", x)
        omnihsr.upscale_file(tmp_path / "in.hdr", tmp_path / "sr_x{scale}.hdr", scales=[2, 3],
                             progress=progress, progress_units="work")
    assert seen and seen[-1] == (million, million)
    done = [d for d, n in seen]
    assert all(n == million for _, n in seen)
    assert done == sorted(set(done)) and done[0] > 0
    with pytest.raises(omnihsr.OptionError, match="percent"):
        omnihsr.upscale(x, scale=3, progress=progress, progress_units="percent")


def test_version(cli: str) -> None:
    from conftest import run_cli as rc
    assert omnihsr.version() == rc(cli, "version", "-short").stdout.strip()


def test_concurrent_calls() -> None:
    """Calls from several Python threads at once give the serial results."""
    from concurrent.futures import ThreadPoolExecutor

    xs = [cube(20 + i, 17, 5, seed=10 + i) for i in range(6)]
    want = [omnihsr.upscale(x, scale=2).tobytes() for x in xs]
    with ThreadPoolExecutor(3) as ex:
        got = list(ex.map(lambda x: omnihsr.upscale(x, scale=2).tobytes(), xs))
    assert got == want


def test_abi_library_buffer() -> None:
    """The C ABI's library-allocated output and its handles, through ctypes."""
    import ctypes

    from omnihsr import _lib

    L = _lib.lib()
    x = cube(7, 6, 3, seed=20)
    want = omnihsr.upscale(x, scale=2, method="bicubic")
    p = ctypes.POINTER(ctypes.c_float)()
    st = L.omnihsr_upscale(x.ctypes.data, 7, 6, 3, b'{"scale": 2, "method": "bicubic"}', None, 0, ctypes.byref(p),
                           None, None, _lib.PROGRESS(), None)
    assert st == _lib.STATUS_OK and L.omnihsr_last_error() == b""
    try:
        got = np.ctypeslib.as_array(p, shape=want.shape).copy()
    finally:
        L.omnihsr_free(p)
    assert got.tobytes() == want.tobytes()
    # No output place at all, then a wrong buffer size: option errors.
    assert L.omnihsr_upscale(x.ctypes.data, 7, 6, 3, b'{"scale": 2}', None, 0, None, None, None, _lib.PROGRESS(), None) == _lib.STATUS_OPTION
    out = np.empty(10, np.float32)
    assert L.omnihsr_upscale(x.ctypes.data, 7, 6, 3, b'{"scale": 2}', out.ctypes.data, 10, None, None, None, _lib.PROGRESS(), None) == _lib.STATUS_OPTION
    assert b"holds 10 samples, the output has 504" in L.omnihsr_last_error()
    # A preset cancel flag stops the call at once.
    flag = ctypes.c_int32(1)
    out = np.empty(want.shape, np.float32)
    assert L.omnihsr_upscale(x.ctypes.data, 7, 6, 3, b'{"scale": 2}', out.ctypes.data, out.size, None, None,
                             ctypes.byref(flag), _lib.PROGRESS(), None) == _lib.STATUS_CANCELED
    # Unknown and freed cube handles are errors, not crashes.
    assert L.omnihsr_cube_copy(12345, out.ctypes.data, out.size) == _lib.STATUS_OPTION
    L.omnihsr_cube_free(12345)


def test_return_result() -> None:
    x = cube(16, 12, 6, seed=30)
    x[2, 3, :] = np.nan
    sr, res = omnihsr.upscale(x, scale=2, noise="clean", return_result=True)
    assert sr.tobytes() == omnihsr.upscale(x, scale=2, noise="clean").tobytes()
    assert (res["height"], res["width"], res["bands"], res["in_height"], res["in_width"]) == (32, 24, 6, 16, 12)
    assert res["nodata_samples"] == 6 and res["file"] is None and res["method"] == "omnihsr"
    assert res["model"]["used"] and not res["model"]["estimated"] and res["model"]["sigma"] == 0
    assert np.isnan(sr[4:6, 6:8]).all() and np.isfinite(np.delete(sr.reshape(-1, 6), [4 * 24 + 6, 4 * 24 + 7, 5 * 24 + 6, 5 * 24 + 7], axis=0)).all()
    _, res = omnihsr.upscale(x, scale=2, method="bicubic", return_result=True)
    assert not res["model"]["used"] and res["model"]["summary"] == ""


def test_scales_and_noise_files(tmp_path: Path, cli: str) -> None:
    """scales, noise_file (a text file; "auto": an EMIT granule's companion)
    give the command's bytes."""
    from conftest import PRODUCTS

    x = cube(15, 13, 4, seed=40)
    np.save(tmp_path / "in.npy", x)
    res = omnihsr.upscale_file(tmp_path / "in.npy", tmp_path / "py_x{scale}.npy", scales=[2, 3.5])
    run_cli(cli, "upscale", "-in", str(tmp_path / "in.npy"), "-out", str(tmp_path / "cli_x{scale}.npy"), "-scales", "2,3.5")
    assert [f["path"] for f in res["files"]] == [str(tmp_path / "py_x2.npy"), str(tmp_path / "py_x3.5.npy")]
    assert [(f["height"], f["width"]) for f in res["files"]] == [(30, 26), (53, 46)]
    for s in ("2", "3.5"):
        assert (tmp_path / f"py_x{s}.npy").read_bytes() == (tmp_path / f"cli_x{s}.npy").read_bytes()

    (tmp_path / "noise.txt").write_text("0.01 0.02, 0.03\n0.04  # per band\n")
    run_cli(cli, "upscale", "-in", str(tmp_path / "in.npy"), "-out", str(tmp_path / "cli_n.npy"), "-scale", "2",
            "-noise-file", str(tmp_path / "noise.txt"))
    sr, r = omnihsr.upscale(x, scale=2, noise_file=tmp_path / "noise.txt", return_result=True)
    assert sr.tobytes() == np.load(tmp_path / "cli_n.npy").tobytes()
    assert r["noise_file"] == str(tmp_path / "noise.txt") and not r["model"]["estimated"]
    assert sr.tobytes() != omnihsr.upscale(x, scale=2).tobytes()  # the noise matters

    emit = PRODUCTS / "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc"
    res = omnihsr.upscale_file(emit, tmp_path / "py_e.hdr", scale=2, noise_file="auto")
    run_cli(cli, "upscale", "-in", str(emit), "-out", str(tmp_path / "cli_e.hdr"), "-scale", "2", "-noise-file", "auto")
    assert (tmp_path / "py_e.img").read_bytes() == (tmp_path / "cli_e.img").read_bytes()
    assert "RFLUNCERT" in res["noise_file"]
    with pytest.raises(omnihsr.OptionError, match="not both"):
        omnihsr.upscale(x, scale=2, noise="clean", noise_file=tmp_path / "noise.txt")


def test_refuse_nan(tmp_path: Path) -> None:
    x = cube(5, 6, 3, seed=41)
    x[1, 2, 0] = np.nan
    np.save(tmp_path / "nan.npy", x)
    assert np.isnan(omnihsr.open(tmp_path / "nan.npy").values[0, 1, 2])
    with pytest.raises(omnihsr.OmniHSRError, match="NaN"):
        omnihsr.open(tmp_path / "nan.npy", refuse_nan=True)


def test_clamp_input_keeps_band_ranges(tmp_path):
    # clamp="input" (-clamp input) keeps every band within its input range
    x = np.zeros((16, 16, 3), np.float32)
    x[:, 8:, :] = [1.0, 2.0, 3.0]  # a step edge: interpolation overshoots it
    free = omnihsr.upscale(x, scale=4, method="bicubic")
    sr, res = omnihsr.upscale(x, scale=4, method="bicubic", clamp="input", return_result=True)
    lo, hi = x.min(axis=(0, 1)), x.max(axis=(0, 1))
    assert ((free < lo) | (free > hi)).any()
    assert not ((sr < lo) | (sr > hi)).any() and res["input_clamped"] > 0
    with pytest.raises(omnihsr.OptionError):
        omnihsr.upscale(x, scale=2, clamp="physical")


def test_abi_cube_copy_null_buffer(tmp_path: Path) -> None:
    """omnihsr_cube_copy with no buffer, or a buffer of the wrong size, is an option error whose message
    says which (issue 39: a NULL buffer used to read as a buffer of 0 samples)."""
    import ctypes

    from omnihsr import _lib

    L = _lib.lib()
    p = tmp_path / "c.npy"
    np.save(p, cube(4, 5, 3, seed=21))
    handle = ctypes.c_uint64()
    meta = ctypes.c_void_p()
    assert L.omnihsr_read(str(p).encode(), b"{}", ctypes.byref(handle), ctypes.byref(meta)) == _lib.STATUS_OK
    try:
        _lib.take_string(meta)
        assert L.omnihsr_cube_copy(handle.value, None, 60) == _lib.STATUS_OPTION
        msg = L.omnihsr_last_error()
        assert b"no buffer (NULL) for the cube's 60 samples" in msg and b"holds" not in msg
        out = np.empty(59, np.float32)
        assert L.omnihsr_cube_copy(handle.value, out.ctypes.data, out.size) == _lib.STATUS_OPTION
        assert b"holds 59 samples, the cube has 60" in L.omnihsr_last_error()
        out = np.empty(60, np.float32)
        assert L.omnihsr_cube_copy(handle.value, out.ctypes.data, out.size) == _lib.STATUS_OK
        assert out.tobytes() == np.load(p).reshape(-1).tobytes()
    finally:
        L.omnihsr_cube_free(handle.value)
