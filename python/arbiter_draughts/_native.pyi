"""Type stubs of the extension module ``arbiter_draughts._native`` (the Rust engine).

Everything here is re-exported by ``arbiter_draughts``; import it from there.
"""

from __future__ import annotations

import os
from typing import IO, Dict, Iterable, Iterator, List, Optional, Tuple, Union, final

from ._types import (
    BoardInfo,
    DrawRule,
    EndgameResult,
    EndRule,
    GameJudgement,
    Judgement,
    PdnJudgement,
    PdnSummary,
    PerftResult,
    Status,
    VariantInfo,
)

__all__ = [
    "Board",
    "DEFAULT_WORK_BUDGET",
    "EndgameTables",
    "LegalMoves",
    "LegalMovesIter",
    "MAX_MOVES",
    "Move",
    "PdnGames",
    "Position",
    "Variant",
    "__version__",
    "diagram",
    "endgame",
    "judge",
    "judge_pdn",
    "perft",
    "read_pdn",
    "variant",
    "variants",
]
__version__: str
DEFAULT_WORK_BUDGET: int
"""The work budget of a judgement (and of each game of a PDN file) unless ``budget`` says
otherwise: the HTTP API's budget of a request, in work units (about half a second of CPU)."""
MAX_MOVES: int
"""The most moves a game judged at once may have (1000, as the HTTP API)."""

_VariantName = Union[str, "Variant"]
"""A variant: its id in any case (``"international"``), an alias (``"standard"``,
``"Frysk!"``) or a ``Variant``."""

_MoveArg = Union[str, "Move"]
"""A move: a ``Move`` of the position, or move text (``"32-28"``, ``"28x19"``, the long form
``"47x38x20x9x36"``, algebraic squares ``"c3-d4"``, a drop ``"*c2"``, ``"pass"``...)."""

