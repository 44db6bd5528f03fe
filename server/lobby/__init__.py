"""Finding a game: the lobby of players and rooms by code, the public room list, and rated
matchmaking."""
