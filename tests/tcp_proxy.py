"""A TCP proxy on loopback that a test can cut and restore, to take a server (Redis,
PostgreSQL) away from the processes under test without stopping the server itself, which
other test runs share.

`cut()` acts like the server going down: open connections are reset and new ones refused
(the listening socket is closed). `restore()` listens again on the same port.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self.connections = 0  # accepted since the start: a test can tell reconnects apart

    def start(self) -> None:
        self._listen()

    def url(self, scheme: str, rest: str = "") -> str:
        return f"{scheme}://127.0.0.1:{self.port}{rest}"

    def cut(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
            doomed, self._open = self._open, set()
        if listener is not None:
            _close(listener)
        for sock in doomed:
            _close(sock)

    def restore(self) -> None:
        self._listen()

    def stop(self) -> None:
        self.cut()

    def _listen(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        self.port = listener.getsockname()[1]
        with self._lock:
            self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:  # cut: the listener was closed
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                _close(client)
                continue
            with self._lock:
                if self._listener is not listener:  # cut meanwhile
                    _close(client)
                    _close(upstream)
                    return
                self._open |= {client, upstream}
                self.connections += 1
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(src, dst), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open -= {src, dst}
            _close(src)
            _close(dst)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


@contextlib.contextmanager
def tcp_proxy(host: str, port: int) -> Iterator[TcpProxy]:
    proxy = TcpProxy(host, port)
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.stop()
