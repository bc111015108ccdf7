"""The Aminduna sync stage: moving cards between a git card library and Aminduna.

:mod:`.client` speaks the Aminduna HTTP API (retries where a request may be repeated,
never a create twice, no secret in any message); :mod:`.auth` keeps the login tokens
(``translator login``) in a file only its owner can read; :mod:`.records` keeps, beside
each card file, the card as it was pulled; :mod:`.pull` brings cards in through the
cards stage's import, :mod:`.push` sends reviewed translations back, and
:mod:`.conflicts` compares a card as pulled, on the server and in the library;
:mod:`.run` makes a pull, a push, a login or a logout as a command does (the server
chosen, the time limits and the token found, the client opened and closed).
"""
