"""A patience variant no file of the package holds, as a user writes it: Beleaguered Castle
with one free cell. The tests deal, solve and serve it with no code change."""

CASTLE_ONE_CELL = """\
name = "castle-one-cell"
title = "Beleaguered Castle with one free cell"
source = "the family command line test: Beleaguered Castle's deal and play, one free cell"
piles = [6, 6, 6, 6, 6, 6, 6, 5]
cells = 1
cells_dealt = 1
aces_first = true
build = "any-suit-down"
numbering = "pysol"
"""
