"""The glossaries (translator.glossary): the shipped data, the engine that finds terms in
card text, and the cache they are read through (translator.cache)."""
