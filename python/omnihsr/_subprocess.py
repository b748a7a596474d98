"""The subprocess backend: each call runs the bundled ``omnihsr`` command
(``omnihsr _backend DIR``), arrays exchanged as NPY files in a temporary
directory. It serves the same JSON front door as the library
(internal/capi), so it gives the same bytes and results.

Used when OMNIHSR_BACKEND=subprocess, where no library is shipped, and in a
process forked from one that loaded the library (whose Go runtime cannot
run in the child). Costs against the library: the command's start, once
per call and twice per upscale (its output size, then the work), and the
arrays written to and read from the temporary directory (the input once
more on disk, the output read back into numpy).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
from typing import Any, Callable, Optional, Tuple

from ._lib import _ERRORS, Cancelled, OmniHSRError, binary_path, loads

_instance: Optional["SubprocessBackend"] = None


class SubprocessBackend:
    """Runs each call as ``omnihsr _backend DIR``."""

    name = "subprocess"

    def __init__(self, exe: str) -> None:
        self.exe = exe

    @classmethod
    def get(cls) -> "SubprocessBackend":
        global _instance
        exe = binary_path()
        if not exe or not os.path.exists(exe):
            raise OmniHSRError("omnihsr: the subprocess backend needs the omnihsr command, and none is installed "
                               "(set OMNIHSR_BIN, or reinstall the wheel)")
        if _instance is None or _instance.exe != exe:
            _instance = cls(exe)
        return _instance

    def _run(self, request: dict, files: Optional[dict] = None, progress: Optional[Callable[[int, int], Any]] = None,
             keep: Tuple[str, ...] = ()) -> Tuple[Any, dict]:
        """Runs one call; returns (the result's JSON, the kept files' arrays)."""
        import numpy as np
        d = tempfile.mkdtemp(prefix="omnihsr-")
        try:
            for name, arr in (files or {}).items():
                np.save(os.path.join(d, name), arr, allow_pickle=False)
            with open(os.path.join(d, "request.json"), "w") as f:
                json.dump(request, f)
            err = self._wait(d, progress)
            failed = None
            if os.path.exists(os.path.join(d, "error.json")):
                with open(os.path.join(d, "error.json")) as f:
                    e = json.load(f)
                failed = _ERRORS.get(e["status"], OmniHSRError)(e["message"])
            if err is not None:
                # Ctrl-C or the progress function's exception, as the
                # library backend raises them (the cause: Cancelled, also
                # when the signal ended the command before it could say so).
                if failed is None:
                    failed = Cancelled(f"{self.exe} _backend: cancelled")
                raise err from failed
            if failed is not None:
                raise failed
            with open(os.path.join(d, "result.json")) as f:
                res = loads(f.read())
            arrays = {name: np.load(os.path.join(d, name), allow_pickle=False) for name in keep}
            return res, arrays
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def _wait(self, d: str, progress: Optional[Callable[[int, int], Any]]) -> Optional[BaseException]:
        """Runs the command on d, relaying its progress lines; Ctrl-C (or a
        progress function's exception) sends it SIGINT, which cancels the
        call, and is raised once it has ended."""
        p = subprocess.Popen([self.exe, "_backend", d], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, text=True)
        lines: "queue.Queue[Optional[str]]" = queue.Queue()
        errs: list = []

        def pump() -> None:
            assert p.stdout is not None
            for line in p.stdout:
                lines.put(line)
            lines.put(None)

        def drain() -> None:
            assert p.stderr is not None
            errs.append(p.stderr.read())

        threads = [threading.Thread(target=pump, daemon=True), threading.Thread(target=drain, daemon=True)]
        for t in threads:
            t.start()
        raised: Optional[BaseException] = None
        done = False
        while not done:
            try:
                line = lines.get(timeout=0.05)
            except queue.Empty:
                continue
            except KeyboardInterrupt as e:
                raised = raised or e
                _interrupt(p)
                continue
            if line is None:
                done = True
                continue
            if progress is not None and raised is None and line.startswith("progress "):
                try:
                    _, a, b = line.split()
                    progress(int(a), int(b))
                except KeyboardInterrupt as e:
                    raised = e
                    _interrupt(p)
                except BaseException as e:  # noqa: BLE001 - raised once the command stops
                    raised = e
                    _interrupt(p)
        while True:
            try:
                p.wait()
                for t in threads:
                    t.join()
                break
            except KeyboardInterrupt as e:
                raised = raised or e
                _interrupt(p)
        if raised is not None:
            if isinstance(raised, KeyboardInterrupt) and p.returncode == 0:
                return None  # complete before the signal was seen: the result stands
            return raised
        if p.returncode != 0 and not os.path.exists(os.path.join(d, "error.json")):
            return OmniHSRError(f"{self.exe} _backend: exit status {p.returncode}: {''.join(errs).strip()}")
        return None

    def version(self) -> str:
        return self._run({"fn": "version"})[0]["version"]

    def output_size(self, h: int, w: int, js: bytes) -> Tuple[int, int]:
        r = self._run({"fn": "output_size", "h": h, "w": w, "options": js.decode()})[0]
        return r["height"], r["width"]

    def upscale(self, a: Any, js: bytes, out: Any, progress: Optional[Callable[[int, int], Any]]) -> dict:
        res, arrays = self._run({"fn": "upscale", "options": js.decode()}, {"in.npy": a}, progress, keep=("out.npy",))
        out[...] = arrays["out.npy"]
        return res

    def upscale_file(self, src: str, dst: str, js: bytes, progress: Optional[Callable[[int, int], Any]]) -> dict:
        return self._run({"fn": "upscale_file", "src": src, "dst": dst, "options": js.decode()}, progress=progress)[0]

    def read(self, path: str, js: bytes) -> Tuple[Any, dict]:
        m, arrays = self._run({"fn": "read", "path": path, "options": js.decode()}, keep=("data.npy",))
        return arrays["data.npy"], m

    def read_rows(self, path: str, js: bytes, y0: int, y1: int, w: int, b: int) -> Tuple[Any, dict]:
        import numpy as np
        keep = ("rows.npy",) if y1 > y0 else ()
        m, arrays = self._run({"fn": "read_rows", "path": path, "options": js.decode(), "y0": y0, "y1": y1}, keep=keep)
        return arrays.get("rows.npy", np.empty((0, w, b), np.float32)), m

    def write(self, a: Any, meta: bytes, path: str, js: bytes) -> dict:
        return self._run({"fn": "write", "meta": meta.decode(), "path": path, "options": js.decode()}, {"in.npy": a})[0]


def _interrupt(p: "subprocess.Popen[str]") -> None:
    """Asks the command to stop (its call is cancelled, its temporaries
    removed)."""
    if p.poll() is None:
        try:
            if os.name == "nt":
                p.terminate()  # no SIGINT to send: its temporaries go at the next run
            else:
                p.send_signal(signal.SIGINT)
        except OSError:
            pass

