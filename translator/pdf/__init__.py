"""PDF files as a print shop reads them, below the typesetter: the page geometry of a
printed card (:mod:`.sizes`, :mod:`.geometry`), the CMYK output profile (:mod:`.profiles`),
finishing pages (:mod:`.pages`), PDF/X-4 labelling, the content interpreter and black
overprint (:mod:`.pdfx`), and the preflight (:mod:`.preflight`).

Nothing here knows cards, themes or WeasyPrint: it reads and writes PDF files (with
pikepdf, pypdfium2 and Pillow), so that a file from anywhere can be checked.
"""
