"""The shapes analysts expect (issue 42): rioxarray's DataArray, selection
by wavelength, plain arrays in either layout, masked arrays, dims found by
name, and the options' errors naming the option (issue 39's Python list)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

import omnihsr
from omnihsr import _xr
from conftest import SAMPLE, write_envi

WL = [450.0, 520.0, 600.0, 655.0, 710.0, 860.0]


def scene(tmp_path: Path, h: int = 12, w: int = 10) -> Path:
    """A small georeferenced ENVI scene with wavelengths, FWHM, a bad band
    and a no-data value; returns its header."""
    y, x = np.mgrid[0:h, 0:w]
    a = np.stack([1 + np.sin(x / 3 + b) * np.cos(y / 4) + b / 10 for b in range(len(WL))], axis=-1).astype(np.float32)
    a[2, 3, :] = -9999
    return write_envi(tmp_path / "scene", a, wavelength_units="Nanometers",
                      wavelength="{" + ", ".join(map(str, WL)) + "}", fwhm="{10, 10, 12, 12, 14, 20}",
                      bbl="{1, 1, 1, 1, 0, 1}", data_ignore_value="-9999",
                      map_info="{UTM, 1, 1, 500000, 4200000, 30, 30, 33, North, WGS-84}")


def test_open_is_rioxarray_shaped(tmp_path: Path) -> None:
    da = omnihsr.open(scene(tmp_path))
    assert da.dims == ("band", "y", "x") and da.shape == (6, 12, 10)
    assert da["band"][0] == 1 and list(da["band"].values) == [1, 2, 3, 4, 5, 6]
    assert da.hsi.sel(wavelength=650, method="nearest")["band"].item() == 4
    assert da.hsi.sel(wavelength=650, method="nearest")["wavelength"].item() == 655
    assert list(da.hsi.sel(wavelength=[440, 870], method="nearest")["band"].values) == [1, 6]
    assert list(da.hsi.sel(wavelength=slice(500, 700))["band"].values) == [2, 3, 4]
    with pytest.raises(KeyError, match="wavelength 650: no band has it exactly"):
        da.hsi.sel(wavelength=650)
    with pytest.raises(KeyError, match="beyond tolerance"):
        da.hsi.sel(wavelength=650, method="nearest", tolerance=2)
    if _xr.wavelength_index_ok():  # an xarray that aligns two indexes on one dim
        assert da.sel(wavelength=650, method="nearest")["band"].item() == 4
    else:  # xarray <= 2023.01 (pydata/xarray#7695): left unindexed, so that da + da works
        assert "wavelength" not in da.indexes
    assert (da + da).where(da > 0).rio.clip_box(500000, 4199800, 500150, 4200000).shape == (6, 7, 5)
    assert list(da["bad_band"].values) == [False] * 4 + [True, False] and da["bad_band"].dtype == bool
    assert da.rio.nodata == -9999 and da.rio.crs.to_epsg() == 32633
    assert tuple(da.rio.transform())[:6] == (30, 0, 500000, 0, -30, 4200000)
    assert da["x"].values[0] == 500015 and da["y"].values[0] == 4199985  # pixel centres
    # Only what is true of the array: the file is in encoding, not attrs.
    assert not {"source", "format", "layout", "data_type"} & set(da.attrs), da.attrs
    assert da.encoding["source"] == str(tmp_path / "scene.hdr")


def test_upscaled_dataarray_to_raster(tmp_path: Path) -> None:
    """upscale(da).rio.to_raster writes a file whose CRS and transform
    rasterio reads back exactly; reproject and clip work with no transpose."""
    rasterio = pytest.importorskip("rasterio")
    da = omnihsr.open(scene(tmp_path))
    sr = omnihsr.upscale(da, scale=2)
    assert sr.dims == ("band", "y", "x") and sr.shape == (6, 24, 20)
    assert sr.hsi.sel(wavelength=650, method="nearest")["band"].item() == 4
    sr.rio.to_raster(tmp_path / "sr.tif")
    with rasterio.open(tmp_path / "sr.tif") as f:
        assert f.crs == sr.rio.crs and f.crs.to_epsg() == 32633
        assert f.transform == sr.rio.transform() and tuple(f.transform)[:6] == (15, 0, 500000, 0, -15, 4200000)
        assert f.nodata == -9999
        assert np.array_equal(f.read(), sr.values)
        tags = f.tags()
        assert "source" not in tags and "format" not in tags, tags
    rp = sr.rio.reproject("EPSG:4326")
    assert rp.dims == ("band", "y", "x") and rp.rio.crs.to_epsg() == 4326
    box = sr.rio.clip_box(500000, 4200000 - 150, 500150, 4200000)
    assert box.shape == (6, 10, 10)


def test_rasterio_order_refused_then_layout(tmp_path: Path) -> None:
    rasterio = pytest.importorskip("rasterio")
    with rasterio.open(SAMPLE) as f:
        a = f.read()[:, :60, :50]  # (bands, rows, cols) = (6, 60, 50)
    with pytest.raises(omnihsr.OptionError, match=r'layout="BHW"'):
        omnihsr.upscale(a, scale=2, method="bicubic")
    got = omnihsr.upscale(a, scale=2, method="bicubic", layout="BHW")
    assert got.shape == (6, 120, 100)
    want = omnihsr.upscale(np.ascontiguousarray(a.transpose(1, 2, 0)), scale=2, method="bicubic")
    assert np.array_equal(got, want.transpose(2, 0, 1))
    out = np.empty((6, 120, 100), np.float32)
    assert omnihsr.upscale(a, scale=2, method="bicubic", layout="BHW", out=out) is out and np.array_equal(out, got)
    # Declared as (rows, cols, bands) it is taken so.
    assert omnihsr.upscale(a[:, :8, :8], scale=2, method="bicubic", layout="HWB").shape == (12, 16, 8)
    with pytest.raises(omnihsr.OptionError, match="layout 'WHB'"):
        omnihsr.upscale(a, scale=2, layout="WHB")


def test_masked_array() -> None:
    rng = np.random.default_rng(3)
    a = (1 + rng.random((10, 9, 4))).astype(np.float32)
    mask = np.zeros(a.shape, bool)
    mask[4, 5, :] = True
    ma = np.ma.MaskedArray(a, mask=mask)
    sr = omnihsr.upscale(ma, scale=2, noise="clean")
    assert isinstance(sr, np.ma.MaskedArray) and sr.shape == (20, 18, 4)
    # The masked samples are the no-data samples NaN would be.
    nan = a.copy()
    nan[mask] = np.nan
    want = omnihsr.upscale(nan, scale=2, noise="clean")
    assert np.array_equal(sr.filled(np.nan), want, equal_nan=True)
    assert np.array_equal(np.ma.getmaskarray(sr), np.isnan(want)) and sr.mask[8:10, 10:12].all()
    assert sr.mask.sum() == 4 * 4
    assert not np.isnan(a).any()  # the input is not modified
    # Unmasked, the same values are data: another result.
    assert not np.array_equal(omnihsr.upscale(a, scale=2, noise="clean"), want, equal_nan=True)


@pytest.mark.parametrize("dims", [("band", "lat", "lon"), ("lat", "lon", "band"), ("wavelength", "y", "x"),
                                  ("row", "col", "band"), ("latitude", "band", "longitude")])
def test_dims_by_name(dims: tuple) -> None:
    rng = np.random.default_rng(4)
    hwb = (1 + rng.random((8, 7, 4))).astype(np.float32)
    order = [{"band": 2, "wavelength": 2}.get(d, 0 if d in ("lat", "row", "latitude", "y") else 1) for d in dims]
    da = xr.DataArray(hwb.transpose(order), dims=dims)
    sr = omnihsr.upscale(da, scale=2, method="bicubic")
    assert sr.dims == dims
    want = omnihsr.upscale(hwb, scale=2, method="bicubic")
    assert np.array_equal(sr.values, want.transpose(order))


def test_dims_refused() -> None:
    da = xr.DataArray(np.ones((4, 5, 6), np.float32), dims=("a", "b", "c"))
    with pytest.raises(omnihsr.OptionError, match=r"\('a', 'b', 'c'\)"):
        omnihsr.upscale(da, scale=2)
    da = xr.DataArray(np.ones((4, 5, 6), np.float32), dims=("band", "y", "time"))
    with pytest.raises(omnihsr.OptionError, match=r"\('band', 'y', 'time'\)"):
        omnihsr.upscale(da, scale=2)
    with pytest.raises(omnihsr.OptionError, match="want three"):
        omnihsr.upscale(xr.DataArray(np.ones((2, 4, 5, 6), np.float32), dims=("t", "band", "y", "x")), scale=2)


def test_irregular_and_datetime_coords_refused() -> None:
    a = np.ones((3, 6, 5), np.float32)
    irregular = xr.DataArray(a, dims=("band", "y", "x"), coords={"y": [0, 1, 2, 4, 8, 16], "x": np.arange(5.0)})
    with pytest.raises(omnihsr.OptionError, match="coordinate 'y' is not a regular grid"):
        omnihsr.upscale(irregular, scale=2)
    times = xr.DataArray(a, dims=("band", "y", "x"),
                         coords={"x": np.arange(5.0), "y": np.arange("2020-01-01", "2020-01-07", dtype="datetime64[D]")})
    with pytest.raises(omnihsr.OptionError, match="coordinate 'y' of dtype datetime64"):
        omnihsr.upscale(times, scale=2)
    # Regular coordinates (descending, float32-rounded) are a grid.
    ok = xr.DataArray(a, dims=("band", "y", "x"),
                      coords={"y": np.float32(100.3) - 0.1 * np.arange(6, dtype=np.float32), "x": np.arange(5.0)})
    sr = omnihsr.upscale(ok, scale=2, method="bicubic")
    assert sr.shape == (3, 12, 10) and sr["y"].values[0] == pytest.approx(100.3 + 0.025, abs=1e-4)


def test_fill_value_and_bad_band_coords() -> None:
    a = np.ones((3, 6, 5), np.float32)
    a[0, 1, 1] = -1
    da = xr.DataArray(a, dims=("band", "y", "x"), attrs={"_FillValue": "none"})
    sr, res = omnihsr.upscale(da, scale=2, method="bicubic", return_result=True)
    assert res["nodata_samples"] == 0
    da.attrs["_FillValue"] = "-1"
    sr, res = omnihsr.upscale(da, scale=2, method="bicubic", return_result=True)
    assert res["nodata_samples"] == 1 and sr.rio.nodata == -1
    da.attrs["_FillValue"] = "nodata"
    with pytest.raises(omnihsr.OptionError, match="_FillValue 'nodata'"):
        omnihsr.upscale(da, scale=2)
    del da.attrs["_FillValue"]
    da = da.assign_coords(bad_band=("band", ["false", "true", "false"]))
    _, res = omnihsr.upscale(da, scale=2, return_result=True)
    assert res["bad_bands"] == 1
    da = da.assign_coords(bad_band=("band", ["maybe", "true", "false"]))
    with pytest.raises(omnihsr.OptionError, match="bad_band"):
        omnihsr.upscale(da, scale=2)
    da = da.assign_coords(bad_band=("band", [0, 2, 1]))
    with pytest.raises(omnihsr.OptionError, match="bad_band"):
        omnihsr.upscale(da, scale=2)


@pytest.mark.parametrize("kwargs,text", [
    ({"scale": float("nan")}, "scale nan: want a finite number"),
    ({"scale": float("inf")}, "scale inf: want a finite number"),
    ({"scale": "2"}, "scale '2': want a number"),
    ({"scale": 2, "noise": float("nan")}, "noise nan: want a finite number"),
    ({"scale": 2, "noise": [0.1, float("inf"), 0.1]}, "noise inf: want a finite number"),
    ({"size": (0, 0)}, "size (0, 0): want a positive height and width"),
    ({"size": (1.5, 2.7)}, "size (1.5, 2.7): want two whole numbers"),
    ({"size": (4, 5, 6)}, "size (4, 5, 6): want (height, width)"),
    ({}, "give scale (a factor) or size"),
    ({"scale": 2, "method": 3}, "method 3"),
    ({"scale": 2, "progress": 5}, "progress 5"),
    ({"scale": 2, "progress_units": "percent"}, "progress_units 'percent'"),
])
def test_option_errors_name_the_option(kwargs: dict, text: str) -> None:
    with pytest.raises(omnihsr.OptionError) as e:
        omnihsr.upscale(np.ones((4, 5, 3), np.float32), **kwargs)
    assert text in str(e.value)


def test_numpy_scalars_and_whole_float_sizes() -> None:
    x = np.ones((4, 5, 3), np.float32)
    want = omnihsr.upscale(x, scale=2, method="bicubic")
    assert np.array_equal(omnihsr.upscale(x, scale=np.float32(2), method="bicubic"), want)
    assert np.array_equal(omnihsr.upscale(x, size=(np.int64(8), 10.0), method="bicubic"), want)


def test_empty_input() -> None:
    with pytest.raises(omnihsr.OptionError, match=r"input of shape \(0, 5, 3\): empty"):
        omnihsr.upscale(np.ones((0, 5, 3), np.float32), scale=2)


def test_paths_refused_before_work(tmp_path: Path) -> None:
    np.save(tmp_path / "in.npy", np.ones((4, 5, 3), np.float32))
    with pytest.raises(ValueError, match="embedded null byte"):
        omnihsr.upscale_file(tmp_path / "in.npy", str(tmp_path / "out\0.npy"), scale=2)
    with pytest.raises(ValueError, match="embedded null byte"):
        omnihsr.open(str(tmp_path / "in.npy") + "\0.hdr")
    (tmp_path / "d.npy").mkdir()
    with pytest.raises(omnihsr.OptionError, match="is a directory"):
        omnihsr.upscale_file(tmp_path / "in.npy", tmp_path / "d.npy", scale=2)
    os.mkfifo(tmp_path / "f.npy")
    with pytest.raises(omnihsr.OptionError, match="not a regular file"):
        omnihsr.upscale_file(tmp_path / "in.npy", tmp_path / "f.npy", scale=2)
    long = "x" * 251 + ".npy"  # a legal name, but its temporary's would not be
    with pytest.raises(omnihsr.OptionError, match="the name is 255 bytes"):
        omnihsr.upscale_file(tmp_path / "in.npy", tmp_path / long, scale=2)
    # scales= into a folder it would create, whose name is too long: refused
    # before the folder is made (it was left behind after the work).
    with pytest.raises(omnihsr.OptionError, match="the folder name|File name too long"):
        omnihsr.upscale_file(tmp_path / "in.npy", str(tmp_path / ("d" * 300)) + "/", scales=[2, 3])
    with pytest.raises(omnihsr.OptionError, match="the name is"):
        omnihsr.upscale_file(tmp_path / "in.npy", str(tmp_path / ("y" * 240)) + "_{scale}.npy", scales=[2, 3])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.npy", "f.npy", "in.npy"]


def test_interrupt_after_completion_returns() -> None:
    """Ctrl-C arriving as a call completes: the complete result is
    returned, not a KeyboardInterrupt."""
    import _thread
    import time

    from omnihsr import _lib

    def finishes() -> int:
        time.sleep(0.2)  # the calling thread waits for the call by now
        _thread.interrupt_main()
        time.sleep(0.3)  # the interrupt reaches the waiting thread first
        return _lib.STATUS_OK

    _lib.call(finishes)  # returns


def test_dask_input_computed_once() -> None:
    da_ = pytest.importorskip("dask.array")
    rng = np.random.default_rng(5)
    a = (1 + rng.random((4, 40, 36))).astype(np.float32)
    lazy = xr.DataArray(da_.from_array(a, chunks=(4, 16, 16)), dims=("band", "y", "x"))
    with pytest.warns(UserWarning, match="encoder is global"):
        sr = omnihsr.upscale(lazy, scale=2)
    want = omnihsr.upscale(xr.DataArray(a, dims=("band", "y", "x")), scale=2)
    assert np.array_equal(sr.values, want.values)


def test_progress_bar(capsys: pytest.CaptureFixture) -> None:
    pytest.importorskip("tqdm")
    x = np.ones((16, 16, 4), np.float32)
    omnihsr.upscale(x, scale=2, progress=True)
    err = capsys.readouterr().err
    assert "omnihsr.upscale" in err and "100%" in err, err
    omnihsr.upscale(x, scale=2)  # not a terminal: silent
    assert capsys.readouterr().err == ""


def test_help_shows_the_options() -> None:
    doc = omnihsr.upscale.__doc__
    for word in ("layout", "scale", "size", "noise", "nodata", "progress", "masked", "DataArray", "OptionError"):
        assert word in doc, word
    assert omnihsr.upscale.__annotations__["layout"]
    warnings.simplefilter("default")


def test_reader_options_that_do_not_apply(tmp_path: Path) -> None:
    """A reader option the format does not use is refused, naming it."""
    with pytest.raises(omnihsr.OptionError, match="(?i)var"):
        omnihsr.open(scene(tmp_path), var="cube")
