"""A loopback SMTP server for the benchmarks that takes every mail and keeps none: connections
served concurrently on an asyncio loop of its own thread, each mail's data read with one search
for its end (aiosmtpd reads it line by line in Python: a report of 48 KB of base64 is 600 lines,
and on a shared 2-core machine that server, not the judge, was what a send measured).

It speaks what a client needs to hand over mail (RFC 5321: EHLO/HELO, MAIL, RCPT, DATA, RSET,
NOOP, QUIT), answers 250 to every mail, counts mails and bytes. For benchmarks only: no TLS,
no login, no limits. `delay` (seconds) holds each mail's answer that long without using the
CPU, as a real server's delivery does (writing and syncing the mail, or a remote server's round
trips): `bench/smtp.py --delivery-ms`.
"""
from __future__ import annotations

import asyncio
import threading


class Sink:
    def __init__(self, host: str = "127.0.0.1", port: int = 0, delay: float = 0.0) -> None:
        self.host, self.port, self.delay = host, port, delay
        self.mails = 0
        self.bytes = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._server = loop.run_until_complete(asyncio.start_server(
                self._session, self.host, self.port, limit=64 * 1024 * 1024))   # a whole mail's data at once
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()
            loop.run_forever()
            self._server.close()
            loop.run_until_complete(self._server.wait_closed())
            loop.close()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        ready.wait(10)

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        def say(text: str) -> None:
            writer.write(text.encode("ascii") + b"\r\n")
        say("220 sink ESMTP")
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                verb = line[:4].upper()
                if verb == b"EHLO":
                    say("250-sink")
                    say("250 8BITMIME")
                elif verb == b"DATA":
                    say("354 end with <CRLF>.<CRLF>")
                    await writer.drain()
                    data = await reader.readuntil(b"\r\n.\r\n")
                    if self.delay:
                        await asyncio.sleep(self.delay)
                    self.mails += 1
                    self.bytes += len(data) - 5
                    say("250 OK")
                elif verb == b"QUIT":
                    say("221 bye")
                    await writer.drain()
                    break
                elif verb in (b"HELO", b"MAIL", b"RCPT", b"RSET", b"NOOP"):
                    say("250 OK")
                else:
                    say("502 not here")
                await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            pass
        finally:
            writer.close()
