"""Feeding trackd and its peers a receiver's NMEA in real time through pseudo-terminals, and
putting programs in the page cache as a 4 KiB-page kernel holds them: shared by
scripts/bench-daemon and scripts/order-file."""
import os, re, shutil, subprocess, sys, threading, time

KIT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..", "shared", "bench")


def epochs_of(path):
    epochs, current = [], []
    for line in open(path, "rb").read().splitlines():
        if line[3:6] == b"RMC" and current:
            epochs.append(b"\r\n".join(current) + b"\r\n")
            current = []
        current.append(line)
    if current:
        epochs.append(b"\r\n".join(current) + b"\r\n")
    return epochs


class Feeder(threading.Thread):
    """Writes one epoch every 1/rate s to a pty, from a common start time."""

    def __init__(self, path, epochs, rate, start, stop):
        super().__init__(daemon=True)
        self.path, self.epochs, self.rate, self.start_at, self.stop = path, epochs, rate, start, stop
        self.sent = 0

    def run(self):
        fd = os.open(self.path, os.O_WRONLY | os.O_NOCTTY)
        try:
            for i, epoch in enumerate(self.epochs):
                delay = self.start_at + i / self.rate - time.monotonic()
                if delay > 0 and self.stop.wait(delay):
                    break
                if self.stop.is_set():
                    break
                try:
                    os.write(fd, epoch)
                except OSError:
                    break
                self.sent += 1
        finally:
            os.close(fd)


def libraries(binary):
    """The shared libraries `binary` loads (ldd)."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    return [m[1] for m in re.finditer(r"=> (/\S+)", out)]


def prime(paths):
    """Puts each file in the page cache the way a kernel that caches files in 4 KiB pages holds
    it (Raspberry Pi OS's 6.12 on ext4, after boot or `apt install`): drops what is cached of it,
    then reads it back 4 KiB at a time without readahead. A file just written (a fresh build, a
    strip) sits in 2 MiB folios on kernels with large folios on ext4 (6.16 and later), and a
    fault then maps the whole folio, so resident memory would count megabytes never touched.
    Pages of a file that another process has mapped (libc) stay as they are."""
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            size = os.fstat(fd).st_size
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
            for offset in range(0, size, 4096):
                os.pread(fd, 4096, offset)
        finally:
            os.close(fd)


def pty_pair(work, name):
    feed, device = os.path.join(work, name + "-feed"), os.path.join(work, name)
    p = subprocess.Popen(["socat", f"PTY,raw,echo=0,link={feed}", f"PTY,raw,echo=0,link={device}"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(feed) and os.path.exists(device):
            return p, feed, device
        time.sleep(0.05)
    raise SystemExit("socat made no pseudo-terminal pair")


def prime_programs(*programs):
    """``prime`` for programs (paths, or names found on PATH) and the libraries they load."""
    paths = [p if os.sep in p else shutil.which(p) for p in programs]
    paths = [p for p in paths if p]
    prime(set(paths + [lib for p in paths for lib in libraries(p)]))


def walk(path, rate, seconds, seed):
    """Writes to `path` a walk of `seconds` at `rate` Hz from the benchmark kit's generator
    (RMC, VTG, GGA, GSA, 3 GSV, GST per epoch); its epochs."""
    subprocess.run([sys.executable, os.path.join(KIT, "gen_nmea.py"), "--mode", "walk", "--rate", str(rate),
                    "--duration", str(int(seconds)), "--seed", str(seed), "-o", path],
                   check=True, stderr=subprocess.DEVNULL)
    return epochs_of(path)
