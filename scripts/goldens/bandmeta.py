#!/usr/bin/python3
"""GDAL goldens for the band metadata conventions (hsi/formats).

Run from the repository root with Debian's python3 (python3-gdal,
python3-numpy) and Go on the PATH:

    /usr/bin/python3 scripts/goldens/bandmeta.py

1. GDAL writes two small GeoTIFFs into hsi/formats/testdata/bandmeta/:
   enmapbox.tif with the per-band items EnMAP-Box writes in the default
   metadata domain (wavelength, wavelength_units, fwhm, bbl; micrometres,
   one bad band), and imagery.tif with only GDAL 3.10's IMAGERY domain
   items CENTRAL_WAVELENGTH_UM and FWHM_UM. TestBandMetadataFromGDAL reads
   them.
2. The Go test TestBandMetadataGDAL, run with -bandmeta-dir DIR, writes
   our GeoTIFF and ENVI outputs of a cube with wavelengths in nanometres
   and in micrometres, FWHM, bad bands and band names. `gdalinfo -json
   -mdd all` reads each; what it reports per band, and the SHA-256 of the
   file (the .hdr for ENVI), go into hsi/formats/testdata/bandmeta/
   gdal.json. Without -bandmeta-dir the Go test checks that the writer
   still writes those bytes and that GDAL read every value back.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from osgeo import gdal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "hsi", "formats", "testdata", "bandmeta")
gdal.UseExceptions()


def write_inputs():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(5)
    # EnMAP-Box: per-band items in the default domain, micrometres.
    wl = ["0.4605", "0.5532", "1.3401", "2.4453"]
    fw = ["0.0061", "0.0072", "0.0098", "0.0085"]
    bbl = ["1", "1", "0", "1"]
    ds = gdal.GetDriverByName("GTiff").Create(os.path.join(OUT, "enmapbox.tif"), 3, 2, 4, gdal.GDT_Int16)
    for b in range(4):
        band = ds.GetRasterBand(b + 1)
        band.WriteArray(rng.integers(0, 10000, (2, 3)).astype(np.int16))
        band.SetMetadataItem("wavelength", wl[b])
        band.SetMetadataItem("wavelength_units", "Micrometers")
        band.SetMetadataItem("fwhm", fw[b])
        band.SetMetadataItem("bbl", bbl[b])
        band.SetNoDataValue(-99)
    ds = None
    # GDAL 3.10+: the IMAGERY domain only.
    wl = ["0.443", "0.49", "2.19"]
    fw = ["0.027", "0.098", "0.242"]
    ds = gdal.GetDriverByName("GTiff").Create(os.path.join(OUT, "imagery.tif"), 3, 2, 3, gdal.GDT_Float32)
    for b in range(3):
        band = ds.GetRasterBand(b + 1)
        band.WriteArray(rng.random((2, 3)).astype(np.float32))
        band.SetMetadataItem("CENTRAL_WAVELENGTH_UM", wl[b], "IMAGERY")
        band.SetMetadataItem("FWHM_UM", fw[b], "IMAGERY")
    ds = None
    for name in ("enmapbox.tif", "imagery.tif"):
        info = json.loads(subprocess.check_output(["gdalinfo", "-json", "-mdd", "all", os.path.join(OUT, name)]))
        for b in info["bands"]:
            print(name, b["band"], b.get("metadata"))


def read_ours():
    golden = {"gdal": gdal.VersionInfo("--version"), "files": {}}
    with tempfile.TemporaryDirectory() as d:
        subprocess.check_call(["go", "test", "./hsi/formats/", "-run", "^TestBandMetadataGDAL$", "-count=1",
                               "-bandmeta-dir", d], cwd=ROOT)
        for name in sorted(os.listdir(d)):
            if not name.startswith("ours_") or not (name.endswith(".tif") or name.endswith(".hdr")):
                continue
            p = os.path.join(d, name)
            src = p[:-4] + ".img" if name.endswith(".hdr") else p  # GDAL opens ENVI by its data file
            info = json.loads(subprocess.check_output(["gdalinfo", "-json", "-mdd", "all", src]))
            bands = []
            for b in info["bands"]:
                md = b.get("metadata", {})
                default, imagery = md.get("", {}), md.get("IMAGERY", {})
                bands.append({
                    "description": b.get("description", ""),
                    "wavelength": default.get("wavelength", ""),
                    "wavelength_units": default.get("wavelength_units", ""),
                    "fwhm": default.get("fwhm", ""),
                    "bbl": default.get("bbl", ""),
                    "CENTRAL_WAVELENGTH_UM": imagery.get("CENTRAL_WAVELENGTH_UM", ""),
                    "FWHM_UM": imagery.get("FWHM_UM", ""),
                    "nodata": b.get("noDataValue"),
                })
            with open(p, "rb") as f:
                sha = hashlib.sha256(f.read()).hexdigest()
            golden["files"][name] = {"sha256": sha, "bands": bands}
    with open(os.path.join(OUT, "gdal.json"), "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(golden, indent=1)[:3000])


def main():
    write_inputs()
    read_ours()


if __name__ == "__main__":
    sys.exit(main())
