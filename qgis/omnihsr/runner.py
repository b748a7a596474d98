"""Running the omnihsr command line: finding the executable, reading its
progress and messages, and stopping it when the user cancels.

This module imports nothing from QGIS: `run` takes any object with the
methods of QgsProcessingFeedback it calls (isCanceled, setProgress,
pushInfo, pushCommandInfo), so it is tested without QGIS.
"""

import glob
import os
import queue
import re
import shlex
import shutil
import subprocess
import threading
import time

# ENV_BIN names the executable when the provider's setting is empty.
ENV_BIN = "OMNIHSR_BIN"

# PROGRESS_LINE is what `omnihsr upscale` and `degrade` print on stderr
# with OMNIHSR_PROGRESS=1: the fraction done, 0.000 to 1.000.
PROGRESS_LINE = re.compile(r"^progress ([01]\.[0-9]{3})$")

# ENVI_DATA_EXTS are output extensions whose ENVI header (.hdr) the
# command writes beside them.
ENVI_DATA_EXTS = (".img", ".dat", ".raw", ".bsq", ".bil", ".bip", ".bin")


class CliError(Exception):
    """The command could not run, failed (the message is its own) or was
    cancelled."""


class Cancelled(CliError):
    """The user cancelled; the command was stopped and its outputs removed."""


def find_binary(setting=""):
    """Returns the omnihsr executable: the provider's setting if given,
    else $OMNIHSR_BIN, else `omnihsr` on PATH. A setting or variable that
    names no executable file is an error naming it, not skipped."""
    for source, path in (
        ("the OmniHSR provider setting (Processing options)", setting),
        ("the environment variable " + ENV_BIN, os.environ.get(ENV_BIN, "")),
    ):
        path = (path or "").strip()
        if not path:
            continue
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise CliError("%s names %r, which is not an executable file" % (source, path))
    path = shutil.which("omnihsr")
    if path:
        return path
    raise CliError(
        "the omnihsr executable was not found: set it in Settings > Options > Processing > "
        "Providers > OmniHSR, or set " + ENV_BIN + ", or put omnihsr on PATH"
    )


def output_files(path):
    """Returns the files the command writes for the output path: the path,
    and its .hdr for an ENVI data file."""
    files = [path]
    stem, ext = os.path.splitext(path)
    if ext.lower() in ENVI_DATA_EXTS:
        files.append(stem + ".hdr")
    return files


def temporaries(files, pid):
    """Returns the temporary files process pid left for files: omnihsr
    writes each output to .NAME.omnihsr-tmp-PID-N beside it and removes it
    on SIGTERM, but not when killed (or terminated on Windows)."""
    found = []
    for f in files:
        d, name = os.path.split(f)
        found += glob.glob(os.path.join(glob.escape(d), glob.escape("." + name + ".omnihsr-tmp-%d-" % pid) + "*"))
    return sorted(set(found))


def _pump(stream, name, q):
    for line in iter(stream.readline, ""):
        q.put((name, line.rstrip("\r\n")))
    stream.close()
    q.put((name, None))


def run(binary, args, feedback, outputs=(), poll_s=0.1, kill_after_s=10.0):
    """Runs `binary args` with OMNIHSR_PROGRESS=1 and returns its stdout.

    "progress F" lines on stderr go to feedback.setProgress (0-100), other
    lines of both streams to feedback.pushInfo. When feedback.isCanceled()
    becomes true the process is terminated (SIGTERM, on which omnihsr
    removes its unfinished temporary files), killed after kill_after_s if
    it has not exited, the files of `outputs` that did not exist before
    the run are removed, and Cancelled is raised. A non-zero exit raises
    CliError with the command's own error lines.
    """
    files = [f for p in outputs for f in output_files(p)]
    existed = {f for f in files if os.path.lexists(f)}
    cmd = [binary] + [str(a) for a in args]
    feedback.pushCommandInfo(" ".join(shlex.quote(c) for c in cmd))
    env = dict(os.environ, OMNIHSR_PROGRESS="1")
    try:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
            encoding="utf-8",
            errors="replace",
            creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),
        )
    except OSError as e:
        raise CliError("cannot run %s: %s" % (binary, e)) from e
    q = queue.Queue()
    for stream, name in ((proc.stdout, "stdout"), (proc.stderr, "stderr")):
        threading.Thread(target=_pump, args=(stream, name, q), daemon=True).start()
    out, err = [], []
    open_streams = 2
    stop_at = None  # when cancelled: the time to kill if still running
    while open_streams:
        if stop_at is None and feedback.isCanceled():
            proc.terminate()
            stop_at = time.monotonic() + kill_after_s
        elif stop_at is not None and time.monotonic() > stop_at and proc.poll() is None:
            proc.kill()
            stop_at = float("inf")
        try:
            name, line = q.get(timeout=poll_s)
        except queue.Empty:
            continue
        if line is None:
            open_streams -= 1
            continue
        if name == "stderr":
            m = PROGRESS_LINE.match(line)
            if m:
                feedback.setProgress(100.0 * float(m.group(1)))
                continue
            err.append(line)
        else:
            out.append(line)
        if stop_at is None:
            feedback.pushInfo(line)
    rc = proc.wait()
    if stop_at is not None or feedback.isCanceled():
        removed = [f for f in files if f not in existed and os.path.lexists(f)]
        removed += temporaries(files, proc.pid)
        for f in removed:
            os.remove(f)
        raise Cancelled(
            "cancelled: omnihsr stopped (exit %d)%s"
            % (rc, "; removed " + ", ".join(removed) if removed else "; no output was left")
        )
    if rc != 0:
        msg = [line for line in err if line.startswith("omnihsr")] or err[-5:]
        raise CliError("%s (exit %d)" % ("\n".join(msg) or "omnihsr failed with no message", rc))
    return "\n".join(out)
