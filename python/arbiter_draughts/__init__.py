"""Arbiter's draughts rules engine, in process: 38 variants of draughts and their cousins,
with their legal moves, play, the judge (end and draw rules, declared results, adjudication by
the endgame tables), PDN files read game by game, perft, endgame tables and SVG diagrams.

The same engine and operations answer the Arbiter HTTP API and command line; every answer
here is the API's for the same input, and every problem is raised as an ``ArbiterError`` whose
``code`` is the API's problem code.

>>> import arbiter_draughts as ad
>>> board = ad.Board("international")
>>> len(board.legal_moves)
9
>>> board.push("32-28")
<Move 32-28 (international)>
>>> board.turn
'black'
"""

from __future__ import annotations

from . import _native
from ._errors import (
    AmbiguousMoveError,
    ArbiterError,
    BudgetExceededError,
    CaptureLimitError,
    EndgameBuildingError,
    EndgameError,
    EndgameNotInTablesError,
    EndgameUnsupportedError,
    IllegalMoveError,
    InvalidPositionError,
    MoveError,
    PdnSyntaxError,
    TooManyMovesError,
    UnknownVariantError,
    UnparsableMoveError,
    WorkLimitError,
)
from ._native import (
    DEFAULT_WORK_BUDGET,
    MAX_MOVES,
    Board,
    EndgameTables,
    LegalMoves,
    Move,
    PdnGames,
    Position,
    Variant,
    diagram,
    endgame,
    judge,
    judge_pdn,
    perft,
    read_pdn,
    variant,
    variants,
)
from ._types import (
    Agreement,
    BoardInfo,
    BoardLine,
    BoardPoint,
    ClaimableDraw,
    DrawCounter,
    DrawRule,
    EndgameMove,
    EndgameResult,
    EndgameRules,
    MoveRules,
    RuleCount,
    EndRule,
    GameError,
    GameJudgement,
    GoalPoints,
    InvalidMove,
    Judgement,
    PdnJudgement,
    PdnSummary,
    PerftMove,
    PerftResult,
    Reason,
    RecordWarning,
    Status,
    VariantInfo,
)

__version__: str = _native.__version__

__all__ = [
    "__version__",
    "DEFAULT_WORK_BUDGET",
    "MAX_MOVES",
    # The catalogue, positions, moves, play.
    "Variant",
    "variants",
    "variant",
    "Position",
    "Move",
    "LegalMoves",
    "Board",
    # Operations.
    "judge",
    "judge_pdn",
    "read_pdn",
    "PdnGames",
    "perft",
    "diagram",
    "endgame",
    "EndgameTables",
    # Answers.
    "Status",
    "VariantInfo",
    "BoardInfo",
    "BoardPoint",
    "BoardLine",
    "GoalPoints",
    "EndRule",
    "DrawRule",
    "Judgement",
    "Reason",
    "InvalidMove",
    "ClaimableDraw",
    "DrawCounter",
    "Agreement",
    "RecordWarning",
    "GameJudgement",
    "GameError",
    "PdnJudgement",
    "PdnSummary",
    "PerftResult",
    "PerftMove",
    "EndgameResult",
    "EndgameMove",
    "EndgameRules",
    "MoveRules",
    "RuleCount",
    # Exceptions.
    "ArbiterError",
    "UnknownVariantError",
    "InvalidPositionError",
    "MoveError",
    "UnparsableMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "TooManyMovesError",
    "PdnSyntaxError",
    "WorkLimitError",
    "CaptureLimitError",
    "BudgetExceededError",
    "EndgameError",
    "EndgameNotInTablesError",
    "EndgameUnsupportedError",
    "EndgameBuildingError",
]
