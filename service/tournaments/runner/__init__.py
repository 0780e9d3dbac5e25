"""The tournament's runner: its log in the database (`log`), the games it creates through the
ordinary game pipeline and whose results it feeds back (`runner`), who wakes it (`drivers`),
and its audit (`verify`)."""
