"""Cluster mode: several server nodes sharing one Redis (``muggins serve --redis URL``)."""
