"""Farbduell: the tables as data and the rules engine (Classic and Belagerung so far)."""
