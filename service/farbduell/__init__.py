"""farbduell"""
