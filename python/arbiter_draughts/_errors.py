"""The exceptions of arbiter_draughts: one class per kind of problem, each carrying the
problem document the HTTP API answers with for the same input (``problem``) and its stable
``code`` (``invalid-position``, ``illegal-move``, ``unknown-variant``...)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

__all__ = [
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


class ArbiterError(Exception):
    """A problem the rules engine found with what it was given.

    ``code`` is the problem's stable code, the same as the ``code`` of the HTTP API's problem
    document for the same input; ``problem`` is that whole document (a dict: ``type``,
    ``title``, ``status``, ``detail``, ``code`` and the members of its kind); ``detail``
    says what is wrong in a sentence.
    """

    code: str
    """The stable code (``invalid-position``, ``illegal-move``...)."""
    status: int
    """The HTTP status the API answers this problem with."""
    title: str
    """A short summary of the kind of problem."""
    detail: str
    """What is wrong, in a sentence."""
    problem: Dict[str, Any]
    """The problem document (RFC 9457) the HTTP API gives for the same input."""

    def __init__(self, problem: Dict[str, Any]) -> None:
        self.problem = dict(problem)
        self.code = str(problem.get("code", ""))
        self.status = int(problem.get("status", 0))
        self.title = str(problem.get("title", ""))
        self.detail = str(problem.get("detail", ""))
        super().__init__(f"{self.code}: {self.detail}")

    def __reduce__(self) -> Any:
        return (type(self), (self.problem,))


class UnknownVariantError(ArbiterError, LookupError):
    """No variant has this id or alias (``unknown-variant``)."""

    @property
    def known_variants(self) -> List[str]:
        """The ids of every variant."""
        return list(self.problem.get("known_variants") or [])


class InvalidPositionError(ArbiterError, ValueError):
    """A FEN the engine refuses (``invalid-position``): badly written, or a position the
    variant cannot have (a man on its promotion row, too many pieces...)."""

    @property
    def field(self) -> Optional[str]:
        """The argument at fault (``position``, ``start_position``)."""
        return self.problem.get("field")


class MoveError(ArbiterError, ValueError):
    """A move text or move object that does not name exactly one legal move."""

    @property
    def move(self) -> Optional[str]:
        """The move text as given."""
        return self.problem.get("move")

    @property
    def ply(self) -> Optional[int]:
        """The 1-based place of the move among those given."""
        return self.problem.get("ply")

    @property
    def reason(self) -> Optional[str]:
        """Why the move was refused, in words."""
        return self.problem.get("reason")

    @property
    def violation(self) -> Optional[str]:
        """For an illegal move, the first rule it breaks: ``too-far``, ``capture-compulsory``,
        ``capture-precedence``, ``wrong-direction``... (``no-such-square`` on an unparsable
        move whose square the board does not have)."""
        return self.problem.get("violation")

    @property
    def precedence(self) -> Optional[str]:
        """For ``capture-precedence``: the precedence rule the capture loses on."""
        return self.problem.get("precedence")

    @property
    def legal_moves(self) -> List[str]:
        """Every legal move of the position, in canonical notation."""
        return list(self.problem.get("legal_moves") or [])

    @property
    def candidates(self) -> List[str]:
        """For an ambiguous move: the legal moves the text matches, in long notation."""
        return list(self.problem.get("candidates") or [])


class UnparsableMoveError(MoveError):
    """A move text that is not move notation, or names a square the board does not have
    (``unparsable-move``)."""


class IllegalMoveError(MoveError):
    """A move the rules do not allow in the position (``illegal-move``); ``violation`` names
    the rule it breaks."""


class AmbiguousMoveError(MoveError):
    """A move text that names several legal moves (``ambiguous-move``); ``candidates`` lists
    them in long notation."""


class TooManyMovesError(ArbiterError, ValueError):
    """More moves in one game than the judge takes (``too-many-moves``: 1000, as the HTTP
    API)."""

    @property
    def limit(self) -> Optional[int]:
        return self.problem.get("limit")


class PdnSyntaxError(ArbiterError, ValueError):
    """PDN text that strict reading refuses (``pdn-syntax``), at the first place the PDN 3.0
    grammar rejects."""

    @property
    def line(self) -> Optional[int]:
        return self.problem.get("line")

    @property
    def column(self) -> Optional[int]:
        return self.problem.get("column")

    @property
    def rule(self) -> Optional[str]:
        return self.problem.get("rule")

    @property
    def expected(self) -> List[str]:
        return list(self.problem.get("expected") or [])


class WorkLimitError(ArbiterError):
    """The work asked for is over a bound: one position's capture search, or the work
    budget of the call."""

    @property
    def limit(self) -> Optional[int]:
        return self.problem.get("limit")


class CaptureLimitError(WorkLimitError):
    """The capture sequences of one position exceed the engine's enumeration bound
    (``capture-limit``)."""


class BudgetExceededError(WorkLimitError):
    """The call needs more engine work than its ``budget`` (``budget-exceeded``)."""

    @property
    def reachable_depth(self) -> Optional[int]:
        """Perft: the deepest depth the budget reaches from the position."""
        return self.problem.get("reachable_depth")


class EndgameError(ArbiterError):
    """The endgame tables cannot answer for this position."""

    @property
    def material(self) -> Optional[str]:
        """The material of the position (``KKvK``)."""
        return self.problem.get("material")


class EndgameNotInTablesError(EndgameError, LookupError):
    """The position has more pieces than the tables have (``endgame-not-in-tables``)."""

    @property
    def tables(self) -> Optional[Dict[str, Any]]:
        """What tables exist for the variant: ``builtin_pieces``,
        ``builtin_max_positions``, ``prebuilt``."""
        return self.problem.get("tables")


class EndgameUnsupportedError(EndgameError):
    """The variant has no endgame tables (``endgame-unsupported``): drops, rules that
    depend on the game's history, passes."""


class EndgameBuildingError(EndgameError):
    """A table is still being computed (``endgame-building``); only a store with a bounded
    wait raises it."""


_BY_CODE = {
    "unknown-variant": UnknownVariantError,
    "invalid-position": InvalidPositionError,
    "unparsable-move": UnparsableMoveError,
    "illegal-move": IllegalMoveError,
    "ambiguous-move": AmbiguousMoveError,
    "too-many-moves": TooManyMovesError,
    "pdn-syntax": PdnSyntaxError,
    "capture-limit": CaptureLimitError,
    "budget-exceeded": BudgetExceededError,
    "endgame-not-in-tables": EndgameNotInTablesError,
    "endgame-unsupported": EndgameUnsupportedError,
    "endgame-building": EndgameBuildingError,
}


def _from_problem(problem: Dict[str, Any]) -> ArbiterError:
    """The exception for a problem document (used by the extension module)."""
    cls = _BY_CODE.get(str(problem.get("code")), ArbiterError)
    return cls(problem)
