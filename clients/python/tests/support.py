"""Test support: real Hourglass servers (and a Redis, and a connection-dropping proxy) started by the tests."""

import atexit
import ctypes
import os
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable, List, Optional

from hourglass import Client

REPO = Path(__file__).resolve().parents[3]
CLIENT_DIR = Path(__file__).resolve().parents[1]
ADMIN_TOKEN = "python-client-tests-admin-token"
START_LIMIT_S = 180  # a failure bound for a busy machine, not a timing claim


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def await_condition(check: Callable[[], bool], what: str, limit_s: float = 60.0) -> None:
    """Polls ``check`` until it holds (as Awaitility does); fails after ``limit_s`` seconds."""
    deadline = time.monotonic() + limit_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {limit_s} s: {what}")
        time.sleep(0.02)


def _die_with_parent() -> None:
    """In the child: SIGTERM it when the test process dies, so that no server outlives a killed test run."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class ServerProcess:
    """``./hourglass server`` on a free port (kept across restarts) and its own data directory."""

    def __init__(self, token: Optional[str] = None, redis: Optional[str] = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.dir = Path(tempfile.mkdtemp(prefix="hourglass-py-"))
        self.token = token
        self.redis = redis
        self.proc: Optional[subprocess.Popen] = None  # type: ignore[type-arg]

    def start(self) -> "ServerProcess":
        args = [str(REPO / "hourglass"), "server", "--port", str(self.port), "--data-dir", str(self.dir / "data")]
        args += ["--log-format", "text", "--shutdown-timeout-ms", "2000"]
        if self.token:
            args += ["--admin-token", self.token]
        if self.redis:
            args += ["--redis", self.redis]
        env = dict(os.environ, HOURGLASS_SKIP_BUILD="1", HOURGLASS_JAVA_OPTS="-Xmx512m")
        log = open(self.dir / "server.log", "ab")
        self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env, preexec_fn=_die_with_parent)
        log.close()
        deadline = time.monotonic() + START_LIMIT_S
        while not self._ready():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not get ready (exit {self.proc.poll()}):\n{self.log_tail()}")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        """SIGTERM, then waits for the process to end."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()
        self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def log_tail(self) -> str:
        path = self.dir / "server.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else "(no log)"

    def _ready(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "/health/ready", timeout=2) as answer:
                return bool(answer.status == 200)
        except (urllib.error.URLError, OSError):
            return False


_shared: Optional[ServerProcess] = None
_shared_lock = threading.Lock()


def shared_server() -> ServerProcess:
    """One server with auth on (``ADMIN_TOKEN``) for the tests that do not stop it; stopped when the run ends."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = ServerProcess(token=ADMIN_TOKEN).start()
            atexit.register(_shared.close)
        return _shared


class SharedServerTest(unittest.TestCase):
    """A test class whose tests share :func:`shared_server` through one admin client, ``self.client``."""

    client: "Client"

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Client(shared_server().url, token=ADMIN_TOKEN)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.client.close()


class RedisProcess:
    """Debian's ``redis-server`` (or ``valkey-server`` where only Valkey is installed) on a free port, without
    persistence; restartable on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.uri = f"redis://127.0.0.1:{self.port}"
        self.proc: Optional[subprocess.Popen] = None  # type: ignore[type-arg]

    def start(self) -> "RedisProcess":
        binary = shutil.which("redis-server") or shutil.which("valkey-server")
        if binary is None:
            raise RuntimeError("redis-server or valkey-server is needed (Debian: apt-get install redis-server)")
        args = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, preexec_fn=_die_with_parent)
        await_condition(self._answers, "redis-server answers PING")
        return self

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False


class DroppingProxy:
    """A TCP proxy to a server that reads each of the first ``drop`` requests whole and closes the connection
    without an answer (a connection lost after the request was sent), or after ``answer`` (raw HTTP) when one is
    given; later connections are relayed."""

    def __init__(self, target_port: int, drop: int, answer: Optional[bytes] = None) -> None:
        self._target = target_port
        self._drop = drop
        self._answer = answer
        self.dropped: List[bytes] = []
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        if len(self.dropped) < self._drop:
            self.dropped.append(_read_request(conn))
            if self._answer is not None:
                conn.sendall(self._answer)
                conn.close()  # an orderly close, so the answer is read whole
                return
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()  # with linger 0: a reset
            return
        upstream = socket.create_connection(("127.0.0.1", self._target))
        threading.Thread(target=_pump, args=(upstream, conn), daemon=True).start()
        _pump(conn, upstream)


def _read_request(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    while len(body) < length:
        body += conn.recv(65536)
    return head


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # the other direction closed it first
            s.close()
