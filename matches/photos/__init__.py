"""Photos of the table: processing an upload (pure Pillow), storing it and recording it as an entry."""
