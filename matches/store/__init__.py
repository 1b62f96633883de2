"""The event store and the stream layer every kind shares: appends, heads, snapshots, the global log, stream kinds and their hooks, history reads, and who a reader is."""
