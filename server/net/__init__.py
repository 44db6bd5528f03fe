"""The network edge: one WebSocket connection per client, its messages dispatched to the lobby
and rooms, keepalive pings, and the browser's static pages."""
