"""Private PostgreSQL and Redis servers and the production processes of the Procfile, for fault tests.

Everything runs on loopback with free ports and a temporary folder, so restarting or killing a
piece disturbs nothing else on the machine.
"""

from __future__ import annotations

import glob
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from common.limits import lifted_env

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(check: Any, seconds: float, what: str, interval: float = 0.25) -> Any:
    deadline = time.monotonic() + seconds
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
            if last:
                return last
        except Exception as exc:  # noqa: BLE001 - retried until the deadline
            last = exc
        time.sleep(interval)
    raise AssertionError(f"{what} not within {seconds:.0f} s (last: {last!r})")


class PrivatePostgres:
    """A throw-away PostgreSQL cluster (initdb) on a free port, run as the postgres user."""

    def __init__(self, base: Path, name: str = "pg") -> None:
        self.bin = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(re.findall(r"\d+", p)[0]))[-1])
        self.dir = base / name
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/yukon"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        self.dir.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run("initdb", "-D", str(self.dir), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-qc", "CREATE DATABASE yukon"],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def standby(self, base: Path) -> PrivatePostgres:
        """A streaming replica of this cluster (pg_basebackup), started, read-only."""
        replica = PrivatePostgres(base, "pg-replica")
        replica.dir.mkdir(mode=0o700)
        if os.geteuid() == 0:
            shutil.chown(replica.dir, "postgres", "postgres")
        self._run(
            "pg_basebackup", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
            "-D", str(replica.dir), "-R", "-X", "stream", "--no-sync",
        )  # fmt: skip
        replica.start()
        return replica

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir}"
        self._run("pg_ctl", "-D", str(self.dir), "-l", str(self.dir / "server.log"), "-w", "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.dir), "-m", mode, "-w", "stop")


class PrivateRedis:
    """A Redis server on a free port that keeps its data (append-only file), like production's."""

    def __init__(self, base: Path) -> None:
        self.dir = base / "redis"
        self.dir.mkdir()
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.dir),
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
            ],
            stdout=open(self.dir / "redis.log", "ab"),
            stderr=subprocess.STDOUT,  # noqa: SIM115
        )
        wait_until(
            lambda: (
                subprocess.run(
                    ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
                ).stdout.strip()
                == "PONG"
            ),
            20,
            "Redis up",
        )

    def stop(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown"], capture_output=True, timeout=30)
        if self.process is not None:
            self.process.wait(30)


class Stack:
    """The Procfile's processes (web, worker, beat, and the edge: Caddy in front of web, HTTPS for
    localhost with a certificate of its own local CA) with production settings on loopback."""

    def __init__(self, base: Path, database_url: str, redis_url: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.https_port = free_port()
        self.edge_url = f"https://localhost:{self.https_port}"
        self.caddy_home = base / "caddy"
        self.logs = base / "logs"
        self.logs.mkdir()
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SITE_URL": f"http://127.0.0.1:{self.port}",
            "PORT": str(self.port),
            "WEB_PORT": str(self.port),
            "HTTPS_PORT": str(self.https_port),
            "HTTP_PORT": str(free_port()),
            "CADDY_HOME": str(self.caddy_home),
            "DOMAIN": "localhost",
            "NUM_PROXIES": "1",  # granian listens on loopback: only the edge reaches it from outside
            "WEB_CONCURRENCY": "3",
            "WORKER_CONCURRENCY": "2",
            "DB_CONN_MAX_AGE": "60",
            "DAILY_BOARDS_REBUILD_SECONDS": "10",
            # A review in flight when Redis goes is lost with it (a Redis without persistence keeps
            # no queue): the sweep finds it within the test's wait.
            "RANKED_REVIEWS_SWEEP_SECONDS": "5",
            "RANKED_REVIEW_LOST_AFTER_SECONDS": "15",
            # The winners play the solver's line of the deal: exactly what a player who knows the
            # cards plays, which the clairvoyance test may hold (docs/fair-play.md), and then the
            # board would rightly miss it. These tests are about faults, not fair play (as in
            # .ci/run's worker): tests/games/test_clairvoyance.py tests the clairvoyance test.
            "FAIRPLAY_CLAIRVOYANCE_TOP": "0",
            # The winners are accounts made by the test that day, newcomers whom the public board
            # counts from their second day (docs/daily.md): these tests want them on it.
            "BOARD_ESTABLISHED_DAYS": "0",
            # A day's 16,384 arrangements take a minute of CPU to certify: a few do here.
            "DAILY_ARRANGEMENTS": "64",
            **lifted_env(),
            "ACCESS_LOG_LEVEL": "WARNING",
        }
        self.env.pop("YUKON_FAULT_TESTS", None)
        self.commands = {}
        for line in (ROOT / "Procfile").read_text().splitlines():
            if line and not line.startswith("#"):
                name, command = line.split(":", 1)
                self.commands[name.strip()] = command.strip()
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.var = base / "var"
        self.var.mkdir()

    def manage(self, *args: str, stdin: str | None = None) -> str:
        out = subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 0, out.stdout + out.stderr
        return out.stdout

    def start(self, name: str, *, alias: str | None = None, env: dict[str, str] | None = None) -> None:
        """Start the Procfile's process ``name`` (a second one of a kind under ``alias``, with
        ``env`` on top of the stack's environment)."""
        command = self.commands[name].replace("var/celerybeat-schedule", str(self.var / "celerybeat-schedule"))
        self.processes[alias or name] = subprocess.Popen(
            ["bash", "-c", f"exec {command}"],
            cwd=ROOT,
            env={**self.env, **(env or {})},
            start_new_session=True,
            stdout=open(self.logs / f"{alias or name}.log", "ab"),
            stderr=subprocess.STDOUT,  # noqa: SIM115
        )

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        process = self.processes[name]
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        process.wait(30)

    def stop_all(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/readyz", timeout=3) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):
            return False


def call(
    url: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None, timeout: float = 15
) -> tuple[int, Any]:
    """One HTTP request: (status, JSON body); status 0 when no answer came at all."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{url}{path}", data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw or b"null")
        except ValueError:
            return error.code, raw[:200].decode(errors="replace")
    except (urllib.error.URLError, OSError):
        return 0, None


def temp_base() -> Path:
    base = Path(tempfile.mkdtemp(prefix="yukon-faults-"))
    base.chmod(0o755)  # the postgres user must reach its data folder inside
    return base


#: How long a stack may take to be ready: /readyz waits for today's deal, certified by the worker.
STACK_READY_SECONDS = 150


@contextmanager
def private_stack(logs: str | None = None) -> Iterator[tuple[Stack, PrivatePostgres, PrivateRedis, Path]]:
    """A stack on private PostgreSQL and Redis servers in a folder of its own (nothing started yet:
    the caller sets its environment, migrates and starts what it needs). Afterwards everything
    stops and the folder goes; with ``logs``, its logs (PostgreSQL's too) are kept first in
    ``artifacts/<logs>``."""
    base = temp_base()
    postgres, redis = PrivatePostgres(base), PrivateRedis(base)
    postgres.init()
    redis.start()
    stack = Stack(base, postgres.url, redis.url)
    try:
        yield stack, postgres, redis, base
    finally:
        stack.stop_all()
        redis.stop()
        postgres.stop("immediate")
        if logs:
            kept = ROOT / "artifacts" / logs
            shutil.rmtree(kept, ignore_errors=True)
            shutil.copytree(base / "logs", kept)
            if (base / "pg" / "server.log").exists():
                shutil.copy(base / "pg" / "server.log", kept / "postgres.log")
            print(f"{logs} logs: {kept}")
        shutil.rmtree(base, ignore_errors=True)
