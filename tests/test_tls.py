"""`cornerclaim serve --certfile --keyfile`: the real command serving https with a certificate
of a throwaway CA (trustme), to a client that trusts that CA, to Socket.IO over wss and to
Chromium, which then holds the page in a secure context and finds it installable; and the
options' refusals, told before the host starts."""

from __future__ import annotations

import base64
import hashlib
import io
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
import segno
import socketio
import trustme
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from server.lan.discovery import HOST_TYPE, HTTPS_TYPE, service_infos, url_of
from server.serve import TlsError, tls_context
from tests.browser_fixtures import CHROMIUM, CHROMIUM_ARGS, _missing
from tests.server_fixtures import DEADLINE
from tests.socket_client import Client
from tests.throwaway import free_port

REPO = Path(__file__).resolve().parent.parent
BANNER_END = "Press Ctrl+C to stop."


@dataclass
class Certificate:
    """A server certificate for 127.0.0.1 and the CA that issued it, as PEM files."""

    ca: Path
    cert: Path
    key: Path

    def spki_sha256(self) -> str:
        """The base64 SHA-256 of the certificate's public key (Chromium's
        --ignore-certificate-errors-spki-list: the browser trusts this certificate)."""
        public = x509.load_pem_x509_certificate(self.cert.read_bytes()).public_key()
        der = public.public_bytes(serialization.Encoding.DER,
                                  serialization.PublicFormat.SubjectPublicKeyInfo)
        return base64.b64encode(hashlib.sha256(der).digest()).decode()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> Certificate:
    folder = tmp_path_factory.mktemp("tls")
    ca = trustme.CA()
    leaf = ca.issue_cert("127.0.0.1", "localhost")
    ca.cert_pem.write_to_path(folder / "ca.pem")
    leaf.cert_chain_pems[0].write_to_path(folder / "cert.pem")
    leaf.private_key_pem.write_to_path(folder / "key.pem")
    return Certificate(folder / "ca.pem", folder / "cert.pem", folder / "key.pem")


def serve(data_dir: Path, *options: str, log=subprocess.PIPE) -> subprocess.Popen:
    """`cornerclaim serve` on 127.0.0.1, without mDNS, printing its banner (and QR code) on
    stdout and its log on stderr (to `log`)."""
    return subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--data-dir",
         str(data_dir), "--no-mdns", *options],
        stdout=subprocess.PIPE, stderr=log, text=True, cwd=REPO)


