"""The YAML order language (DESIGN.md, layer 2): safe loading, the mail envelope, echoes."""
