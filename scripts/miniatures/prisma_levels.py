#!/usr/bin/python3
"""Write PRISMA miniatures of other levels and group spellings.

Run with Debian's python3 (python3-h5py) after prisma_l2d.py:

    /usr/bin/python3 scripts/miniatures/prisma_levels.py hsi/products/testdata

SNAP's expected content of real PRISMA products of 2024-04-02
(senbox-org/optical-toolbox, opttbx-prisma test resources) lists the same
hyperspectral layout at L2B (radiance, swath PRS_L2B_HCO), L2C (reflectance,
swath PRS_L2C_HCO, 1000 x 1000) and L2D (reflectance, PRS_L2D_HCO, map-
projected, 1239 x 1213), each with 66 VNIR bands (the first three
placeholders) and 173 SWIR bands (the last two placeholders, List_Cw_Swir_Flags
ending 0, 0). SNAP prints the HDF-EOS groups with "_" for " ".

- prisma_l2c.he5: the L2D miniature with its swath group renamed
  PRS_L2C_HCO and Processing_Level "2C": read as a swath, not georeferenced;
- prisma_data_underscore.he5: the L2D miniature with "Data Fields" spelled
  "Data_Fields".
The values are the L2D golden's (prisma_golden.json).
"""
import os
import shutil
import sys

import h5py
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
SRC = "PRS_L2D_STD_20210615102030_20210615102034_0001.he5"


def main():
    src = os.path.join(OUT, SRC)
    l2c = os.path.join(OUT, "prisma_l2c.he5")
    shutil.copy(src, l2c)
    with h5py.File(l2c, "a") as f:
        f.move("HDFEOS/SWATHS/PRS_L2D_HCO", "HDFEOS/SWATHS/PRS_L2C_HCO")
        f.attrs["Processing_Level"] = np.bytes_("2C")
        f.attrs["Product_ID"] = np.bytes_("PRS_L2C_STD")
    und = os.path.join(OUT, "prisma_data_underscore.he5")
    shutil.copy(src, und)
    with h5py.File(und, "a") as f:
        f.move("HDFEOS/SWATHS/PRS_L2D_HCO/Data Fields", "HDFEOS/SWATHS/PRS_L2D_HCO/Data_Fields")


if __name__ == "__main__":
    main()
