"""The five games; importing engine.game.get_game registers them (see engine/games/registry.py)."""
