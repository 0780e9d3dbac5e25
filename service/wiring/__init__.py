"""The composition root: settings from the environment, and the services wired from them."""
