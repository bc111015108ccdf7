"""The attacks: hostile files, libraries, themes, servers, processes and limits, against
every stage; and the fuzzing of every reader."""
