"""The answers of arbiter_draughts' operations as frozen dataclasses.

Each one has the fields of the HTTP API's answer for the same request, under the same names
(``from``, a Python keyword, is ``from_``); ``to_dict()`` gives that answer exactly, as the
JSON of the API reads.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Dict, List, Optional, Tuple, Type, TypeVar

__all__ = [
    "Status",
    "BoardPoint",
    "BoardLine",
    "GoalPoints",
    "BoardInfo",
    "EndRule",
    "DrawRule",
    "VariantInfo",
    "Reason",
    "InvalidMove",
    "ClaimableDraw",
    "DrawCounter",
    "Agreement",
    "RecordWarning",
    "Judgement",
    "GameError",
    "GameJudgement",
    "PdnSummary",
    "PdnJudgement",
    "PerftMove",
    "PerftResult",
    "EndgameMove",
    "EndgameResult",
    "EndgameRules",
    "MoveRules",
    "RuleCount",
]

T = TypeVar("T", bound="_Answer")


@dataclass(frozen=True)
class _Answer:
    """A part of an answer, read from the dict the engine gives."""

    # JSON member name -> attribute name, where they differ.
    _renames: ClassVar[Dict[str, str]] = {}
    # Attribute -> the class of its value (a dict), or of each item (a list of dicts).
    _nested: ClassVar[Dict[str, type]] = {}
    _raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls: Type[T], data: Dict[str, Any]) -> T:
        """The answer from its dict (the JSON of the HTTP API's answer)."""
        names = {f.name for f in dataclasses.fields(cls)}
        kwargs: Dict[str, Any] = {}
        for key, value in data.items():
            name = cls._renames.get(key, key)
            if name not in names:
                continue
            nested = cls._nested.get(name)
            if nested is not None and value is not None:
                if isinstance(value, list):
                    value = [nested.from_dict(v) for v in value]  # type: ignore[attr-defined]
                else:
                    value = nested.from_dict(value)  # type: ignore[attr-defined]
            kwargs[name] = value
        return cls(_raw=data, **kwargs)

    def to_dict(self) -> Dict[str, Any]:
        """The answer as the HTTP API's JSON reads (a deep copy: changing it changes
        nothing here)."""
        return copy.deepcopy(self._raw)


@dataclass(frozen=True)
class Status(_Answer):
    """Where the game stands in a position judged on its own (repetition needs the game's
    history: judge the game for that)."""

    state: str = "ongoing"
    """``ongoing``, ``white_wins``, ``black_wins`` or ``draw``."""
    reason: Optional[str] = None
    """Why the game is over (``NO_LEGAL_MOVES``, ``KING_CROWNED``...); None while it goes on."""


@dataclass(frozen=True)
class BoardPoint(_Answer):
    """A point of a graph board: its name and drawing coordinates (file 0 = a, rank 0 = 1)."""

    name: str = ""
    x: int = 0
    y: int = 0


@dataclass(frozen=True)
class BoardLine(_Answer):
    """A line between two points of a graph board (``kind``: ``line``, or ``step-only``: a
    step may use it, a capture never does)."""

    _renames: ClassVar[Dict[str, str]] = {"from": "from_"}
    from_: str = ""
    to: str = ""
    kind: str = "line"


@dataclass(frozen=True)
class GoalPoints(_Answer):
    """Squares of each side (goal points, castle squares)."""

    white: List[str] = field(default_factory=list)
    black: List[str] = field(default_factory=list)


@dataclass(frozen=True)
class BoardInfo(_Answer):
    """A variant's board."""

    _nested: ClassVar[Dict[str, type]] = {
        "points": BoardPoint,
        "lines": BoardLine,
        "goal_points": GoalPoints,
        "castles": GoalPoints,
    }
    width: int = 0
    """Number of files."""
    height: int = 0
    """Number of ranks."""
    squares: str = "numeric"
    """How squares are written: ``numeric`` (``32-28``) or ``algebraic`` (``c3-d4``)."""
    layout: str = "checkered"
    """``checkered``, ``full`` or ``graph``."""
    cells: int = 0
    """Number of playable squares or points."""
    points: Optional[List[BoardPoint]] = None
    """Graph boards: every point."""
    lines: Optional[List[BoardLine]] = None
    """Graph boards: every line."""
    goal_points: Optional[GoalPoints] = None
    """The goal points of each side, where the variant has them."""
    ranks: Optional[List[Tuple[str, str]]] = None
    """Grids with squares cut away: the first and last square of each rank."""
    castles: Optional[GoalPoints] = None
    """The castle squares of each side (the Camelot family)."""


@dataclass(frozen=True)
class EndRule(_Answer):
    """An end rule: a rule that decides the game on the position, beside "no legal move"."""

    code: str = ""
    description: str = ""
    source: str = ""


@dataclass(frozen=True)
class DrawRule(_Answer):
    """A draw rule."""

    code: str = ""
    """Stable code, as the judge reports it (``KINGS_25``, ``REPETITION``...)."""
    mode: str = "automatic"
    """``automatic`` (the judge ends the game) or ``claimable``."""
    limit: int = 0
    """The rule's limit, in ``limit_unit``."""
    limit_unit: str = "plies"
    """``occurrences`` or ``plies``."""
    description: str = ""
    source: str = ""


@dataclass(frozen=True)
class VariantInfo(_Answer):
    """A variant and its rules, as ``GET /v1/variants/{variant}`` gives them."""

    _nested: ClassVar[Dict[str, type]] = {
        "board": BoardInfo,
        "end_rules": EndRule,
        "draw_rules": DrawRule,
    }
    id: str = ""
    name: str = ""
    board: BoardInfo = field(default_factory=BoardInfo)
    first_mover: str = "white"
    start_position: str = ""
    pdn_game_type: Optional[str] = None
    rules: Dict[str, str] = field(default_factory=dict)
    end_rules: List[EndRule] = field(default_factory=list)
    draw_rules: List[DrawRule] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    sources: List[str] = field(default_factory=list)
    provisional: bool = False
    provisional_reason: Optional[str] = None
    stones_in_hand: Optional[int] = None


@dataclass(frozen=True)
class Reason(_Answer):
    """Why a game ended: a rule, or the adjudication asked for."""

    code: str = ""
    """``NO_LEGAL_MOVES``, ``NO_PIECES``, an end rule's or a draw rule's code,
    ``ENDGAME_TABLES`` or ``MOVE_LIMIT``."""
    description: str = ""
    material: Optional[str] = None
    """``ENDGAME_TABLES``: the material of the final position (``KKvK``)."""
    plies: Optional[int] = None
    """``ENDGAME_TABLES``: plies to the end under best play (None for a draw)."""
    move_limit: Optional[int] = None
    """``MOVE_LIMIT`` (and ``ENDGAME_TABLES`` at the limit): the move limit."""
    drawn_by: Optional[str] = None
    """``ENDGAME_TABLES``: the counted draw rule (``FRISIAN_2V1_7``...) that makes a
    game-theoretic win a draw, when one does."""


@dataclass(frozen=True)
class InvalidMove(_Answer):
    """The first move of a game that is not legal."""

    ply: int = 0
    """1-based ply of the move in the game."""
    move: str = ""
    """The move text as given."""
    code: str = "illegal-move"
    """``illegal-move``, ``ambiguous-move`` or ``unparsable-move``."""
    reason: str = ""
    violation: Optional[str] = None
    """The first rule it breaks (``too-far``, ``capture-compulsory``...)."""
    precedence: Optional[str] = None
    legal_moves: List[str] = field(default_factory=list)
    candidates: Optional[List[str]] = None
    """An ambiguous move: the moves the text matches (single games only)."""
    move_number: Optional[int] = None
    """The move number written before it (games of a PDN file only)."""


@dataclass(frozen=True)
class ClaimableDraw(_Answer):
    """A draw a player could have claimed, with the first ply it was available."""

    code: str = ""
    description: str = ""
    ply: int = 0


@dataclass(frozen=True)
class DrawCounter(_Answer):
    """Where a draw rule's count stands in the final position."""

    code: str = ""
    mode: str = "automatic"
    count: int = 0
    """How often the final position has occurred, or the plies counted so far."""
    limit: int = 0
    limit_unit: str = "plies"
    applies: bool = True
    """Whether the rule's material condition holds in the final position."""


@dataclass(frozen=True)
class Agreement(_Answer):
    """A declared result checked against the moves."""

    agrees: Optional[bool] = None
    """True, False, or None when the moves cannot decide."""
    explanation: str = ""


@dataclass(frozen=True)
class RecordWarning(_Answer):
    """Something the record reader did to read a game, or noticed about it."""

    code: str = ""
    ply: int = 0
    text: str = ""
    reading: Optional[str] = None
    alternatives: List[str] = field(default_factory=list)
    verdict_differs: Optional[bool] = None
    detail: str = ""


@dataclass(frozen=True)
class Judgement(_Answer):
    """The judgement of a game, as ``POST /v1/variants/{variant}/judge`` gives it."""

    _nested: ClassVar[Dict[str, type]] = {
        "reason": Reason,
        "invalid_move": InvalidMove,
        "claimable_draws": ClaimableDraw,
        "draw_counters": DrawCounter,
        "agreement": Agreement,
        "warnings": RecordWarning,
    }
    variant: str = ""
    verdict: str = "undecided"
    """``white_wins``, ``black_wins``, ``draw``, ``undecided`` or ``invalid``."""
    reason: Optional[Reason] = None
    result: str = "*"
    """The PDN result in the variant's style (``2-0``, ``1-0``, ``1/2-1/2``...); ``*``
    when undecided or invalid."""
    plies: int = 0
    """Moves legally played."""
    decided_at_ply: Optional[int] = None
    moves_after_end: int = 0
    final_position: str = ""
    """FEN of the position after the moves legally played."""
    side_to_move: str = "white"
    moves: List[str] = field(default_factory=list)
    """The moves legally played, in canonical notation."""
    invalid_move: Optional[InvalidMove] = None
    claimable_draws: List[ClaimableDraw] = field(default_factory=list)
    draw_counters: List[DrawCounter] = field(default_factory=list)
    """Where each draw rule of the variant stands in the final position."""
    declared_result: Optional[str] = None
    agreement: Optional[Agreement] = None
    warnings: List[RecordWarning] = field(default_factory=list)
    pdn: Optional[str] = None
    """The game as canonical PDN text, when asked for (``include_pdn``)."""


@dataclass(frozen=True)
class GameError(_Answer):
    """Why a game of a PDN file could not be judged."""

    code: str = ""
    """``invalid-game-text``, ``unsupported-variant``, ``no-variant``,
    ``invalid-position``, ``too-many-moves``, ``capture-limit``, ``pdn-syntax``,
    ``payload-too-large`` or ``budget-exceeded``."""
    detail: str = ""


@dataclass(frozen=True)
class GameJudgement(_Answer):
    """The judgement of one game of a PDN file, as ``POST /v1/judge/pdn`` gives it."""

    _nested: ClassVar[Dict[str, type]] = {
        "reason": Reason,
        "invalid_move": InvalidMove,
        "claimable_draws": ClaimableDraw,
        "agreement": Agreement,
        "warnings": RecordWarning,
        "error": GameError,
    }
    index: int = 0
    """0-based index of the game in the file."""
    line: int = 0
    """1-based line where the game starts."""
    tags: Dict[str, str] = field(default_factory=dict)
    variant: Optional[str] = None
    outcome: str = "judged"
    """``judged``, or ``error`` when the game could not be judged (see ``error``)."""
    verdict: Optional[str] = None
    reason: Optional[Reason] = None
    decided_at_ply: Optional[int] = None
    plies: Optional[int] = None
    moves_after_end: Optional[int] = None
    final_position: Optional[str] = None
    result: Optional[str] = None
    declared_result: Optional[str] = None
    agreement: Optional[Agreement] = None
    claimable_draws: Optional[List[ClaimableDraw]] = None
    invalid_move: Optional[InvalidMove] = None
    warnings: Optional[List[RecordWarning]] = None
    pdn: Optional[str] = None
    error: Optional[GameError] = None


@dataclass(frozen=True)
class PdnSummary(_Answer):
    """Counts over a PDN file."""

    games: int = 0
    judged: int = 0
    errors: int = 0


@dataclass(frozen=True)
class PdnJudgement(_Answer):
    """The judgement of a PDN text, as ``POST /v1/judge/pdn`` gives it."""

    _nested: ClassVar[Dict[str, type]] = {"games": GameJudgement, "summary": PdnSummary}
    games: List[GameJudgement] = field(default_factory=list)
    summary: PdnSummary = field(default_factory=PdnSummary)


@dataclass(frozen=True)
class PerftMove(_Answer):
    """A first move and the leaves below it."""

    move: str = ""
    nodes: int = 0
    routes: Optional[int] = None
    """With ``keep``: the capture routes of the move."""


@dataclass(frozen=True)
class PerftResult(_Answer):
    """A perft count, as ``GET /v1/variants/{variant}/perft`` gives it."""

    _nested: ClassVar[Dict[str, type]] = {"divide": PerftMove}
    variant: str = ""
    position: str = ""
    depth: int = 0
    keep: bool = False
    nodes: int = 0
    nodes_by_depth: List[int] = field(default_factory=list)
    divide: Optional[List[PerftMove]] = None


@dataclass(frozen=True)
class MoveRules(_Answer):
    """A value under the counting rules, for the side to move."""

    category: str = "draw"
    """``win``, ``draw`` or ``loss`` when the counted draw rules run: a win that a count
    draws before it comes is a ``draw``."""
    plies: Optional[int] = None
    """For a win or a loss: the plies the binding count must still allow (to the next move
    that restarts it, or the end); None for a draw."""


@dataclass(frozen=True)
class EndgameRules(_Answer):
    """A position's value under the counting rules, from the counts given."""

    category: str = "draw"
    plies: Optional[int] = None
    differs: Optional[str] = None
    """``cursed-win`` or ``blessed-loss`` where a counted rule turns the game-theoretic
    result into a draw; None where both values agree."""
    drawn_by: Optional[str] = None
    """The counted rule that draws (``FRISIAN_2V1_7``...) where ``differs`` is set."""
    searched: bool = False
    """Whether the value was searched rather than read from the tables."""


@dataclass(frozen=True)
class RuleCount(_Answer):
    """Where a counted draw rule's count stands in the position."""

    rule: str = ""
    count: int = 0
    """Plies counted so far."""
    limit: int = 0
    """The count at which the rule draws, in plies."""


@dataclass(frozen=True)
class EndgameMove(_Answer):
    """A legal move and the value of the position it leads to, for the opponent."""

    _nested: ClassVar[Dict[str, type]] = {"rules": MoveRules}

    move: str = ""
    category: str = "draw"
    """``win``, ``draw`` or ``loss`` for the side to move after the move (``loss`` is a
    winning move)."""
    plies: Optional[int] = None
    captures: int = 0
    promotion: bool = False
    resulting_position: str = ""
    rules: Optional[MoveRules] = None
    """The value after the move under the counting rules, with the counts the move leaves."""


@dataclass(frozen=True)
class EndgameResult(_Answer):
    """A position's value under best play and its moves', as ``GET
    /v1/variants/{variant}/endgame`` gives them."""

    _nested: ClassVar[Dict[str, type]] = {
        "moves": EndgameMove,
        "rules": EndgameRules,
        "counts": RuleCount,
    }
    variant: str = ""
    position: str = ""
    side_to_move: str = "white"
    material: str = ""
    category: str = "draw"
    """``win``, ``draw`` or ``loss`` for the side to move."""
    plies: Optional[int] = None
    """Plies to the end under best play; None for a draw."""
    no_legal_moves: bool = False
    counts: List[RuleCount] = field(default_factory=list)
    """Where the variant's counted draw rules stand in the position."""
    rules: Optional[EndgameRules] = None
    """The value under the counting rules (the game-theoretic one is ``category``)."""
    moves: List[EndgameMove] = field(default_factory=list)
    """Every legal move, best first for the mover under the rules."""
