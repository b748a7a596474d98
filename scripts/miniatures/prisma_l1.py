#!/usr/bin/python3
"""Write a miniature PRISMA L1 product (HDF-EOS5 .he5) and its golden.

Run with Debian's python3 (python3-h5py, python3-numpy):

    /usr/bin/python3 scripts/miniatures/prisma_l1.py hsi/products/testdata

Structure, from SNAP's expected content of the real product
PRS_L1_STD_OFFL_20240402102837_20240402102842_0001.he5 (Processor_Version
4.3-0; ../shared/data/products-real/prisma) and the readers that take L1
(prismaread pr_create_vnir/swir, ACOLITE's PRISMA L1 reader):
- swaths PRS_L1_HCO (the co-registered cube, SNAP's HCO_*_Ltoa_* bands,
  1000 x 1000 in the real product) and PRS_L1_HRC (SNAP's HRC_*_Ltoa_*
  bands, the same size), each with Data Fields/VNIR_Cube and SWIR_Cube,
  uint16 stored (rows, bands, cols) like the L2 cubes, and
  VNIR_PIXEL_SAT_ERR_MATRIX / SWIR_PIXEL_SAT_ERR_MATRIX of the same shape;
  PRS_L1_HCO also holds Cloud_Mask, LandCover_Mask and SunGlint_Mask (uint8,
  rows x cols), Geolocation Fields/Latitude_VNIR, Longitude_VNIR,
  Latitude_SWIR, Longitude_SWIR (float32) and Data Fields/FrameNumber;
- the panchromatic swaths PRS_L1_PCO and PRS_L1_PRC (SNAP's PCO_Cube,
  PRC_Cube: 6000 x 6000 in the real product; here 8 x 10), Data Fields/Cube;
- root attributes List_Cw_Vnir / List_Cw_Swir, List_Fwhm_Vnir /
  List_Fwhm_Swir (float32, nm, the cubes' band order: long to short
  wavelengths) and List_Cw_*_Flags (int8), with the placeholders where the
  real product has them (SNAP lists VNIR bands 04-66 and SWIR bands 001-171,
  and the real List_Fwhm_Swir ends 0.0, 0.0);
- root attributes ScaleFactor_Vnir, ScaleFactor_Swir, Offset_Vnir,
  Offset_Swir (float32): radiance in W/(m2 sr um) = DN / ScaleFactor -
  Offset (prismaread; ACOLITE writes Offset + DN / ScaleFactor: the two
  agree when the offset is 0, as in the products they were written for).
  The miniature has non-zero offsets so that the formula is tested;
- KDP_AUX/Cw_Vnir_Matrix, Fwhm_Vnir_Matrix, Cw_Swir_Matrix,
  Fwhm_Swir_Matrix (float32, cols x bands: the centre wavelength and FWHM
  of each band for each across-track column, the smile; SNAP prints rows of
  Cw_Swir_Matrix); the list attributes are the values the reader uses;
- Processing_Level "1", Product_ID "PRS_L1_STD_OFFL", Product_StartTime.

Values: pixel (0, 0) is 0 in every band of both HCO cubes (no data, as the
L2 reader takes it). The HRC cubes hold other values, so that a reader of
the wrong swath fails the golden.

golden (prisma_l1_golden.json): the HCO cube (rows, cols, bands) after
merging, dropping the placeholders and a stable sort by wavelength (VNIR
first at equal wavelengths), in float64 from the DNs by the formula above,
-9999 where every DN of the pixel is 0; the wavelengths and FWHM as the
shortest decimals of their float32 values.
"""
import json
import os
import sys

import h5py
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
NAME = "PRS_L1_STD_OFFL_20240402102837_20240402102842_0001.he5"
H, W = 4, 5
SCALE = {"Vnir": 100.0, "Swir": 50.0}
OFFSET = {"Vnir": 0.5, "Swir": -0.25}


def short(x):
    """The shortest decimal that reads back as the float32 x (as the reader
    reports a float32 attribute's values)."""
    return float(str(np.float32(x)))


