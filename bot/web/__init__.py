"""The web adapter (issue 40): match pages for spectators from signed links, live.

It reaches the core only (``service``), like the other adapters: never storage nor
discord (an import-linter contract). ``app.WebApp`` serves the pages; ``links`` signs
them; ``pages`` writes the HTML; ``static/`` holds the one style sheet and script (no
build step). ``tablero web`` wires it (``bot/__main__.py``).
"""
