"""The event log and the tables beside it: the schema and its migrations, the codec, the hash
chain, and the recorder that appends a command's events and its read-model rows atomically
(one implementation per backend, chosen once at wiring)."""
