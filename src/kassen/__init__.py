"""Kassen (合戦): Sengoku-era samurai wargames with every rule enforced."""

__version__ = "0.1.0"
