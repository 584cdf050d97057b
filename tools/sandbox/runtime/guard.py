"""The socket guard: any attempt to reach a non-local host raises `NetworkBlockedError`.

Installed in every child whatever the namespace isolation, so a network attempt is
reported the same way everywhere: the message names the host, and the attempt (with
the innermost frame inside the repo) is appended as a JSON line to a log outside the
run dir, so it is reported even when the program catches the error. Local AF_UNIX
sockets (DataLoader workers) and loopback addresses stay allowed.
"""

from __future__ import annotations

import errno
import ipaddress
import json
import os
import socket
import traceback

MESSAGE_PREFIX = "network access blocked by torch-investigate"

_LOCAL_NAMES = {"", "localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}
_INET = (socket.AF_INET, socket.AF_INET6)

_state = {"installed": False, "run_dir": "", "log": None}


class NetworkBlockedError(OSError):
    """Raised instead of a network connection. An OSError, so code that handles
    connection failures sees an ordinary one."""


def _is_local(host) -> bool:
    if host is None:
        return True
    if isinstance(host, (bytes, bytearray)):
        host = bytes(host).decode("ascii", errors="replace")
    name = str(host).strip().lower().rstrip(".")
    if name in _LOCAL_NAMES or name.endswith(".localhost"):
        return True
    try:
        if name == socket.gethostname().lower():
            return True
    except OSError:
        pass
    try:
        ip = ipaddress.ip_address(name.split("%", 1)[0].strip("[]"))
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def _repo_frames() -> list[dict]:
    run_dir = _state["run_dir"]
    frames = []
    for f in traceback.extract_stack():
        path = os.path.abspath(f.filename)
        if run_dir and (path == run_dir or path.startswith(run_dir + os.sep)):
            frames.append({"file": path, "line": f.lineno, "function": f.name})
    return frames


def _block(call: str, host, port=None) -> NetworkBlockedError:
    where = f"{host}:{port}" if port not in (None, "", 0) else f"{host}"
    frames = _repo_frames()
    log = _state["log"]
    if log:
        try:
            with open(log, "a") as fh:
                fh.write(
                    json.dumps(
                        {"call": call, "host": str(host), "port": port, "frames": frames},
                        default=str,
                    )
                    + "\n"
                )
        except OSError:
            pass
    err = NetworkBlockedError(
        f"{MESSAGE_PREFIX}: {call} to {where} "
        "(the sandbox has no network; give the data as a local path, e.g. with --data)"
    )
    err.errno = errno.ENETUNREACH
    return err


def _address_host_port(address):
    if isinstance(address, tuple) and address:
        return address[0], (address[1] if len(address) > 1 else None)
    return address, None


def install(run_dir: str, log_path: str | None) -> None:
    """Patch the socket module in this process. Idempotent."""
    _state["run_dir"] = os.path.realpath(run_dir) if run_dir else ""
    _state["log"] = log_path
    if _state["installed"]:
        return
    _state["installed"] = True

    sock_cls = socket.socket
    orig_connect = sock_cls.connect
    orig_connect_ex = sock_cls.connect_ex
    orig_sendto = sock_cls.sendto
    orig_sendmsg = sock_cls.sendmsg
    orig_getaddrinfo = socket.getaddrinfo
    orig_create_connection = socket.create_connection
    orig_gethostbyname = socket.gethostbyname
    orig_gethostbyname_ex = socket.gethostbyname_ex

    def check(sock, call, address):
        if sock.family in _INET:
            host, port = _address_host_port(address)
            if not _is_local(host):
                raise _block(call, host, port)

    def connect(self, address):
        check(self, "connect", address)
        return orig_connect(self, address)

    def connect_ex(self, address):
        check(self, "connect_ex", address)
        return orig_connect_ex(self, address)

    def sendto(self, data, *args):
        if args:
            check(self, "sendto", args[-1])
        return orig_sendto(self, data, *args)

    def sendmsg(self, buffers, *args):
        if len(args) >= 3 and args[2] is not None:
            check(self, "sendmsg", args[2])
        return orig_sendmsg(self, buffers, *args)

    def getaddrinfo(host, port, *args, **kwargs):
        if not _is_local(host):
            raise _block("getaddrinfo", host, port)
        return orig_getaddrinfo(host, port, *args, **kwargs)

    def create_connection(address, *args, **kwargs):
        host, port = _address_host_port(address)
        if not _is_local(host):
            raise _block("create_connection", host, port)
        return orig_create_connection(address, *args, **kwargs)

    def gethostbyname(host):
        if not _is_local(host):
            raise _block("gethostbyname", host)
        return orig_gethostbyname(host)

    def gethostbyname_ex(host):
        if not _is_local(host):
            raise _block("gethostbyname_ex", host)
        return orig_gethostbyname_ex(host)

    sock_cls.connect = connect
    sock_cls.connect_ex = connect_ex
    sock_cls.sendto = sendto
    sock_cls.sendmsg = sendmsg
    socket.getaddrinfo = getaddrinfo
    socket.create_connection = create_connection
    socket.gethostbyname = gethostbyname
    socket.gethostbyname_ex = gethostbyname_ex