def banner(proc: subprocess.Popen) -> list[str]:
    """The lines the host prints before it serves, up to "Press Ctrl+C to stop.", read as
    they come (the host listens from its first line on); fails if the host exits first."""
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
            if line.startswith(BANNER_END):
                return
        lines.put(None)  # the host closed its stdout: it ended

    threading.Thread(target=read, daemon=True).start()
    printed, end = [], time.monotonic() + DEADLINE
    while not printed or printed[-1] != BANNER_END:
        try:
            line = lines.get(timeout=max(0.0, end - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no banner within {DEADLINE} s: {printed}") from None
        if line is None:
            raise AssertionError(f"the host ended ({proc.wait(DEADLINE)}) before serving")
        printed.append(line)
    return printed


@dataclass
class HttpsHost:
    url: str
    printed: list[str]
    certificate: Certificate
    log: Path  # what the host printed: shown when a test fails


@pytest.fixture(scope="module")
def https_host(certificate, tmp_path_factory) -> Iterator[HttpsHost]:
    port = free_port()
    folder = tmp_path_factory.mktemp("host")
    with (folder / "serve.log").open("w") as log:
        proc = serve(folder / "data", "--port", str(port), "--certfile", str(certificate.cert),
                     "--keyfile", str(certificate.key), log=log)
        try:
            try:
                printed = banner(proc)
            except AssertionError as e:
                raise AssertionError(f"{e}\n{(folder / 'serve.log').read_text()}") from None
            yield HttpsHost(f"https://127.0.0.1:{port}", printed, certificate,
                            folder / "serve.log")
        finally:
            proc.terminate()  # SIGTERM: the host stops as on Ctrl+C
            proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 0
    # Refused handshakes (an unknown CA, plain http) end their connections quietly.
    assert "Traceback" not in (folder / "serve.log").read_text()


def test_the_host_answers_https_verified_against_its_ca_and_prints_an_https_url(https_host):
    health = requests.get(f"{https_host.url}/api/health", verify=https_host.certificate.ca,
                          timeout=DEADLINE)
    assert health.ok and health.json()["ok"] is True
    url = f"{https_host.url}/"
    assert https_host.printed[0] == f"Corner Claim host is up: {url}"
    # The QR code printed is the one of the https URL.
    qr = io.StringIO()
    segno.make(url, error="m").terminal(out=qr, compact=True)
    start = https_host.printed.index("Scan to join:") + 1
    assert "\n".join(https_host.printed[start:-1]) == qr.getvalue().rstrip("\n")
    with pytest.raises(requests.exceptions.SSLError):  # an unknown CA is refused
        requests.get(f"{https_host.url}/api/health", timeout=DEADLINE)


def test_a_socket_io_client_connects_over_wss(https_host):
    session = requests.Session()
    session.verify = str(https_host.certificate.ca)
    sio = Client(http_session=session, logger=True, engineio_logger=True)
    try:
        sio.connect(https_host.url, transports=["websocket"], wait_timeout=DEADLINE)
    except socketio.exceptions.ConnectionError as e:
        raise AssertionError(f"{e}; the host printed:\n{https_host.log.read_text()}") from e
    try:
        assert sio.connected and sio.transport() == "websocket"
    finally:
        sio.disconnect()
    with pytest.raises(socketio.exceptions.ConnectionError):  # the CA, not any certificate
        Client().connect(https_host.url, transports=["websocket"], wait_timeout=DEADLINE)


def test_a_connection_that_never_finishes_its_handshake_holds_up_no_one(https_host):
    """Each connection's handshake is its own greenlet's: a phone that connects and stalls
    does not keep the host from the others, and plain http gets no answer."""
    port = int(https_host.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=DEADLINE):
        answer = requests.get(f"{https_host.url}/api/health",
                              verify=https_host.certificate.ca, timeout=DEADLINE)
        assert answer.ok
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(f"http://127.0.0.1:{port}/api/health", timeout=DEADLINE)


ICON_SIZES = """async (srcs) => Promise.all(srcs.map((src) => new Promise((done, fail) => {
  const img = new Image();
  img.onload = () => done([src, `${img.naturalWidth}x${img.naturalHeight}`]);
  img.onerror = () => fail(new Error(`${src} did not load`));
  img.src = src;
})))"""


def test_a_phone_trusting_the_certificate_gets_a_secure_context_and_can_install_the_page(
        https_host, tmp_path):
    why = _missing()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    trust = f"--ignore-certificate-errors-spki-list={https_host.certificate.spki_sha256()}"
    with sync_playwright() as pw:
        phone = {k: v for k, v in pw.devices["Pixel 7"].items() if k != "default_browser_type"}
        # A profile of its own, not an incognito context: Chromium offers no install there.
        context = pw.chromium.launch_persistent_context(
            tmp_path / "profile", executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, trust],
            **phone)
        try:
            page = context.new_page()
            page.goto(f"{https_host.url}/")
            assert page.evaluate("window.isSecureContext") is True
            assert page.evaluate("'wakeLock' in navigator")  # what a secure context unlocks
            link = page.evaluate("""async () => {
              const r = await fetch(document.querySelector('link[rel=manifest]').href);
              return [r.status, r.headers.get('Content-Type')];
            }""")
            assert link == [200, "application/manifest+json"]
            cdp = context.new_cdp_session(page)
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["url"] == f"{https_host.url}/manifest.webmanifest"
            assert manifest["errors"] == []
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            icons = [(i["url"], i["sizes"]) for i in manifest["manifest"]["icons"]]
            touch = page.evaluate("document.querySelector('link[rel=apple-touch-icon]').href")
            claimed = icons + [(touch, "180x180")]
            loaded = page.evaluate(ICON_SIZES, [src for src, _ in claimed])
            assert [tuple(x) for x in loaded] == claimed
        finally:
            context.close()


@pytest.mark.parametrize("options, told", [
    (["--certfile", "{cert}"], "--certfile and --keyfile go together"),
    (["--certfile", "{cert}", "--keyfile", "{missing}"],
     "the key file {missing} cannot be read (No such file or directory)"),
    (["--certfile", "{cert}", "--keyfile", "{key}", "--server", "threading"],
     "https needs the gevent server"),
])
def test_the_command_refuses_what_cannot_serve_https_before_it_starts(
        certificate, tmp_path, options, told):
    names = {"cert": certificate.cert, "key": certificate.key, "missing": tmp_path / "no.pem"}
    proc = serve(tmp_path / "data", "--port", str(free_port()),
                 *[o.format(**names) for o in options])
    out, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 2 and out == ""
    assert err.startswith(f"cannot start: {told.format(**names)}"), err
    assert not (tmp_path / "data").exists()  # told before the host opened its store


def test_a_key_of_another_certificate_or_an_encrypted_key_is_refused(certificate, tmp_path):
    other = trustme.CA().issue_cert("127.0.0.1")
    other.private_key_pem.write_to_path(tmp_path / "other.pem")
    with pytest.raises(TlsError, match="is not the key of the certificate"):
        tls_context(str(certificate.cert), str(tmp_path / "other.pem"))
    key = serialization.load_pem_private_key(certificate.key.read_bytes(), None)
    (tmp_path / "locked.pem").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"secret")))
    with pytest.raises(TlsError, match="is encrypted"):
        tls_context(str(certificate.cert), str(tmp_path / "locked.pem"))
    (tmp_path / "junk.pem").write_text("not a certificate")
    with pytest.raises(TlsError, match="do not load as a PEM certificate"):
        tls_context(str(tmp_path / "junk.pem"), str(certificate.key))
    assert tls_context(None, None) is None


def test_an_https_host_is_announced_and_discovered_as_https():
    web, host = service_infos("Corner Claim on test", "192.168.1.20", 8443, version="1",
                              open_games=0, scheme="https")
    assert (web.type, host.type) == (HTTPS_TYPE, HOST_TYPE)
    props = {k.decode(): v.decode() for k, v in host.properties.items()}
    assert props["scheme"] == "https"
    assert url_of("192.168.1.20", 8443, props) == "https://192.168.1.20:8443/"
    assert url_of("192.168.1.20", 8000, {}) == "http://192.168.1.20:8000/"  # an older host
    assert url_of("192.168.1.20", 8000, {"scheme": "ftp"}) == "http://192.168.1.20:8000/"
