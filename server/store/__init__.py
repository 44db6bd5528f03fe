"""Where rooms, action logs and accounts are kept: the interfaces, memory and SQLite."""
