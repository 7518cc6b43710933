"""Async persistence behind the service's repository Protocol. Filled by the storage issue."""
