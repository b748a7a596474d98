"""A process forked after the library was loaded (issue 39 item 5): the
child is served by the subprocess backend, or told to use "spawn"; it
never hangs."""

from __future__ import annotations

import multiprocessing as mp
import os
import time

import numpy as np
import pytest

import omnihsr

X = np.random.default_rng(9).random((10, 9, 3), dtype=np.float32)


def work(seed: int) -> bytes:
    x = np.random.default_rng(seed).random((10, 9, 3), dtype=np.float32)
    return omnihsr.upscale(x, scale=2).tobytes()


def wait(pid: int, limit: float = 120) -> int:
    """The child's exit status; fails (killing it) past limit seconds."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    pytest.fail(f"the forked child hung for {limit} s")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_fork_child_is_served() -> None:
    want = omnihsr.upscale(X, scale=2)  # the library is loaded and its runtime runs
    from omnihsr import _lib
    pid = os.fork()
    if pid == 0:  # the child: must not touch the parent's Go runtime
        code = 1
        try:
            be = _lib.backend()
            got = omnihsr.upscale(X, scale=2)
            code = 0 if be.name == "subprocess" and got.tobytes() == want.tobytes() else 3
        except BaseException:  # noqa: BLE001 - reported by the exit status
            code = 4
        os._exit(code)
    assert wait(pid) == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_fork_child_without_command_is_told_to_spawn() -> None:
    omnihsr.version()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.environ["OMNIHSR_BIN"] = "/nonexistent/omnihsr"
        msg = "no error"
        try:
            omnihsr.upscale(X, scale=2)
        except omnihsr.OmniHSRError as e:
            msg = str(e)
        except BaseException as e:  # noqa: BLE001
            msg = repr(e)
        os.write(w, msg.encode())
        os._exit(0)
    os.close(w)
    assert wait(pid) == 0
    with os.fdopen(r) as f:
        msg = f.read()
    if os.environ.get("OMNIHSR_BACKEND") == "subprocess":
        # The parent never loaded the library: the child only lacks the command.
        assert "needs the omnihsr command" in msg, msg
    else:
        assert 'multiprocessing.set_start_method("spawn")' in msg, msg


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_fork_pool() -> None:
    """A multiprocessing Pool with Linux's default start method, fork."""
    omnihsr.version()
    with mp.get_context("fork").Pool(2) as pool:
        got = pool.map_async(work, [1, 2, 3]).get(timeout=180)
    assert got == [work(1), work(2), work(3)]
