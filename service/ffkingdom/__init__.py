"""ffkingdom"""