def main():
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, NAME)
    cw_v = np.array([0, 0, 0, 977.4, 951.0, 700.0, 550.0, 407.0], np.float32)
    fw_v = np.array([0, 0, 0, 12.9, 12.5, 9.0, 8.5, 11.4], np.float32)
    cw_s = np.array([2497.1, 1500.0, 960.0, 943.4, 0, 0], np.float32)
    fw_s = np.array([9.7, 9.5, 11.0, 10.9, 0, 0], np.float32)
    rng = np.random.default_rng(21)
    cubes = {}
    for swath in ("HCO", "HRC"):
        vnir = rng.integers(1, 65535, (H, 8, W)).astype(np.uint16)
        swir = rng.integers(1, 65535, (H, 6, W)).astype(np.uint16)
        vnir[:, :3, :] = 0  # placeholders hold no signal
        swir[:, 4:, :] = 0
        if swath == "HCO":
            vnir[0, :, 0] = 0
            swir[0, :, 0] = 0
        cubes[swath] = (vnir, swir)
    with h5py.File(path, "w") as f:
        a = f.attrs
        a["Product_ID"] = np.bytes_("PRS_L1_STD_OFFL")
        a["Processing_Level"] = np.bytes_("1")
        a["Product_StartTime"] = np.bytes_("2024-04-02T10:28:37.932000")
        a["Processor_Version"] = np.bytes_("4.3-0")
        a["List_Cw_Vnir"] = cw_v
        a["List_Fwhm_Vnir"] = fw_v
        a["List_Cw_Vnir_Flags"] = (cw_v > 0).astype(np.int8)
        a["List_Cw_Swir"] = cw_s
        a["List_Fwhm_Swir"] = fw_s
        a["List_Cw_Swir_Flags"] = (cw_s > 0).astype(np.int8)
        for k in ("Vnir", "Swir"):
            a["ScaleFactor_" + k] = np.float32(SCALE[k])
            a["Offset_" + k] = np.float32(OFFSET[k])
        a["ScaleFactor_Pan"] = np.float32(100.0)
        a["Offset_Pan"] = np.float32(0.0)
        f.create_dataset("HDFEOS INFORMATION/StructMetadata.0",
                         data=np.bytes_("GROUP=SwathStructure\n\tGROUP=SWATH_1\n\t\tSwathName=\"PRS_L1_HCO\"\n"))
        for swath, (vnir, swir) in cubes.items():
            df = f.create_group("HDFEOS/SWATHS/PRS_L1_%s/Data Fields" % swath)
            df.create_dataset("VNIR_Cube", data=vnir)
            df.create_dataset("SWIR_Cube", data=swir, chunks=(1, 6, W), compression="gzip")
            df.create_dataset("VNIR_PIXEL_SAT_ERR_MATRIX", data=np.zeros((H, 8, W), np.uint8))
            df.create_dataset("SWIR_PIXEL_SAT_ERR_MATRIX", data=np.zeros((H, 6, W), np.uint8))
            df.create_dataset("FrameNumber", data=np.arange(33, 33 + H, dtype=np.int32))
        hco = f["HDFEOS/SWATHS/PRS_L1_HCO"]
        for m in ("Cloud_Mask", "LandCover_Mask", "SunGlint_Mask"):
            hco["Data Fields"].create_dataset(m, data=np.zeros((H, W), np.uint8))
        gf = hco.create_group("Geolocation Fields")
        for k, v in (("Latitude", 53.5), ("Longitude", 9.9)):
            for part in ("VNIR", "SWIR"):
                gf.create_dataset("%s_%s" % (k, part), data=np.full((H, W), v, np.float32))
        for pan in ("PCO", "PRC"):
            f.create_dataset("HDFEOS/SWATHS/PRS_L1_%s/Data Fields/Cube" % pan,
                             data=rng.integers(1, 4000, (8, 10)).astype(np.uint16))
        kdp = f.create_group("KDP_AUX")
        for name, v in (("Cw_Vnir_Matrix", cw_v), ("Fwhm_Vnir_Matrix", fw_v),
                        ("Cw_Swir_Matrix", cw_s), ("Fwhm_Swir_Matrix", fw_s)):
            kdp.create_dataset(name, data=np.tile(v, (W, 1)))

    with h5py.File(path, "r") as f:
        a = f.attrs
        df = f["HDFEOS/SWATHS/PRS_L1_HCO/Data Fields"]
        v = df["VNIR_Cube"][()].astype(np.float64)
        s = df["SWIR_Cube"][()].astype(np.float64)
        nodata = np.all(v == 0, axis=1) & np.all(s == 0, axis=1)
        rv = v / float(a["ScaleFactor_Vnir"]) - float(a["Offset_Vnir"])
        rs = s / float(a["ScaleFactor_Swir"]) - float(a["Offset_Swir"])
        cube = np.concatenate([rv, rs], axis=1)
        cw = np.concatenate([a["List_Cw_Vnir"], a["List_Cw_Swir"]]).astype(np.float64)
        fw = np.concatenate([a["List_Fwhm_Vnir"], a["List_Fwhm_Swir"]]).astype(np.float64)
        keep = cw > 0
        order = np.argsort(cw[keep], kind="stable")
        cube = cube[:, keep, :][:, order, :].astype(np.float32)
        cube = np.transpose(cube, (0, 2, 1))
        cube[nodata, :] = -9999.0
        g = {"file": NAME, "cube": cube.tolist(),
             "wavelengths": [short(x) for x in cw[keep][order]],
             "fwhm": [short(x) for x in fw[keep][order]]}
    with open(os.path.join(OUT, "prisma_l1_golden.json"), "w") as fh:
        json.dump(g, fh)


if __name__ == "__main__":
    main()
