"""The server's commands: ``muggins serve``, ``history``, ``replay`` and ``review``."""
