"""The languages (translator.languages): their data, and the Hunspell files read for spelling."""
