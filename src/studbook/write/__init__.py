"""Writers: Hand -> site text."""

from studbook.write.pokerstars import write_hand, write_hands

__all__ = ["write_hand", "write_hands"]
