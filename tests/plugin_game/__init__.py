"""A small extra game declared in one file (``tictactoe.py``), to prove that adding a
game is one plug-in (README: "Adding a game")."""
