#!/usr/bin/env python3
"""A pqsig socket-protocol client (docs/PROTOCOL.md) using only the Python standard library.

    proto_client.py --server tcp://127.0.0.1:7000 --token-file tok ping
    proto_client.py --server unix:/run/pqsig.sock --token-file tok \\
        sign --key-id alice --in msg.txt --out msg.sig [--ctx HEX] [--deterministic]
    proto_client.py --server tcp://127.0.0.1:7000 --token-file tok \\
        verify --key-id alice --in msg.txt --sig msg.sig [--ctx HEX]
    proto_client.py --server tcp://127.0.0.1:7000 \\
        verify --alg ML-DSA-65 --pk alice.pk --in msg.txt --sig msg.sig

Exit codes as the pqsig CLI's: 0 success / valid, 1 invalid signature, 2 any other error
(one line on stderr). `ProtoClient` can also be imported and used as a library.
"""

import argparse
import socket
import struct
import sys

MAGIC = b"PQSG"
VERSION = 1
HEADER = struct.Struct(">4sBBHII")  # magic, version, opcode, reserved, request id, length
MAX_PAYLOAD = 16 << 20

PING, HELLO, SIGN, VERIFY = 0x01, 0x02, 0x10, 0x11
PONG, HELLO_OK, SIGNATURE, VALID, INVALID, ERROR = 0x81, 0x82, 0x90, 0x91, 0x92, 0xFF
FLAG_DETERMINISTIC = 0x02


class ServerError(Exception):
    """An ERROR frame: an HTTP-like code and the server's message."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ProtocolError(Exception):
    """The server's bytes are not a valid answer (or it closed the connection)."""


def field(data):
    """A length-prefixed field: u32 big-endian length, then the bytes."""
    return struct.pack(">I", len(data)) + data


class ProtoClient:
    """One connection; one request at a time (ids still checked)."""

    def __init__(self, server, timeout=30.0):
        if server.startswith("tcp://"):
            host, _, port = server[len("tcp://"):].rstrip("/").rpartition(":")
            if not host or not port.isdigit():
                raise ValueError(f"{server!r}: expected tcp://HOST:PORT")
            host = host.strip("[]")  # [::1]
            self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        elif server.startswith("unix:"):
            path = server[len("unix:"):]
            path = path[2:] if path.startswith("//") else path
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.settimeout(timeout)
            self.sock.connect(path)
        else:
            raise ValueError(f"{server!r}: expected tcp://HOST:PORT or unix:/PATH")
        self.next_id = 1

    def close(self):
        self.sock.close()

    def _recv_exact(self, n):
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ProtocolError("the server closed the connection")
            buf += chunk
        return bytes(buf)

    def call(self, opcode, payload):
        """Sends one request; returns (opcode, payload) of its answer; ERROR raises."""
        rid = self.next_id
        self.next_id = self.next_id % 0xFFFFFFFF + 1  # wraps, skipping 0
        self.sock.sendall(HEADER.pack(MAGIC, VERSION, opcode, 0, rid, len(payload)) + payload)
        magic, version, op, reserved, got, length = HEADER.unpack(self._recv_exact(HEADER.size))
        if magic != MAGIC or version != VERSION or reserved != 0 or length > MAX_PAYLOAD:
            raise ProtocolError("not a pqsig protocol answer")
        body = self._recv_exact(length)
        if op == ERROR:
            if len(body) < 6:
                raise ProtocolError("short ERROR frame")
            (code, n) = struct.unpack(">HI", body[:6])
            raise ServerError(code, body[6:6 + n].decode("utf-8", "replace"))
        if got != rid:
            raise ProtocolError(f"answer for request {got}, expected {rid}")
        return op, body

    def hello(self, token):
        op, body = self.call(HELLO, field(token))
        if op != HELLO_OK or len(body) != 12:
            raise ProtocolError("unexpected answer to HELLO")
        return struct.unpack(">III", body)  # max_payload, max_in_flight, max_batch

    def ping(self, data=b"ping"):
        op, body = self.call(PING, field(data))
        if op != PONG or body != field(data):
            raise ProtocolError("unexpected answer to PING")

    def sign(self, key_id, message, context=b"", deterministic=False):
        flags = FLAG_DETERMINISTIC if deterministic else 0
        payload = field(key_id.encode()) + bytes([flags]) + field(context) + field(message)
        op, body = self.call(SIGN, payload)
        if op != SIGNATURE or len(body) < 4:
            raise ProtocolError("unexpected answer to SIGN")
        (n,) = struct.unpack(">I", body[:4])
        if len(body) != 4 + n:
            raise ProtocolError("malformed SIGNATURE frame")
        return body[4:]

    def verify(self, message, signature, context=b"", key_id=None, alg=None, public_key=None):
        """True if valid, False if invalid. The key: key_id, or alg and public_key."""
        if key_id is not None:
            key = b"\x00" + field(key_id.encode())
        else:
            key = b"\x01" + field(alg.encode()) + field(public_key)
        payload = key + b"\x00" + field(context) + field(message) + field(signature)
        op, _ = self.call(VERIFY, payload)
        if op not in (VALID, INVALID):
            raise ProtocolError("unexpected answer to VERIFY")
        return op == VALID


