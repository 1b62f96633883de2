"""The installable, offline web app: the rules and boards archives, the service worker and manifest, the board drawn on the phone, the seed a page hands it."""