@final
class Variant:
    """A variant of the catalogue: a board, a ruleset, a start position and a notation.

    Equal variants are the same variant; a variant is hashable and can be pickled.
    """

    def __new__(cls, name: _VariantName) -> Variant:
        """The variant with this id (in any case) or alias; ``UnknownVariantError`` else."""
    @property
    def id(self) -> str:
        """The id (``international``)."""
    @property
    def name(self) -> str:
        """The full name."""
    @property
    def aliases(self) -> List[str]:
        """Other names it is found by (lidraughts', PlayStrategy's, pydraughts'), compared
        without regard to case, spaces, ``_`` and ``-``."""
    @property
    def first_mover(self) -> str:
        """The side that moves first from the start position: ``white`` or ``black``."""
    @property
    def start_fen(self) -> str:
        """The start position as FEN."""
    @property
    def pdn_game_type(self) -> Optional[str]:
        """The PDN ``GameType`` tag value, if the variant has a number of its own."""
    @property
    def info(self) -> VariantInfo:
        """Everything about the variant, as ``GET /v1/variants/{variant}`` gives it."""
    @property
    def board(self) -> BoardInfo:
        """The board: size, how squares are named, layout, points and lines of graph boards."""
    @property
    def rules(self) -> Dict[str, str]:
        """The rule parameters in words (name -> description)."""
    @property
    def end_rules(self) -> List[EndRule]:
        """The end rules, in the order the judge applies them."""
    @property
    def draw_rules(self) -> List[DrawRule]:
        """The draw rules, in the order the judge applies them."""
    def start(self) -> Position:
        """The start position."""
    def position(self, fen: str) -> Position:
        """The position of a FEN (``InvalidPositionError`` when the variant cannot have it)."""
    def board_at(self, fen: Optional[str] = None) -> Board:
        """A board at the start position, or at a FEN."""
    def to_dict(self) -> dict:
        """The variant as ``GET /v1/variants/{variant}`` gives it."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def variants() -> List[Variant]:
    """Every variant of the catalogue, in a stable order (international first)."""

def variant(name: _VariantName) -> Variant:
    """The variant with this id (in any case) or alias; ``UnknownVariantError`` otherwise."""

@final
class Position:
    """A position of a variant: its pieces, the side to move, and the state its rules keep
    (stones in hand, king runs, castle moves, last moves), with lidraughts' move counters
    (``:H<n>:F<n>``) when its FEN had them.

    Immutable and hashable; two positions are equal when their FENs are. Can be pickled.
    """

    def __new__(
        cls, variant: _VariantName = "international", fen: Optional[str] = None
    ) -> Position:
        """The position of a FEN of a variant, or its start position without one;
        ``InvalidPositionError`` for a FEN the variant cannot have."""
    @property
    def variant(self) -> Variant:
        """The variant."""
    @property
    def fen(self) -> str:
        """The canonical FEN (with the move counters when the position has them)."""
    @property
    def turn(self) -> str:
        """The side to move: ``white`` or ``black``."""
    @property
    def counters(self) -> Optional[Tuple[int, int]]:
        """lidraughts' move counters ``(halfmoves, fullmove)`` when the FEN had them."""
    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, in the documented order of the HTTP API."""
    @property
    def status(self) -> Status:
        """Where the game stands in this position on its own (repetition needs the game's
        history: ``judge()`` the game for the draw rules)."""
    @property
    def hand(self) -> Tuple[int, int]:
        """Stones each side still holds in hand ``(white, black)`` (drop games; 0 else)."""
    def play(self, move: _MoveArg) -> Position:
        """The position after a move; an illegal move raises the ``MoveError`` that ``/play``
        answers for it (``IllegalMoveError`` with its ``violation``, ``UnparsableMoveError``,
        ``AmbiguousMoveError`` with its ``candidates``)."""
    def parse_move(self, text: str) -> Move:
        """The legal move a text names, or the ``MoveError`` that ``/play`` answers."""
    def is_game_over(self) -> bool:
        """Whether the rules end the game in this position (no legal move, an end rule)."""
    def piece_at(self, square: str) -> Optional[Tuple[str, str]]:
        """The piece on a square (its name in the variant's notation) as ``(colour, kind)``
        (``("white", "king")``), or None; ``ValueError`` for a square the board lacks."""
    def pieces(self) -> Dict[str, Tuple[str, str]]:
        """Every piece: square name -> ``(colour, kind)``."""
    def perft(self, depth: int, *, keep: bool = False, threads: Optional[int] = None) -> int:
        """The leaves ``depth`` plies below the position (every capture route counted with
        ``keep``), on ``threads`` threads (None: every core the process may use), without the
        GIL; Ctrl-C stops it. ``depth`` is at most 30."""
    def divide(self, depth: int, *, keep: bool = False) -> Dict[str, int]:
        """The leaves below each legal move (canonical notation -> count), in the order of
        the legal moves."""
    def svg(
        self, move: Optional[_MoveArg] = None, *, flip: bool = False, coordinates: bool = False
    ) -> str:
        """The position as an SVG picture, with a legal move's route and captures marked,
        the board turned round (``flip``), the square names (``coordinates``)."""
    def endgame(self, tables: Optional[EndgameTables] = None, *, counts: Optional[str] = None) -> EndgameResult:
        """The value of the position under best play and under the counting rules, and its
        moves', from the endgame tables (``tables``, or the built-in tables computed on first
        use); ``counts`` as ``endgame`` takes them."""
    def to_dict(self) -> dict:
        """The position's legal moves as ``GET /v1/variants/{variant}/moves`` answers."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Move:
    """A legal move of a position. Equal moves are the same move (start, end, captured
    pieces, what the piece becomes) of the same variant; a move is hashable and can be
    pickled. Made by ``Position.legal_moves`` and ``Position.parse_move``."""

    @property
    def notation(self) -> str:
        """Canonical notation: the short form (``32-28``, ``28x19``) unless another legal
        move has the same start and end, then the long form."""
    @property
    def long(self) -> str:
        """The long form: every square where the piece changes direction."""
    @property
    def from_square(self) -> Optional[str]:
        """The start square (a drop: the point it fills; None for a pass)."""
    @property
    def to_square(self) -> Optional[str]:
        """The end square (None for a pass)."""
    @property
    def route(self) -> List[str]:
        """The canonical route: start, the squares where the piece turns, end."""
    @property
    def captured(self) -> List[str]:
        """The squares of the captured pieces, in the order of the route (an opening
        removal: the removed piece's square)."""
    @property
    def captures(self) -> int:
        """How many pieces the move captures (an opening removal counts 0)."""
    @property
    def promotion(self) -> bool:
        """Whether the moving man is crowned."""
    @property
    def kind(self) -> str:
        """``step``, ``capture``, ``drop``, ``removal`` or ``pass``."""
    @property
    def position(self) -> Position:
        """The position the move is played from."""
    @property
    def after(self) -> Position:
        """The position after the move."""
    @property
    def variant(self) -> Variant:
        """The variant."""
    def to_dict(self) -> dict:
        """The move as the ``/moves`` answer lists it."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class LegalMoves:
    """The legal moves of a position: a sequence of ``Move`` in the documented order (by
    start square, then end square, then captured squares; a move that does not crown before
    one that does; a pass last). ``len()`` counts them without writing them out; ``in`` takes
    a ``Move`` or move text."""

    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __getitem__(self, index: int, /) -> Move: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __contains__(self, item: object, /) -> bool: ...
    def notations(self) -> List[str]:
        """The canonical notation of every move, in order."""

@final
class LegalMovesIter:
    """An iterator over legal moves."""

    def __iter__(self) -> LegalMovesIter: ...
    def __next__(self) -> Move: ...

@final
class Board:
    """A game being played, in the manner of python-chess: a position and the stack of moves
    that led to it from its root (``push``, ``pop``, ``peek``, ``move_stack``). Boards compare
    equal when their current positions are; they are not hashable (their ``position`` is)."""

    def __new__(
        cls, variant: _VariantName = "international", fen: Optional[str] = None
    ) -> Board:
        """A board at the start position of a variant, or at a FEN."""
    @property
    def variant(self) -> Variant: ...
    @property
    def position(self) -> Position:
        """The current position."""
    @property
    def fen(self) -> str:
        """The FEN of the current position."""
    @property
    def turn(self) -> str:
        """The side to move: ``white`` or ``black``."""
    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the current position."""
    @property
    def move_stack(self) -> List[Move]:
        """The moves played from the root, in order."""
    @property
    def status(self) -> Status:
        """Where the game stands in the current position on its own."""
    def root(self) -> Position:
        """The position the game started from."""
    def push(self, move: _MoveArg) -> Move:
        """Plays a legal move (a ``Move`` or move text) and returns it; an illegal move
        raises the ``MoveError`` that ``/play`` answers, and the board is unchanged."""
    def pop(self) -> Move:
        """Takes back the last move and returns it (``IndexError`` when none was played)."""
    def peek(self) -> Move:
        """The last move played (``IndexError`` when none was)."""
    def reset(self) -> None:
        """Takes back every move."""
    def is_game_over(self) -> bool:
        """Whether the rules end the game in the current position."""
    def judge(
        self,
        declared_result: Optional[str] = None,
        *,
        result_convention: str = "first-mover",
        adjudicate: Optional[str] = None,
        max_plies: Optional[int] = None,
        include_pdn: bool = False,
        tables: Optional[EndgameTables] = None,
        budget: Optional[int] = ...,
    ) -> Judgement:
        """Judges the game played on the board from its root, as ``/judge`` does; the
        options are ``judge()``'s."""
    def copy(self) -> Board:
        """A board with the same root and moves."""
    def __copy__(self) -> Board: ...
    def __eq__(self, other: object, /) -> bool: ...

