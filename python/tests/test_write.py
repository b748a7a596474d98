"""omnihsr.write writes what omnihsr.open reads back (issue 42 item 3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import xarray as xr

import omnihsr
from test_shape import WL, scene


@pytest.mark.parametrize("name,opts", [("o.hdr", {}), ("o.hdr", {"interleave": "bip"}), ("o.tif", {}),
                                       ("o.tif", {"compression": "deflate", "creation": ["TILED=YES"]}),
                                       ("o.tif", {"driver": "COG"})])
def test_write_round_trips(tmp_path: Path, name: str, opts: dict) -> None:
    da = omnihsr.open(scene(tmp_path))
    sr = omnihsr.upscale(da, scale=2)
    res = omnihsr.write(sr, tmp_path / name, **opts)
    assert res["path"] == str(tmp_path / name) and not res["dropped"], res
    back = omnihsr.open(tmp_path / name)
    assert back.dims == ("band", "y", "x") and np.array_equal(back.values, sr.values)
    assert list(back["wavelength"].values) == WL and list(back["fwhm"].values) == list(sr["fwhm"].values)
    assert list(back["bad_band"].values) == list(sr["bad_band"].values) == [False] * 4 + [True, False]
    assert back.rio.crs == sr.rio.crs and back.rio.crs.to_epsg() == 32633
    assert back.rio.transform() == sr.rio.transform()
    assert back.rio.nodata == sr.rio.nodata == -9999
    assert np.array_equal(back["x"].values, sr["x"].values) and np.array_equal(back["y"].values, sr["y"].values)


@pytest.mark.parametrize("name", ["o.npy", "o.mat"])
def test_write_formats_without_metadata(tmp_path: Path, name: str) -> None:
    da = omnihsr.open(scene(tmp_path))
    with pytest.warns(UserWarning, match="not written"):
        res = omnihsr.write(da, tmp_path / name)
    assert res["dropped"]
    back = omnihsr.open(tmp_path / name)
    assert np.array_equal(back.values, da.values)


def test_write_types_and_options(tmp_path: Path) -> None:
    da = omnihsr.open(scene(tmp_path))
    omnihsr.write(da, tmp_path / "u.tif", type="int16")
    back = omnihsr.open(tmp_path / "u.tif")
    assert np.array_equal(back.values, np.round(da.values)) and back.encoding["omnihsr_data_type"] == "int16"
    with pytest.raises(omnihsr.OmniHSRError, match="interleave"):
        omnihsr.write(da, tmp_path / "x.tif", interleave="bil")
    with pytest.raises(omnihsr.OptionError, match="type"):
        omnihsr.write(da, tmp_path / "x.tif", type="complex")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scene.hdr", "scene.img", "u.tif"]


def test_write_numpy_and_encoded_nodata(tmp_path: Path) -> None:
    rasterio = pytest.importorskip("rasterio")
    a = np.arange(4 * 5 * 3, dtype=np.float32).reshape(3, 4, 5)
    t = (500000.0, 10.0, 0.0, 4200000.0, 0.0, -10.0)
    omnihsr.write(a, tmp_path / "n.tif", layout="BHW", crs="EPSG:32633", transform=t, nodata=-1, wavelengths=[500, 600, 700])
    with rasterio.open(tmp_path / "n.tif") as f:
        assert f.crs.to_epsg() == 32633 and tuple(f.transform.to_gdal()) == t and f.nodata == -1
        assert np.array_equal(f.read(), a)
    back = omnihsr.open(tmp_path / "n.tif")
    assert list(back["wavelength"].values) == [500, 600, 700]
    # rioxarray's masked=True: NaN in memory, the encoded value on disk.
    import rioxarray
    m = rioxarray.open_rasterio(tmp_path / "n.tif", masked=True).load()
    assert m.rio.encoded_nodata == -1
    m.values[0, 1, 2] = np.nan  # a no-data sample
    omnihsr.write(m, tmp_path / "m.tif")
    with rasterio.open(tmp_path / "m.tif") as f:
        got = f.read()
        assert f.nodata == -1 and got[0, 1, 2] == -1 and np.count_nonzero(got == -1) == 1
    with pytest.raises(omnihsr.OptionError, match="layout="):
        omnihsr.write(np.zeros((3, 16, 20), np.float32), tmp_path / "bad.tif")
