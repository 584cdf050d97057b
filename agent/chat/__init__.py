"""`investigate chat`: an interactive session over the investigation, with or without a model."""
