"""The page's side of `askhost web` for Python: the server started and its URL read, a request on a
connection of its own, and the WebSocket (handshake, masked text frames, pings answered).
tests/integration/test_web.py and bench/run.py (its web row) both use this one copy."""
import base64
import hashlib
import json
import os
import select
import socket
import ssl
import struct
import subprocess
import time
import urllib.parse


class WebClientError(Exception):
    """What the server did or sent was not what the page expects."""


def _check(cond, message):
    if not cond:
        raise WebClientError(message)


class Web:
    """`askhost web` running; its first line is the URL with the token. Its log goes to
    stderr_path (appended)."""

    def __init__(self, askhost, args=(), env=None, cwd=None, stderr_path=os.devnull):
        self.stderr_path = stderr_path
        self.proc = subprocess.Popen([askhost, "web", *args], stdout=subprocess.PIPE,
                                     stderr=open(stderr_path, "ab"), env=env, cwd=cwd, start_new_session=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], 30)
        if not ready:
            self.stop()
            raise WebClientError("askhost web printed no URL; stderr: " + self.log())
        self.url = self.proc.stdout.readline().decode().strip()
        parts = urllib.parse.urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.port:
            self.stop()
            raise WebClientError("a URL on the first line, not %r; stderr: %s" % (self.url, self.log()))
        self.port = parts.port
        self.token = urllib.parse.parse_qs(parts.query)["token"][0]
        self.tls = parts.scheme == "https"

    def log(self):
        if self.stderr_path == os.devnull:
            return ""
        with open(self.stderr_path, errors="replace") as f:
            return f.read()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=15)
        self.proc.stdout.close()

    def connect(self):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=20)
        if self.tls:
            ctx = ssl.create_default_context()
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
            s = ctx.wrap_socket(s)
        return s

    def get(self, target, headers=None, host=None, raw=None):
        """One request on its own connection: (status, {header: [values]}, body)."""
        s = self.connect()
        hdrs = {"Host": host if host is not None else "127.0.0.1:%d" % self.port, "Connection": "close"}
        hdrs.update(headers or {})
        req = raw if raw is not None else ("GET %s HTTP/1.1\r\n" % target +
                                           "".join("%s: %s\r\n" % kv for kv in hdrs.items()) + "\r\n").encode()
        s.sendall(req)
        data = read_to_end(s, (ConnectionResetError, ssl.SSLError))
        s.close()
        return parse_response(data)

    def login(self):
        """The cookie the token gets."""
        status, headers, _ = self.get("/?token=" + self.token)
        _check(status == 303, "the token is answered with a redirect, not %d" % status)
        cookie = headers["set-cookie"][0]
        return cookie.split(";")[0].split("=", 1)[1]


def read_to_end(s, stop=(OSError,)):
    """What socket s receives until the peer closes it, or until one of the errors `stop` names."""
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except stop:
            break
        if not chunk:
            break
        out += chunk
    return out


def parse_response(data):
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    _check(lines and lines[0].startswith("HTTP/1."), "an HTTP response: %r" % data[:200])
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers.setdefault(k.strip().lower(), []).append(v.strip())
    return status, headers, body


class WsClient:
    """The page's side of the WebSocket: the handshake, masked text frames, pings answered."""

    def __init__(self, web, cookie, origin=None, host=None):
        self.s = web.connect()
        # As a browser's socket: each frame leaves when it is written (no Nagle).
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        host = host or "127.0.0.1:%d" % web.port
        origin = origin if origin is not None else ("https://" if web.tls else "http://") + host
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET /ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nOrigin: %s\r\n" % (host, key, origin))
        if cookie is not None:
            req += "Cookie: askhost_web=%s\r\n" % cookie
        self.s.sendall((req + "\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.s.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, self.buf = data.partition(b"\r\n\r\n")
        self.status, self.headers, self.body = parse_response(head + b"\r\n\r\n")
        if self.status == 101:
            accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode())
                                      .digest()).decode()
            _check(self.headers.get("sec-websocket-accept") == [accept],
                   "Sec-WebSocket-Accept: %r" % self.headers.get("sec-websocket-accept"))
        else:
            self.body = self.buf + read_to_end(self.s)

    def _need(self, n, timeout):
        deadline = time.monotonic() + timeout
        while len(self.buf) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise WebClientError("timed out waiting for a WebSocket frame")
            self.s.settimeout(left)
            try:
                chunk = self.s.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                return False
            self.buf += chunk
        return True

    def frame(self, opcode, payload, length=None):
        head = bytes([0x80 | opcode])
        n = len(payload) if length is None else length
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

    def send(self, obj):
        self.s.sendall(self.frame(1, json.dumps(obj).encode()))

    def recv_frame(self, timeout=15.0):
        """(opcode, payload), or None once the server closed the connection."""
        while True:
            if not self._need(2, timeout):
                return None
            b0, b1 = self.buf[0], self.buf[1]
            _check(not b1 & 0x80, "frames from the server are not masked")
            n, at = b1 & 0x7F, 2
            if n == 126:
                if not self._need(4, timeout):
                    return None
                n, at = struct.unpack(">H", self.buf[2:4])[0], 4
            elif n == 127:
                if not self._need(10, timeout):
                    return None
                n, at = struct.unpack(">Q", self.buf[2:10])[0], 10
            if not self._need(at + n, timeout):
                return None
            payload, self.buf = self.buf[at:at + n], self.buf[at + n:]
            opcode = b0 & 0x0F
            if opcode == 9:  # ping: the browser answers by itself
                self.s.sendall(self.frame(10, payload))
                continue
            return opcode, payload

    def message(self, timeout=15.0):
        f = self.recv_frame(timeout)
        _check(f is not None, "the WebSocket closed")
        opcode, payload = f
        _check(opcode == 1, "a text frame, not opcode %d" % opcode)
        return json.loads(payload)

    def until(self, predicate, what, timeout=20.0):
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise WebClientError("timed out waiting for %s; got %r" % (what, seen[-5:]))
            m = self.message(left)
            if predicate(m):
                return m
            seen.append(m)

    def close(self):
        self.s.close()
