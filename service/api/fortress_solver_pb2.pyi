from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Mode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MODE_UNSPECIFIED: _ClassVar[Mode]
    MODE_OPTIMAL: _ClassVar[Mode]
    MODE_ANY: _ClassVar[Mode]
    MODE_VERDICT: _ClassVar[Mode]

class Algorithm(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ALGORITHM_UNSPECIFIED: _ClassVar[Algorithm]
    ALGORITHM_ASTAR: _ClassVar[Algorithm]
    ALGORITHM_IDASTAR: _ClassVar[Algorithm]
    ASTAR: _ClassVar[Algorithm]
    IDASTAR: _ClassVar[Algorithm]

class Status(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STATUS_UNSPECIFIED: _ClassVar[Status]
    STATUS_SOLVED: _ClassVar[Status]
    STATUS_UNSOLVABLE: _ClassVar[Status]
    STATUS_UNKNOWN: _ClassVar[Status]
    SOLVED: _ClassVar[Status]
    UNSOLVABLE: _ClassVar[Status]
    UNKNOWN: _ClassVar[Status]

class Notation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NOTATION_UNSPECIFIED: _ClassVar[Notation]
    NOTATION_OURS: _ClassVar[Notation]
    NOTATION_STANDARD: _ClassVar[Notation]

class Metric(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    METRIC_UNSPECIFIED: _ClassVar[Metric]
    METRIC_MOVES: _ClassVar[Metric]
    METRIC_CARDS: _ClassVar[Metric]

class MoveOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MOVE_OUTCOME_UNSPECIFIED: _ClassVar[MoveOutcome]
    MOVE_OUTCOME_WINS: _ClassVar[MoveOutcome]
    MOVE_OUTCOME_LOSES: _ClassVar[MoveOutcome]
    MOVE_OUTCOME_UNKNOWN: _ClassVar[MoveOutcome]
MODE_UNSPECIFIED: Mode
MODE_OPTIMAL: Mode
MODE_ANY: Mode
MODE_VERDICT: Mode
ALGORITHM_UNSPECIFIED: Algorithm
ALGORITHM_ASTAR: Algorithm
ALGORITHM_IDASTAR: Algorithm
ASTAR: Algorithm
IDASTAR: Algorithm
STATUS_UNSPECIFIED: Status
STATUS_SOLVED: Status
STATUS_UNSOLVABLE: Status
STATUS_UNKNOWN: Status
SOLVED: Status
UNSOLVABLE: Status
UNKNOWN: Status
NOTATION_UNSPECIFIED: Notation
NOTATION_OURS: Notation
NOTATION_STANDARD: Notation
METRIC_UNSPECIFIED: Metric
METRIC_MOVES: Metric
METRIC_CARDS: Metric
MOVE_OUTCOME_UNSPECIFIED: MoveOutcome
MOVE_OUTCOME_WINS: MoveOutcome
MOVE_OUTCOME_LOSES: MoveOutcome
MOVE_OUTCOME_UNKNOWN: MoveOutcome

class BeleagueredPosition(_message.Message):
    __slots__ = ("tableau", "reserve", "foundations", "variant", "cells")
    TABLEAU_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    FOUNDATIONS_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    tableau: _containers.RepeatedCompositeFieldContainer[Pile]
    reserve: _containers.RepeatedCompositeFieldContainer[ReserveSlot]
    foundations: Foundations
    variant: str
    cells: _containers.RepeatedCompositeFieldContainer[ReserveSlot]
    def __init__(self, tableau: _Optional[_Iterable[_Union[Pile, _Mapping]]] = ..., reserve: _Optional[_Iterable[_Union[ReserveSlot, _Mapping]]] = ..., foundations: _Optional[_Union[Foundations, _Mapping]] = ..., variant: _Optional[str] = ..., cells: _Optional[_Iterable[_Union[ReserveSlot, _Mapping]]] = ...) -> None: ...

class Pile(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class ReserveSlot(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class Foundations(_message.Message):
    __slots__ = ("clubs", "diamonds", "hearts", "spades")
    CLUBS_FIELD_NUMBER: _ClassVar[int]
    DIAMONDS_FIELD_NUMBER: _ClassVar[int]
    HEARTS_FIELD_NUMBER: _ClassVar[int]
    SPADES_FIELD_NUMBER: _ClassVar[int]
    clubs: int
    diamonds: int
    hearts: int
    spades: int
    def __init__(self, clubs: _Optional[int] = ..., diamonds: _Optional[int] = ..., hearts: _Optional[int] = ..., spades: _Optional[int] = ...) -> None: ...

class FfkPosition(_message.Message):
    __slots__ = ("players", "deck", "deck_size", "discard", "round", "to_move", "first_player", "actions_left", "resource_win", "winner", "seed")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_LEFT_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_WIN_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[FfkPlayer]
    deck: FfkCards
    deck_size: int
    discard: _containers.RepeatedScalarFieldContainer[str]
    round: int
    to_move: int
    first_player: int
    actions_left: int
    resource_win: bool
    winner: int
    seed: int
    def __init__(self, players: _Optional[_Iterable[_Union[FfkPlayer, _Mapping]]] = ..., deck: _Optional[_Union[FfkCards, _Mapping]] = ..., deck_size: _Optional[int] = ..., discard: _Optional[_Iterable[str]] = ..., round: _Optional[int] = ..., to_move: _Optional[int] = ..., first_player: _Optional[int] = ..., actions_left: _Optional[int] = ..., resource_win: _Optional[bool] = ..., winner: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class FfkPlayer(_message.Message):
    __slots__ = ("castle", "wall", "bricks", "weapons", "crystals", "gold", "builders", "soldiers", "mages", "markets", "producers_played", "shields", "guards", "double_next", "poison", "heal", "locked", "hand", "hand_size", "knows")
    CASTLE_FIELD_NUMBER: _ClassVar[int]
    WALL_FIELD_NUMBER: _ClassVar[int]
    BRICKS_FIELD_NUMBER: _ClassVar[int]
    WEAPONS_FIELD_NUMBER: _ClassVar[int]
    CRYSTALS_FIELD_NUMBER: _ClassVar[int]
    GOLD_FIELD_NUMBER: _ClassVar[int]
    BUILDERS_FIELD_NUMBER: _ClassVar[int]
    SOLDIERS_FIELD_NUMBER: _ClassVar[int]
    MAGES_FIELD_NUMBER: _ClassVar[int]
    MARKETS_FIELD_NUMBER: _ClassVar[int]
    PRODUCERS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    SHIELDS_FIELD_NUMBER: _ClassVar[int]
    GUARDS_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_NEXT_FIELD_NUMBER: _ClassVar[int]
    POISON_FIELD_NUMBER: _ClassVar[int]
    HEAL_FIELD_NUMBER: _ClassVar[int]
    LOCKED_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    KNOWS_FIELD_NUMBER: _ClassVar[int]
    castle: int
    wall: int
    bricks: int
    weapons: int
    crystals: int
    gold: int
    builders: int
    soldiers: int
    mages: int
    markets: int
    producers_played: FfkProducers
    shields: int
    guards: int
    double_next: bool
    poison: _containers.RepeatedCompositeFieldContainer[FfkTicks]
    heal: _containers.RepeatedCompositeFieldContainer[FfkTicks]
    locked: str
    hand: FfkCards
    hand_size: int
    knows: FfkKnows
    def __init__(self, castle: _Optional[int] = ..., wall: _Optional[int] = ..., bricks: _Optional[int] = ..., weapons: _Optional[int] = ..., crystals: _Optional[int] = ..., gold: _Optional[int] = ..., builders: _Optional[int] = ..., soldiers: _Optional[int] = ..., mages: _Optional[int] = ..., markets: _Optional[int] = ..., producers_played: _Optional[_Union[FfkProducers, _Mapping]] = ..., shields: _Optional[int] = ..., guards: _Optional[int] = ..., double_next: _Optional[bool] = ..., poison: _Optional[_Iterable[_Union[FfkTicks, _Mapping]]] = ..., heal: _Optional[_Iterable[_Union[FfkTicks, _Mapping]]] = ..., locked: _Optional[str] = ..., hand: _Optional[_Union[FfkCards, _Mapping]] = ..., hand_size: _Optional[int] = ..., knows: _Optional[_Union[FfkKnows, _Mapping]] = ...) -> None: ...

class FfkKnows(_message.Message):
    __slots__ = ("opponent_hand", "deck_top")
    OPPONENT_HAND_FIELD_NUMBER: _ClassVar[int]
    DECK_TOP_FIELD_NUMBER: _ClassVar[int]
    opponent_hand: _containers.RepeatedScalarFieldContainer[str]
    deck_top: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, opponent_hand: _Optional[_Iterable[str]] = ..., deck_top: _Optional[_Iterable[str]] = ...) -> None: ...

class FfkCards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class FfkProducers(_message.Message):
    __slots__ = ("builders", "soldiers", "mages", "markets")
    BUILDERS_FIELD_NUMBER: _ClassVar[int]
    SOLDIERS_FIELD_NUMBER: _ClassVar[int]
    MAGES_FIELD_NUMBER: _ClassVar[int]
    MARKETS_FIELD_NUMBER: _ClassVar[int]
    builders: int
    soldiers: int
    mages: int
    markets: int
    def __init__(self, builders: _Optional[int] = ..., soldiers: _Optional[int] = ..., mages: _Optional[int] = ..., markets: _Optional[int] = ...) -> None: ...

class FfkTicks(_message.Message):
    __slots__ = ("per", "ticks")
    PER_FIELD_NUMBER: _ClassVar[int]
    TICKS_FIELD_NUMBER: _ClassVar[int]
    per: int
    ticks: int
    def __init__(self, per: _Optional[int] = ..., ticks: _Optional[int] = ...) -> None: ...

class FarbduellPosition(_message.Message):
    __slots__ = ("table", "hands", "draw_pile", "discard", "colour", "to_move", "direction", "pending", "pending_kind", "fuse", "shields", "drawn", "winner", "seed", "side", "clock", "hunt_colour", "knows")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    PENDING_KIND_FIELD_NUMBER: _ClassVar[int]
    FUSE_FIELD_NUMBER: _ClassVar[int]
    SHIELDS_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    HUNT_COLOUR_FIELD_NUMBER: _ClassVar[int]
    KNOWS_FIELD_NUMBER: _ClassVar[int]
    table: str
    hands: _containers.RepeatedCompositeFieldContainer[FarbduellCards]
    draw_pile: FarbduellCards
    discard: _containers.RepeatedScalarFieldContainer[str]
    colour: str
    to_move: int
    direction: int
    pending: int
    pending_kind: str
    fuse: FarbduellFuse
    shields: _containers.RepeatedScalarFieldContainer[int]
    drawn: str
    winner: int
    seed: int
    side: str
    clock: FarbduellClock
    hunt_colour: str
    knows: _containers.RepeatedCompositeFieldContainer[FarbduellKnows]
    def __init__(self, table: _Optional[str] = ..., hands: _Optional[_Iterable[_Union[FarbduellCards, _Mapping]]] = ..., draw_pile: _Optional[_Union[FarbduellCards, _Mapping]] = ..., discard: _Optional[_Iterable[str]] = ..., colour: _Optional[str] = ..., to_move: _Optional[int] = ..., direction: _Optional[int] = ..., pending: _Optional[int] = ..., pending_kind: _Optional[str] = ..., fuse: _Optional[_Union[FarbduellFuse, _Mapping]] = ..., shields: _Optional[_Iterable[int]] = ..., drawn: _Optional[str] = ..., winner: _Optional[int] = ..., seed: _Optional[int] = ..., side: _Optional[str] = ..., clock: _Optional[_Union[FarbduellClock, _Mapping]] = ..., hunt_colour: _Optional[str] = ..., knows: _Optional[_Iterable[_Union[FarbduellKnows, _Mapping]]] = ...) -> None: ...

class FarbduellKnows(_message.Message):
    __slots__ = ("opponent_hand", "deck_top", "deck_bottom", "hands", "own_hand")
    class HandsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: FarbduellCards
        def __init__(self, key: _Optional[int] = ..., value: _Optional[_Union[FarbduellCards, _Mapping]] = ...) -> None: ...
    OPPONENT_HAND_FIELD_NUMBER: _ClassVar[int]
    DECK_TOP_FIELD_NUMBER: _ClassVar[int]
    DECK_BOTTOM_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    OWN_HAND_FIELD_NUMBER: _ClassVar[int]
    opponent_hand: _containers.RepeatedScalarFieldContainer[str]
    deck_top: _containers.RepeatedScalarFieldContainer[str]
    deck_bottom: _containers.RepeatedScalarFieldContainer[str]
    hands: _containers.MessageMap[int, FarbduellCards]
    own_hand: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, opponent_hand: _Optional[_Iterable[str]] = ..., deck_top: _Optional[_Iterable[str]] = ..., deck_bottom: _Optional[_Iterable[str]] = ..., hands: _Optional[_Mapping[int, FarbduellCards]] = ..., own_hand: _Optional[_Iterable[str]] = ...) -> None: ...

class FarbduellCards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class FarbduellFuse(_message.Message):
    __slots__ = ("size", "count", "skip_next")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    SKIP_NEXT_FIELD_NUMBER: _ClassVar[int]
    size: int
    count: int
    skip_next: bool
    def __init__(self, size: _Optional[int] = ..., count: _Optional[int] = ..., skip_next: _Optional[bool] = ...) -> None: ...

class FarbduellClock(_message.Message):
    __slots__ = ("count", "skip_next")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    SKIP_NEXT_FIELD_NUMBER: _ClassVar[int]
    count: int
    skip_next: bool
    def __init__(self, count: _Optional[int] = ..., skip_next: _Optional[bool] = ...) -> None: ...

class PositionSource(_message.Message):
    __slots__ = ("beleaguered_deal", "beleaguered", "ffkingdom", "farbduell", "stronghold", "json")
    BELEAGUERED_DEAL_FIELD_NUMBER: _ClassVar[int]
    BELEAGUERED_FIELD_NUMBER: _ClassVar[int]
    FFKINGDOM_FIELD_NUMBER: _ClassVar[int]
    FARBDUELL_FIELD_NUMBER: _ClassVar[int]
    STRONGHOLD_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    beleaguered_deal: int
    beleaguered: BeleagueredPosition
    ffkingdom: FfkPosition
    farbduell: FarbduellPosition
    stronghold: StrongholdPosition
    json: str
    def __init__(self, beleaguered_deal: _Optional[int] = ..., beleaguered: _Optional[_Union[BeleagueredPosition, _Mapping]] = ..., ffkingdom: _Optional[_Union[FfkPosition, _Mapping]] = ..., farbduell: _Optional[_Union[FarbduellPosition, _Mapping]] = ..., stronghold: _Optional[_Union[StrongholdPosition, _Mapping]] = ..., json: _Optional[str] = ...) -> None: ...

class StrongholdPosition(_message.Message):
    __slots__ = ("mode", "win_target", "turn_order", "turn", "defender_turns_taken", "grid", "removed", "control", "units", "defender_score", "reinforcements", "burnouts", "counters", "consoled", "winner")
    class ControlEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class ReinforcementsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: StrongholdReinforcements
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[StrongholdReinforcements, _Mapping]] = ...) -> None: ...
    class BurnoutsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: StrongholdTurns
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[StrongholdTurns, _Mapping]] = ...) -> None: ...
    MODE_FIELD_NUMBER: _ClassVar[int]
    WIN_TARGET_FIELD_NUMBER: _ClassVar[int]
    TURN_ORDER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_TURNS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    GRID_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    CONTROL_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_SCORE_FIELD_NUMBER: _ClassVar[int]
    REINFORCEMENTS_FIELD_NUMBER: _ClassVar[int]
    BURNOUTS_FIELD_NUMBER: _ClassVar[int]
    COUNTERS_FIELD_NUMBER: _ClassVar[int]
    CONSOLED_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    mode: str
    win_target: int
    turn_order: _containers.RepeatedScalarFieldContainer[str]
    turn: int
    defender_turns_taken: int
    grid: StrongholdGrid
    removed: _containers.RepeatedScalarFieldContainer[str]
    control: _containers.ScalarMap[str, str]
    units: _containers.RepeatedCompositeFieldContainer[StrongholdUnit]
    defender_score: int
    reinforcements: _containers.MessageMap[str, StrongholdReinforcements]
    burnouts: _containers.MessageMap[str, StrongholdTurns]
    counters: StrongholdCounters
    consoled: _containers.RepeatedCompositeFieldContainer[StrongholdConsoled]
    winner: str
    def __init__(self, mode: _Optional[str] = ..., win_target: _Optional[int] = ..., turn_order: _Optional[_Iterable[str]] = ..., turn: _Optional[int] = ..., defender_turns_taken: _Optional[int] = ..., grid: _Optional[_Union[StrongholdGrid, _Mapping]] = ..., removed: _Optional[_Iterable[str]] = ..., control: _Optional[_Mapping[str, str]] = ..., units: _Optional[_Iterable[_Union[StrongholdUnit, _Mapping]]] = ..., defender_score: _Optional[int] = ..., reinforcements: _Optional[_Mapping[str, StrongholdReinforcements]] = ..., burnouts: _Optional[_Mapping[str, StrongholdTurns]] = ..., counters: _Optional[_Union[StrongholdCounters, _Mapping]] = ..., consoled: _Optional[_Iterable[_Union[StrongholdConsoled, _Mapping]]] = ..., winner: _Optional[str] = ...) -> None: ...

