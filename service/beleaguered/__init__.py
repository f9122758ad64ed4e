"""beleaguered"""
