"""How messages count things: ``1 chunk``, ``2 chunks``, never ``1 chunks`` or ``chunk(s)``."""


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` followed by ``word``, or by its plural (``word + "s"`` unless given) when ``n``
    is not 1."""
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"
