"""The wire schema of a Stronghold position (docs/stronghold.md C.2): the JSON's shape,
every type and every range, published for clients that validate before they send
(`fortress-solver schema stronghold`). `Position.from_json` reads by it first, then
checks what a schema cannot say (a unit on a removed battlefield, two units of one name).

Files may hold comments: `loads` reads plain JSON at JSON's speed and, only when that
fails, JSON with // and /* */ comments and trailing commas, in one linear pass.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, JsonValue, Strict

from solver.reading import MaxKeys, Schema, schema

NAME = "stronghold"

# Room above what a real game reaches: a game lasts a few dozen global turns, units have a
# Might of a few points and each player a handful of units.
MAX_TURN = 10_000
MAX_SCORE = 1_000
MAX_MIGHT = 1_000
MAX_PLAYERS = 8         # more than a mode has, so that the reader can say which it expects
MAX_UNITS = 64          # in all; docs/stronghold.md C.2's checks cap them per player too
MAX_SCHEDULE = 32       # reinforcements or burn-outs of one player
ROW = 3                 # battlefields in a row of the grid
BATTLEFIELDS = 3 * ROW  # the grid's: Outer, Inner and Stronghold rows

NAME_PATTERN = r"^[A-Za-z0-9_.:+-]{1,32}$"
Name = Annotated[str, Field(pattern=NAME_PATTERN,
                            description="a name: letters, digits and _ . : + -, at most 32")]
Turn = Annotated[int, Field(ge=1, le=MAX_TURN, description="a global turn, from 1")]
Count = Annotated[int, Field(ge=0, le=MAX_TURN)]
Score = Annotated[int, Field(ge=0, le=MAX_SCORE)]
Might = Annotated[int, Field(ge=0, le=MAX_MIGHT)]
Row = Annotated[list[Name], Field(min_length=ROW, max_length=ROW)]


class UnitSchema(Schema):
    """A unit (`id`, `owner` and `might` required)."""

    id: Name
    owner: Name = Field(description="a player of turn_order")
    might: Might
    loc: Name = Field("base", description='"base" or an active battlefield')
    ready: bool = True
    assault: Might = Field(0, description="added to its Might when it attacks")
    shield: Might = Field(0, description="added to its Might when it defends")
    tank: bool = Field(False, description="must be dealt lethal damage first")
    ganking: bool = Field(False, description="may move battlefield to battlefield")


class ReinforcementSchema(Schema):
    """A unit a player's schedule brings on one of its turns (docs/stronghold.md C.5)."""

    turn: Turn
    might: Might
    assault: Might = 0
    shield: Might = 0
    tank: bool = False
    ganking: bool = False


class GridSchema(Schema):
    """The three battlefields of each row, Outer, Inner and Stronghold."""

    O: Row  # noqa: E741 - the rows' names in format.toml
    I: Row  # noqa: E741
    S: Row


class CountersSchema(Schema):
    defender_bonus: Score = 0
    consolation: Annotated[dict[Name, Score], MaxKeys(MAX_UNITS)] | None = None


# A [battlefield, round] pair: a JSON list, read as a pair of a name and a whole number.
Consoled = Annotated[tuple[Annotated[Name, Strict()], Annotated[Count, Strict()]],
                     Strict(False)]


# A position as short as they come: turn 2, A1 to move, the defender holding O1.
EXAMPLE: dict[str, JsonValue] = {"game": "stronghold", "mode": "1v3", "turn": 2, "units": [
    {"id": "a1", "owner": "A1", "might": 3}, {"id": "a2", "owner": "A2", "might": 2},
    {"id": "a3", "owner": "A3", "might": 2}, {"id": "d1", "owner": "D", "might": 2, "loc": "O1"}]}


class PositionSchema(Schema):
    """A Stronghold position: every field but `units` may be left out, or null where the
    default depends on others (docs/stronghold.md C.2 gives the defaults)."""

    model_config = ConfigDict(json_schema_extra={"examples": [EXAMPLE]})

    game: Literal["stronghold"] = "stronghold"
    mode: Literal["1v3", "1v2"] = "1v3"
    win_target: Annotated[int, Field(ge=1, le=MAX_SCORE)] | None = Field(
        None, description="the defender's target; null: the mode's")
    turn_order: Annotated[list[Name], Field(min_length=1, max_length=MAX_PLAYERS)] | None = Field(
        None, description='the players in turn order; null: "D", "A1", "A2"(, "A3")')
    turn: Turn = 1
    defender_turns_taken: Count | None = Field(
        None, description="null: the defender's turns before `turn`")
    grid: GridSchema | None = Field(None, description="null: O1-O3, I1-I3, S1-S3")
    removed: Annotated[list[Name], Field(max_length=BATTLEFIELDS)] = Field(
        [], description="battlefields already removed")
    control: Annotated[dict[Name, Name], MaxKeys(BATTLEFIELDS)] | None = Field(
        None, description="battlefield -> player; a battlefield with units is their owner's")
    units: Annotated[list[UnitSchema], Field(max_length=MAX_UNITS)] = []
    defender_score: Score = 0
    reinforcements: Annotated[dict[Name, Annotated[list[ReinforcementSchema], Field(
        max_length=MAX_SCHEDULE)]], MaxKeys(MAX_PLAYERS)] | None = Field(
        None, description="player -> the units its schedule brings")
    burnouts: Annotated[dict[Name, Annotated[list[Turn], Field(max_length=MAX_SCHEDULE)]],
                        MaxKeys(MAX_PLAYERS)] | None = Field(
        None, description="player -> the global turns it burns out on")
    counters: CountersSchema | None = None
    consoled: Annotated[list[Consoled], Field(max_length=MAX_TURN)] = Field(
        [], description="[battlefield, round] pairs whose consolation was given")
    winner: Literal["attackers", "defender"] | None = None


def position_schema() -> dict[str, Any]:
    return schema(PositionSchema, NAME)


# Two passes: comments, then trailing commas. Each keeps runs of everything else (strings
# whole, to the end of the text if unterminated) as single tokens; nothing gives back what
# it has matched (*+, ++) and no alternative fails at the end of the text: linear time.
_STRING = r'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)'
_COMMENTS = re.compile(rf"(?P<keep>(?:[^\"/]++|{_STRING}|/(?![/*]))++)"
                       r"|//[^\n]*|/\*.*?(?:\*/|\Z)", re.S)
_TRAILING_COMMAS = re.compile(rf"(?P<keep>(?:[^\",]++|{_STRING}|,(?!\s*+[\]}}]))++)|,")


def loads(text: str) -> Any:
    """JSON, with // and /* */ comments and trailing commas allowed."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return json.loads(_TRAILING_COMMAS.sub(_blank, _COMMENTS.sub(_blank, text)))


def _blank(match: re.Match[str]) -> str:
    """A comment or trailing comma as spaces (line breaks kept, so that JSON's error
    positions still point into the file); the rest as it is."""
    token = match.group()
    if match.group("keep") is not None:
        return token
    if token.startswith("/*") and (len(token) < 4 or not token.endswith("*/")):
        raise json.JSONDecodeError("unterminated comment", match.string, match.start())
    if "\n" not in token:
        return " " * len(token)
    return re.sub(r"[^\n]", " ", token)
