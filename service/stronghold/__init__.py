"""stronghold"""
