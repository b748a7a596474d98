#!/usr/bin/python3
"""Write a miniature PRISMA L2D granule (HDF-EOS5 .he5) and its goldens.

Run with Debian's python3 (python3-h5py, python3-numpy):

    /usr/bin/python3 scripts/miniatures/prisma_l2d.py hsi/products/testdata

Structure, as in a real PRS_L2D_STD_*.he5 (66 VNIR and 173 SWIR bands; the
L2D grid of SNAP's real product of 2024-04-02 is 1239 x 1213 pixels, the
L1/L2B/L2C swaths 1000 x 1000):
- HDFEOS/SWATHS/PRS_L2D_HCO/Data Fields/VNIR_Cube and SWIR_Cube, uint16
  stored (rows, bands, cols) -- HyperCoast hypercoast/prisma.py
  (read_prisma concatenates the cubes on axis 1, the band axis, and
  transposes (y, wavelength, x) to (y, x, wavelength)); prismaread reads
  the same paths;
- root attributes List_Cw_Vnir / List_Cw_Swir and List_Fwhm_Vnir /
  List_Fwhm_Swir (float32, nm) in the cube's band order, which runs from
  long to short wavelengths (community scripts np.flip the VNIR list), with
  zero-wavelength placeholders flagged 0 in List_Cw_Vnir_Flags /
  List_Cw_Swir_Flags (int8): the VNIR placeholders are the first three
  bands (scripts drop vnir[:, :3, :]). The SWIR placeholders are its last
  two bands: the List_Cw_Swir_Flags of SNAP's real L2B and L2D products end
  0, 0 (../shared/data/products-real/prisma; TestRealPRISMAPlaceholders).
  The reader goes by the flags and by zero wavelengths, not by position;
- root attributes L2ScaleVnirMin/Max, L2ScaleSwirMin/Max (float32):
  reflectance = Min + DN * (Max - Min) / 65535 (HyperCoast read_prisma,
  prismaread);
- root attributes Epsg_Code (int32), Product_{UL,UR,LL,LR}corner_{easting,
  northing} (float64, metres), Product_StartTime, Processing_Level "2D",
  Product_ID "PRS_L2D_STD";
- HDFEOS INFORMATION/StructMetadata.0, the HDF-EOS5 structural metadata
  string.
The VNIR cube is stored contiguous and the SWIR cube chunked one row at a
time with gzip: the sources do not say how ASI lays the cubes out, so the
miniature exercises both.

Values: pixel (0, 0) is 0 in every band of both cubes (padding, no data).
VNIR and SWIR overlap between 940 and 975 nm: VNIR 950 and 972 nm, SWIR
945 and 960 nm.

goldens (prisma_golden.json): the cube (rows, cols, bands) after merging,
dropping the placeholders and a stable sort by wavelength (VNIR first at
equal wavelengths), computed in float64 from the DNs with the formula
above, -9999 where every DN of the pixel is 0; the wavelengths and FWHM;
and the geotransform of prismaread's pr_setext_L2D, which treats the
corner coordinates as pixel centres: extent from xmin - 15 to xmin - 15 +
cols * 30 (30 m pixels), likewise in y from the lower-left corner.
"""
import json
import os
import sys

import h5py
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
NAME = "PRS_L2D_STD_20210615102030_20210615102034_0001.he5"
H, W = 4, 5
SWATH = "HDFEOS/SWATHS/PRS_L2D_HCO"


