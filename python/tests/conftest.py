"""Fixtures of the omnihsr Python tests.

The tests run against the installed package (python/ci.sh installs the
wheel into a fresh venv) and its ``omnihsr`` command; they need numpy,
xarray and rioxarray (Debian's python3-numpy, python3-xarray,
python3-rioxarray) and no data outside the repository.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest

import omnihsr

ROOT = Path(__file__).resolve().parents[2]
PRODUCTS = ROOT / "hsi" / "products" / "testdata"
SAMPLE = ROOT / "sample" / "L7_ETMs.tif"


@pytest.fixture(scope="session")
def cli() -> str:
    """The omnihsr command installed with the package."""
    b = omnihsr.binary()
    if not b or not os.path.exists(b):
        pytest.fail("the omnihsr command is not installed with the package (build the wheel with python/build.sh)")
    return b


def run_cli(cli: str, *args: str) -> subprocess.CompletedProcess:
    """Runs the command; fails the test with its stderr when it fails."""
    p = subprocess.run([cli, *args], capture_output=True, text=True)
    if p.returncode != 0:
        pytest.fail(f"omnihsr {' '.join(args)}: exit {p.returncode}: {p.stderr}")
    return p


def write_envi(path: Path, a: np.ndarray, **fields: str) -> Path:
    """Writes a (H, W, B) float32 array as ENVI (BSQ, little-endian) with
    extra header fields; returns the header's path."""
    h, w, b = a.shape
    lines = ["ENVI", f"samples = {w}", f"lines = {h}", f"bands = {b}", "header offset = 0",
             "file type = ENVI Standard", "data type = 4", "interleave = bsq", "byte order = 0"]
    lines += [f"{k.replace('_', ' ')} = {v}" for k, v in fields.items()]
    hdr = path.with_suffix(".hdr")
    hdr.write_text("\n".join(lines) + "\n")
    np.ascontiguousarray(a.transpose(2, 0, 1), dtype="<f4").tofile(path.with_suffix(".img"))
    return hdr


def read_envi(hdr: Path) -> Tuple[np.ndarray, Dict[str, str]]:
    """Reads a float32 ENVI file the command wrote (BSQ), and its header
    fields (values without braces)."""
    text = hdr.read_text()
    fields: Dict[str, str] = {}
    for m in re.finditer(r"^\s*([^=\n]+?)\s*=\s*(\{[^}]*\}|[^\n]*)", text, re.M):
        fields[m.group(1).lower()] = m.group(2).strip().strip("{}").strip()
    h, w, b = int(fields["lines"]), int(fields["samples"]), int(fields["bands"])
    assert fields["data type"] == "4" and fields.get("interleave", "bsq") == "bsq", fields
    dt = ">f4" if fields.get("byte order") == "1" else "<f4"
    data = np.fromfile(hdr.with_suffix(".img"), dtype=dt, offset=int(fields.get("header offset", 0)))
    return data.reshape(b, h, w).transpose(1, 2, 0).astype(np.float32), fields


def floats(s: str) -> List[float]:
    return [float(v) for v in s.split(",")] if s else []


def rss_mb(key: str = "VmRSS") -> float:
    """This process's resident set (VmRSS) or its peak (VmHWM), in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(key + " not in /proc/self/status")


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Runs code in a fresh interpreter of this environment."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)


def pytest_report_header(config) -> str:
    from omnihsr import _lib
    return f"omnihsr: {omnihsr.__file__}, library {_lib.library_path()}, command {omnihsr.binary()}"
