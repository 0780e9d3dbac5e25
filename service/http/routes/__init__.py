"""The API's routes, one module per resource."""
