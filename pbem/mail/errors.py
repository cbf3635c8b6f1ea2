"""Typed errors of the mail layer. Their str() is one line meant for the person at the console."""


class MailServerError(Exception):
    """A mail server could not be used: refused, timed out, bad login, dropped connection."""


class MailConfigError(Exception):
    """The mail section of the judge's config is wrong; the message names the key and the fix."""
