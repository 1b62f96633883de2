"""Plays moving between apps: BG Stats exports and BoardGameGeek play logs, in (as import jobs) and out.

- ``bgstats`` / ``bgg``: streaming readers of each source into :class:`records.PlayIn` (``bgg`` also writes
  BGG's XML); ``scores``: score expressions evaluated exactly; ``text``: cleaning what files carry;
- ``writer``: each play written whole as a finished match through the store's append path;
- ``jobs`` / ``tasks``: the import job (stored upload, batches, progress, report, resume); ``api``: endpoints;
- ``export``: the BG Stats JSON and BGG XML out; ``backup``: every stream and event as JSON Lines, and back; ``logged``: a game logged after the fact; ``me``: "This is me".

Apart from the store (``matches.store``) and the stats (``matches.stats``, ``matches.projections``): stats see imported plays as any
finished match, except ``Match.ignored`` ones, which the ``play_stats`` projector leaves out.
"""
