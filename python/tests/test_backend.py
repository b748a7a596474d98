"""xarray's engine="omnihsr" (issue 42 item 4) and dask inputs (item 5)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import xarray as xr

import omnihsr
from conftest import PRODUCTS, ROOT, SAMPLE
from test_shape import scene


def same(a: xr.DataArray, b: xr.DataArray) -> None:
    """a and b have the same values, dims, band coordinates and grid."""
    assert a.dims == b.dims and a.shape == b.shape
    assert np.array_equal(a.values, b.values, equal_nan=True)
    for c in ("band", "wavelength", "fwhm", "bad_band", "x", "y"):
        assert (c in a.coords) == (c in b.coords), c
        if c in a.coords:
            assert np.array_equal(a[c].values, b[c].values), c
    assert a.rio.crs == b.rio.crs and a.rio.transform() == b.rio.transform() and a.rio.nodata == b.rio.nodata


def test_engine_envi_streams_windows(tmp_path: Path) -> None:
    dask = pytest.importorskip("dask.array")
    hdr = scene(tmp_path, 23, 17)
    want = omnihsr.open(hdr)
    da = xr.open_dataarray(hdr, engine="omnihsr", chunks={"y": 5})
    assert isinstance(da.data, dask.Array) and da.name == "band_data"
    assert da.chunks == ((6,), (5, 5, 5, 5, 3), (17,))
    assert da.encoding["omnihsr_streams"] is True
    same(da, want)
    # Windows, steps and single rows read from disk as indexed.
    lazy = xr.open_dataarray(hdr, engine="omnihsr")
    assert not isinstance(lazy.variable._data, np.ndarray)  # nothing read yet
    # (No negative steps: xarray 2023.01 turns y=slice(None, None, -3) of
    # 23 rows into rows 21, 18, ... 0 for every backend, _decompose_slice.)
    for key in ({"y": slice(3, 9), "x": slice(2, 5)}, {"y": slice(1, None, 3)}, {"y": 7, "band": 2},
                {"y": [0, 22, 5]}, {"band": slice(1, 4), "y": slice(20, 23)}):
        assert np.array_equal(lazy.isel(key).values, want.isel(key).values), key
    ds = xr.open_dataset(hdr, engine="omnihsr", chunks={"y": 8})
    assert list(ds.data_vars) == ["band_data"] and ds.encoding["source"] == str(hdr)
    same(ds["band_data"], want)


@pytest.mark.parametrize("path,opts", [(SAMPLE, {}),
                                       (PRODUCTS / "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc", {}),
                                       (PRODUCTS / "noisy_bands.h5", {}),
                                       (ROOT / "hsi" / "npy" / "testdata" / "float32_C_le.npy", {})],
                         ids=["geotiff", "emit-swath", "hdf5-chunked", "npy"])
@pytest.mark.filterwarnings("ignore:The specified Dask chunks separate")  # 5-row windows on purpose
def test_engine_formats_stream(path: Path, opts: dict) -> None:
    """TIFF, HDF5/NetCDF-4 datasets and C-order NPY stream window by window
    as ENVI does: the same values as omnihsr.open."""
    dask = pytest.importorskip("dask.array")
    da = xr.open_dataarray(path, engine="omnihsr", chunks={"y": 5}, **opts)
    assert isinstance(da.data, dask.Array) and da.encoding["omnihsr_streams"] is True
    same(da, omnihsr.open(path, **opts))


@pytest.mark.parametrize("path,opts", [(ROOT / "hsi" / "npy" / "testdata" / "float32_F_le.npy", {}),
                                       (PRODUCTS / "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc", {"ortho": True})],
                         ids=["npy-fortran", "emit-ortho"])
def test_engine_formats_read_whole(path: Path, opts: dict) -> None:
    dask = pytest.importorskip("dask.array")
    da = xr.open_dataarray(path, engine="omnihsr", chunks={"y": 64}, **opts)
    assert isinstance(da.data, dask.Array) and da.encoding["omnihsr_streams"] is False
    same(da, omnihsr.open(path, **opts))


def test_engine_chunks_follow_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """chunks={} gives dask chunks of whole strip or tile rows of a TIFF, at
    least CHUNK_BYTES each (here one tile row is enough), and chunks that
    split them are warned about; an ENVI file has no preferred chunks, and
    small strips are grouped."""
    dask = pytest.importorskip("dask.array")
    from omnihsr import _backend
    monkeypatch.setattr(_backend, "CHUNK_BYTES", 1)
    rasterio = pytest.importorskip("rasterio")
    a = np.arange(3 * 40 * 32, dtype=np.float32).reshape(3, 40, 32)
    tif = tmp_path / "tiled.tif"
    with rasterio.open(tif, "w", driver="GTiff", width=32, height=40, count=3, dtype="float32", tiled=True,
                       blockxsize=16, blockysize=16, compress="deflate") as dst:
        dst.write(a)
    da = xr.open_dataarray(tif, engine="omnihsr", chunks={})
    assert isinstance(da.data, dask.Array)
    assert da.encoding["preferred_chunks"] == {"band": 3, "y": 16, "x": 32}
    assert da.chunks == ((3,), (16, 16, 8), (32,))
    assert np.array_equal(da.values, a)
    with pytest.warns(UserWarning, match="separate the stored chunks"):
        xr.open_dataarray(tif, engine="omnihsr", chunks={"y": 10})
    hdr = scene(tmp_path, 23, 17)
    assert "preferred_chunks" not in xr.open_dataarray(hdr, engine="omnihsr").encoding
    # A tile row holds 16 x 32 x 3 float32, 6 KiB: 16 KiB takes three of them.
    monkeypatch.setattr(_backend, "CHUNK_BYTES", 16 << 10)
    assert xr.open_dataarray(tif, engine="omnihsr", chunks={}).chunks == ((3,), (40,), (32,))
    assert _backend.preferred_rows(16, 40, 32, 3) == 40 and _backend.preferred_rows(16, 400, 32, 3) == 48
    assert _backend.preferred_rows(0, 40, 32, 3) == 0


def test_engine_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        xr.open_dataarray(tmp_path / "none.hdr", engine="omnihsr")
    with pytest.raises((omnihsr.OptionError, TypeError), match="unknown reader option|unexpected keyword"):
        xr.open_dataarray(SAMPLE, engine="omnihsr", bogus=1)


def test_encoder_is_global() -> None:
    """Why a dask input is computed whole: one changed pixel in a corner
    changes the model's output in the far corner (the encoder's attention
    sums over every pixel), while bicubic's stays the same. No overlap
    makes windows equal the whole-scene result."""
    rng = np.random.default_rng(11)
    x = (1 + 0.1 * rng.random((48, 48, 8))).astype(np.float32)
    y = x.copy()
    y[0, 0, :] += 0.5
    for method, changes in (("omnihsr", True), ("bicubic", False)):
        a = omnihsr.upscale(x, scale=2, method=method, noise="clean")
        b = omnihsr.upscale(y, scale=2, method=method, noise="clean")
        far = np.abs(a[-8:, -8:] - b[-8:, -8:]).max()
        assert (far > 0) == changes, (method, far)
