"""Running the omnihsr command line: finding the executable, reading its
progress and messages, and stopping it when the user cancels or when it
prints nothing for longer than the timeout (hung).

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


class TimedOut(CliError):
    """The command printed nothing for longer than the timeout: taken as
    hung, it was stopped and its outputs removed."""


# DEFAULT_TIMEOUT_S is the default of the provider's timeout setting:
# seconds omnihsr may go without printing a line (progress lines
# included) before it is taken as hung. upscale and degrade print
# progress as they go; a read or a step taking 10 minutes without a line
# is far beyond any file of the tests or of the examples.
DEFAULT_TIMEOUT_S = 600

# STREAMS_GRACE_S: how long the runner waits for the command's output
# streams to close once the command has exited (a child of it may hold
# them open) before it stops reading them.
STREAMS_GRACE_S = 2.0


def wheel_binary():
    """Returns the omnihsr executable the omnihsr Python wheel installed
    into this Python (QGIS's), or "" when the wheel is not installed. The
    wheel's files are looked up in its installed metadata (the plugin's
    package is also named omnihsr, so importing it would find the plugin)."""
    try:
        from importlib import metadata

        dist = metadata.distribution("omnihsr")
    except Exception:  # not installed, or unreadable metadata
        return ""
    for f in dist.files or ():
        if f.name in ("omnihsr", "omnihsr.exe") and f.parent.name in ("bin", "Scripts"):
            path = os.path.normpath(str(dist.locate_file(f)))
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
    return ""


def locate(setting=""):
    """Returns (path, where) of the omnihsr executable, where saying which
    source gave it: the provider's setting if given, else $OMNIHSR_BIN,
    else the omnihsr Python wheel installed in QGIS's Python, else
    `omnihsr` on PATH. A setting or variable that names no executable file
    is an error naming it, not skipped."""
    for source, path in (
        ("the OmniHSR provider setting (Processing options)", setting),
        ("the environment variable " + ENV_BIN, os.environ.get(ENV_BIN, "")),
    ):
        path = (path or "").strip()
        if not path:
            continue
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path, source
        raise CliError("%s names %r, which is not an executable file" % (source, path))
    path = wheel_binary()
    if path:
        return path, "the omnihsr Python package installed in QGIS's Python"
    path = shutil.which("omnihsr")
    if path:
        return path, "PATH"
    raise CliError(
        "the omnihsr executable was not found: set it in Settings > Options > Processing > "
        "Providers > OmniHSR, or set " + ENV_BIN + ", or install the omnihsr wheel into QGIS's "
        "Python (pip install omnihsr), or put omnihsr on PATH"
    )


def find_binary(setting=""):
    """Returns the omnihsr executable's path (see locate)."""
    return locate(setting)[0]


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


def run(binary, args, feedback, outputs=(), poll_s=0.1, kill_after_s=10.0, timeout_s=0):
    """Runs `binary args` with OMNIHSR_PROGRESS=1 and returns its stdout.

    "progress F" lines on stderr go to feedback.setProgress (0-100), other
    lines of both streams to feedback.pushInfo. When feedback.isCanceled()
    becomes true the process is terminated (SIGTERM, on which omnihsr
    removes its unfinished temporary files), killed after kill_after_s if
    it has not exited, the files of `outputs` that did not exist before
    the run are removed, and Cancelled is raised. When timeout_s > 0 and
    the process prints no line for timeout_s seconds, it is stopped the
    same way and TimedOut is raised. A non-zero exit raises CliError with
    the command's own error lines.
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
    stop_at = None  # when cancelled or timed out: the time to kill if still running
    timed_out = False
    last_line = exited_at = time.monotonic()
    while open_streams:
        now = time.monotonic()
        if stop_at is None and (feedback.isCanceled() or (timeout_s > 0 and now - last_line > timeout_s)):
            timed_out = not feedback.isCanceled()
            proc.terminate()
            stop_at = now + kill_after_s
        elif stop_at is not None and now > stop_at and proc.poll() is None:
            proc.kill()
            stop_at = float("inf")
        if proc.poll() is None:
            exited_at = now
        elif now - exited_at > STREAMS_GRACE_S:
            break  # exited, but something else holds its output open
        try:
            name, line = q.get(timeout=poll_s)
        except queue.Empty:
            continue
        if line is None:
            open_streams -= 1
            continue
        last_line = time.monotonic()
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
        left = "; removed " + ", ".join(removed) if removed else "; no output was left"
        if timed_out:
            raise TimedOut(
                "omnihsr printed nothing for %g s (the OmniHSR provider's timeout setting, Settings > Options > "
                "Processing > Providers > OmniHSR; 0: none): taken as hung and stopped (exit %d)%s" % (timeout_s, rc, left)
            )
        raise Cancelled("cancelled: omnihsr stopped (exit %d)%s" % (rc, left))
    if rc != 0:
        msg = [line for line in err if line.startswith("omnihsr")] or err[-5:]
        raise CliError("%s (exit %d)" % ("\n".join(msg) or "omnihsr failed with no message", rc))
    return "\n".join(out)