class StrongholdGrid(_message.Message):
    __slots__ = ("O", "I", "S")
    O_FIELD_NUMBER: _ClassVar[int]
    I_FIELD_NUMBER: _ClassVar[int]
    S_FIELD_NUMBER: _ClassVar[int]
    O: _containers.RepeatedScalarFieldContainer[str]
    I: _containers.RepeatedScalarFieldContainer[str]
    S: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, O: _Optional[_Iterable[str]] = ..., I: _Optional[_Iterable[str]] = ..., S: _Optional[_Iterable[str]] = ...) -> None: ...

class StrongholdUnit(_message.Message):
    __slots__ = ("id", "owner", "might", "loc", "ready", "assault", "shield", "tank", "ganking")
    ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    MIGHT_FIELD_NUMBER: _ClassVar[int]
    LOC_FIELD_NUMBER: _ClassVar[int]
    READY_FIELD_NUMBER: _ClassVar[int]
    ASSAULT_FIELD_NUMBER: _ClassVar[int]
    SHIELD_FIELD_NUMBER: _ClassVar[int]
    TANK_FIELD_NUMBER: _ClassVar[int]
    GANKING_FIELD_NUMBER: _ClassVar[int]
    id: str
    owner: str
    might: int
    loc: str
    ready: bool
    assault: int
    shield: int
    tank: bool
    ganking: bool
    def __init__(self, id: _Optional[str] = ..., owner: _Optional[str] = ..., might: _Optional[int] = ..., loc: _Optional[str] = ..., ready: _Optional[bool] = ..., assault: _Optional[int] = ..., shield: _Optional[int] = ..., tank: _Optional[bool] = ..., ganking: _Optional[bool] = ...) -> None: ...

