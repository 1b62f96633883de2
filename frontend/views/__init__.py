"""Web page views, one module per area: matches, campaigns, series, stats, catalogs, interop, quick log, live, stream history."""
