"""The application: the match service, the Discord adapter and the local console."""
