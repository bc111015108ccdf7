"""The editor support (translator.editor): sessions, assistance, the language server."""
