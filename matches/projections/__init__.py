"""Read models kept from the global event log: the registry and its projectors, the stats read model and roll-ups, the Celery tasks that run them."""
