"""The mail layer: reading player mail (IMAP or Maildir), writing judge mail (SMTP or Maildir).

It knows nothing about games or the judge: the judge hands it bytes and gets bytes and
plain records back. See docs/mail.md for configuration.
"""
