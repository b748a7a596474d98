"""omnihsr.open reads every format and product as `omnihsr convert` does."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

import omnihsr
from conftest import PRODUCTS, ROOT, SAMPLE, floats, read_envi, run_cli, write_envi

HSI = ROOT / "hsi"
DESIS = "DESIS-HSI-L2A-DT0865788448_017-20230607T153935-V0220-SPECTRAL_IMAGE.tif"
ENMAP = "ENMAP01-____L2A-DT0000004950_20221103T102316Z_001_V010303_20221104T083010Z-SPECTRAL_IMAGE.TIF"

# (file, reader options, the product or format open reports)
FILES = [
    (PRODUCTS / "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc", {}, "EMIT"),
    (PRODUCTS / "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc", {"ortho": True}, "EMIT"),
    (PRODUCTS / "PRS_L2D_STD_20210615102030_20210615102034_0001.he5", {}, "PRISMA"),
    (PRODUCTS / "prisma_l2c.he5", {}, "PRISMA"),
    (PRODUCTS / ENMAP, {}, "EnMAP"),
    (PRODUCTS / "desis_xml" / DESIS, {}, "DESIS"),
    (PRODUCTS / "ang20200712t182253_corr_v2y1_img.hdr", {}, "AVIRIS-NG"),
    (PRODUCTS / "NEON_D17_SJER_DP3_257000_4112000_reflectance.h5", {}, "NEON"),
    (PRODUCTS / "NEON_D17_SJER_DP1_20210316_181536_reflectance.h5", {}, "NEON"),
    (PRODUCTS / "generic_hwb.nc", {}, ""),
    (PRODUCTS / "generic_bhw.h5", {"var": "data/cube", "layout": "bhw"}, ""),
    (HSI / "envi" / "testdata" / "gdal_int16_bil.hdr", {}, ""),
    (HSI / "envi" / "testdata" / "spectral_float32_bip_1.hdr", {}, ""),
    (SAMPLE, {}, ""),
    (HSI / "matfile" / "testdata" / "v5_single_3d_z.mat.golden", {}, ""),
]


def flags(opts: dict) -> list:
    out = []
    for k, v in opts.items():
        out += [f"-{k}"] if v is True else [f"-{k}", str(v)]
    return out


@pytest.mark.parametrize("path,opts,product", FILES, ids=lambda v: v.name if isinstance(v, Path) else None)
def test_open_equals_convert(tmp_path: Path, cli: str, path: Path, opts: dict, product: str) -> None:
    if path.name.endswith(".mat.golden"):
        path = Path(shutil.copy(path, tmp_path / "in.mat"))
    da = omnihsr.open(path, **opts)
    run_cli(cli, "convert", "-in", str(path), "-out", str(tmp_path / "c.hdr"), *flags(opts))
    want, hdr = read_envi(tmp_path / "c.hdr")
    assert da.dims == ("band", "y", "x") and da["band"].values[0] == 1
    assert da.dtype == np.float32
    assert da.shape == want.transpose(2, 0, 1).shape
    assert np.array_equal(da.transpose("y", "x", "band").values, want, equal_nan=True)
    assert not {"source", "format", "layout", "data_type"} & set(da.attrs), da.attrs
    assert product in da.attrs.get("product", "") + da.attrs.get("description", ""), da.attrs
    if "wavelength" in hdr:
        assert np.array_equal(da["wavelength"].values, floats(hdr["wavelength"]))
        assert da.attrs["wavelength_units"].lower() == hdr["wavelength units"].lower()
    else:
        assert "wavelength" not in da.coords
    if "fwhm" in hdr:
        assert np.array_equal(da["fwhm"].values, floats(hdr["fwhm"]))
    if "bbl" in hdr:
        assert np.array_equal(~da["bad_band"].values, np.array(floats(hdr["bbl"])) == 1)
    if "data ignore value" in hdr:
        nd = float(hdr["data ignore value"])
        assert da.attrs["_FillValue"] == nd or (np.isnan(nd) and np.isnan(da.attrs["_FillValue"]))
        assert da.rio.nodata == nd or (np.isnan(nd) and np.isnan(da.rio.nodata))
    if "map info" in hdr:
        assert da.rio.crs is not None
        mi = [s.strip() for s in hdr["map info"].split(",")]
        x0, y0 = float(mi[3]), float(mi[4])  # the upper-left corner of pixel (1, 1)
        t = da.rio.transform()
        assert (t.c, t.f) == pytest.approx((x0, y0)), (t, mi)
        assert (np.hypot(t.a, t.d), np.hypot(t.b, t.e)) == pytest.approx((float(mi[5]), float(mi[6])))
        if "rotation" in hdr["map info"]:  # no x and y coordinates on a rotated grid
            assert t.b != 0 and "x" not in da.coords
        else:
            assert da["x"].values[0] == pytest.approx(x0 + t.a / 2)


def test_open_sample_as_rioxarray() -> None:
    """The GeoTIFF sample reads as rioxarray (GDAL) reads it."""
    rioxarray = pytest.importorskip("rioxarray")
    da = omnihsr.open(SAMPLE)
    ref = rioxarray.open_rasterio(SAMPLE)  # (band, y, x)
    assert da.dims == ref.dims and np.array_equal(da["band"].values, ref["band"].values)
    assert np.array_equal(da.values, ref.values.astype(np.float32))
    assert da.rio.crs == ref.rio.crs and da.rio.crs.to_epsg() == 31985
    assert da.rio.transform() == ref.rio.transform()
    assert np.allclose(da["x"].values, ref["x"].values) and np.allclose(da["y"].values, ref["y"].values)


def test_open_envi_and_upscale_keeps_coords(tmp_path: Path) -> None:
    x = (np.arange(9 * 8 * 4, dtype=np.float32).reshape(9, 8, 4) % 17) + 1
    x[2, 3, 1] = -9999
    wl = [450.5, 550, 650, 850]
    hdr = write_envi(tmp_path / "x", x, wavelength_units="Nanometers", wavelength="{" + ", ".join(map(str, wl)) + "}",
                     fwhm="{10, 10, 12, 20}", data_ignore_value="-9999",
                     map_info="{UTM, 1, 1, 500000, 4200000, 30, 30, 33, North, WGS-84}")
    da = omnihsr.open(hdr)
    assert da.dims == ("band", "y", "x") and da.shape == (4, 9, 8)
    assert list(da["wavelength"].values) == wl
    assert da.rio.crs.to_epsg() == 32633
    assert tuple(da.rio.transform())[:6] == (30, 0, 500000, 0, -30, 4200000)
    assert da["x"].values[0] == 500015 and da["y"].values[0] == 4199985
    assert np.array_equal(da.transpose("y", "x", "band").values, x)
    assert da.hsi.sel(wavelength=640, method="nearest")["band"].item() == 3
    da.attrs["note"] = "kept"

    sr = omnihsr.upscale(da, scale=2)
    assert sr.dims == ("band", "y", "x") and sr.shape == (4, 18, 16)
    assert sr.hsi.sel(wavelength=860, method="nearest")["band"].item() == 4
    assert list(sr["wavelength"].values) == wl and list(sr["fwhm"].values) == [10, 10, 12, 20]
    assert sr.attrs["note"] == "kept" and sr.attrs["_FillValue"] == -9999
    assert sr.rio.crs.to_epsg() == 32633
    assert tuple(sr.rio.transform())[:6] == (15, 0, 500000, 0, -15, 4200000)
    assert np.allclose(sr["x"].values, 500000 + 7.5 + 15 * np.arange(16))
    assert np.allclose(sr["y"].values, 4200000 - 7.5 - 15 * np.arange(18))
    # The no-data value went with the data (the declared value, from _FillValue).
    assert sr.transpose("y", "x", "band").values.tobytes() == omnihsr.upscale(x, scale=2, nodata=-9999).tobytes()


def test_upscale_rioxarray_band_first() -> None:
    """A (band, y, x) DataArray from rioxarray comes back in its dim order,
    with its CRS, on the same footprint with half the pixel size."""
    rioxarray = pytest.importorskip("rioxarray")
    da = rioxarray.open_rasterio(SAMPLE)[:, 100:140, 50:80]
    sr = omnihsr.upscale(da, scale=2, method="bicubic")
    assert sr.dims == ("band", "y", "x") and sr.shape == (6, 80, 60)
    assert sr.rio.crs == da.rio.crs
    assert sr.rio.resolution() == pytest.approx(tuple(r / 2 for r in da.rio.resolution()))
    assert sr.rio.bounds() == pytest.approx(da.rio.bounds())
    assert np.array_equal(sr["band"].values, da["band"].values)
    want = omnihsr.upscale(np.asarray(da.values).transpose(1, 2, 0), scale=2, method="bicubic")
    assert np.array_equal(sr.values.transpose(1, 2, 0), want)


def test_dataarray_without_georeferencing() -> None:
    da = xr.DataArray(np.ones((5, 6, 3), np.float32), dims=("y", "x", "band"),
                      coords={"wavelength": ("band", [1.0, 2.0, 3.0])}, attrs={"a": 1})
    sr = omnihsr.upscale(da, size=(10, 9), method="bicubic")
    assert sr.shape == (10, 9, 3) and sr.attrs == {"a": 1} and list(sr["wavelength"].values) == [1, 2, 3]
    assert "x" not in sr.coords


def test_open_npy_and_read(tmp_path: Path, cli: str) -> None:
    x = np.random.default_rng(8).random((6, 7, 5)).astype(np.float64)
    np.save(tmp_path / "x.npy", x)
    da = omnihsr.open(tmp_path / "x.npy")
    run_cli(cli, "convert", "-in", str(tmp_path / "x.npy"), "-out", str(tmp_path / "c.hdr"))
    want, _ = read_envi(tmp_path / "c.hdr")
    assert da.dtype == np.float32 and np.array_equal(da.transpose("y", "x", "band").values, want) and np.array_equal(want, x.astype(np.float32))
    data, meta = omnihsr.read(tmp_path / "x.npy")
    assert np.array_equal(data, want) and meta["shape"] == [6, 7, 5] and meta["format"] == "NPY"
    assert meta["data_type"] == "float64" and meta["transform"] is None and meta["wavelengths"] is None
