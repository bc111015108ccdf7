"""The editor integration: ``translator lsp``, a language server for card files.

A client of the stages, as the command line is: :mod:`.session` keeps a library and
the linter warm and answers for one buffer (diagnostics, fixes, the English card, a
preview) without knowing the protocol; :mod:`.server` speaks the Language Server
Protocol (pygls) over standard input and output; :mod:`.assist` holds hover and
completion.  Importing this package imports nothing: pygls, the linter and the
typesetter load when the server starts.
"""
