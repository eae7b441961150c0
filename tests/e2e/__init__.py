"""End-to-end tests: the real discord.py client against a fake Discord server."""
