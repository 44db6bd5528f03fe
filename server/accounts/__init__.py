"""Accounts on the server: registering, signing in, sessions, passwords and sign-in limits."""
