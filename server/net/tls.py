"""The TLS certificate and key of ``wss://``, read at start and again on request (SIGHUP), so a
renewed certificate needs no restart."""

from __future__ import annotations

import logging
import ssl
from pathlib import Path

log = logging.getLogger("muggins.server")


class CertificateRefused(ValueError):
    """The certificate and key given at start do not load; the message says which and why."""


class Certificates:
    """One server-side TLS context; :meth:`reload` reads the files into it again."""

    def __init__(self, certfile: Path, keyfile: Path | None) -> None:
        self.certfile, self.keyfile = certfile, keyfile
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
            if path is not None and not Path(path).is_file():
                raise CertificateRefused(f"{option} {path}: no such file")
        try:
            self.context.load_cert_chain(certfile, keyfile)
        except (OSError, ssl.SSLError) as error:
            pair = f"{certfile} and {keyfile}" if keyfile is not None else str(certfile)
            if isinstance(error, ssl.SSLError):
                why = f" ({error.reason})" if error.reason else ""
                reason = f"they are not a PEM certificate and its matching key{why}"
            else:
                reason = error.strerror or str(error)
            raise CertificateRefused(
                f"cannot load the TLS certificate ({pair}): {reason}"
            ) from error

    def reload(self) -> bool:
        """Read the certificate and key again: connections made from now on get the new
        certificate, open ones keep theirs. A pair that does not load is logged and the old one
        kept."""
        try:
            # Tried on a spare context first: a failed load leaves a context half changed.
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
                self.certfile, self.keyfile
            )
            self.context.load_cert_chain(self.certfile, self.keyfile)
        except (OSError, ssl.SSLError) as error:
            log.error("TLS certificate not reloaded (the old one stays): %s", error)
            return False
        log.info("TLS certificate reloaded", extra={"certfile": str(self.certfile)})
        return True
