#!/usr/bin/python3
"""Write an EMIT-sized L2A reflectance granule (NetCDF4, 1280 downtrack x
1242 crosstrack x 285 bands, 1.81 GB of float32) with the structure of the
committed miniature, for timing readers. Never write it into the repository.

    /usr/bin/python3 scripts/bench/emit_sized.py /tmp/emit_contiguous.nc contiguous
    /usr/bin/python3 scripts/bench/emit_sized.py /tmp/emit_deflate.nc deflate

The global attributes, band parameters and variable attributes are copied
from hsi/products/testdata/EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc
(scripts/miniatures/emit_l2a_rfl.py cites their sources). `contiguous`
stores the reflectance as emit-sds-l2a's DAAC converter writes it
(daac_converter.add_variable without zlib: netCDF-C's contiguous storage);
`deflate` chunks it as netCDF-C chooses by default with zlib level 4 and
the shuffle filter. Values: a smooth spectrum per pixel plus Gaussian noise
of 0.002 (so that deflate does not see constant runs), -9999 in every band
of one pixel in 1000, good_wavelengths 0 in the two water-vapour windows.
"""
import os
import sys

import netCDF4
import numpy as np

MINI = os.path.join(os.path.dirname(__file__), "..", "..", "hsi", "products", "testdata",
                    "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc")
H, W, B = 1280, 1242, 285
OH, OW = 1886, 2298


def main():
    out, mode = sys.argv[1], sys.argv[2]
    if mode not in ("contiguous", "deflate"):
        sys.exit("mode: contiguous or deflate")
    with netCDF4.Dataset(MINI) as src:
        gattrs = {k: src.getncattr(k) for k in src.ncattrs()}
        vattrs = {k: src["reflectance"].getncattr(k) for k in src["reflectance"].ncattrs() if k != "_FillValue"}
    wl = np.linspace(381.0, 2493.0, B).astype(np.float32)
    good = np.ones(B, np.uint8)
    good[(wl > 1340) & (wl < 1450)] = 0
    good[(wl > 1800) & (wl < 1960)] = 0
    rng = np.random.default_rng(1)
    with netCDF4.Dataset(out, "w", format="NETCDF4") as ds:
        for k, v in gattrs.items():
            ds.setncattr(k, v)
        ds.createDimension("downtrack", H)
        ds.createDimension("crosstrack", W)
        ds.createDimension("bands", B)
        kw = dict(zlib=True, complevel=4, shuffle=True) if mode == "deflate" else dict(contiguous=True)
        v = ds.createVariable("reflectance", "f4", ("downtrack", "crosstrack", "bands"), fill_value=-9999.0, **kw)
        for k, a in vattrs.items():
            v.setncattr(k, a)
        spec = (0.2 + 0.1 * np.sin(np.arange(B) / 20.0)).astype(np.float32)
        for r0 in range(0, H, 64):
            r1 = min(H, r0 + 64)
            blk = spec[None, None, :] * (1 + 0.001 * np.arange(r0, r1)[:, None, None]) \
                + rng.normal(0, 0.002, (r1 - r0, W, B)).astype(np.float32)
            blk = blk.astype(np.float32)
            blk.reshape(-1, B)[::1000] = -9999.0
            v[r0:r1] = blk
        g = ds.createGroup("sensor_band_parameters")
        g.createVariable("wavelengths", "f4", ("bands",))[:] = wl
        g["wavelengths"].units = "nm"
        g.createVariable("fwhm", "f4", ("bands",))[:] = np.full(B, 8.5, np.float32)
        g["fwhm"].units = "nm"
        g.createVariable("good_wavelengths", "u1", ("bands",))[:] = good
        loc = ds.createGroup("location")
        loc.createDimension("ortho_y", OH)
        loc.createDimension("ortho_x", OW)
        yy, xx = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
        for name, arr in (("lat", 34.1 - 0.0005 * yy), ("lon", -118.25 + 0.0005 * xx), ("elev", 100.0 + 0 * yy)):
            loc.createVariable(name, "f8", ("downtrack", "crosstrack"), fill_value=-9999.0)[:] = arr
        oy, ox = np.meshgrid(np.arange(OH), np.arange(OW), indexing="ij")
        gy = (oy * H) // OH + 1
        gx = (ox * W) // OW + 1
        gx[(oy + ox) % 7 == 0] = 0
        for name, arr in (("glt_x", gx), ("glt_y", gy)):
            loc.createVariable(name, "i4", ("ortho_y", "ortho_x"), fill_value=0)[:] = arr.astype(np.int32)
    with netCDF4.Dataset(out) as ds:
        v = ds["reflectance"]
        print(out, v.shape, "chunking", v.chunking(), "filters", v.filters(), os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
