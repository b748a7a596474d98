#!/usr/bin/python3
"""Generate the NumPy golden files of package npy.

Run from this directory with Debian's python3 (python3-numpy):

    /usr/bin/python3 gen_golden.py

Each file is named <dtype>_<order>_<endian>[_<shape>][_v<version>].npy and
golden.json lists its expected shape as a cube (H, W, B) and its values in
C order (row-major H x W x B), as exact numbers. The Go tests never need
Python.
"""
import json

import numpy as np
import numpy.lib.format as fmt

H, W, B = 5, 7, 3
rng = np.random.default_rng(2026)
images, value_sets = [], {}
keys = {}  # id(array) -> its key in value_sets


def values(dtype, shape):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        a = rng.normal(0, 100, size=shape).astype(dt)
        a.flat[0] = 0.5
        a.flat[-1] = -1e-3
        return a
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    info = np.iinfo(dt)
    lo, hi = max(info.min, -(2 ** 40)), min(info.max, 2 ** 40)
    a = rng.integers(lo, hi, size=shape, dtype=dt, endpoint=True)
    a.flat[0] = info.min
    a.flat[-1] = info.max
    return a


def save(name, a, version=None, order="C", endian="<"):
    arr = a.astype(a.dtype.newbyteorder(endian)) if a.dtype.itemsize > 1 else a
    arr = np.asfortranarray(arr) if order == "F" else np.ascontiguousarray(arr)
    with open(name, "wb") as f:
        fmt.write_array(f, arr, version=version)
    cube = a if a.ndim == 3 else a[:, :, np.newaxis]
    key = keys.get(id(a), (None,))[0]
    if key is None:
        key = "%s_%dd_%d" % (a.dtype.str[1:], a.ndim, len(value_sets))
        keys[id(a)] = (key, a)  # holding a keeps its id unique
        flat = cube.reshape(-1)
        value_sets[key] = [float(v) for v in flat] if a.dtype.kind == "f" else [int(v) for v in flat]
    images.append({"file": name, "shape": list(cube.shape), "dtype": np.dtype(a.dtype).name,
                   "fortran": order == "F", "values": key})


TYPES = ["float32", "float64", "uint16", "int16", "uint8", "int8", "int32", "uint32", "int64", "uint64", "float16"]
for dtype in TYPES:
    a3 = values(dtype, (H, W, B))
    a2 = values(dtype, (H, W))
    for order in ("C", "F"):
        for endian in ("<", ">"):
            if np.dtype(dtype).itemsize == 1 and endian == ">":
                continue
            e = "le" if endian == "<" else "be"
            save("%s_%s_%s.npy" % (dtype, order, e), a3, order=order, endian=endian)
            save("%s_%s_%s_2d.npy" % (dtype, order, e), a2, order=order, endian=endian)
# Header versions 2.0 and 3.0, and np.save's own output.
a3 = values("float32", (H, W, B))
save("float32_C_le_v2.npy", a3, version=(2, 0))
save("float32_F_be_v3.npy", a3, version=(3, 0), order="F", endian=">")
b = values("bool", (H, W))
save("bool_C_2d.npy", b)
u = values("uint16", (H, W, B))
np.save("npsave_uint16.npy", u)
value_sets["npsave_uint16"] = [int(v) for v in u.reshape(-1)]
images.append({"file": "npsave_uint16.npy", "shape": [H, W, B], "dtype": "uint16", "fortran": False,
               "values": "npsave_uint16"})

with open("golden.json", "w") as f:
    f.write('{"values": {\n')
    f.write(",\n".join(json.dumps(k) + ": " + json.dumps(v, separators=(",", ":")) for k, v in value_sets.items()))
    f.write('},\n"images": [\n')
    f.write(",\n".join(json.dumps(g) for g in images))
    f.write("]}\n")
print("wrote %d golden files" % len(images))
