"""What a finished match leaves: ratings settled once, records, reviews and replays."""
