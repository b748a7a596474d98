"""The wheel's command, and the library in spawned processes."""

from __future__ import annotations

import multiprocessing as mp
import os
import shutil
import subprocess
import sysconfig

import numpy as np

import omnihsr


def test_command_on_path() -> None:
    b = omnihsr.binary()
    if not os.environ.get("OMNIHSR_BIN"):
        assert b == os.path.join(sysconfig.get_path("scripts"), "omnihsr")
    assert os.access(b, os.X_OK)
    scripts = sysconfig.get_path("scripts")
    found = shutil.which("omnihsr", path=scripts + os.pathsep + os.environ.get("PATH", ""))
    assert found and os.path.samefile(found, b)
    out = subprocess.run([b, "version", "-short"], capture_output=True, text=True, check=True).stdout
    assert out.strip() == omnihsr.version()


def work(seed: int) -> bytes:
    x = np.random.default_rng(seed).random((10, 9, 3), dtype=np.float32)
    return omnihsr.upscale(x, scale=2).tobytes()


def test_spawned_processes() -> None:
    """multiprocessing with "spawn": each child loads its own runtime."""
    omnihsr.version()  # loaded here too: the children must not be forked
    with mp.get_context("spawn").Pool(2) as pool:
        got = pool.map(work, [1, 2, 3])
    assert got == [work(1), work(2), work(3)]


def test_without_library_the_command_serves() -> None:
    """A wheel without the library (macOS's) runs the bundled command: the
    same bytes."""
    from conftest import run_python
    code = (
        "import os, numpy as np\n"
        "os.environ['OMNIHSR_LIB'] = '/nonexistent/libomnihsr.so'\n"
        "import omnihsr\n"
        "from omnihsr import _lib\n"
        "x = np.random.default_rng(1).random((10, 9, 3), dtype=np.float32)\n"
        "print(_lib.backend().name, omnihsr.upscale(x, scale=2).tobytes().hex()[:64])\n"
    )
    p = run_python(code)
    assert p.returncode == 0, p.stderr
    name, head = p.stdout.split()
    assert name == "subprocess" and head == work(1).hex()[:64]
