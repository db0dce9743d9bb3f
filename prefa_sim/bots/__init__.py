"""Players (bots) for every decision of the game, and the table that drives them.

``registry.make_player`` makes a player from its spec (a built-in name, with settings or
not, or ``path/to/file.py:ClassName``); ``base.Player`` is the interface, ``table`` plays
deals and games through the rules engine, and ``observation`` is what a seat may know.
"""
