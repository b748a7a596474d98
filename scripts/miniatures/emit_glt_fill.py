#!/usr/bin/python3
"""Write EMIT L2A miniatures whose GLT uses the fill value -9999.

Run with Debian's python3 (python3-netcdf4, python3-numpy) after
emit_l2a_rfl.py:

    /usr/bin/python3 scripts/miniatures/emit_glt_fill.py hsi/products/testdata

EMIT changed the GLT fill value between versions: the V001 granules
(emit-utils daac_converter.add_glt) mark ortho cells with no swath pixel by
0, later versions by -9999 (NASA emit-sds-l2a issue 20, December 2025).
emit_glt_fill9999.nc is the RFL miniature of emit_l2a_rfl.py with
location/glt_x and glt_y stored with _FillValue -9999 and -9999 in every
cell that held 0; sensor_band_parameters/good_wavelengths is float32 with
the long_name and units of the real V001 granule
(EMIT_L2A_RFL_001_20220903T163129_2224611_012.nc, as NASA's
EMIT-Data-Resources notebooks print it), and location/lat, lon, elev,
glt_x, glt_y carry that granule's long_name and units. Its ortho golden is
emit_golden.json's (the same lookup). emit_glt_negative.nc has one GLT
entry of -5 (neither fill nor a swath index), which the reader must refuse.
"""
import os
import sys

import netCDF4
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
SRC = "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc"

ATTRS = {
    "lat": ("Latitude (WGS-84)", "degrees north"),
    "lon": ("Longitude (WGS-84)", "degrees east"),
    "elev": ("Surface Elevation", "m"),
    "glt_x": ("GLT Sample Lookup", "pixel location"),
    "glt_y": ("GLT Line Lookup", "pixel location"),
}


def write(dst, bad=None):
    with netCDF4.Dataset(os.path.join(OUT, SRC)) as s, netCDF4.Dataset(dst, "w", format="NETCDF4") as d:
        s.set_auto_mask(False)
        d.setncatts({k: s.getncattr(k) for k in s.ncattrs()})
        for n, dim in s.dimensions.items():
            d.createDimension(n, len(dim))
        r = s["reflectance"]
        v = d.createVariable("reflectance", "f4", r.dimensions, fill_value=-9999.0, zlib=True,
                             chunksizes=(2, 2, len(s.dimensions["bands"])))
        v.long_name, v.units = r.long_name, r.units
        v[:] = r[:]
        g = d.createGroup("sensor_band_parameters")
        sg = s["sensor_band_parameters"]
        for n, ln, un in (("wavelengths", "Wavelength Centers", "nm"), ("fwhm", "Full Width at Half Max", "nm"),
                          ("good_wavelengths", "Wavelengths where reflectance is useable: 1 = good data, 0 = bad data",
                           "unitless")):
            x = g.createVariable(n, "f4", ("bands",))
            x[:] = np.asarray(sg[n][:], np.float32)
            x.long_name, x.units = ln, un
        loc = d.createGroup("location")
        sl = s["location"]
        for n, dim in sl.dimensions.items():
            loc.createDimension(n, len(dim))
        for n in ("lat", "lon", "elev"):
            x = loc.createVariable(n, "f8", ("downtrack", "crosstrack"), fill_value=-9999.0)
            x[:] = sl[n][:]
            x.long_name, x.units = ATTRS[n]
        for n in ("glt_x", "glt_y"):
            a = np.array(sl[n][:], np.int32)
            a[a == 0] = -9999
            if bad is not None and n == "glt_x":
                a[bad] = -5
            x = loc.createVariable(n, "i4", ("ortho_y", "ortho_x"), fill_value=-9999)
            x[:] = a
            x.long_name, x.units = ATTRS[n]


def main():
    write(os.path.join(OUT, "emit_glt_fill9999.nc"))
    write(os.path.join(OUT, "emit_glt_negative.nc"), bad=(3, 2))


if __name__ == "__main__":
    main()
