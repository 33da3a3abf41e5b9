"""``runserver`` with TCP_NODELAY on every connection.

Django's development server writes the headers and the body of an answer in two small
sends; with Nagle's algorithm on, the second waits for the client's delayed ACK (about
40 ms on Linux), which caps a single client at a few dozen requests per second.
"""

from __future__ import annotations

import socket

from django.contrib.staticfiles.management.commands.runserver import Command as StaticfilesRunserver
from django.core.servers.basehttp import WSGIServer


class NoDelayWSGIServer(WSGIServer):
    def get_request(self) -> tuple[socket.socket, object]:
        connection, address = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, address


class Command(StaticfilesRunserver):
    server_cls = NoDelayWSGIServer