class StrongholdReinforcements(_message.Message):
    __slots__ = ("entries",)
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[StrongholdReinforcement]
    def __init__(self, entries: _Optional[_Iterable[_Union[StrongholdReinforcement, _Mapping]]] = ...) -> None: ...

class StrongholdReinforcement(_message.Message):
    __slots__ = ("turn", "might", "assault", "shield", "tank", "ganking")
    TURN_FIELD_NUMBER: _ClassVar[int]
    MIGHT_FIELD_NUMBER: _ClassVar[int]
    ASSAULT_FIELD_NUMBER: _ClassVar[int]
    SHIELD_FIELD_NUMBER: _ClassVar[int]
    TANK_FIELD_NUMBER: _ClassVar[int]
    GANKING_FIELD_NUMBER: _ClassVar[int]
    turn: int
    might: int
    assault: int
    shield: int
    tank: bool
    ganking: bool
    def __init__(self, turn: _Optional[int] = ..., might: _Optional[int] = ..., assault: _Optional[int] = ..., shield: _Optional[int] = ..., tank: _Optional[bool] = ..., ganking: _Optional[bool] = ...) -> None: ...

class StrongholdTurns(_message.Message):
    __slots__ = ("turns",)
    TURNS_FIELD_NUMBER: _ClassVar[int]
    turns: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, turns: _Optional[_Iterable[int]] = ...) -> None: ...

