"""How messages count things: ``1 chunk``, ``2 chunks``, never ``1 chunks`` or ``chunk(s)``."""


def plural(n: int, word: str, plural_form: str | None = None) -> str:
    """``word`` as said of ``n`` things: itself for one, else its plural (``word + "s"``
    unless given)."""
    return word if n == 1 else plural_form or word + "s"


def counted(n: int, word: str, plural_form: str | None = None) -> str:
    """``n`` followed by ``word`` as said of ``n`` things (``plural``)."""
    return f"{n} {plural(n, word, plural_form)}"
