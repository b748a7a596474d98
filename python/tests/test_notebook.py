"""What an analyst does in a notebook (issue 42 item 7): open a
georeferenced GeoTIFF and an ENVI file with wavelengths, select bands by
wavelength, upscale x2 and x3.5, write with omnihsr.write and with
.rio.to_raster, reopen with rasterio and omnihsr.open, and compare CRS,
transform, wavelengths and values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import omnihsr
from conftest import SAMPLE
from test_shape import WL, scene


def test_notebook(tmp_path: Path) -> None:
    rasterio = pytest.importorskip("rasterio")
    rioxarray = pytest.importorskip("rioxarray")

    # A georeferenced GeoTIFF, as omnihsr and as rioxarray open it.
    tif = omnihsr.open(SAMPLE)[:, 100:160, 40:90]
    ref = rioxarray.open_rasterio(SAMPLE)[:, 100:160, 40:90]
    assert tif.dims == ref.dims and tif.rio.crs == ref.rio.crs and tif.rio.transform() == ref.rio.transform()
    # An ENVI file with wavelengths; the red, green and NIR bands by wavelength.
    env = omnihsr.open(scene(tmp_path, 30, 26))
    rgbn = env.hsi.sel(wavelength=[650, 550, 850], method="nearest")
    assert list(rgbn["wavelength"].values) == [655, 520, 860] and list(rgbn["band"].values) == [4, 2, 6]

    for s in (2, 3.5):
        for name, da in (("tif", tif), ("envi", rgbn)):
            sr = omnihsr.upscale(da, scale=s)
            h, w = round(da.sizes["y"] * s), round(da.sizes["x"] * s)
            assert sr.dims == ("band", "y", "x") and sr.shape == (da.sizes["band"], h, w)
            assert sr.rio.crs == da.rio.crs
            assert sr.rio.bounds() == pytest.approx(da.rio.bounds())
            # omnihsr.write, then .rio.to_raster.
            mine, theirs = tmp_path / f"{name}_x{s}.tif", tmp_path / f"{name}_x{s}_rio.tif"
            omnihsr.write(sr, mine)
            omnihsr.write(sr, tmp_path / f"{name}_x{s}.hdr")
            sr.rio.to_raster(theirs)
            sr.rio.to_raster(exact := tmp_path / f"{name}_x{s}_rio_exact.tif", recalc_transform=False)
            for p in (mine, theirs, exact):
                with rasterio.open(p) as f:
                    assert f.crs == sr.rio.crs and np.array_equal(f.read(), sr.values), p
                    if p == theirs:
                        # rioxarray recomputes the transform from the x/y
                        # coordinates by default: the last bits may differ.
                        assert f.transform.almost_equals(sr.rio.transform(), precision=1e-9), (f.transform, p)
                    else:
                        assert f.transform == sr.rio.transform(), p
            for p in (mine, tmp_path / f"{name}_x{s}.hdr"):
                back = omnihsr.open(p)
                assert back.rio.crs == sr.rio.crs and back.rio.transform() == sr.rio.transform(), p
                assert np.array_equal(back.values, sr.values) and np.array_equal(back["band"].values, np.arange(1, sr.sizes["band"] + 1))
                if name == "envi":
                    assert list(back["wavelength"].values) == [655, 520, 860], p
                    assert back.rio.nodata == -9999
    assert WL[3] == 655
