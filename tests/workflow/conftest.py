"""The translation workflow (translator.workflow): states, status, drafts, the translation
memory, TMX, PO and XLIFF exchange."""
