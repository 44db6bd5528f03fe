"""The table's widgets. Each is driven by attributes the app sets from the latest view."""
