"""The process's plumbing: metrics, logs, token buckets, the shared tick grid and the garbage
collector's schedule."""
