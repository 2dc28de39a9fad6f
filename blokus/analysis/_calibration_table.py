"""Calibration maps per variant and game phase, written by benchmarks/fit_calibration.py."""
TABLE: dict = {}
