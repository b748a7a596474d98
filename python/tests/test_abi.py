"""The C ABI from C: abi_example.c, compiled against the installed
header and library."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import omnihsr
from omnihsr import _lib
from conftest import write_envi


def test_c_program(tmp_path: Path) -> None:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.fail("no C compiler (apt-get install gcc): python/ci.sh installs one")
    lib = Path(_lib.library_path())
    exe = tmp_path / "abi_example"
    subprocess.run([cc, "-std=c99", "-Wall", "-Werror", "-o", str(exe), str(Path(__file__).with_name("abi_example.c")),
                    f"-I{lib.parent}", str(lib), f"-Wl,-rpath,{lib.parent}"], check=True)
    x = np.arange(4 * 5 * 3, dtype=np.float32).reshape(4, 5, 3) / 7
    hdr = write_envi(tmp_path / "f", x, wavelength="{400, 500, 600}")
    p = subprocess.run([str(exe), str(hdr)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    get = {ln.split(" ", 1)[0]: ln.split(" ", 1)[1] for ln in lines if not ln.startswith("v ")}

    assert get["version"] == omnihsr.version()
    assert get["size"] == "0 8 6"
    st, _, calls = get["upscale"].split()
    assert st == "0" and int(calls) >= 1
    values = np.array([float.fromhex(ln[2:]) for ln in lines if ln.startswith("v ")], dtype=np.float32)
    inp = (1 + 0.25 * np.arange(4 * 3 * 2, dtype=np.float32)).reshape(4, 3, 2)
    want = omnihsr.upscale(inp, scale=2, method="bicubic")
    assert values.tobytes() == want.tobytes()
    res = json.loads(get["result"])
    assert (res["height"], res["width"], res["bands"], res["method"]) == (8, 6, 2, "bicubic")
    assert get["bad"].startswith("2 ") and "scale -1: want a finite number > 0" in get["bad"].lower()
    assert get["cancelled"] == "3"
    meta = json.loads(get["meta"])
    assert meta["shape"] == [4, 5, 3] and meta["wavelengths"] == [400, 500, 600] and meta["format"] == "ENVI"
    first, last = get["copy"].split()[2], get["copy"].split()[4]
    assert get["copy"].startswith("0 ") and float.fromhex(first) == x[0, 0, 0] and float.fromhex(last) == x[-1, -1, -1]
    assert get["freed"] == "2"
    assert get["missing"].startswith("4 ") and "/nonexistent/x.hdr" in get["missing"]
    assert "bad progress" not in p.stdout