class StrongholdCounters(_message.Message):
    __slots__ = ("defender_bonus", "consolation")
    class ConsolationEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    DEFENDER_BONUS_FIELD_NUMBER: _ClassVar[int]
    CONSOLATION_FIELD_NUMBER: _ClassVar[int]
    defender_bonus: int
    consolation: _containers.ScalarMap[str, int]
    def __init__(self, defender_bonus: _Optional[int] = ..., consolation: _Optional[_Mapping[str, int]] = ...) -> None: ...

class StrongholdConsoled(_message.Message):
    __slots__ = ("battlefield", "round")
    BATTLEFIELD_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    battlefield: str
    round: int
    def __init__(self, battlefield: _Optional[str] = ..., round: _Optional[int] = ...) -> None: ...

class Budget(_message.Message):
    __slots__ = ("seconds", "nodes", "table_entries", "memory_mib")
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    TABLE_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    MEMORY_MIB_FIELD_NUMBER: _ClassVar[int]
    seconds: float
    nodes: int
    table_entries: int
    memory_mib: int
    def __init__(self, seconds: _Optional[float] = ..., nodes: _Optional[int] = ..., table_entries: _Optional[int] = ..., memory_mib: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("card", "source", "target", "cards", "standard")
    CARD_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    STANDARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    source: str
    target: str
    cards: int
    standard: str
    def __init__(self, card: _Optional[str] = ..., source: _Optional[str] = ..., target: _Optional[str] = ..., cards: _Optional[int] = ..., standard: _Optional[str] = ...) -> None: ...

class FfkStep(_message.Message):
    __slots__ = ("player", "action")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    player: int
    action: str
    def __init__(self, player: _Optional[int] = ..., action: _Optional[str] = ...) -> None: ...

class FarbduellStep(_message.Message):
    __slots__ = ("player", "action", "card", "colour")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    player: int
    action: str
    card: str
    colour: str
    def __init__(self, player: _Optional[int] = ..., action: _Optional[str] = ..., card: _Optional[str] = ..., colour: _Optional[str] = ...) -> None: ...

class SearchStats(_message.Message):
    __slots__ = ("nodes", "seconds", "table_entries", "table_bytes", "line_seconds")
    NODES_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    TABLE_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    TABLE_BYTES_FIELD_NUMBER: _ClassVar[int]
    LINE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    nodes: int
    seconds: float
    table_entries: int
    table_bytes: int
    line_seconds: float
    def __init__(self, nodes: _Optional[int] = ..., seconds: _Optional[float] = ..., table_entries: _Optional[int] = ..., table_bytes: _Optional[int] = ..., line_seconds: _Optional[float] = ...) -> None: ...

class SolveRequest(_message.Message):
    __slots__ = ("position", "budget", "beleaguered", "ffkingdom", "farbduell", "stronghold", "question_options", "mode", "algorithm", "turns", "chain", "question", "defender", "max_turns", "method")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    BELEAGUERED_FIELD_NUMBER: _ClassVar[int]
    FFKINGDOM_FIELD_NUMBER: _ClassVar[int]
    FARBDUELL_FIELD_NUMBER: _ClassVar[int]
    STRONGHOLD_FIELD_NUMBER: _ClassVar[int]
    QUESTION_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    CHAIN_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    position: PositionSource
    budget: Budget
    beleaguered: BeleagueredSolveOptions
    ffkingdom: FfkSolveOptions
    farbduell: FarbduellSolveOptions
    stronghold: StrongholdSolveOptions
    question_options: QuestionOptions
    mode: Mode
    algorithm: Algorithm
    turns: int
    chain: str
    question: str
    defender: str
    max_turns: int
    method: str
    def __init__(self, position: _Optional[_Union[PositionSource, _Mapping]] = ..., budget: _Optional[_Union[Budget, _Mapping]] = ..., beleaguered: _Optional[_Union[BeleagueredSolveOptions, _Mapping]] = ..., ffkingdom: _Optional[_Union[FfkSolveOptions, _Mapping]] = ..., farbduell: _Optional[_Union[FarbduellSolveOptions, _Mapping]] = ..., stronghold: _Optional[_Union[StrongholdSolveOptions, _Mapping]] = ..., question_options: _Optional[_Union[QuestionOptions, _Mapping]] = ..., mode: _Optional[_Union[Mode, str]] = ..., algorithm: _Optional[_Union[Algorithm, str]] = ..., turns: _Optional[int] = ..., chain: _Optional[str] = ..., question: _Optional[str] = ..., defender: _Optional[str] = ..., max_turns: _Optional[int] = ..., method: _Optional[str] = ...) -> None: ...

class QuestionOptions(_message.Message):
    __slots__ = ("question", "options")
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    question: str
    options: str
    def __init__(self, question: _Optional[str] = ..., options: _Optional[str] = ...) -> None: ...

class BeleagueredSolveOptions(_message.Message):
    __slots__ = ("mode", "algorithm", "metric", "single_cards", "notation")
    MODE_FIELD_NUMBER: _ClassVar[int]
    ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    METRIC_FIELD_NUMBER: _ClassVar[int]
    SINGLE_CARDS_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    mode: Mode
    algorithm: Algorithm
    metric: Metric
    single_cards: bool
    notation: Notation
    def __init__(self, mode: _Optional[_Union[Mode, str]] = ..., algorithm: _Optional[_Union[Algorithm, str]] = ..., metric: _Optional[_Union[Metric, str]] = ..., single_cards: _Optional[bool] = ..., notation: _Optional[_Union[Notation, str]] = ...) -> None: ...

class FfkSolveOptions(_message.Message):
    __slots__ = ("turns",)
    TURNS_FIELD_NUMBER: _ClassVar[int]
    turns: int
    def __init__(self, turns: _Optional[int] = ...) -> None: ...

class FarbduellSolveOptions(_message.Message):
    __slots__ = ("turns", "chain")
    TURNS_FIELD_NUMBER: _ClassVar[int]
    CHAIN_FIELD_NUMBER: _ClassVar[int]
    turns: int
    chain: str
    def __init__(self, turns: _Optional[int] = ..., chain: _Optional[str] = ...) -> None: ...

class StrongholdSolveOptions(_message.Message):
    __slots__ = ("question", "defender", "max_turns", "method")
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    question: str
    defender: str
    max_turns: int
    method: str
    def __init__(self, question: _Optional[str] = ..., defender: _Optional[str] = ..., max_turns: _Optional[int] = ..., method: _Optional[str] = ...) -> None: ...

class SolveResponse(_message.Message):
    __slots__ = ("status", "optimal", "length", "moves", "stats", "ffk_line", "turns", "farbduell_line", "goes_out", "points", "stronghold", "answer_json", "lower_bound", "single_card_moves", "metric", "single_cards")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    FFK_LINE_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    FARBDUELL_LINE_FIELD_NUMBER: _ClassVar[int]
    GOES_OUT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    STRONGHOLD_FIELD_NUMBER: _ClassVar[int]
    ANSWER_JSON_FIELD_NUMBER: _ClassVar[int]
    LOWER_BOUND_FIELD_NUMBER: _ClassVar[int]
    SINGLE_CARD_MOVES_FIELD_NUMBER: _ClassVar[int]
    METRIC_FIELD_NUMBER: _ClassVar[int]
    SINGLE_CARDS_FIELD_NUMBER: _ClassVar[int]
    status: Status
    optimal: bool
    length: int
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    stats: SearchStats
    ffk_line: _containers.RepeatedCompositeFieldContainer[FfkStep]
    turns: int
    farbduell_line: _containers.RepeatedCompositeFieldContainer[FarbduellStep]
    goes_out: bool
    points: int
    stronghold: StrongholdOutcome
    answer_json: str
    lower_bound: int
    single_card_moves: int
    metric: Metric
    single_cards: bool
    def __init__(self, status: _Optional[_Union[Status, str]] = ..., optimal: _Optional[bool] = ..., length: _Optional[int] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., stats: _Optional[_Union[SearchStats, _Mapping]] = ..., ffk_line: _Optional[_Iterable[_Union[FfkStep, _Mapping]]] = ..., turns: _Optional[int] = ..., farbduell_line: _Optional[_Iterable[_Union[FarbduellStep, _Mapping]]] = ..., goes_out: _Optional[bool] = ..., points: _Optional[int] = ..., stronghold: _Optional[_Union[StrongholdOutcome, _Mapping]] = ..., answer_json: _Optional[str] = ..., lower_bound: _Optional[int] = ..., single_card_moves: _Optional[int] = ..., metric: _Optional[_Union[Metric, str]] = ..., single_cards: _Optional[bool] = ...) -> None: ...

class StrongholdOutcome(_message.Message):
    __slots__ = ("winner", "turn", "rounds", "proven", "defender_first", "plan", "cp_status")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    PROVEN_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIRST_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    CP_STATUS_FIELD_NUMBER: _ClassVar[int]
    winner: str
    turn: int
    rounds: int
    proven: bool
    defender_first: bool
    plan: _containers.RepeatedCompositeFieldContainer[StrongholdStep]
    cp_status: str
    def __init__(self, winner: _Optional[str] = ..., turn: _Optional[int] = ..., rounds: _Optional[int] = ..., proven: _Optional[bool] = ..., defender_first: _Optional[bool] = ..., plan: _Optional[_Iterable[_Union[StrongholdStep, _Mapping]]] = ..., cp_status: _Optional[str] = ...) -> None: ...

class StrongholdStep(_message.Message):
    __slots__ = ("turn", "player", "moves")
    class MovesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TURN_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    turn: int
    player: str
    moves: _containers.ScalarMap[str, str]
    def __init__(self, turn: _Optional[int] = ..., player: _Optional[str] = ..., moves: _Optional[_Mapping[str, str]] = ...) -> None: ...

class HintRequest(_message.Message):
    __slots__ = ("position", "budget", "ffkingdom", "farbduell", "stronghold", "beleaguered", "question_options", "worlds", "seed", "exact")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    FFKINGDOM_FIELD_NUMBER: _ClassVar[int]
    FARBDUELL_FIELD_NUMBER: _ClassVar[int]
    STRONGHOLD_FIELD_NUMBER: _ClassVar[int]
    BELEAGUERED_FIELD_NUMBER: _ClassVar[int]
    QUESTION_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    WORLDS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    position: PositionSource
    budget: Budget
    ffkingdom: FfkHintOptions
    farbduell: FarbduellHintOptions
    stronghold: StrongholdHintOptions
    beleaguered: BeleagueredHintOptions
    question_options: QuestionOptions
    worlds: int
    seed: int
    exact: bool
    def __init__(self, position: _Optional[_Union[PositionSource, _Mapping]] = ..., budget: _Optional[_Union[Budget, _Mapping]] = ..., ffkingdom: _Optional[_Union[FfkHintOptions, _Mapping]] = ..., farbduell: _Optional[_Union[FarbduellHintOptions, _Mapping]] = ..., stronghold: _Optional[_Union[StrongholdHintOptions, _Mapping]] = ..., beleaguered: _Optional[_Union[BeleagueredHintOptions, _Mapping]] = ..., question_options: _Optional[_Union[QuestionOptions, _Mapping]] = ..., worlds: _Optional[int] = ..., seed: _Optional[int] = ..., exact: _Optional[bool] = ...) -> None: ...

class BeleagueredHintOptions(_message.Message):
    __slots__ = ("all_moves", "metric", "notation")
    ALL_MOVES_FIELD_NUMBER: _ClassVar[int]
    METRIC_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    all_moves: bool
    metric: Metric
    notation: Notation
    def __init__(self, all_moves: _Optional[bool] = ..., metric: _Optional[_Union[Metric, str]] = ..., notation: _Optional[_Union[Notation, str]] = ...) -> None: ...

class FfkHintOptions(_message.Message):
    __slots__ = ("worlds", "seed")
    WORLDS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    worlds: int
    seed: int
    def __init__(self, worlds: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class FarbduellHintOptions(_message.Message):
    __slots__ = ("worlds", "seed")
    WORLDS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    worlds: int
    seed: int
    def __init__(self, worlds: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class StrongholdHintOptions(_message.Message):
    __slots__ = ("exact",)
    EXACT_FIELD_NUMBER: _ClassVar[int]
    exact: bool
    def __init__(self, exact: _Optional[bool] = ...) -> None: ...

class HintResponse(_message.Message):
    __slots__ = ("status", "move", "moves_left", "winnable", "cached", "ffk", "farbduell", "stronghold", "all_moves", "answer_json", "optimal", "at_least", "metric")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    MOVES_LEFT_FIELD_NUMBER: _ClassVar[int]
    WINNABLE_FIELD_NUMBER: _ClassVar[int]
    CACHED_FIELD_NUMBER: _ClassVar[int]
    FFK_FIELD_NUMBER: _ClassVar[int]
    FARBDUELL_FIELD_NUMBER: _ClassVar[int]
    STRONGHOLD_FIELD_NUMBER: _ClassVar[int]
    ALL_MOVES_FIELD_NUMBER: _ClassVar[int]
    ANSWER_JSON_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    AT_LEAST_FIELD_NUMBER: _ClassVar[int]
    METRIC_FIELD_NUMBER: _ClassVar[int]
    status: Status
    move: Move
    moves_left: int
    winnable: bool
    cached: bool
    ffk: FfkHint
    farbduell: FarbduellHint
    stronghold: StrongholdPlan
    all_moves: _containers.RepeatedCompositeFieldContainer[GradedMove]
    answer_json: str
    optimal: bool
    at_least: int
    metric: Metric
    def __init__(self, status: _Optional[_Union[Status, str]] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., moves_left: _Optional[int] = ..., winnable: _Optional[bool] = ..., cached: _Optional[bool] = ..., ffk: _Optional[_Union[FfkHint, _Mapping]] = ..., farbduell: _Optional[_Union[FarbduellHint, _Mapping]] = ..., stronghold: _Optional[_Union[StrongholdPlan, _Mapping]] = ..., all_moves: _Optional[_Iterable[_Union[GradedMove, _Mapping]]] = ..., answer_json: _Optional[str] = ..., optimal: _Optional[bool] = ..., at_least: _Optional[int] = ..., metric: _Optional[_Union[Metric, str]] = ...) -> None: ...

class GradedMove(_message.Message):
    __slots__ = ("move", "outcome", "moves_left")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    MOVES_LEFT_FIELD_NUMBER: _ClassVar[int]
    move: Move
    outcome: MoveOutcome
    moves_left: int
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., outcome: _Optional[_Union[MoveOutcome, str]] = ..., moves_left: _Optional[int] = ...) -> None: ...

class FfkHint(_message.Message):
    __slots__ = ("action", "value", "plan", "runners_up", "stats", "win_chance", "wins")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    RUNNERS_UP_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    WIN_CHANCE_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    action: str
    value: float
    plan: _containers.RepeatedScalarFieldContainer[str]
    runners_up: _containers.RepeatedCompositeFieldContainer[FfkAlternative]
    stats: SearchStats
    win_chance: float
    wins: bool
    def __init__(self, action: _Optional[str] = ..., value: _Optional[float] = ..., plan: _Optional[_Iterable[str]] = ..., runners_up: _Optional[_Iterable[_Union[FfkAlternative, _Mapping]]] = ..., stats: _Optional[_Union[SearchStats, _Mapping]] = ..., win_chance: _Optional[float] = ..., wins: _Optional[bool] = ...) -> None: ...

class FfkAlternative(_message.Message):
    __slots__ = ("action", "value", "win_chance", "wins")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    WIN_CHANCE_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    action: str
    value: float
    win_chance: float
    wins: bool
    def __init__(self, action: _Optional[str] = ..., value: _Optional[float] = ..., win_chance: _Optional[float] = ..., wins: _Optional[bool] = ...) -> None: ...

class FarbduellHint(_message.Message):
    __slots__ = ("action", "value", "runners_up", "stats", "wins", "chain")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    RUNNERS_UP_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    CHAIN_FIELD_NUMBER: _ClassVar[int]
    action: str
    value: float
    runners_up: _containers.RepeatedCompositeFieldContainer[FarbduellAlternative]
    stats: SearchStats
    wins: bool
    chain: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, action: _Optional[str] = ..., value: _Optional[float] = ..., runners_up: _Optional[_Iterable[_Union[FarbduellAlternative, _Mapping]]] = ..., stats: _Optional[_Union[SearchStats, _Mapping]] = ..., wins: _Optional[bool] = ..., chain: _Optional[_Iterable[str]] = ...) -> None: ...

class FarbduellAlternative(_message.Message):
    __slots__ = ("action", "value", "wins")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    action: str
    value: float
    wins: bool
    def __init__(self, action: _Optional[str] = ..., value: _Optional[float] = ..., wins: _Optional[bool] = ...) -> None: ...

class StrongholdPlan(_message.Message):
    __slots__ = ("moves", "battlefields", "objective", "cp_status", "optimal", "stats")
    class MovesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MOVES_FIELD_NUMBER: _ClassVar[int]
    BATTLEFIELDS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    CP_STATUS_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.ScalarMap[str, str]
    battlefields: _containers.RepeatedCompositeFieldContainer[StrongholdForecast]
    objective: StrongholdObjective
    cp_status: str
    optimal: bool
    stats: SearchStats
    def __init__(self, moves: _Optional[_Mapping[str, str]] = ..., battlefields: _Optional[_Iterable[_Union[StrongholdForecast, _Mapping]]] = ..., objective: _Optional[_Union[StrongholdObjective, _Mapping]] = ..., cp_status: _Optional[str] = ..., optimal: _Optional[bool] = ..., stats: _Optional[_Union[SearchStats, _Mapping]] = ...) -> None: ...

class StrongholdForecast(_message.Message):
    __slots__ = ("battlefield", "controller", "garrison", "secure", "conquerable")
    BATTLEFIELD_FIELD_NUMBER: _ClassVar[int]
    CONTROLLER_FIELD_NUMBER: _ClassVar[int]
    GARRISON_FIELD_NUMBER: _ClassVar[int]
    SECURE_FIELD_NUMBER: _ClassVar[int]
    CONQUERABLE_FIELD_NUMBER: _ClassVar[int]
    battlefield: str
    controller: str
    garrison: int
    secure: bool
    conquerable: bool
    def __init__(self, battlefield: _Optional[str] = ..., controller: _Optional[str] = ..., garrison: _Optional[int] = ..., secure: _Optional[bool] = ..., conquerable: _Optional[bool] = ...) -> None: ...

class StrongholdObjective(_message.Message):
    __slots__ = ("removals", "controlled", "garrison", "minus_moved")
    REMOVALS_FIELD_NUMBER: _ClassVar[int]
    CONTROLLED_FIELD_NUMBER: _ClassVar[int]
    GARRISON_FIELD_NUMBER: _ClassVar[int]
    MINUS_MOVED_FIELD_NUMBER: _ClassVar[int]
    removals: int
    controlled: int
    garrison: int
    minus_moved: int
    def __init__(self, removals: _Optional[int] = ..., controlled: _Optional[int] = ..., garrison: _Optional[int] = ..., minus_moved: _Optional[int] = ...) -> None: ...

class DealRange(_message.Message):
    __slots__ = ("first", "last")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    LAST_FIELD_NUMBER: _ClassVar[int]
    first: int
    last: int
    def __init__(self, first: _Optional[int] = ..., last: _Optional[int] = ...) -> None: ...

class SolveBatchRequest(_message.Message):
    __slots__ = ("deals", "positions", "mode", "algorithm", "budget", "game", "without_moves", "variant", "metric", "results_per_message")
    DEALS_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    WITHOUT_MOVES_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    METRIC_FIELD_NUMBER: _ClassVar[int]
    RESULTS_PER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    deals: _containers.RepeatedCompositeFieldContainer[DealRange]
    positions: _containers.RepeatedCompositeFieldContainer[BeleagueredPosition]
    mode: Mode
    algorithm: Algorithm
    budget: Budget
    game: str
    without_moves: bool
    variant: str
    metric: Metric
    results_per_message: int
    def __init__(self, deals: _Optional[_Iterable[_Union[DealRange, _Mapping]]] = ..., positions: _Optional[_Iterable[_Union[BeleagueredPosition, _Mapping]]] = ..., mode: _Optional[_Union[Mode, str]] = ..., algorithm: _Optional[_Union[Algorithm, str]] = ..., budget: _Optional[_Union[Budget, _Mapping]] = ..., game: _Optional[str] = ..., without_moves: _Optional[bool] = ..., variant: _Optional[str] = ..., metric: _Optional[_Union[Metric, str]] = ..., results_per_message: _Optional[int] = ...) -> None: ...

class BatchResult(_message.Message):
    __slots__ = ("index", "deal", "result", "more")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    MORE_FIELD_NUMBER: _ClassVar[int]
    index: int
    deal: int
    result: SolveResponse
    more: _containers.RepeatedCompositeFieldContainer[BatchResult]
    def __init__(self, index: _Optional[int] = ..., deal: _Optional[int] = ..., result: _Optional[_Union[SolveResponse, _Mapping]] = ..., more: _Optional[_Iterable[_Union[BatchResult, _Mapping]]] = ...) -> None: ...

class GenerateDealsRequest(_message.Message):
    __slots__ = ("count", "min_length", "max_length", "first_deal", "last_deal", "budget", "game", "variant", "max_seconds", "mode")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    MIN_LENGTH_FIELD_NUMBER: _ClassVar[int]
    MAX_LENGTH_FIELD_NUMBER: _ClassVar[int]
    FIRST_DEAL_FIELD_NUMBER: _ClassVar[int]
    LAST_DEAL_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    MAX_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    count: int
    min_length: int
    max_length: int
    first_deal: int
    last_deal: int
    budget: Budget
    game: str
    variant: str
    max_seconds: float
    mode: Mode
    def __init__(self, count: _Optional[int] = ..., min_length: _Optional[int] = ..., max_length: _Optional[int] = ..., first_deal: _Optional[int] = ..., last_deal: _Optional[int] = ..., budget: _Optional[_Union[Budget, _Mapping]] = ..., game: _Optional[str] = ..., variant: _Optional[str] = ..., max_seconds: _Optional[float] = ..., mode: _Optional[_Union[Mode, str]] = ...) -> None: ...

class GeneratedDeal(_message.Message):
    __slots__ = ("deal", "position", "length", "moves")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    deal: int
    position: BeleagueredPosition
    length: int
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    def __init__(self, deal: _Optional[int] = ..., position: _Optional[_Union[BeleagueredPosition, _Mapping]] = ..., length: _Optional[int] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ...) -> None: ...

class DealRequest(_message.Message):
    __slots__ = ("game", "seed", "variant", "players")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    game: str
    seed: int
    variant: str
    players: int
    def __init__(self, game: _Optional[str] = ..., seed: _Optional[int] = ..., variant: _Optional[str] = ..., players: _Optional[int] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("position", "moves", "replies")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    REPLIES_FIELD_NUMBER: _ClassVar[int]
    position: PositionSource
    moves: _containers.RepeatedScalarFieldContainer[str]
    replies: bool
    def __init__(self, position: _Optional[_Union[PositionSource, _Mapping]] = ..., moves: _Optional[_Iterable[str]] = ..., replies: _Optional[bool] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("game", "position", "position_json", "picture", "legal_moves", "replies", "to_move", "winner", "reply_seats", "win_reason", "safe_moves")
    GAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    POSITION_JSON_FIELD_NUMBER: _ClassVar[int]
    PICTURE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    REPLIES_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    REPLY_SEATS_FIELD_NUMBER: _ClassVar[int]
    WIN_REASON_FIELD_NUMBER: _ClassVar[int]
    SAFE_MOVES_FIELD_NUMBER: _ClassVar[int]
    game: str
    position: PositionSource
    position_json: str
    picture: str
    legal_moves: _containers.RepeatedScalarFieldContainer[str]
    replies: _containers.RepeatedScalarFieldContainer[str]
    to_move: int
    winner: int
    reply_seats: _containers.RepeatedScalarFieldContainer[int]
    win_reason: str
    safe_moves: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, game: _Optional[str] = ..., position: _Optional[_Union[PositionSource, _Mapping]] = ..., position_json: _Optional[str] = ..., picture: _Optional[str] = ..., legal_moves: _Optional[_Iterable[str]] = ..., replies: _Optional[_Iterable[str]] = ..., to_move: _Optional[int] = ..., winner: _Optional[int] = ..., reply_seats: _Optional[_Iterable[int]] = ..., win_reason: _Optional[str] = ..., safe_moves: _Optional[_Iterable[str]] = ...) -> None: ...

class GetServerInfoRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ServerInfo(_message.Message):
    __slots__ = ("version", "games", "limits")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    version: str
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    limits: Limits
    def __init__(self, version: _Optional[str] = ..., games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "modes", "algorithms", "max_deal", "variants", "questions")
    NAME_FIELD_NUMBER: _ClassVar[int]
    MODES_FIELD_NUMBER: _ClassVar[int]
    ALGORITHMS_FIELD_NUMBER: _ClassVar[int]
    MAX_DEAL_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    QUESTIONS_FIELD_NUMBER: _ClassVar[int]
    name: str
    modes: _containers.RepeatedScalarFieldContainer[str]
    algorithms: _containers.RepeatedScalarFieldContainer[str]
    max_deal: int
    variants: _containers.RepeatedCompositeFieldContainer[VariantInfo]
    questions: _containers.RepeatedCompositeFieldContainer[QuestionInfo]
    def __init__(self, name: _Optional[str] = ..., modes: _Optional[_Iterable[str]] = ..., algorithms: _Optional[_Iterable[str]] = ..., max_deal: _Optional[int] = ..., variants: _Optional[_Iterable[_Union[VariantInfo, _Mapping]]] = ..., questions: _Optional[_Iterable[_Union[QuestionInfo, _Mapping]]] = ...) -> None: ...

class QuestionInfo(_message.Message):
    __slots__ = ("name", "summary", "options_schema")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    name: str
    summary: str
    options_schema: str
    def __init__(self, name: _Optional[str] = ..., summary: _Optional[str] = ..., options_schema: _Optional[str] = ...) -> None: ...

class VariantInfo(_message.Message):
    __slots__ = ("name", "title", "max_deal", "empty", "sequence_moves")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    MAX_DEAL_FIELD_NUMBER: _ClassVar[int]
    EMPTY_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_MOVES_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    max_deal: int
    empty: str
    sequence_moves: str
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., max_deal: _Optional[int] = ..., empty: _Optional[str] = ..., sequence_moves: _Optional[str] = ...) -> None: ...

class Limits(_message.Message):
    __slots__ = ("workers", "queue", "max_seconds", "max_nodes", "max_table_entries", "cache_entries", "max_worlds", "max_batch", "max_calls_per_address", "max_workers_per_client", "memory_per_worker_mib", "cache_mib", "memory_mib")
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    QUEUE_FIELD_NUMBER: _ClassVar[int]
    MAX_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MAX_NODES_FIELD_NUMBER: _ClassVar[int]
    MAX_TABLE_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    CACHE_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    MAX_WORLDS_FIELD_NUMBER: _ClassVar[int]
    MAX_BATCH_FIELD_NUMBER: _ClassVar[int]
    MAX_CALLS_PER_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    MAX_WORKERS_PER_CLIENT_FIELD_NUMBER: _ClassVar[int]
    MEMORY_PER_WORKER_MIB_FIELD_NUMBER: _ClassVar[int]
    CACHE_MIB_FIELD_NUMBER: _ClassVar[int]
    MEMORY_MIB_FIELD_NUMBER: _ClassVar[int]
    workers: int
    queue: int
    max_seconds: float
    max_nodes: int
    max_table_entries: int
    cache_entries: int
    max_worlds: int
    max_batch: int
    max_calls_per_address: int
    max_workers_per_client: int
    memory_per_worker_mib: int
    cache_mib: int
    memory_mib: int
    def __init__(self, workers: _Optional[int] = ..., queue: _Optional[int] = ..., max_seconds: _Optional[float] = ..., max_nodes: _Optional[int] = ..., max_table_entries: _Optional[int] = ..., cache_entries: _Optional[int] = ..., max_worlds: _Optional[int] = ..., max_batch: _Optional[int] = ..., max_calls_per_address: _Optional[int] = ..., max_workers_per_client: _Optional[int] = ..., memory_per_worker_mib: _Optional[int] = ..., cache_mib: _Optional[int] = ..., memory_mib: _Optional[int] = ...) -> None: ...