def read(path, what):
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise SystemExit(fail(f"{path}: cannot read {what}: {e.strerror}"))


def fail(message):
    print(f"proto_client: {message}", file=sys.stderr)
    return 2


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--server", required=True, help="tcp://HOST:PORT or unix:/PATH")
    p.add_argument("--token-file", help="file holding the bearer token (trailing newline ignored)")
    p.add_argument("--timeout", type=float, default=30.0)
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("ping")
    s = sub.add_parser("sign")
    s.add_argument("--key-id", required=True)
    s.add_argument("--in", dest="input", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--ctx", default="", help="context in hex")
    s.add_argument("--deterministic", action="store_true")
    v = sub.add_parser("verify")
    v.add_argument("--key-id")
    v.add_argument("--alg")
    v.add_argument("--pk", help="raw public key file (with --alg)")
    v.add_argument("--in", dest="input", required=True)
    v.add_argument("--sig", required=True)
    v.add_argument("--ctx", default="", help="context in hex")
    a = p.parse_args(argv)

    try:
        ctx = bytes.fromhex(getattr(a, "ctx", ""))
    except ValueError:
        return fail("--ctx: not hex")
    if a.cmd == "verify" and (a.key_id is None) == (a.alg is None or a.pk is None):
        return fail("verify needs --key-id, or --alg and --pk")
    token = read(a.token_file, "token").rstrip(b"\r\n") if a.token_file else None
    try:
        c = ProtoClient(a.server, a.timeout)
    except (OSError, ValueError) as e:
        return fail(f"{a.server}: cannot connect: {e}")
    try:
        if token is not None:
            c.hello(token)
        if a.cmd == "ping":
            c.ping()
            return 0
        if a.cmd == "sign":
            sig = c.sign(a.key_id, read(a.input, "message"), ctx, a.deterministic)
            try:
                if a.out == "-":
                    sys.stdout.buffer.write(sig)
                else:
                    with open(a.out, "wb") as f:
                        f.write(sig)
            except OSError as e:
                return fail(f"{a.out}: cannot write signature: {e.strerror}")
            return 0
        msg, sig = read(a.input, "message"), read(a.sig, "signature")
        if a.key_id is not None:
            ok = c.verify(msg, sig, ctx, key_id=a.key_id)
        else:
            ok = c.verify(msg, sig, ctx, alg=a.alg, public_key=read(a.pk, "public key"))
        if not ok:
            print(f"proto_client: {a.sig}: invalid signature", file=sys.stderr)
        return 0 if ok else 1
    except ServerError as e:
        return fail(f"{a.server}: server error {e}")
    except (OSError, ProtocolError) as e:
        return fail(f"{a.server}: {e}")
    finally:
        c.close()


if __name__ == "__main__":
    sys.exit(main())
