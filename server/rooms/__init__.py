"""A room and everything at its table: seats and spectators, moves saved for certain, rated
seats and their clock, the computer in a seat and the coach."""
