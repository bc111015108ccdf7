"""The command line and the Python API (translator.cli, translator.api, the entry point),
and what the repository promises around them: docs, pre-commit hooks."""
