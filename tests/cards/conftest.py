"""The card library (translator.cards): card and deck files, their checks, editing them."""
