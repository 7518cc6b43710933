"""Match use-cases (no discord import). Filled by the service issue."""
