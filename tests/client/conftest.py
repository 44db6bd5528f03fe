"""Client tests run the app with Textual's pilot against a real server on a free port."""
