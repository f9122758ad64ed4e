"""Generic search over any game that implements the Problem protocol; knows nothing of cards."""

from solver.search.anytime import anytime
from solver.search.astar import astar, greedy
from solver.search.bfs import breadth_first
from solver.search.idastar import idastar
from solver.search.problem import Problem, SearchResult

__all__ = ["Problem", "SearchResult", "anytime", "astar", "breadth_first", "greedy", "idastar"]
