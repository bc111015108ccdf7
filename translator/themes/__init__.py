"""Themes made from elsewhere: the official Arcmage look imported from its template
set (:mod:`.arcmage`: the SVG card templates, their fonts and glyphs, turned into a
theme the typesetter prints with).

After the typesetter, whose themes it writes and checks; nothing but the API's theme
commands import it.
"""
