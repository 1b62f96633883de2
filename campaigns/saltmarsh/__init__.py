"""The Ghosts of Saltmarsh campaign: its services, reads, API, the bridge to its adventure matches, its statistics
and its demo."""
