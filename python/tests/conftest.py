"""Fixtures: the real game records of the repository, and a running `arbiter serve` to compare
answers with.

The server is the `arbiter` binary named by the environment variable ``ARBITER_BIN`` (CI
sets it to the binary `cargo test --release` built), else ``target/release/arbiter`` of the
repository. A missing binary or data folder fails the tests that need them: it never skips
them.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

REPO = Path(__file__).resolve().parents[2]
GAMES = REPO / "tests" / "data" / "games"
PDN = REPO / "tests" / "data" / "pdn"


def arbiter_binary() -> Path:
    named = os.environ.get("ARBITER_BIN")
    path = Path(named) if named else REPO / "target" / "release" / "arbiter"
    if not path.is_file():
        pytest.fail(
            f"the arbiter binary is needed to compare with the HTTP API and was not found at "
            f"{path}: build it (cargo build --release) or set ARBITER_BIN",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def games_dir() -> Path:
    if not GAMES.is_dir() or not any(GAMES.rglob("*.pdn")):
        pytest.fail(f"the real game records are missing: {GAMES}", pytrace=False)
    return GAMES


@pytest.fixture(scope="session")
def pdn_dir() -> Path:
    if not PDN.is_dir():
        pytest.fail(f"the PDN test files are missing: {PDN}", pytrace=False)
    return PDN


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Api:
    """A running `arbiter serve` and a small JSON client for it."""

    def __init__(self, base: str) -> None:
        self.base = base

    def request(
        self,
        method: str,
        path: str,
        params: Optional[Dict[str, Any]] = None,
        body: Any = None,
        data: Optional[bytes] = None,
        headers: Optional[Dict[str, str]] = None,
    ) -> Tuple[int, Any, bytes]:
        url = self.base + urllib.parse.quote(path, safe="/!%")
        if params:
            url += "?" + urllib.parse.urlencode(
                {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in params.items()}
            )
        hdrs = dict(headers or {})
        if body is not None:
            data = json.dumps(body).encode()
            hdrs["content-type"] = "application/json"
        req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                raw = r.read()
                status = r.status
        except urllib.error.HTTPError as e:
            raw = e.read()
            status = e.code
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = None
        return status, parsed, raw

    def get(self, path: str, **params: Any) -> Tuple[int, Any]:
        status, parsed, _ = self.request("GET", path, params=params)
        return status, parsed

    def post(self, path: str, body: Any, **params: Any) -> Tuple[int, Any]:
        status, parsed, _ = self.request("POST", path, params=params, body=body)
        return status, parsed

    def ok(self, status_and_body: Tuple[int, Any]) -> Any:
        status, body = status_and_body
        assert status == 200, body
        return body

    def ndjson(self, text: bytes, **params: Any) -> List[Dict[str, Any]]:
        status, _, raw = self.request(
            "POST",
            "/v1/judge/pdn",
            params=params,
            data=text,
            headers={"content-type": "text/plain", "accept": "application/x-ndjson"},
        )
        assert status == 200, raw[:500]
        return [json.loads(line) for line in raw.splitlines() if line.strip()]


@pytest.fixture(scope="session")
def api() -> Iterator[Api]:
    binary = arbiter_binary()
    port = free_port()
    env = dict(os.environ, ARBITER_LOG_FORMAT="json", RUST_LOG="warn")
    proc = subprocess.Popen(
        [str(binary), "serve", "--addr", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"arbiter serve exited with {proc.returncode}", pytrace=False)
            try:
                with urllib.request.urlopen(base + "/readyz", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("arbiter serve did not become ready within 60 s", pytrace=False)
            time.sleep(0.05)
        yield Api(base)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