def judge(
    variant: _VariantName,
    moves: Iterable[_MoveArg],
    *,
    start: Optional[str] = None,
    declared_result: Optional[str] = None,
    result_convention: str = "first-mover",
    adjudicate: Optional[str] = None,
    max_plies: Optional[int] = None,
    include_pdn: bool = False,
    tables: Optional[EndgameTables] = None,
    budget: Optional[int] = ...,
) -> Judgement:
    """Judges a game as ``POST /v1/variants/{variant}/judge`` does: its moves (move texts or
    ``Move`` objects, at most 1000) played from the start position or ``start`` (a FEN), with
    the end and draw rules; the verdict, the reason, the draw-rule counters, and the declared
    result checked.

    - ``declared_result``: ``white_wins``, ``black_wins``, ``draw``, or a PDN result (``1-0``,
      ``0-1``, ``1/2-1/2``, ``2-0``, ``0-2``, ``1-1``, ``0-0``, ``*``);
    - ``result_convention``: whose score a PDN result writes first, ``first-mover`` (PDN 3.0)
      or ``white-first``;
    - ``adjudicate="tables"``: a game the rules leave undecided whose final position is in the
      endgame tables is decided by them; ``max_plies`` (1 to 1000): a game still running at
      that ply is decided there, by the tables when they can, else drawn;
    - ``include_pdn``: the game as canonical PDN text too;
    - ``tables``: the endgame tables to adjudicate with (default: the built-in tables);
    - ``budget``: the work budget in work units (default ``DEFAULT_WORK_BUDGET``, the HTTP
      API's; None: no bound).

    An illegal move is the verdict ``invalid`` (with ``invalid_move``), not an exception.
    Raises ``InvalidPositionError``, ``TooManyMovesError``, ``BudgetExceededError``,
    ``ValueError`` for an unknown option value.
    """

def judge_pdn(
    text: Union[str, bytes],
    *,
    variant: Optional[_VariantName] = None,
    result_convention: str = "first-mover",
    adjudicate: Optional[str] = None,
    max_plies: Optional[int] = None,
    include_pdn: bool = False,
    strict: bool = False,
    tables: Optional[EndgameTables] = None,
    budget: Optional[int] = ...,
) -> PdnJudgement:
    """Judges every game of a PDN text (``str``, or ``bytes`` in UTF-8 or ISO-8859-1) as
    ``POST /v1/judge/pdn`` does: each game under its own variant (its ``GameType`` or
    ``Variant`` tag) unless ``variant`` names one, each within its own ``budget``. A game that
    cannot be judged is an entry with its ``error``. With ``strict``, a text that is not PDN
    3.0 raises ``PdnSyntaxError``. The other options are ``judge()``'s."""

