"""Shared fixtures. `mail_servers`: a real Dovecot (IMAP/LMTP) and SMTP server for e2e tests."""

from __future__ import annotations

import os

import pytest

from mailservers import MailServers, missing_requirements, missing_tls_requirements, remove_servers, start_servers


def skip_or_fail(reason: str | None, what: str) -> None:
    """Servers missing on a developer's laptop: skip, saying why. Under CI: fail — CI must
    never pass by silently skipping the end-to-end tests."""
    if not reason:
        return
    if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
        pytest.fail(f"{what} unavailable under CI: {reason}", pytrace=False)
    pytest.skip(f"{what} unavailable: {reason}")


def _servers(missing: str | None, what: str, tls: bool = False):
    """Start the servers (or skip or fail, saying why), hand them over, remove them after."""
    skip_or_fail(missing, what)
    servers = start_servers(tls=tls)
    yield servers
    remove_servers(servers)


def _fresh(servers: MailServers) -> MailServers:
    """The servers, running, with every mailbox emptied before the test."""
    servers.ensure_running()
    servers.reset()
    return servers


@pytest.fixture(scope="session")
def mail_servers_session():
    yield from _servers(missing_requirements(), "end-to-end mail servers")


@pytest.fixture
def mail_servers(mail_servers_session: MailServers) -> MailServers:
    """The session's servers, running, with every mailbox emptied before the test."""
    return _fresh(mail_servers_session)


@pytest.fixture(scope="module")
def tls_mail_servers_module():
    """Dovecot and the SMTP relay speaking TLS only (certificates from a throwaway CA), for the
    tests of one module: started only where TLS is tested, so the plain tests stay as fast."""
    yield from _servers(missing_tls_requirements(), "TLS mail servers", tls=True)


@pytest.fixture
def tls_mail_servers(tls_mail_servers_module: MailServers) -> MailServers:
    """The module's TLS servers, running, with every mailbox emptied before the test."""
    return _fresh(tls_mail_servers_module)
