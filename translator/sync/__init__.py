"""The Aminduna sync stage: moving cards between a git card library and Aminduna.

:mod:`.client` speaks the Aminduna HTTP API (retries where a request may be repeated,
never a create twice, no secret in any message); :mod:`.auth` keeps the login tokens
(``translator login``) in a file only its owner can read.  ``translator pull`` and
``push`` build on both.
"""
