"""Helpers the scenario tests of one game share (its main file and its audit file)."""
