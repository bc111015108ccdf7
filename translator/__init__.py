"""translator: the translation and typesetting toolchain for Arcmage cards."""

__version__ = "0.1.0"
