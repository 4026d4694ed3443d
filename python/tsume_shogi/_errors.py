"""The error raised for bad input: a ValueError that says where and what."""

from typing import Optional


class ProblemError(ValueError):
    """A position, problem, file or move that cannot be read.

    Attributes: ``file`` (the file name, ``<argument>`` for text given directly, ``<moves>``
    for a move list), ``line`` (1-based; 0 when the whole input is concerned), ``column``
    (1-based, in characters, where it helps), ``what`` (what is wrong, without the place)
    and ``text`` (the problem's line, for one-line formats).
    """

    def __init__(
        self,
        message: str,
        file: str = "",
        line: int = 0,
        column: Optional[int] = None,
        what: str = "",
        text: Optional[str] = None,
    ) -> None:
        # All in args, so that the error pickles whole (Dask sends errors between processes).
        super().__init__(message, file, line, column, what, text)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.what = what
        self.text = text

    def __str__(self) -> str:
        return self.message
