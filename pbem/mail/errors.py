"""Typed errors of the mail layer. Their str() is one line meant for the person at the console."""
from __future__ import annotations

import socket
import ssl

REFUSED = "connection refused (is the server running, and is the port right?)"
TLS_HINT = "check security: tls/starttls and the port"
CA_HINT = ("if the server uses a self-signed certificate or a private CA, set ca_file to that CA "
           "or to the server's certificate (docs/mail.md, Self-signed certificates)")
HOST_HINT = "check host: it must be a name the server's certificate is issued for"


class MailServerError(Exception):
    """A mail server could not be used: refused, timed out, bad login, dropped connection."""


class MailConfigError(Exception):
    """The mail section of the judge's config is wrong; the message names the key and the fix."""


def network_cause(exc: BaseException) -> str | None:
    """The words for a failure any mail protocol shares (timeouts, refused connections, unknown
    hosts, TLS), or None when the protocol's own code must say it."""
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return "timed out"
    if isinstance(exc, ConnectionRefusedError):
        return REFUSED
    if isinstance(exc, socket.gaierror):
        return f"unknown host ({exc.strerror})"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return certificate_cause(exc)
    if isinstance(exc, ssl.SSLError):
        return f"TLS failed ({exc.reason or exc}) - {TLS_HINT}"
    return None


def certificate_cause(exc: ssl.SSLCertVerificationError) -> str:
    """Why the server's certificate was refused, and the one fix that applies."""
    reason = " ".join(str(exc.verify_message or exc.reason or exc).split()).rstrip(".")
    # OpenSSL says "Hostname mismatch" or "IP address mismatch" when the chain is trusted
    # but names another host; anything else is a chain the judge does not trust.
    hint = HOST_HINT if "mismatch" in reason.lower() else CA_HINT
    return f"certificate refused ({reason}) - {hint}"
