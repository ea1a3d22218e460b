"""The host as a process for the load test: `cornerclaim serve` on 127.0.0.1 as a subprocess
(`HostProcess`), and what /proc says about it and its workers (CPU, RSS, PSS)."""

from __future__ import annotations

import contextlib
import gc
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from ..throwaway import free_port

REPO = Path(__file__).resolve().parents[2]
STORE_FILE = "cornerclaim.sqlite3"


class HostProcess:
    """`cornerclaim serve` on 127.0.0.1 as a subprocess; its output goes to host.log."""

    def __init__(self, data_dir: Path, port: int | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.extra = extra
        self.proc: subprocess.Popen | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self, deadline: float = 60.0) -> HostProcess:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--data-dir", str(self.data_dir), "--no-mdns",
               "--no-qr", "--bot-delay", "0", *self.extra]
        log = open(self.data_dir / "host.log", "ab")  # noqa: SIM115 - the child owns it
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)
        log.close()
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the host exited ({self.proc.returncode}): {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the host did not come up: " + self.log())

    def log(self) -> str:
        path = self.data_dir / "host.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def status(self, field_name: str) -> int:
        """A field of /proc/<pid>/status in KiB (VmHWM, VmRSS); 0 where there is no /proc."""
        return proc_status(self.proc.pid, field_name) if self.proc else 0

    def cpu_seconds(self) -> float:
        """User + system CPU time the host has used so far (0 where there is no /proc)."""
        return cpu_seconds(self.proc.pid) if self.proc else 0.0

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self, timeout: float = 30.0) -> int:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode if self.proc else 0


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User + system CPU seconds of a process (with `children`, also of its children that
    ended and were waited for); 0 where there is no /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        if children:
            ticks += int(fields[13]) + int(fields[14])
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def descendants(pid: int) -> list[int]:
    """`pid` and every live process below it (from /proc)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(parents.get(p, ()))
    return found


@contextlib.contextmanager
def no_full_collections():
    """The load clients' own full garbage collections held off while the clock runs, and
    made once after. This process holds 400 sockets and every acknowledged move; a full
    collection here stops its loop for 70–100 ms every few seconds, which the moves in
    flight would otherwise count as the host's latency. The young generations are still
    collected."""
    gc.collect()
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], 1_000_000)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        gc.collect()


def wait_idle(hosts: list[HostProcess], *, quiet: float = 0.1, every: float = 1.0,
              deadline: float = 120.0) -> float:
    """Wait until the hosts and their workers are idle (together under `quiet` CPU seconds
    in `every` seconds): a host answers as soon as it listens, while its computer workers
    still load and warm up the players, which takes seconds of CPU a worker; the load (and
    its clock) starts after. Returns the seconds waited."""
    started = time.monotonic()

    def used() -> float:
        return sum(cpu_seconds(p) for h in hosts if h.proc for p in descendants(h.proc.pid))

    last = used()
    while time.monotonic() - started < deadline:
        time.sleep(every)
        now = used()
        if now - last < quiet:
            break
        last = now
    return time.monotonic() - started


def pss_mb(pids: list[int]) -> float:
    """The proportional set size of these processes together, MB: shared pages (PostgreSQL's
    shared buffers, a forked worker's) counted once in all, not once a process."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
        except OSError:
            continue
    return total / 1024



def proc_status(pid: int, field_name: str) -> int:
    """A field of /proc/<pid>/status in KiB; 0 where there is none."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0



def serve_supports(option: str) -> bool:
    """Whether this checkout's `cornerclaim serve` has `option` (its --help lists it)."""
    done = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--help"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    return re.search(rf"(^|\s){re.escape(option)}\b", done.stdout) is not None