def write(path, vnir_cw=None, scale_max=1.0):
    cw_v = np.array([0, 0, 0, 972.0, 950.0, 700.0, 550.0, 402.5], np.float32)
    fw_v = np.array([0, 0, 0, 11.0, 10.5, 9.0, 8.5, 8.0], np.float32)
    cw_s = np.array([2497.0, 1500.0, 960.0, 945.0, 0, 0], np.float32)
    fw_s = np.array([10.0, 9.5, 12.0, 12.5, 0, 0], np.float32)
    if vnir_cw is not None:
        cw_v = vnir_cw
    rng = np.random.default_rng(11)
    vnir = rng.integers(1, 65535, (H, 8, W)).astype(np.uint16)
    swir = rng.integers(1, 65535, (H, 6, W)).astype(np.uint16)
    vnir[:, :3, :] = 0  # placeholders hold no signal
    swir[:, 4:, :] = 0
    vnir[0, :, 0] = 0
    swir[0, :, 0] = 0
    with h5py.File(path, "w") as f:
        a = f.attrs
        a["Product_ID"] = np.bytes_("PRS_L2D_STD")
        a["Processing_Level"] = np.bytes_("2D")
        a["Product_StartTime"] = np.bytes_("2021-06-15T10:20:30.123456")
        a["Epsg_Code"] = np.int32(32632)
        a["Projection_Name"] = np.bytes_("UTM")
        a["Projection_Id"] = np.bytes_("32")
        ul = (600015.0, 5100015.0 - 0)  # pixel centres on a 30 m grid
        a["Product_ULcorner_easting"] = ul[0]
        a["Product_ULcorner_northing"] = ul[1]
        a["Product_URcorner_easting"] = ul[0] + (W - 1) * 30.0
        a["Product_URcorner_northing"] = ul[1]
        a["Product_LLcorner_easting"] = ul[0]
        a["Product_LLcorner_northing"] = ul[1] - (H - 1) * 30.0
        a["Product_LRcorner_easting"] = ul[0] + (W - 1) * 30.0
        a["Product_LRcorner_northing"] = ul[1] - (H - 1) * 30.0
        a["L2ScaleVnirMin"] = np.float32(0.0)
        a["L2ScaleVnirMax"] = np.float32(scale_max)
        a["L2ScaleSwirMin"] = np.float32(0.001)
        a["L2ScaleSwirMax"] = np.float32(0.8)
        a["List_Cw_Vnir"] = cw_v
        a["List_Fwhm_Vnir"] = fw_v
        a["List_Cw_Vnir_Flags"] = (cw_v > 0).astype(np.int8)
        a["List_Cw_Swir"] = cw_s
        a["List_Fwhm_Swir"] = fw_s
        a["List_Cw_Swir_Flags"] = (cw_s > 0).astype(np.int8)
        f.create_dataset("HDFEOS INFORMATION/StructMetadata.0",
                         data=np.bytes_("GROUP=SwathStructure\n\tGROUP=SWATH_1\n\t\tSwathName=\"PRS_L2D_HCO\"\n"))
        df = f.create_group(SWATH + "/Data Fields")
        df.create_dataset("VNIR_Cube", data=vnir)
        df.create_dataset("SWIR_Cube", data=swir, chunks=(1, 6, W), compression="gzip")
    return path


def golden(path):
    with h5py.File(path, "r") as f:
        a = f.attrs
        v = f[SWATH + "/Data Fields/VNIR_Cube"][()].astype(np.float64)
        s = f[SWATH + "/Data Fields/SWIR_Cube"][()].astype(np.float64)
        vmin, vmax = float(a["L2ScaleVnirMin"]), float(a["L2ScaleVnirMax"])
        smin, smax = float(a["L2ScaleSwirMin"]), float(a["L2ScaleSwirMax"])
        nodata = np.all(v == 0, axis=1) & np.all(s == 0, axis=1)
        rv = vmin + v * (vmax - vmin) / 65535
        rs = smin + s * (smax - smin) / 65535
        cube = np.concatenate([rv, rs], axis=1)
        cw = np.concatenate([a["List_Cw_Vnir"], a["List_Cw_Swir"]]).astype(np.float64)
        fw = np.concatenate([a["List_Fwhm_Vnir"], a["List_Fwhm_Swir"]]).astype(np.float64)
        keep = cw > 0
        order = np.argsort(cw[keep], kind="stable")
        cube = cube[:, keep, :][:, order, :].astype(np.float32)
        cube = np.transpose(cube, (0, 2, 1))
        cube[nodata, :] = -9999.0
        xmin = min(a["Product_ULcorner_easting"], a["Product_LLcorner_easting"])
        ymin = min(a["Product_LLcorner_northing"], a["Product_LRcorner_northing"])
        # prismaread pr_setext_L2D: xmin - 15 .. xmin - 15 + cols*30, ymin - 15 .. ymin - 15 + rows*30
        gt = [float(xmin - 15), 30.0, 0.0, float(ymin - 15 + H * 30), 0.0, -30.0]
        return {"file": os.path.basename(path), "cube": cube.tolist(),
                "wavelengths": [float(x) for x in cw[keep][order]],
                "fwhm": [float(x) for x in fw[keep][order]], "geotransform": gt, "epsg": int(a["Epsg_Code"])}


def main():
    os.makedirs(OUT, exist_ok=True)
    g = golden(write(os.path.join(OUT, NAME)))
    # Damaged variants: a VNIR wavelength list one entry short, a NaN scale.
    write(os.path.join(OUT, "prisma_short_list.he5"),
          vnir_cw=np.array([0, 0, 0, 972.0, 950.0, 700.0, 550.0], np.float32))
    write(os.path.join(OUT, "prisma_nan_scale.he5"), scale_max=float("nan"))
    with open(os.path.join(OUT, "prisma_golden.json"), "w") as fh:
        json.dump(g, fh)


if __name__ == "__main__":
    main()
