"""Aminduna (translator.sync): the client, login, pull, push, their records and faults,
end to end against the stand-in server (tests/aminduna_standin.py)."""
