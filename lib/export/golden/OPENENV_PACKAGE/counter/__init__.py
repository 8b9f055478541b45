"""Counter (EnvStudio export)."""