@final
class PdnGames(Iterator[GameJudgement]):
    """The games of a PDN file judged one at a time as they are read (``read_pdn()``)."""

    def __iter__(self) -> PdnGames: ...
    def __next__(self) -> GameJudgement: ...
    @property
    def summary(self) -> PdnSummary:
        """The counts of the games judged so far."""
    def close(self) -> None:
        """Stops reading (a file opened from a path is closed)."""
    def __enter__(self) -> PdnGames: ...
    def __exit__(self, *args: object) -> bool: ...

def read_pdn(
    source: Union[str, os.PathLike, IO[bytes], IO[str]],
    *,
    variant: Optional[_VariantName] = None,
    result_convention: str = "first-mover",
    adjudicate: Optional[str] = None,
    max_plies: Optional[int] = None,
    include_pdn: bool = False,
    strict: bool = False,
    tables: Optional[EndgameTables] = None,
    budget: Optional[int] = ...,
) -> PdnGames:
    """The games of a PDN file judged one at a time as they are read: ``source`` is a path
    or a file object opened for reading (binary or text). One game is held in memory at a
    time (a game over 1 MiB is an entry with the ``payload-too-large`` error, and reading
    goes on), so a file of any size is judged in constant memory, without the GIL. With
    ``strict``, a game that breaks the PDN 3.0 grammar is an entry with the ``pdn-syntax``
    error. The other options are ``judge_pdn()``'s."""

def perft(
    variant: _VariantName,
    depth: int,
    *,
    fen: Optional[str] = None,
    divide: bool = False,
    keep: bool = False,
    budget: Optional[int] = None,
) -> PerftResult:
    """Perft as ``GET /v1/variants/{variant}/perft`` answers it: the leaves at every depth
    from 1 to ``depth`` (at most 30) below the start position or ``fen``, with ``divide`` the
    count below each legal move, with ``keep`` every capture route counted. ``budget`` bounds
    the work (None: no bound; ``BudgetExceededError`` gives the depth it reaches). Runs
    without the GIL; Ctrl-C stops it."""

def diagram(
    variant: _VariantName,
    fen: Optional[str] = None,
    *,
    move: Optional[str] = None,
    flip: bool = False,
    coordinates: bool = False,
) -> str:
    """A position as an SVG picture, as ``GET /v1/variants/{variant}/diagram`` draws it."""

@final
class EndgameTables:
    """Endgame tables: prebuilt table files (``*.arbtb``, written by ``arbiter tables
    build``) from a directory, and positions of up to ``builtin_pieces`` pieces computed on
    first use (a probe waits for the build, without the GIL); those tables and the build
    computing them take at most ``memory_bytes`` (the tables used least recently are dropped
    for a build; a material whose build alone would pass it is not computed)."""

    def __new__(
        cls,
        directory: Optional[Union[str, os.PathLike]] = None,
        *,
        builtin_pieces: int = 4,
        builtin_max_positions: int = 50_000_000,
        memory_bytes: int = 671_088_640,
    ) -> EndgameTables:
        """``OSError`` when the directory cannot be read; a file whose header does not match
        its name is skipped."""
    def probe(self, variant: _VariantName, fen: str, *, counts: Optional[str] = None) -> EndgameResult:
        """The value of a position under best play and under the counting rules, and its
        moves'; ``counts`` as ``endgame`` takes them."""
    def available(self, variant: _VariantName) -> dict:
        """What tables exist for a variant: ``builtin_pieces``, ``builtin_max_positions``,
        ``builtin_memory_bytes`` and the materials of the prebuilt ones (``prebuilt``)."""
    @property
    def prebuilt_count(self) -> int:
        """Tables loaded from files, over every variant."""

def endgame(variant: _VariantName, fen: str, *, tables: Optional[EndgameTables] = None, counts: Optional[str] = None) -> EndgameResult:
    """The value of a position under best play for the side to move (``win``, ``draw`` or
    ``loss``, and the plies to the end), its value under the counting rules, and each of its
    legal moves', from the endgame tables, as ``GET /v1/variants/{variant}/endgame``
    answers: ``tables``, or the built-in tables (up to 4 pieces, computed on first use). The
    value under the rules starts from the FEN's half-move clock and ``counts``, the counts
    the FEN cannot carry (``"FRISIAN_2V1_7:1"``: a rule's code and the plies it has counted;
    an ``ArbiterError`` with code ``invalid-query`` for a bad one). ``EndgameNotInTablesError`` for a
    position with more pieces, ``EndgameUnsupportedError`` for a variant without tables."""
