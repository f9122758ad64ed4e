// The compiled search kernel for Beleaguered Fortress and the variants of its family.
//
// It is the hot loop of problem.py, heuristic.py and the generic searches, over a compact
// state: the same moves, the same pruning, the same lower bound, so that it gives the same
// verdicts and optimal lengths as the Python engine (its reference and the tests' oracle).
// A variant reaches it as a Rules value (pile count, free cells, build rule, what fills an
// empty pile, worrying back, sequence moves), read once into tables; no variant is named
// here. With sequence moves a move from pile to pile may carry the built run on its card,
// and the bound counts the runs that must step aside instead of the cards.
//
// Cards are 0..51 (rank * 4 + suit). A Board holds the piles as segments of one array of
// cards; piles are interchangeable, so a position's key lists them ordered by their bottom
// card (cards are unique), which makes keys and the bound independent of pile order
// without ever moving piles about. A key packs into 56 bytes: the cards home per suit,
// the pile cards, then the free cells' cards (cells are interchangeable too); the reserve
// is what is in no pile, no cell and not home.
//
// Searches: greedy best-first (`any`; by g + 2h with free cells or building that ignores
// suit), A* with an open list bucketed by f and then h, and IDA* with a transposition
// table capped in entries whose full buckets evict the least useful entry. All three
// check the budget every 1024 expansions and run without the GIL. Memory is a budget:
// best-first stops before its tables would pass it (optimal A* then goes on as IDA*,
// from the bound it proved), and IDA*'s table is sized to fit it.
//
// A batch or census over deal numbers is solved here a run at a time (solve_deals): the
// kernel deals each number itself (deals.py's shuffles, into the layout deals.layout
// gives), searches it as `solve` does, and replays its line by the plain rules, written
// again apart from the move tables (single_card_length), before it hands back a record.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <vector>

#include <unistd.h>

namespace py = pybind11;

namespace {

constexpr int MAX_PILES = 13;
constexpr int CARDS = 52;
constexpr int NO_CARD = 255;
// Where a step's card goes, besides a card it goes onto: home, an empty pile, a free cell.
constexpr int HOME_TARGET = -1;
constexpr int EMPTY_TARGET = -2;
constexpr int CELL_TARGET = -3;
// Where a card comes from, besides a pile.
constexpr int RESERVE_SOURCE = -1;
constexpr int CELL_SOURCE = -3;
constexpr int FOUNDATION_SOURCE = -4;
// a source card has at most 4 cards to go onto, an empty pile, a cell and home; a run's
// base card (at most one per card in the piles) as many piles and an empty one
constexpr int MAX_CHILDREN = 12 * CARDS;
constexpr uint16_t INFINITE = 0xFFFF;
constexpr uint64_t ALL_CARDS = (uint64_t{1} << CARDS) - 1;

inline int suit_of(int card) { return card & 3; }
inline int rank_index(int card) { return card >> 2; }  // 0 for an ace
inline uint64_t bit(int card) { return uint64_t{1} << card; }

// How the tableau builds, in the order of solver/beleaguered/variant.py's Build.
enum Build { SAME_SUIT_UP_OR_DOWN = 0, SAME_SUIT_DOWN = 1, ANY_SUIT_DOWN = 2, ALTERNATE_DOWN = 3 };
// What fills an empty pile, in the order of Fill.
enum Fill { FILL_ANY = 0, FILL_KINGS = 1, FILL_NONE = 2 };

// A variant's play, and the tables the moves read it from.
struct Rules {
    int piles = 8;
    int cells = 0;
    int build = SAME_SUIT_UP_OR_DOWN;
    int fill = FILL_ANY;
    bool worrying_back = true;
    bool sequences = false;  // a built run moves from pile to pile as one move

    bool same_suit = true;  // builds in suit: every move home is safe, no card comes back
    bool back = false;  // foundation tops are moved back (worrying back, not in suit)
    // The `any` search's priority: h alone (0), or g + weight * h. Building in suit
    // without free cells, a greedy search is the fastest route to a verdict; building
    // down in any suit it wanders (Beleaguered Castle deals 1..200: lines of median 456
    // moves, 5 deals undecided in 10 s), where g + 2h finds lines of median 88 and
    // decides all 200 in 7 s; with free cells too (Bastion deals 1..300: 7.2 s and lines
    // of median 120, up to many thousands, against 1.7 s and 85). (bench/bench_family.py)
    int weight = 0;
    uint8_t onto[CARDS][4];  // the cards each card may go onto
    uint8_t n_onto[CARDS];
    uint8_t builder_suits[4];  // per suit, the suits whose cards may go onto its cards
    uint64_t takes[CARDS];  // per card, the cards that may go onto it

    Rules(int piles_, int cells_, int build_, int fill_, bool worrying_back_, bool sequences_)
        : piles(piles_), cells(cells_), build(build_), fill(fill_),
          worrying_back(worrying_back_), sequences(sequences_) {
        if (piles < 1 || piles > MAX_PILES) throw py::value_error("a variant has 1..13 piles");
        if (cells < 0 || cells > 8) throw py::value_error("a variant has 0..8 free cells");
        if (build < 0 || build > 3) throw py::value_error("build is 0..3");
        if (fill < 0 || fill > 2) throw py::value_error("fill is 0..2");
        same_suit = build == SAME_SUIT_UP_OR_DOWN || build == SAME_SUIT_DOWN;
        back = worrying_back && !same_suit;
        weight = same_suit && cells == 0 ? 0 : 2;
        for (int s = 0; s < 4; ++s) {
            builder_suits[s] = 0;
            for (int t = 0; t < 4; ++t) {
                bool red_s = s == 1 || s == 2, red_t = t == 1 || t == 2;
                bool fits = build == ANY_SUIT_DOWN || (build == ALTERNATE_DOWN && red_s != red_t) ||
                            (same_suit && s == t);
                if (fits) builder_suits[s] |= static_cast<uint8_t>(1 << t);
            }
        }
        for (int c = 0; c < CARDS; ++c) takes[c] = 0;
        for (int c = 0; c < CARDS; ++c) {
            n_onto[c] = 0;
            if (build == SAME_SUIT_UP_OR_DOWN && c >= 4) onto[c][n_onto[c]++] = static_cast<uint8_t>(c - 4);
            if (rank_index(c) < 12)
                for (int t = 0; t < 4; ++t)  // the cards one rank up that take c
                    if (builder_suits[t] >> suit_of(c) & 1)
                        onto[c][n_onto[c]++] = static_cast<uint8_t>((rank_index(c) + 1) * 4 + t);
            for (int k = 0; k < n_onto[c]; ++k) takes[onto[c][k]] |= uint64_t{1} << c;
        }
    }

    bool builds_on(int card, int below) const { return takes[below] >> card & 1; }

    bool fills(int card) const {
        return fill == FILL_ANY || (fill == FILL_KINGS && rank_index(card) == 12);
    }
};

struct Board {
    uint8_t cards[2 * CARDS];  // room to shift by fixed-size copies, which compile inline
    uint8_t start[MAX_PILES + 1];  // pile i is cards[start[i] .. start[i + 1])
    uint8_t piles;  // how many
    uint8_t home[4];  // cards home per suit
    uint64_t reserve;  // bit c set while card c is in the reserve
    uint64_t cells;  // bit c set while card c is in a free cell

    int length(int pile) const { return start[pile + 1] - start[pile]; }
    int top(int pile) const { return length(pile) ? cards[start[pile + 1] - 1] : NO_CARD; }
    int bottom(int pile) const { return length(pile) ? cards[start[pile]] : NO_CARD; }
    int cards_home() const { return home[0] + home[1] + home[2] + home[3]; }
    bool won() const { return cards_home() == CARDS; }
    bool is_home(int card) const { return rank_index(card) < home[suit_of(card)]; }

    void pop(int pile) {
        int at = start[pile + 1] - 1;
        uint8_t tail[CARDS];
        std::memcpy(tail, cards + at + 1, CARDS);
        std::memcpy(cards + at, tail, CARDS);
        for (int i = pile + 1; i <= piles; ++i) --start[i];
    }
    void push(int pile, int card) {
        int at = start[pile + 1];
        uint8_t tail[CARDS];
        std::memcpy(tail, cards + at, CARDS - 1);
        std::memcpy(cards + at + 1, tail, CARDS - 1);
        cards[at] = static_cast<uint8_t>(card);
        for (int i = pile + 1; i <= piles; ++i) ++start[i];
    }
};

// A move as a search step stores it: it names cards, not piles or cells, so that it means
// the same in every position of one key. Where the card comes from follows from the
// board: a pile's top, the reserve, a cell or its foundation's top.
struct Move {
    uint8_t card;
    int8_t onto;  // a card, EMPTY_TARGET, HOME_TARGET or CELL_TARGET
};

inline uint16_t encode(Move m) {
    int onto = m.onto >= 0 ? m.onto : CARDS - m.onto;  // 53, 54, 55 for the targets
    return static_cast<uint16_t>(m.card | onto << 6);
}
inline Move decode(uint16_t code) {
    int onto = code >> 6;
    return Move{static_cast<uint8_t>(code & 63),
                static_cast<int8_t>(onto < CARDS ? onto : CARDS - onto)};
}

// One move as played, for the Python side: where from (a pile, RESERVE_SOURCE, CELL_SOURCE
// or FOUNDATION_SOURCE), where to (a pile, HOME_TARGET or CELL_TARGET), and what it went
// onto (a card, EMPTY_TARGET, HOME_TARGET or CELL_TARGET).
struct Played {
    int card, source, target, onto;
};

// Piles ordered by bottom card, empty piles last: the order of keys and of the bound.
inline void canonical_order(const Board& b, uint8_t order[MAX_PILES]) {
    int bottoms[MAX_PILES];
    int piles = b.piles;
    for (int i = 0; i < piles; ++i) {
        order[i] = static_cast<uint8_t>(i);
        bottoms[i] = b.bottom(i);
    }
    for (int i = 1; i < piles; ++i) {
        uint8_t o = order[i];
        int j = i;
        while (j > 0 && bottoms[order[j - 1]] > bottoms[o]) {
            order[j] = order[j - 1];
            --j;
        }
        order[j] = o;
    }
}

// --- keys ----------------------------------------------------------------------------

// Bytes 0..51: the pile cards in canonical order, a pile's bottom card marked with
// BOTTOM, then the cell cards in ascending order marked with IN_CELL, then zeros; bytes
// 52..53: the cards home per suit, four bits each; byte 54: how many bytes the piles'
// and cells' cards fill.
constexpr int KEY_WORDS = 7;
constexpr uint8_t BOTTOM = 0x40;
constexpr uint8_t IN_CELL = 0x80;

struct Key {
    uint64_t w[KEY_WORDS];
    bool operator==(const Key& o) const {
        uint64_t diff = 0;
        for (int i = 0; i < KEY_WORDS; ++i) diff |= w[i] ^ o.w[i];
        return diff == 0;
    }
};

Key pack(const Board& b, const uint8_t order[MAX_PILES]) {
    uint8_t bytes[2 * CARDS + 8];  // room for fixed-size copies, which compile inline
    int at = 0;
    for (int i = 0; i < b.piles; ++i) {
        int pile = order[i], n = b.length(pile);
        if (!n) break;  // empty piles come last
        std::memcpy(bytes + at, b.cards + b.start[pile], CARDS);  // the pile and some after
        bytes[at] |= BOTTOM;
        at += n;
    }
    for (uint64_t c = b.cells; c; c &= c - 1)
        bytes[at++] = static_cast<uint8_t>(__builtin_ctzll(c) | IN_CELL);
    std::memset(bytes + at, 0, CARDS);
    bytes[52] = static_cast<uint8_t>(b.home[0] | b.home[1] << 4);
    bytes[53] = static_cast<uint8_t>(b.home[2] | b.home[3] << 4);
    bytes[54] = static_cast<uint8_t>(at);
    bytes[55] = 0;
    Key k;
    std::memcpy(k.w, bytes, sizeof k.w);
    return k;
}

Board unpack(const Key& k, int piles) {
    Board b{};
    b.piles = static_cast<uint8_t>(piles);
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(k.w);
    uint64_t placed = 0;
    b.home[0] = bytes[52] & 15;
    b.home[1] = bytes[52] >> 4;
    b.home[2] = bytes[53] & 15;
    b.home[3] = bytes[53] >> 4;
    for (int s = 0; s < 4; ++s)
        for (int r = 0; r < b.home[s]; ++r) placed |= uint64_t{1} << (r * 4 + s);
    int pile = -1, count = bytes[54], at = 0;
    for (; at < count && !(bytes[at] & IN_CELL); ++at) {
        if (bytes[at] & BOTTOM) b.start[++pile] = static_cast<uint8_t>(at);
        b.cards[at] = bytes[at] & (BOTTOM - 1);
        placed |= uint64_t{1} << b.cards[at];
    }
    for (++pile; pile <= piles; ++pile) b.start[pile] = static_cast<uint8_t>(at);
    for (; at < count; ++at) b.cells |= bit(bytes[at] & (IN_CELL - 1));
    b.reserve = ALL_CARDS & ~placed & ~b.cells;
    return b;
}

inline uint64_t mix(uint64_t x) {  // the splitmix64 finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

inline uint64_t hash_key(const Key& k) {
    static constexpr uint64_t ODD[KEY_WORDS] = {
        0x9e3779b97f4a7c15ULL, 0xc2b2ae3d27d4eb4fULL, 0x165667b19e3779f9ULL,
        0xd6e8feb86659fd93ULL, 0xff51afd7ed558ccdULL, 0xc4ceb9fe1a85ec53ULL,
        0x2545f4914f6cdd1dULL};
    uint64_t h = 0;
    for (int i = 0; i < KEY_WORDS; ++i) h += mix(k.w[i] + ODD[i]);
    return mix(h);
}

// --- the bound (heuristic.py) --------------------------------------------------------

constexpr int NONE_BELOW = 99;

// Card sets for the profile: higher[c], the cards of c's suit above c in rank; suit[s],
// the cards of suit s.
struct Tables {
    uint64_t higher[CARDS];
    uint64_t suit[4];
    Tables() : higher{}, suit{} {
        for (int c = 0; c < CARDS; ++c) {
            suit[suit_of(c)] |= uint64_t{1} << c;
            for (int above = c + 4; above < CARDS; above += 4) higher[c] |= uint64_t{1} << above;
        }
    }
};
const Tables TABLES;

struct Profile {
    int blocked;
    int free_count;
    uint64_t free_mask;
    uint64_t any_waits_for;  // the union of waits_for
    uint8_t free_card[CARDS];
    // per free card x, the cards y of other suits with a lower suit-mate of y beneath x:
    // x and such a y in another pile, with a lower suit-mate of x beneath y, wait on each other
    uint64_t waits_for[CARDS];
};

void profile(const Board& b, int pile, Profile& p) {
    uint8_t lowest[4] = {NONE_BELOW, NONE_BELOW, NONE_BELOW, NONE_BELOW};
    uint64_t above_lowest = 0;  // per suit seen, the cards above the lowest one so far
    p.blocked = p.free_count = 0;
    p.free_mask = p.any_waits_for = 0;
    for (int at = b.start[pile]; at < b.start[pile + 1]; ++at) {
        int card = b.cards[at], suit = suit_of(card);
        if (lowest[suit] < card) {
            ++p.blocked;
            continue;
        }
        uint64_t waits_for = above_lowest & ~TABLES.suit[suit];
        p.free_card[p.free_count] = static_cast<uint8_t>(card);
        p.waits_for[p.free_count++] = waits_for;
        p.any_waits_for |= waits_for;
        p.free_mask |= uint64_t{1} << card;
        lowest[suit] = static_cast<uint8_t>(card);
        above_lowest = (above_lowest & ~TABLES.suit[suit]) | TABLES.higher[card];
    }
}

int blocked_cards(const Board& b) {
    int blocked = 0;
    for (int pile = 0; pile < b.piles; ++pile) {
        int lowest[4] = {NONE_BELOW, NONE_BELOW, NONE_BELOW, NONE_BELOW};
        for (int at = b.start[pile]; at < b.start[pile + 1]; ++at) {
            int card = b.cards[at], suit = suit_of(card);
            if (lowest[suit] < card) ++blocked;
            else lowest[suit] = card;
        }
    }
    return blocked;
}

// Blocked cards plus a greedy matching of pairs of cards in two piles that wait for each
// other, taken in the order heuristic.extra_moves_bound takes them, so both give one value.
int extra_moves_bound(const Board& b, const uint8_t order[MAX_PILES]) {
    Profile profiles[MAX_PILES];
    int busy = 0, extra = 0;
    for (int i = 0; i < b.piles; ++i) {
        if (b.length(order[i]) > 1) {
            profile(b, order[i], profiles[busy]);
            extra += profiles[busy].blocked;
            ++busy;
        }
    }
    uint64_t matched = 0;
    int pairs = 0;
    for (int i = 0; i < busy; ++i) {
        const Profile& one = profiles[i];
        for (int j = i + 1; j < busy; ++j) {
            const Profile& other = profiles[j];
            if (!(one.any_waits_for & other.free_mask) || !(other.any_waits_for & one.free_mask))
                continue;  // no card of either waits for one of the other's
            for (int a = 0; a < one.free_count; ++a) {
                int x = one.free_card[a];
                uint64_t partners = one.waits_for[a] & other.free_mask & ~matched;
                if (!partners || (matched >> x & 1)) continue;
                for (int c = 0; c < other.free_count; ++c) {
                    int y = other.free_card[c];
                    if ((partners >> y & 1) && (other.waits_for[c] >> x & 1)) {
                        matched |= (uint64_t{1} << x) | (uint64_t{1} << y);
                        ++pairs;
                        break;  // x is matched now
                    }
                }
            }
        }
    }
    return extra + pairs;
}

// With sequence moves: per pile, the built runs (as the pile lies) that hold a card above
// a lower suit-mate. Each must leave its pile before that suit-mate goes home, and one
// move off a pile carries cards of one such run only (heuristic.blocked_runs).
int blocked_runs(const Board& b, const Rules& r) {
    int runs = 0;
    for (int pile = 0; pile < b.piles; ++pile) {
        int lowest[4] = {NONE_BELOW, NONE_BELOW, NONE_BELOW, NONE_BELOW};
        bool counted = false;
        for (int at = b.start[pile]; at < b.start[pile + 1]; ++at) {
            int card = b.cards[at], suit = suit_of(card);
            if (at > b.start[pile] && !r.builds_on(card, b.cards[at - 1])) counted = false;
            if (lowest[suit] < card) {
                runs += !counted;
                counted = true;
            } else {
                lowest[suit] = card;
            }
        }
    }
    return runs;
}

// blocked_runs plus a greedy matching of pairs of runs not counted there, in two piles,
// holding cards that wait for each other (extra_moves_bound's pairs, a run standing for
// its cards): one of the two runs must step aside, in a move of its own
// (heuristic.run_moves_bound, in its order).
int run_moves_bound(const Board& b, const Rules& r, const uint8_t order[MAX_PILES]) {
    struct Free {
        uint8_t card, run;
        uint64_t waits_for;
    };
    Free free[MAX_PILES][CARDS];
    int n_free[MAX_PILES];
    uint64_t free_mask[MAX_PILES];
    int busy = 0, runs = 0;
    for (int k = 0; k < b.piles; ++k) {
        int pile = order[k], n = b.length(pile);
        const uint8_t* cards = b.cards + b.start[pile];
        int lowest[4] = {NONE_BELOW, NONE_BELOW, NONE_BELOW, NONE_BELOW};
        uint64_t above_lowest = 0;
        uint8_t run_of[CARDS];
        bool counted[CARDS], blocked[CARDS];
        uint64_t waits_for[CARDS];
        int run = 0;
        counted[0] = false;
        for (int at = 0; at < n; ++at) {
            int card = cards[at], suit = suit_of(card);
            if (at && !r.builds_on(card, cards[at - 1])) counted[++run] = false;
            run_of[at] = static_cast<uint8_t>(run);
            blocked[at] = lowest[suit] < card;
            if (blocked[at]) {
                runs += !counted[run];
                counted[run] = true;
                continue;
            }
            waits_for[at] = above_lowest & ~TABLES.suit[suit];
            lowest[suit] = card;
            above_lowest = (above_lowest & ~TABLES.suit[suit]) | TABLES.higher[card];
        }
        if (n < 2) continue;
        n_free[busy] = 0;
        free_mask[busy] = 0;
        for (int at = 0; at < n; ++at) {
            if (blocked[at] || counted[run_of[at]]) continue;
            free[busy][n_free[busy]++] = {cards[at], run_of[at], waits_for[at]};
            free_mask[busy] |= bit(cards[at]);
        }
        ++busy;
    }
    uint64_t matched[MAX_PILES] = {};  // per busy pile, a bit per run matched
    int pairs = 0;
    for (int i = 0; i < busy; ++i) {
        for (int j = i + 1; j < busy; ++j) {
            for (int a = 0; a < n_free[i]; ++a) {
                const Free& x = free[i][a];
                if ((matched[i] >> x.run & 1) || !(x.waits_for & free_mask[j])) continue;
                for (int c = 0; c < n_free[j]; ++c) {
                    const Free& y = free[j][c];
                    if (!(matched[j] >> y.run & 1) && (x.waits_for >> y.card & 1) &&
                        (y.waits_for >> x.card & 1)) {
                        matched[i] |= uint64_t{1} << x.run;
                        matched[j] |= uint64_t{1} << y.run;
                        ++pairs;
                        break;  // x's run is matched now
                    }
                }
            }
        }
    }
    return runs + pairs;
}

inline int heuristic(const Board& b, const Rules& r, const uint8_t order[MAX_PILES], bool thorough) {
    if (r.sequences)
        return CARDS - b.cards_home() + (thorough ? run_moves_bound(b, r, order) : blocked_runs(b, r));
    return CARDS - b.cards_home() + (thorough ? extra_moves_bound(b, order) : blocked_cards(b));
}

// --- moves (problem.py) --------------------------------------------------------------

struct Triple {
    int card, source, target;  // source a pile or a *_SOURCE; target a pile or a *_TARGET
};

// Whether `card`, free and next for its foundation, may go home at once without losing
// a solution or lengthening the optimal one (problem._safe; docs/castle-family.md, 4.4). In
// suit that is always so (the card below it is home; one above it on it could have gone
// home instead); otherwise each card that may go onto it must be home for good, or be
// able to go home as soon as it is free with every card that may go onto it home.
inline bool safe_home(const Board& b, const Rules& r, int card) {
    if (r.same_suit || rank_index(card) == 0) return true;
    if (r.worrying_back) return false;
    int rank = rank_index(card);  // a card that goes onto it is home when its suit has this
    for (int t = 0; t < 4; ++t) {
        if (!(r.builder_suits[suit_of(card)] >> t & 1) || b.home[t] >= rank) continue;
        if (b.home[t] != rank - 1) return false;
        for (int u = 0; u < 4; ++u)  // the cards that go onto that one must be home
            if ((r.builder_suits[t] >> u & 1) && b.home[u] < rank - 1) return false;
    }
    return true;
}

// The moves of two or more cards from pile to pile, after the others in `out`: per pile,
// per run from the shortest, onto the piles whose tops take its base card, then the first
// empty pile when the run is not the whole pile (problem._sequence_moves).
int sequence_moves(const Board& b, const Rules& r, const int8_t top_pile[CARDS], int empty,
                   Triple out[MAX_CHILDREN], int n) {
    int carried = r.cells - __builtin_popcountll(b.cells) + 1, empty_piles = 0;
    for (int i = 0; i < b.piles; ++i) empty_piles += !b.length(i);
    int to_pile = r.fill == FILL_ANY ? carried << empty_piles : carried;
    int to_empty = r.fill == FILL_ANY && empty_piles ? carried << (empty_piles - 1) : carried;
    for (int i = 0; i < b.piles; ++i) {
        int end = b.start[i + 1], length = b.length(i);
        for (int depth = 2; depth <= length && depth <= to_pile; ++depth) {
            int base = b.cards[end - depth];
            if (!r.builds_on(b.cards[end - depth + 1], base)) break;
            for (int k = 0; k < r.n_onto[base]; ++k) {
                int target = top_pile[r.onto[base][k]];
                if (target >= 0 && target != i) out[n++] = {base, i, target};
            }
            if (empty >= 0 && r.fills(base) && depth < length && depth <= to_empty)
                out[n++] = {base, i, empty};
        }
    }
    return n;
}

// Every move a step may start with, less those the pruning rules drop (problem._moves).
int moves_of(const Board& b, const Rules& r, Triple out[MAX_CHILDREN]) {
    int8_t top_pile[CARDS];
    std::memset(top_pile, -1, sizeof top_pile);
    int sources[MAX_PILES + CARDS][2];
    int n_sources = 0, empty = -1;
    for (int i = 0; i < b.piles; ++i) {
        if (b.length(i)) {
            top_pile[b.top(i)] = static_cast<int8_t>(i);
            sources[n_sources][0] = b.top(i);
            sources[n_sources++][1] = i;
        } else if (empty < 0) {
            empty = i;
        }
    }
    for (uint64_t c = b.reserve; c; c &= c - 1) {
        sources[n_sources][0] = __builtin_ctzll(c);
        sources[n_sources++][1] = RESERVE_SOURCE;
    }
    for (uint64_t c = b.cells; c; c &= c - 1) {
        sources[n_sources][0] = __builtin_ctzll(c);
        sources[n_sources++][1] = CELL_SOURCE;
    }
    if (r.back) {
        for (int s = 0; s < 4; ++s) {
            if (!b.home[s]) continue;
            sources[n_sources][0] = (b.home[s] - 1) * 4 + s;
            sources[n_sources++][1] = FOUNDATION_SOURCE;
        }
    }
    bool cell_free = __builtin_popcountll(b.cells) < r.cells;
    int n = 0;
    for (int s = 0; s < n_sources; ++s) {
        int card = sources[s][0], source = sources[s][1];
        for (int k = 0; k < r.n_onto[card]; ++k) {
            int target = top_pile[r.onto[card][k]];
            if (target >= 0 && target != source) out[n++] = {card, source, target};
        }
        if (empty >= 0 && r.fills(card) && (source < 0 || b.length(source) > 1))
            out[n++] = {card, source, empty};
        if (cell_free && source >= 0) out[n++] = {card, source, CELL_TARGET};
        if (source != FOUNDATION_SOURCE && !r.same_suit &&
            b.home[suit_of(card)] == rank_index(card) && !safe_home(b, r, card))
            out[n++] = {card, source, HOME_TARGET};
    }
    if (r.sequences) n = sequence_moves(b, r, top_pile, empty, out, n);
    return n;
}

// Takes `card` from `source`, the card's place.
inline void take(Board& b, int card, int source) {
    if (source == RESERVE_SOURCE) b.reserve &= ~bit(card);
    else if (source == CELL_SOURCE) b.cells &= ~bit(card);
    else if (source == FOUNDATION_SOURCE) --b.home[suit_of(card)];
    else b.pop(source);
}

// Where a free card is: RESERVE_SOURCE, CELL_SOURCE or its pile; -2 if covered.
inline int place_of(const Board& b, int card) {
    if (b.reserve >> card & 1) return RESERVE_SOURCE;
    if (b.cells >> card & 1) return CELL_SOURCE;
    for (int i = 0; i < b.piles; ++i)
        if (b.top(i) == card) return i;
    return -2;
}

// After `card` went home (from `source`), the cards that may follow it: its successor in
// suit; when building is not in suit, the cards of the rank after next and of the next
// rank, which may be safe now; and the card it uncovered.
inline int followers(const Board& b, const Rules& r, int card, int source, int* work, int n) {
    if (rank_index(card) < 12) {
        if (r.same_suit) {
            work[n++] = card + 4;
        } else {
            for (int next = rank_index(card) + 2; next > rank_index(card); --next)
                if (next <= 12)
                    for (int t = 0; t < 4; ++t) work[n++] = next * 4 + t;
        }
    }
    if (source >= 0 && b.length(source)) work[n++] = b.top(source);
    return n;
}

// Sends home every card that can go safely, starting from `candidates` (cards just
// freed), like problem._settle and in its order. Returns the number of cards sent home.
int settle(Board& b, const Rules& r, const int* candidates, int n_candidates,
           std::vector<Played>* record) {
    int work[9 * CARDS + MAX_PILES + 32];  // each card home adds at most nine
    int n_work = 0, sent = 0;
    for (int i = 0; i < n_candidates; ++i) work[n_work++] = candidates[i];
    while (n_work) {
        int card = work[--n_work];
        if (rank_index(card) != b.home[suit_of(card)]) continue;
        int source = place_of(b, card);
        if (source == -2 || !safe_home(b, r, card)) continue;  // covered, or not safe yet
        if (record) record->push_back({card, source, HOME_TARGET, HOME_TARGET});
        take(b, card, source);
        ++b.home[suit_of(card)];
        ++sent;
        n_work = followers(b, r, card, source, work, n_work);
    }
    return sent;
}

// Plays a move and the moves home it allows; returns the step's cost.
int play(Board& b, const Rules& r, const Triple& t, std::vector<Played>* record) {
    int onto = t.target == HOME_TARGET || t.target == CELL_TARGET ? t.target
               : b.length(t.target) ? b.top(t.target) : EMPTY_TARGET;
    if (record) record->push_back({t.card, t.source, t.target, onto});
    int work[16];
    int n = 0;
    if (t.source >= 0 && b.top(t.source) != t.card) {  // a run, from pile to pile
        int from = b.start[t.source];
        while (b.cards[from] != t.card) ++from;
        int depth = b.start[t.source + 1] - from;
        uint8_t run[CARDS];
        std::memcpy(run, b.cards + from, depth);
        for (int k = 0; k < depth; ++k) b.pop(t.source);
        for (int k = 0; k < depth; ++k) b.push(t.target, run[k]);
        if (b.length(t.source)) work[n++] = b.top(t.source);
        return n ? 1 + settle(b, r, work, n, record) : 1;
    }
    take(b, t.card, t.source);
    if (t.target == HOME_TARGET) {
        ++b.home[suit_of(t.card)];
        n = followers(b, r, t.card, t.source, work, 0);
    } else {
        if (t.target == CELL_TARGET) b.cells |= bit(t.card);
        else b.push(t.target, t.card);
        if (t.source >= 0 && b.length(t.source)) work[n++] = b.top(t.source);
    }
    return n ? 1 + settle(b, r, work, n, record) : 1;
}

Move to_move(const Board& b, const Triple& t) {
    int onto = t.target < 0 ? t.target : b.length(t.target) ? b.top(t.target) : EMPTY_TARGET;
    return Move{static_cast<uint8_t>(t.card), static_cast<int8_t>(onto)};
}

// The triple of a stored move on this board, found by its cards.
Triple locate(const Board& b, Move m) {
    int source = place_of(b, m.card);
    if (source == -2 && b.home[suit_of(m.card)] == rank_index(m.card) + 1)
        source = FOUNDATION_SOURCE;
    for (int i = 0; i < b.piles && source == -2; ++i)  // a run's base card
        for (int at = b.start[i]; at < b.start[i + 1]; ++at)
            if (b.cards[at] == m.card) source = i;
    constexpr int NOWHERE = -99;
    Triple t{m.card, source,
             m.onto == HOME_TARGET || m.onto == CELL_TARGET ? int{m.onto} : NOWHERE};
    for (int i = 0; i < b.piles && t.target == NOWHERE; ++i)
        if (i != source && (m.onto == EMPTY_TARGET ? !b.length(i) : b.top(i) == m.onto))
            t.target = i;
    if (t.target == NOWHERE || source == -2)
        throw std::logic_error("a stored move does not fit its position");
    return t;
}

// --- budget --------------------------------------------------------------------------

// Thrown when a budget runs out; `memory` when it was the memory.
struct Exhausted {
    bool memory = false;
    bool flare = false;  // a verdict flare's own share of nodes, not the budget
    bool disk = false;  // the disk search's files would pass the disk budget
};

// Thrown when a run of deals gives up the deal it is searching (solve_deals' slice): no
// verdict, not even "unknown", since the deal is searched again from the start later.
struct Abandoned {};

using Clock = std::chrono::steady_clock;

struct Budget {
    double seconds;  // <= 0: no limit
    uint64_t nodes;  // 0: no limit
    uint64_t table_entries;  // 0: no limit
    uint64_t memory;  // bytes the search's tables may hold at their peak; 0: no limit
    py::object stop;  // a callable, or None
    Clock::time_point abandon = Clock::time_point::max();  // then Abandoned is thrown
};

class Meter {
public:
    // `spent_seconds` and `spent_nodes`: what a search this one continues has spent of
    // the same budget.
    explicit Meter(const Budget& budget, double spent_seconds = 0, uint64_t spent_nodes = 0)
        : nodes(spent_nodes), budget_(budget),
          started_(Clock::now() - std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(spent_seconds))),
          last_stop_check_(Clock::now()), last_signal_check_(last_stop_check_) {}

    uint64_t nodes;

    void tick() {
        if (budget_.nodes && nodes >= budget_.nodes) throw Exhausted{};
        if (!(++nodes & 1023)) check();
    }

    void check() {
        auto now = Clock::now();
        if (budget_.seconds > 0 && elapsed(now) > budget_.seconds) throw Exhausted{};
        if (now >= budget_.abandon) throw Abandoned{};
        bool ask_stop = !budget_.stop.is_none() && now - last_stop_check_ > STOP_EVERY;
        if (!ask_stop && now - last_signal_check_ < SIGNALS_EVERY) return;
        py::gil_scoped_acquire gil;
        if (now - last_signal_check_ >= SIGNALS_EVERY) {  // Ctrl-C: KeyboardInterrupt
            last_signal_check_ = now;
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        }
        if (ask_stop) {
            last_stop_check_ = now;
            if (py::bool_(budget_.stop())) throw Exhausted{};  // any truthy value stops
        }
    }

    double elapsed(Clock::time_point now = Clock::now()) const {
        return std::chrono::duration<double>(now - started_).count();
    }

private:
    const Budget& budget_;
    Clock::time_point started_;
    Clock::time_point last_stop_check_;
    Clock::time_point last_signal_check_;
    static constexpr auto STOP_EVERY = std::chrono::milliseconds(1);
    static constexpr auto SIGNALS_EVERY = std::chrono::milliseconds(10);
};

enum class Status { SOLVED = 0, UNSOLVABLE = 1, UNKNOWN = 2 };

struct Outcome {
    Status status = Status::UNKNOWN;
    std::vector<uint16_t> moves;  // the tableau moves of the solution
    uint64_t nodes = 0;
    uint64_t table_entries = 0;
    uint64_t table_bytes = 0;
    double seconds = 0;
    int lower = 0;  // a proven lower bound on the solution's cost (not counting the opening)
    bool memory_full = false;  // whether the memory budget ran out
    bool flare_spent = false;  // whether a verdict flare stopped at its share of nodes
    int cost = 0;  // the moves' cost, when SOLVED (the anytime search's line may exceed `lower`)
    double line_seconds = 0;  // seconds into the search when the line was found
    bool disk_full = false;  // whether the disk budget ran out
    uint64_t disk_bytes = 0;  // the disk search's files at their largest
};

// --- greedy best-first and A* (search/astar.py) --------------------------------------

struct Node {
    Key key;
    uint32_t parent;
    uint16_t move;
    uint16_t g;
};

constexpr uint32_t NO_PARENT = 0xFFFFFFFF;

// Every position seen, by key, in blocks that never move. The table's slots hold the
// high half of the key's hash, which is also where a key's search starts (its top bits),
// so the table grows without touching the nodes.
class NodeStore {
public:
    NodeStore() { slots_.assign(size_t{1} << bits_, 0); }

    size_t size() const { return count_; }
    Node& operator[](uint32_t id) { return blocks_[id >> BLOCK_BITS][id & BLOCK_MASK]; }

    // Brings the slot where a key's search starts, and its node if the tag matches, into
    // the cache ahead of find_or_add: table lookups are the search's memory stalls.
    void prefetch_slot(uint64_t h) const { __builtin_prefetch(&slots_[start(tag_of(h))]); }
    void prefetch_node(uint64_t h) {
        uint64_t slot = slots_[start(tag_of(h))];
        if (slot && static_cast<uint32_t>(slot >> 32) == tag_of(h))
            __builtin_prefetch(&(*this)[static_cast<uint32_t>(slot) - 1]);
    }

    // The id of the node with this key (hash h), adding it (the rest left to the caller)
    // if new.
    uint32_t find_or_add(const Key& key, uint64_t h, bool& added) {
        if (2 * (count_ + 1) > slots_.size()) grow();
        size_t mask = slots_.size() - 1;
        uint32_t tag = tag_of(h);
        for (size_t i = start(tag);; i = (i + 1) & mask) {
            uint64_t slot = slots_[i];
            if (!slot) {
                uint32_t id = static_cast<uint32_t>(count_++);
                if ((id & BLOCK_MASK) == 0) blocks_.emplace_back(new Node[BLOCK]);
                (*this)[id].key = key;
                slots_[i] = (uint64_t{tag} << 32) | (id + 1);
                added = true;
                return id;
            }
            uint32_t id = static_cast<uint32_t>(slot) - 1;
            if (static_cast<uint32_t>(slot >> 32) == tag && (*this)[id].key == key) {
                added = false;
                return id;
            }
        }
    }

    uint64_t bytes() const {
        return blocks_.size() * BLOCK * sizeof(Node) + slots_.size() * sizeof(uint64_t);
    }

    // The most bytes held while `more` nodes are added: their blocks, and the slots,
    // old and new side by side while they double.
    uint64_t bytes_adding(size_t more) const {
        size_t nodes = count_ + more, slots = slots_.size();
        while (2 * nodes > slots) slots *= 2;
        uint64_t slot_bytes = (slots + (slots > slots_.size() ? slots / 2 : 0)) * sizeof(uint64_t);
        return (nodes + BLOCK - 1) / BLOCK * BLOCK * sizeof(Node) + slot_bytes;
    }

private:
    static constexpr int BLOCK_BITS = 12;
    static constexpr uint32_t BLOCK = 1u << BLOCK_BITS;
    static constexpr uint32_t BLOCK_MASK = BLOCK - 1;

    static uint32_t tag_of(uint64_t h) { return static_cast<uint32_t>(h >> 32); }
    size_t start(uint32_t tag) const { return tag >> (32 - bits_); }

    void grow() {
        std::vector<uint64_t> old;
        old.swap(slots_);
        ++bits_;  // at most 32: ids are 32 bits
        slots_.assign(size_t{1} << bits_, 0);
        size_t mask = slots_.size() - 1;
        for (uint64_t slot : old) {
            if (!slot) continue;
            size_t i = start(static_cast<uint32_t>(slot >> 32));
            while (slots_[i]) i = (i + 1) & mask;
            slots_[i] = slot;
        }
    }

    std::vector<std::unique_ptr<Node[]>> blocks_;
    int bits_ = 12;
    std::vector<uint64_t> slots_;  // (hash tag << 32) | (id + 1), 0 when free
    size_t count_ = 0;
};

// Node ids by integer priority then h, lowest first; LIFO among equals. Priorities are
// small integers, so buckets beat a binary heap.
class BucketQueue {
public:
    bool empty() const { return size_ == 0; }
    uint64_t bytes() const {
        return capacity_ * sizeof(uint32_t) + buckets_.size() * sizeof(buckets_[0]) + lists_;
    }
    // The most bytes held while `more` ids are pushed: a bucket that grows holds its old
    // and new arrays at once, and no bucket is larger than the largest so far.
    uint64_t bytes_adding(size_t more) const {
        return bytes() + 2 * largest_ * sizeof(uint32_t) +
               more * (8 * sizeof(uint32_t) + sizeof(std::vector<uint32_t>));
    }

    void push(int priority, int h, uint32_t id) {
        if (priority >= static_cast<int>(buckets_.size())) {
            buckets_.resize(priority + 1);
            lowest_h_.resize(priority + 1, 0);
        }
        auto& by_h = buckets_[priority];
        if (h >= static_cast<int>(by_h.size())) {
            lists_ += (h + 1 - by_h.size()) * sizeof(by_h[0]);
            by_h.resize(h + 1);
        }
        auto& bucket = by_h[h];
        if (bucket.size() == bucket.capacity()) {
            size_t before = bucket.capacity();
            bucket.push_back(id);
            capacity_ += bucket.capacity() - before;
            largest_ = std::max(largest_, bucket.capacity());
        } else {
            bucket.push_back(id);
        }
        ++size_;
        lowest_ = std::min(lowest_, priority);
        lowest_h_[priority] = std::min(lowest_h_[priority], h);
    }

    // The next id and its priority and h.
    uint32_t pop(int& priority, int& h) {
        for (;; ++lowest_) {
            auto& by_h = buckets_[lowest_];
            for (int& i = lowest_h_[lowest_]; i < static_cast<int>(by_h.size()); ++i) {
                if (!by_h[i].empty()) {
                    uint32_t id = by_h[i].back();
                    by_h[i].pop_back();
                    --size_;
                    priority = lowest_;
                    h = i;
                    return id;
                }
            }
        }
    }

private:
    std::vector<std::vector<std::vector<uint32_t>>> buckets_;
    std::vector<int> lowest_h_;  // per priority, no h below it is queued
    int lowest_ = 0;
    size_t size_ = 0;
    size_t capacity_ = 0;  // ids the buckets have room for
    size_t largest_ = 0;  // the most one bucket has room for
    size_t lists_ = 0;  // bytes of the per-h lists
};

// Whether the piles' bottom cards are the same, so that the canonical order is too.
inline bool same_bottoms(const Board& a, const Board& b) {
    for (int i = 0; i < a.piles; ++i)
        if (a.bottom(i) != b.bottom(i)) return false;
    return true;
}

// Whether a card of `card`'s suit and lower rank lies in `pile` below `above` cards from
// its top.
inline bool lower_suitmate(const Board& b, int pile, int card, int above) {
    for (int at = b.start[pile]; at < b.start[pile + 1] - above; ++at) {
        int other = b.cards[at];
        if (suit_of(other) == suit_of(card) && other < card) return true;
    }
    return false;
}

// The cheap bound of the position a move leads to, from its parent's `h`: a move changes
// only whether its own card is blocked (in a pile it leaves or joins), and a card going
// home is never blocked (it is the lowest of its suit not home), so the moves home it
// allows leave the count alone. A card back from its foundation is not blocked either.
inline int blocked_after(const Board& parent, int h, const Triple& t, const Board& child) {
    int blocked = h - (CARDS - parent.cards_home());
    if (t.source >= 0 && lower_suitmate(parent, t.source, t.card, 1)) --blocked;
    if (t.target >= 0 && lower_suitmate(parent, t.target, t.card, 0)) ++blocked;
    return CARDS - child.cards_home() + blocked;
}


// --- verdicts: greedy flares (search/flares.py) ----------------------------------------

// What a verdict search orders positions by, lowest first: not a bound but a guess at
// how far the position is from a win, from what a player looks at. Cards not home; runs
// (or cards) above a lower card of their suit, which must move before it goes home;
// cards above the next card each foundation needs; free cells taken; empty piles; and
// the moves made to reach it.
struct Weights {
    int away, blocked, over, cells, empty, moves;
};

// Flares: the same search under several orders, each given a number of nodes, in turn,
// the numbers growing fourfold each round, until one finds a win or proves there is none
// (each flare alone is complete). An order that leads one deal astray leads another
// straight to a win, so the flares cut off the long tail any one order has. These four,
// with 2,000 nodes first, took the fewest nodes of every portfolio of two to four of ten
// orders, each searched alone on Microsoft FreeCell deals 1..1000 and 100001..101000:
// 995,000 in all (the best order alone: 1.42 M, and 3 deals undecided at 60,000 each).
constexpr Weights FLARES[] = {
    {6, 2, 1, 3, 3, 1}, {5, 3, 1, 4, 4, 0}, {2, 2, 1, 2, 2, 1}, {4, 2, 0, 2, 2, 0}};
constexpr uint64_t FIRST_FLARE_NODES = 2000;

int verdict_score(const Board& b, const Rules& r, const Weights& w, int moves) {
    int next[4], over = 0, empty = 0;  // per suit, the card its foundation needs next
    for (int s = 0; s < 4; ++s) next[s] = b.home[s] < 13 ? b.home[s] * 4 + s : NO_CARD;
    for (int i = 0; i < b.piles; ++i) {
        empty += !b.length(i);
        for (int at = b.start[i]; at < b.start[i + 1]; ++at)
            if (b.cards[at] == next[suit_of(b.cards[at])]) over += b.start[i + 1] - 1 - at;
    }
    int blocked = r.sequences ? blocked_runs(b, r) : blocked_cards(b);
    return w.away * (CARDS - b.cards_home()) + w.blocked * blocked + w.over * over +
           w.cells * __builtin_popcountll(b.cells) + w.empty * (MAX_PILES - empty) +
           w.moves * moves;
}

// A child a best-first search is about to queue: its board, key and the move to it.
struct Pending {
    Board board;
    uint8_t order[MAX_PILES];
    Key key;
    uint64_t hash;
    uint16_t move;
    int g;
};

// `flare`: a verdict flare's order, given `flare_nodes` nodes after what `before` spent of
// the budget.
Outcome best_first(const Board& start, const Rules& rules, bool optimal, bool thorough,
                   const Budget& budget, const Weights* flare = nullptr,
                   uint64_t flare_nodes = 0, const Outcome& before = Outcome{}) {
    Meter meter(budget, before.seconds, before.nodes);
    NodeStore seen;
    BucketQueue frontier;
    Outcome out;
    uint8_t order[MAX_PILES];
    Triple moves[MAX_CHILDREN];
    std::vector<Pending> children(MAX_CHILDREN);

    auto finish = [&](Status status) {
        out.status = status;
        out.nodes = meter.nodes;
        out.table_entries = seen.size();
        out.table_bytes = seen.bytes() + frontier.bytes() + children.size() * sizeof(Pending);
        out.seconds = meter.elapsed();
        return out;
    };

    canonical_order(start, order);
    int h0 = heuristic(start, rules, order, thorough);
    out.lower = h0;
    if (flare) h0 = verdict_score(start, rules, *flare, 0);
    if (budget.memory && seen.bytes_adding(1) + frontier.bytes_adding(1) +
                                 children.size() * sizeof(Pending) > budget.memory) {
        out.memory_full = true;  // not even room for the start
        return finish(Status::UNKNOWN);
    }
    bool added;
    Key root_key = pack(start, order);
    uint32_t root = seen.find_or_add(root_key, hash_key(root_key), added);
    seen[root].parent = NO_PARENT;
    seen[root].g = 0;
    // A flare's order is all its priority: its ties go last in, first out, with no bound
    // beside it (which would make a list per order and bound, hundreds squared).
    frontier.push(h0, flare ? 0 : h0, root);
    try {
        while (!frontier.empty()) {
            int priority, h;
            uint32_t id = frontier.pop(priority, h);
            int g = optimal ? priority - h : -1;
            Node node = seen[id];
            if (optimal && node.g < g) continue;  // a cheaper path to it was queued later
            // the least f queued bounds the optimal cost from below (some node of an
            // optimal line is queued with its true g), so each one popped is a bound
            if (optimal) out.lower = std::max(out.lower, priority);
            Board board = unpack(node.key, rules.piles);
            if (board.won()) {
                for (uint32_t at = id; seen[at].parent != NO_PARENT; at = seen[at].parent)
                    out.moves.push_back(seen[at].move);
                std::reverse(out.moves.begin(), out.moves.end());
                out.line_seconds = meter.elapsed();
                return finish(Status::SOLVED);
            }
            meter.tick();
            if (flare && meter.nodes - before.nodes > flare_nodes) throw Exhausted{false, true};
            int n = moves_of(board, rules, moves);
            if (budget.memory && seen.bytes_adding(n) + frontier.bytes_adding(n) +
                                         children.size() * sizeof(Pending) > budget.memory)
                throw Exhausted{true};
            uint8_t parent_order[MAX_PILES];
            canonical_order(board, parent_order);
            for (int m = 0; m < n; ++m) {  // first every child's key, fetching its slot
                Pending& c = children[m];
                c.board = board;
                c.move = encode(to_move(board, moves[m]));
                c.g = node.g + play(c.board, rules, moves[m], nullptr);
                if (same_bottoms(board, c.board)) std::memcpy(c.order, parent_order, MAX_PILES);
                else canonical_order(c.board, c.order);
                c.key = pack(c.board, c.order);
                c.hash = hash_key(c.key);
                seen.prefetch_slot(c.hash);
            }
            for (int m = 0; m < n; ++m) seen.prefetch_node(children[m].hash);
            for (int m = 0; m < n; ++m) {
                Pending& c = children[m];
                uint32_t child_id = seen.find_or_add(c.key, c.hash, added);
                Node& known = seen[child_id];
                if (!added && (known.g <= c.g || !optimal)) continue;
                known.parent = id;
                known.move = c.move;
                known.g = static_cast<uint16_t>(c.g);
                int child_h = flare ? verdict_score(c.board, rules, *flare, c.g)
                              : thorough || rules.sequences
                                  ? heuristic(c.board, rules, c.order, thorough)
                                  : blocked_after(board, h, moves[m], c.board);
                frontier.push(optimal ? c.g + child_h : flare ? child_h
                                      : rules.weight ? c.g + rules.weight * child_h : child_h,
                              flare ? 0 : child_h, child_id);
            }
            if (budget.table_entries && seen.size() > budget.table_entries) throw Exhausted{};
        }
    } catch (const Exhausted& exhausted) {
        out.memory_full = exhausted.memory;
        out.flare_spent = exhausted.flare;
        return finish(Status::UNKNOWN);
    }
    return finish(Status::UNSOLVABLE);
}

// The flares in turn, each a greedy best-first search by its order, until one decides;
// the budget bounds them all together, its memory each one's tables. With free cells
// they are FLARES; without, the deals that take long are mostly proofs of no win, which
// each flare would have to make alone, so there is one flare, by the `any` search's
// order (Rules::weight), which measured fastest there (castle-family deals 1..300: flares
// took 1.1 to 1.6 times its nodes on five of the six variants).
Outcome flares(const Board& start, const Rules& rules, const Budget& budget) {
    int w = std::max(rules.weight, 1);
    const Weights castle[] = {{w, w, 0, 0, 0, rules.weight ? 1 : 0}};
    const Weights* first = rules.cells ? FLARES : castle;
    const Weights* last = rules.cells ? std::end(FLARES) : std::end(castle);
    Outcome spent;  // one flare alone has every node: no turns to take
    for (uint64_t share = last - first > 1 ? FIRST_FLARE_NODES : UINT64_MAX;; share *= 4) {
        for (const Weights* order = first; order != last; ++order) {
            Outcome out = best_first(start, rules, false, false, budget, order, share, spent);
            out.table_bytes = std::max(out.table_bytes, spent.table_bytes);
            out.table_entries = std::max(out.table_entries, spent.table_entries);
            if (!out.flare_spent) return out;
            spent = out;
        }
    }
}

// --- IDA* (search/idastar.py) --------------------------------------------------------

struct Entry {
    Key key;
    uint16_t learned;  // a lower bound on the moves left, INFINITE for a dead end
    uint16_t iteration;  // the iteration that last expanded it; 0: seen, never expanded
    uint16_t g;  // its g then
    uint16_t work;  // log2 of the expansions its last search took, plus 1; 0: a free slot
    bool used() const { return work != 0; }
};

inline uint16_t work_of(uint64_t expansions) {  // 1 + floor(log2(expansions + 1))
    return static_cast<uint16_t>(64 - __builtin_clzll(expansions + 1));
}

// A transposition table of at most `cap` entries (rounded down to a power of two). A key lives in the WINDOW slots from where its hash points; the table
// doubles at half load while under the cap; once at the cap a full window evicts the
// entry least worth keeping: the one whose search was smallest (the deepest of those),
// as it is the cheapest to search again. So a table far smaller than the search costs
// re-search, never correctness.
class BoundedTable {
public:
    explicit BoundedTable(uint64_t cap) {
        uint64_t limit = cap ? cap : uint64_t{1} << 40;
        max_size_ = 1;
        while (max_size_ * 2 <= limit) max_size_ *= 2;
        entries_.assign(std::min<uint64_t>(max_size_, 1 << 12), Entry{});
    }

    size_t size() const { return count_; }
    uint64_t bytes() const { return entries_.size() * sizeof(Entry); }
    bool evicted = false;  // whether an entry was ever pushed out

    // Entries are replaced, never removed, so a key is never past a free slot.
    Entry* find(const Key& key, uint64_t h) {
        size_t mask = entries_.size() - 1;
        for (size_t i = h & mask, n = 0; n < window(); i = (i + 1) & mask, ++n) {
            Entry& e = entries_[i];
            if (!e.used()) return nullptr;
            if (e.key == key) return &e;
        }
        return nullptr;
    }

    void prefetch(uint64_t h) const { __builtin_prefetch(&entries_[h & (entries_.size() - 1)]); }

    // Stores what the search learned of a position, adding it if new.
    void store(const Key& key, uint64_t h, uint16_t learned, uint16_t iteration, uint16_t g,
               uint16_t work) {
        Entry* e = find(key, h);
        if (!e) {
            e = make_room(h);
            e->key = key;
        }
        e->learned = learned;
        e->iteration = iteration;
        e->g = g;
        e->work = work;
    }

private:
    // Linear probing makes runs of taken slots: a window of 64 overflows at half load
    // hardly ever; a full one gives up one of its first EVICTABLE entries.
    static constexpr size_t WINDOW = 64;
    static constexpr size_t EVICTABLE = 8;
    size_t window() const { return std::min(WINDOW, entries_.size()); }

    Entry* make_room(uint64_t h) {
        if (2 * (count_ + 1) > entries_.size() && entries_.size() < max_size_) grow();
        for (;;) {
            size_t mask = entries_.size() - 1;
            Entry* victim = nullptr;
            for (size_t i = h & mask, n = 0; n < window(); i = (i + 1) & mask, ++n) {
                Entry& e = entries_[i];
                if (!e.used()) {
                    ++count_;
                    return &e;
                }
                if (n < EVICTABLE && (!victim || e.work < victim->work ||
                                      (e.work == victim->work && e.g > victim->g)))
                    victim = &e;
            }
            if (entries_.size() < max_size_) {
                grow();
                continue;
            }
            evicted = true;
            return victim;
        }
    }

    void grow() {
        std::vector<Entry> old;
        old.swap(entries_);
        for (size_t size = old.size() * 2;; size *= 2) {
            if (rehash(old, size) || size * 2 > max_size_) return;
        }
    }

    // Moves the entries into a table of `size`; false if a window overflowed (at most a
    // quarter full, so hardly ever), unless the table is at its cap, where the entry is
    // let go like an eviction.
    bool rehash(const std::vector<Entry>& old, size_t size) {
        entries_.assign(size, Entry{});
        size_t mask = size - 1;
        for (const Entry& e : old) {
            if (!e.used()) continue;
            size_t i = hash_key(e.key) & mask, n = 0;
            while (entries_[i].used() && n < window()) i = (i + 1) & mask, ++n;
            if (n < window()) {
                entries_[i] = e;
            } else if (size * 2 <= max_size_) {
                return false;
            } else {
                evicted = true;
                --count_;
            }
        }
        return true;
    }

    std::vector<Entry> entries_;
    uint64_t max_size_;
    size_t count_ = 0;
};

struct Child {
    Key key;
    uint64_t hash;
    uint16_t move;
    uint16_t cost;
    int h;  // the learned bound if known, else the static one
    int estimate;  // cost + h, or INFINITE
    int seen_at;  // its g when expanded in this iteration, else INFINITE
    bool known;  // whether the table had it
    Board board;
    uint8_t order[MAX_PILES];
};

// The entries a transposition table may hold within the budget: a table that doubles
// holds its old entries beside the new ones, and the path's children need some room.
uint64_t table_cap(const Budget& budget) {
    constexpr uint64_t PATH_ROOM = 8 << 20;
    uint64_t cap = budget.table_entries;
    if (budget.memory) {
        uint64_t room = budget.memory > 2 * PATH_ROOM ? budget.memory - PATH_ROOM : budget.memory / 2;
        uint64_t fits = std::max<uint64_t>(1, room * 2 / (3 * sizeof(Entry)));
        cap = cap ? std::min(cap, fits) : fits;
    }
    return cap;
}

class IdaStar {
public:
    // `before`: a search of the same position and budget this one continues (A* that ran
    // out of memory): its time and nodes are spent, its lower bound proven. `anytime`:
    // before's line, if SOLVED, is the best so far (IDA* looks for shorter ones only), and
    // a search the budget stops answers the best line found, SOLVED with its lower bound.
    IdaStar(const Board& start, const Rules& rules, const Budget& budget,
            const Outcome& before = Outcome{}, bool anytime = false)
        : start_(start), rules_(rules), budget_(budget),
          meter_(budget, before.seconds, before.nodes), table_(table_cap(budget)),
          known_lower_(before.lower), anytime_(anytime) {
        if (anytime && before.status == Status::SOLVED) incumbent_ = before;
    }

    Outcome run() {
        Outcome out;
        uint8_t order[MAX_PILES];
        canonical_order(start_, order);
        Key key = pack(start_, order);
        int h = heuristic(start_, rules_, order, true);
        bound_ = std::max(h, known_lower_);
        out.lower = bound_;
        int upper = incumbent_.status == Status::SOLVED ? incumbent_.cost : INFINITE;
        try {
            for (;;) {
                if (bound_ >= upper) {  // nothing shorter than the best line so far
                    found(out, incumbent_, upper);
                    break;
                }
                ++iteration_;
                cut_.assign(cut_.size(), 0);
                cuts_ = 0;
                uint64_t expanded_before = meter_.nodes;
                int f = probe(start_, key, hash_key(key), h, 0);
                if (best_cost_ >= 0) {
                    out.status = Status::SOLVED;
                    out.moves = best_;
                    out.cost = out.lower = best_cost_;
                    out.line_seconds = best_seconds_;
                    break;
                }
                // a whole iteration's bound on every solution's cost: none within its bound
                out.lower = std::max(out.lower, std::min<int>(std::max(f, bound_ + 1), INFINITE - 1));
                if (out.lower >= upper) {
                    found(out, incumbent_, upper);
                    break;
                }
                if (f >= INFINITE || cuts_ == 0 || (!table_.evicted && unexpanded_ == 0)) {
                    out.status = Status::UNSOLVABLE;  // every reachable position expanded
                    break;
                }
                bound_ = std::min(next_bound(meter_.nodes - expanded_before), upper - 1);
            }
        } catch (const Exhausted&) {
            out.status = Status::UNKNOWN;
            if (best_cost_ >= 0 && anytime_) {  // shorter than the line before, if any
                out.status = Status::SOLVED;
                out.moves = best_;
                out.cost = best_cost_;
                out.line_seconds = best_seconds_;
            } else if (upper < INFINITE) {
                found(out, incumbent_, out.lower);
            }
        }
        out.nodes = meter_.nodes;
        out.table_entries = table_.size();
        out.table_bytes = table_.bytes();
        out.seconds = meter_.elapsed();
        return out;
    }

private:
    // `out` answers the line of `line` (SOLVED), with the lower bound `lower`.
    static void found(Outcome& out, const Outcome& line, int lower) {
        out.status = Status::SOLVED;
        out.moves = line.moves;
        out.cost = line.cost;
        out.line_seconds = line.line_seconds;
        out.lower = std::min(lower, line.cost);
    }

    // A lower bound on the cost of a solution through `board` (g + learned), searching
    // depth first within the bound; a solution found lowers the bound below its cost.
    // Unsolvability is proven by closure: positions seen as children and never expanded
    // are counted, and when none is left (and no entry was ever evicted, which would lose
    // count) the expanded positions are all that is reachable, and none is a goal.
    int probe(const Board& board, const Key& key, uint64_t hash, int h, int g) {
        if (board.won()) {
            if (g <= bound_) {
                best_ = path_;
                best_cost_ = g;
                best_seconds_ = meter_.elapsed();
                bound_ = g - 1;
            }
            return g;
        }
        meter_.tick();
        const Entry* self = table_.find(key, hash);
        if (self && self->iteration == 0) --unexpanded_;  // seen before, expanded now
        uint64_t expanded_before = meter_.nodes;
        table_.store(key, hash, static_cast<uint16_t>(h), iteration_, static_cast<uint16_t>(g),
                     self ? self->work : 1);
        size_t depth = path_.size();
        if (depth >= levels_.size()) levels_.resize(depth + 1);
        Triple moves[MAX_CHILDREN];
        int n = moves_of(board, rules_, moves);
        if (levels_[depth].size() < static_cast<size_t>(n)) levels_[depth].resize(n);
        Child* children = levels_[depth].data();
        uint8_t order[MAX_PILES];
        for (int m = 0; m < n; ++m) {  // first every child's key, fetching its table entry
            Board child = board;
            Child& c = children[m];
            c.move = encode(to_move(board, moves[m]));
            c.cost = static_cast<uint16_t>(play(child, rules_, moves[m], nullptr));
            canonical_order(child, order);
            c.key = pack(child, order);
            c.hash = hash_key(c.key);
            table_.prefetch(c.hash);
            c.board = child;
            std::memcpy(c.order, order, MAX_PILES);
        }
        for (int m = 0; m < n; ++m) {
            Child& c = children[m];
            c.seen_at = INFINITE;
            const Entry* e = table_.find(c.key, c.hash);
            c.known = e != nullptr;
            if (e) {
                c.h = e->learned;
                if (e->iteration == iteration_) c.seen_at = e->g;
            } else {
                c.h = heuristic(c.board, rules_, c.order, true);
            }
            c.estimate = c.h >= INFINITE ? INFINITE : c.cost + c.h;
        }
        uint16_t by_estimate[MAX_CHILDREN];  // insertion sort: stable, and n is small
        for (int m = 0; m < n; ++m) {
            int j = m;
            while (j > 0 && children[by_estimate[j - 1]].estimate > children[m].estimate) {
                by_estimate[j] = by_estimate[j - 1];
                --j;
            }
            by_estimate[j] = static_cast<uint16_t>(m);
        }
        int learned = INFINITE;
        for (int k = 0; k < n; ++k) {
            Child& c = levels_[depth][by_estimate[k]];  // deeper levels may have grown: index afresh
            if (c.estimate >= INFINITE || c.seen_at <= g + c.cost) {
                learned = std::min(learned, c.estimate);  // dead, a cycle, or searched already
                continue;
            }
            if (g + c.estimate > bound_) {
                learned = std::min(learned, c.estimate);
                count_cut(g + c.estimate);
                if (!c.known && !table_.evicted && !table_.find(c.key, c.hash)) {
                    table_.store(c.key, c.hash, static_cast<uint16_t>(c.h), 0,
                                 static_cast<uint16_t>(g + c.cost), 1);
                    ++unexpanded_;  // (two moves may lead to one position: counted once)
                }
                continue;
            }
            path_.push_back(c.move);
            Key child_key = c.key;
            uint64_t child_hash = c.hash;
            int child_h = c.h, child_cost = c.cost;
            Board child = c.board;
            int f = probe(child, child_key, child_hash, child_h, g + child_cost);
            path_.pop_back();
            learned = std::min(learned, f >= INFINITE ? INFINITE : f - g);
        }
        learned = std::max(learned, h);
        table_.store(key, hash, static_cast<uint16_t>(std::min<int>(learned, INFINITE)),
                     iteration_, static_cast<uint16_t>(g), work_of(meter_.nodes - expanded_before));
        return learned >= INFINITE ? INFINITE : g + learned;
    }

    void count_cut(int f) {
        if (f >= static_cast<int>(cut_.size())) cut_.resize(f + 1, 0);
        ++cut_[f];
        ++cuts_;
    }

    // The least bound that lets in at least as many cut positions as were expanded, so
    // that each iteration roughly doubles the work. When even all of them are fewer (most
    // lead back to positions already searched), the bound is raised by twice the last
    // raise instead: raising it only past them would repeat the same work for many
    // iterations. Overshooting costs little, as a solution found lowers the bound.
    int next_bound(uint64_t expanded) {
        uint64_t admitted = 0;
        int highest = bound_ + 1;
        for (size_t f = 0; f < cut_.size(); ++f) {
            if (!cut_[f]) continue;
            admitted += cut_[f];
            highest = static_cast<int>(f);
            if (admitted >= expanded) {
                raise_ = static_cast<int>(f) - bound_;
                return static_cast<int>(f);
            }
        }
        raise_ = std::max(highest - bound_, 2 * raise_);
        return bound_ + raise_;
    }

    Board start_;
    const Rules& rules_;
    const Budget& budget_;
    Meter meter_;
    BoundedTable table_;
    uint16_t iteration_ = 0;
    int bound_ = 0;
    std::vector<uint64_t> cut_;
    uint64_t cuts_ = 0;
    int raise_ = 1;  // how far the bound was raised last
    std::vector<uint16_t> path_;
    std::vector<std::vector<Child>> levels_;  // the children of each depth on the path
    std::vector<uint16_t> best_;
    int best_cost_ = -1;
    double best_seconds_ = 0;
    uint64_t unexpanded_ = 0;
    int known_lower_;
    bool anytime_;
    Outcome incumbent_;  // the anytime search's best line before, when SOLVED
};

// --- anytime: a line soon, shorter ones, then the proof (search/anytime.py) ----------

// The order's weights of the anytime search, as (num, den): positions by den * g + num * h;
// the next at each shorter line, A* last (search/anytime.py's WEIGHTS).
constexpr int WEIGHTS[][2] = {{2, 1}, {3, 2}, {4, 3}, {5, 4}, {6, 5}, {8, 7}, {1, 1}};
// The first line's beams: widths FIRST_BEAM, twice that, ... up to LAST_BEAM, until one
// finds a line (search/anytime.py's BEAMS).
constexpr size_t FIRST_BEAM = 16;
constexpr size_t LAST_BEAM = 128;

// An optimal search that answers at any time. Beam searches find a first line; then one
// best-first search orders positions by g + w * h, w falling at each shorter line (its
// queue reordered, nothing searched again; the beams' line stands for the first weight's)
// to 1, A*, which goes on until the least f queued reaches the best line's cost: that
// line is optimal. A position whose g + h reaches the best line's cost is never queued,
// and one reached more cheaply is queued again whatever the order, so a queue that runs
// out proves the best line optimal (or, with none, the position unwinnable). A* that
// fills the memory goes on as IDA* from the bound it proved, the best line its upper
// limit; `ida`: IDA* proves in A*'s stead.
class Anytime {
public:
    Anytime(const Board& start, const Rules& rules, const Budget& budget, bool ida)
        : start_(start), rules_(rules), budget_(budget), meter_(budget), ida_(ida) {}

    Outcome run() {
        Outcome out;
        uint8_t order[MAX_PILES];
        canonical_order(start_, order);
        out.lower = heuristic(start_, rules_, order, true);
        if (start_.won()) {
            out.status = Status::SOLVED;
            out.lower = 0;
            return finish(out);
        }
        try {
            for (size_t width = FIRST_BEAM; width <= LAST_BEAM; width *= 2)
                if (out.status == Status::SOLVED || !beam(out, width)) break;
            if (search(out)) {
                if (out.status == Status::SOLVED) out.lower = out.cost;
                else out.status = Status::UNSOLVABLE;
            } else if (memory_full_ || ida_) {
                Outcome before = finish(out);
                Outcome more = IdaStar(start_, rules_, budget_, before, true).run();
                more.table_bytes = std::max(more.table_bytes, before.table_bytes);
                more.table_entries = std::max(more.table_entries, before.table_entries);
                return more;
            }
        } catch (const Exhausted&) {
        }
        return finish(out);
    }

private:

    Outcome& finish(Outcome& out) {
        out.nodes = meter_.nodes;
        out.seconds = meter_.elapsed();
        out.table_entries = entries_;
        out.table_bytes = bytes_;
        return out;
    }

    // A board's children in `children`, keyed, their slots fetched; returns how many.
    int expand(NodeStore& seen, const Board& board, int g, std::vector<Pending>& children) {
        Triple moves[MAX_CHILDREN];
        int n = moves_of(board, rules_, moves);
        uint8_t parent_order[MAX_PILES];
        canonical_order(board, parent_order);
        for (int m = 0; m < n; ++m) {
            Pending& c = children[m];
            c.board = board;
            c.move = encode(to_move(board, moves[m]));
            c.g = g + play(c.board, rules_, moves[m], nullptr);
            if (same_bottoms(board, c.board)) std::memcpy(c.order, parent_order, MAX_PILES);
            else canonical_order(c.board, c.order);
            c.key = pack(c.board, c.order);
            c.hash = hash_key(c.key);
            seen.prefetch_slot(c.hash);
        }
        for (int m = 0; m < n; ++m) seen.prefetch_node(children[m].hash);
        return n;
    }

    bool room_for(const NodeStore& seen, uint64_t queued, size_t n) const {
        return !budget_.memory || seen.bytes_adding(n) + queued +
                                          MAX_CHILDREN * sizeof(Pending) <= budget_.memory;
    }

    void held(const NodeStore& seen, uint64_t queued) {
        entries_ = std::max<uint64_t>(entries_, seen.size());
        bytes_ = std::max<uint64_t>(bytes_, seen.bytes() + queued + MAX_CHILDREN * sizeof(Pending));
    }

    // Whether `n` more positions would pass the budget's entries in a table: the end of
    // the search, or with `ida_` of what comes before IDA* (whose table they cap).
    bool full(const NodeStore& seen, int n) const {
        if (!budget_.table_entries || seen.size() + n <= budget_.table_entries) return false;
        if (!ida_) throw Exhausted{};
        return true;
    }

    void root(NodeStore& seen, uint32_t& id) {
        uint8_t order[MAX_PILES];
        canonical_order(start_, order);
        bool added;
        Key key = pack(start_, order);
        id = seen.find_or_add(key, hash_key(key), added);
        seen[id].parent = NO_PARENT;
        seen[id].g = 0;
    }

    // A beam search of `width` for a first line: layer by layer, the `width` positions of
    // least g + 2h (then h) go on. Whether it may go on to a wider beam: false once it found
    // a line, or its tables would pass the memory.
    bool beam(Outcome& out, size_t width) {
        struct Ranked {
            int rank, h;
            uint32_t id;
        };
        NodeStore seen;
        std::vector<Pending> children(MAX_CHILDREN);
        std::vector<Ranked> layer, next;
        uint32_t start;
        root(seen, start);
        layer.push_back({0, 0, start});
        auto queued = [&] { return (layer.capacity() + next.capacity()) * sizeof(Ranked); };
        try {
            while (!layer.empty()) {
                next.clear();
                for (const Ranked& at : layer) {
                    Node node = seen[at.id];
                    Board board = unpack(node.key, rules_.piles);
                    meter_.tick();
                    if (!room_for(seen, queued() + MAX_CHILDREN * sizeof(Ranked), MAX_CHILDREN)) {
                        held(seen, queued());
                        return false;
                    }
                    int n = expand(seen, board, node.g, children);
                    if (full(seen, n)) {
                        held(seen, queued());
                        return false;
                    }
                    for (int m = 0; m < n; ++m) {
                        Pending& c = children[m];
                        if (c.board.won()) {
                            line(out, seen, at.id, c.move, c.g);
                            held(seen, queued());
                            return false;
                        }
                        bool added;
                        uint32_t id = seen.find_or_add(c.key, c.hash, added);
                        Node& known = seen[id];
                        if (!added && known.g <= c.g) continue;
                        known.parent = at.id;
                        known.move = c.move;
                        known.g = static_cast<uint16_t>(c.g);
                        int h = heuristic(c.board, rules_, c.order, true);
                        next.push_back({c.g + 2 * h, h, id});
                    }
                }
                if (next.size() > width) {
                    std::nth_element(next.begin(), next.begin() + width, next.end(),
                                     [](const Ranked& a, const Ranked& b) {
                                         return a.rank != b.rank ? a.rank < b.rank : a.h < b.h;
                                     });
                    next.resize(width);
                }
                layer.swap(next);
            }
        } catch (const Exhausted&) {
            held(seen, queued());
            throw;
        }
        held(seen, queued());
        return true;
    }

    // The best-first search through the weights. Whether it proved: the least f queued
    // under A* reached the best line's cost, or the queue ran out. False when A*'s turn
    // came with `ida_`, or its tables would pass the memory (memory_full_).
    bool search(Outcome& out) {
        NodeStore seen;
        BucketQueue frontier;
        std::vector<Pending> children(MAX_CHILDREN);
        // the beams' line stands for the first weight's
        int phase = out.status == Status::SOLVED ? 1 : 0;
        int num = WEIGHTS[phase][0], den = WEIGHTS[phase][1];
        int best = out.status == Status::SOLVED ? out.cost : INFINITE;
        auto astar = [&] { return num == den; };
        auto next_weight = [&] {  // the queue in the next weight's order
            ++phase;
            int num2 = WEIGHTS[phase][0], den2 = WEIGHTS[phase][1];
            BucketQueue reordered;
            while (!frontier.empty()) {
                int priority, h;
                uint32_t id = frontier.pop(priority, h);
                int g = (priority - num * h) / den;
                if (seen[id].g == g && g + h < best) reordered.push(den2 * g + num2 * h, h, id);
            }
            frontier = std::move(reordered);
            num = num2;
            den = den2;
        };
        uint32_t start;
        if (!room_for(seen, frontier.bytes_adding(1), 1)) {
            memory_full_ = true;
            return false;
        }
        root(seen, start);
        uint8_t order[MAX_PILES];
        canonical_order(start_, order);
        int h0 = heuristic(start_, rules_, order, true);
        frontier.push(num * h0, h0, start);
        try {
            while (!frontier.empty()) {
                if (astar() && ida_) {
                    held(seen, frontier.bytes());
                    return false;
                }
                int priority, h;
                uint32_t id = frontier.pop(priority, h);
                if (astar()) {
                    if (priority >= best) break;  // every line through the queue is as long
                    out.lower = std::max(out.lower, priority);
                }
                Node node = seen[id];
                if (node.g < (priority - num * h) / den) continue;  // queued again since
                if (node.g + h >= best) continue;  // no shorter line through it
                Board board = unpack(node.key, rules_.piles);
                meter_.tick();
                if (!room_for(seen, frontier.bytes_adding(MAX_CHILDREN), MAX_CHILDREN)) {
                    memory_full_ = true;
                    held(seen, frontier.bytes());
                    return false;
                }
                int n = expand(seen, board, node.g, children);
                if (full(seen, n)) {
                    memory_full_ = true;
                    held(seen, frontier.bytes());
                    return false;
                }
                bool shorter = false;
                for (int m = 0; m < n; ++m) {
                    Pending& c = children[m];
                    if (c.board.won()) {
                        if (c.g < best) {
                            best = c.g;
                            line(out, seen, id, c.move, c.g);
                            shorter = true;
                        }
                        continue;
                    }
                    bool added;
                    uint32_t child_id = seen.find_or_add(c.key, c.hash, added);
                    Node& known = seen[child_id];
                    if (!added && known.g <= c.g) continue;
                    known.parent = id;
                    known.move = c.move;
                    known.g = static_cast<uint16_t>(c.g);
                    int child_h = heuristic(c.board, rules_, c.order, true);
                    if (c.g + child_h < best)
                        frontier.push(den * c.g + num * child_h, child_h, child_id);
                }
                if (shorter && !astar()) next_weight();
            }
        } catch (const Exhausted&) {
            held(seen, frontier.bytes());
            throw;
        }
        held(seen, frontier.bytes());
        return true;
    }

    // The line to `parent`'s child by `move`, of cost `cost`, as the best so far.
    void line(Outcome& out, NodeStore& seen, uint32_t parent, uint16_t move, int cost) {
        out.moves.clear();
        out.moves.push_back(move);
        for (uint32_t at = parent; seen[at].parent != NO_PARENT; at = seen[at].parent)
            out.moves.push_back(seen[at].move);
        std::reverse(out.moves.begin(), out.moves.end());
        out.status = Status::SOLVED;
        out.cost = cost;
        out.line_seconds = meter_.elapsed();
    }

    Board start_;
    const Rules& rules_;
    const Budget& budget_;
    Meter meter_;
    bool ida_;
    bool memory_full_ = false;
    uint64_t entries_ = 0;  // the largest of the searches' tables
    uint64_t bytes_ = 0;
};

// --- a verdict on disk: external-memory breadth-first search (search/external.py) ----

// A search that outgrows its memory goes on here, breadth-first by layers (a layer: the
// positions first reached in that many steps), with delayed duplicate detection: a
// layer's children gather in memory, up to what the memory budget holds, are sorted and
// written as a run; the runs are merged, and a child is kept only if no earlier layer
// holds it. Each layer's file is sorted by (cards home, key), with where each count of
// cards home starts, so a child with k cards home is looked for only among earlier
// positions with k home: a position is reached only from positions with no more cards
// home (none with worrying back, where every layer is one bucket). A child that wins
// ends the search; its line is found again backwards, layer by layer, by the parent
// each layer holds. The files live in a directory of their own under `dir`, removed
// when the search ends however it ends (no resumption); their bytes at any time are
// held within the disk budget.

constexpr int BUCKETS = CARDS + 1;

inline int bucket_of(const Key& k, const Rules& r) {
    if (r.back) return 0;
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(k.w);
    return (bytes[52] & 15) + (bytes[52] >> 4) + (bytes[53] & 15) + (bytes[53] >> 4);
}

// Keys in a bucket's order, then word by word.
struct KeyOrder {
    const Rules* rules;
    bool operator()(const Key& a, const Key& b) const {
        int ba = bucket_of(a, *rules), bb = bucket_of(b, *rules);
        if (ba != bb) return ba < bb;
        for (int i = 0; i < KEY_WORDS; ++i)
            if (a.w[i] != b.w[i]) return a.w[i] < b.w[i];
        return false;
    }
};

// The search's directory and what its files hold, within the disk budget.
class Spill {
public:
    Spill(const std::string& parent, uint64_t budget) : budget_(budget) {
        std::string pattern = parent + "/fortress-disk-XXXXXX";
        std::vector<char> name(pattern.begin(), pattern.end());
        name.push_back('\0');
        if (!mkdtemp(name.data()))
            throw std::runtime_error("cannot make a directory in " + parent + ": " +
                                     std::strerror(errno));
        path_ = name.data();
    }
    ~Spill() {
        for (const std::string& file : files_) std::remove(file.c_str());
        rmdir(path_.c_str());
    }
    Spill(const Spill&) = delete;
    Spill& operator=(const Spill&) = delete;

    std::string name(const std::string& stem) {
        files_.push_back(path_ + "/" + stem);
        return files_.back();
    }
    void grow(uint64_t bytes) {
        used_ += bytes;
        peak_ = std::max(peak_, used_);
        if (budget_ && used_ > budget_) throw Exhausted{false, false, true};
    }
    void drop(const std::string& file, uint64_t bytes) {
        std::remove(file.c_str());
        used_ -= bytes;
    }
    uint64_t peak() const { return peak_; }

private:
    std::string path_;
    std::vector<std::string> files_;
    uint64_t budget_, used_ = 0, peak_ = 0;
};

// Keys read one at a time from a file, from a record on.
class KeyReader {
public:
    KeyReader(const std::string& file, uint64_t from, uint64_t to) : left_(to - from) {
        f_ = std::fopen(file.c_str(), "rb");
        if (!f_) throw std::runtime_error("cannot read " + file);
        std::setvbuf(f_, nullptr, _IOFBF, 1 << 16);
        std::fseek(f_, static_cast<long>(from * sizeof(Key)), SEEK_SET);
        advance();
    }
    ~KeyReader() { std::fclose(f_); }
    KeyReader(const KeyReader&) = delete;
    KeyReader& operator=(const KeyReader&) = delete;

    bool done = false;
    Key key{};
    void advance() {
        if (!left_ || std::fread(&key, sizeof key, 1, f_) != 1) {
            done = true;
            return;
        }
        --left_;
    }

private:
    std::FILE* f_;
    uint64_t left_;
};

// A layer's file: its keys sorted, and where each bucket's keys start.
struct Layer {
    std::string file;
    uint64_t starts[BUCKETS + 1] = {};  // bucket b is records starts[b] .. starts[b + 1]
    uint64_t size() const { return starts[BUCKETS]; }
};

class DiskSearch {
public:
    DiskSearch(const Board& start, const Rules& rules, const Budget& budget,
               const std::string& dir, uint64_t disk_budget, const Outcome& before)
        : start_(start), rules_(rules), budget_(budget), meter_(budget, before.seconds, before.nodes),
          spill_(dir, disk_budget), order_{&rules} {
        uint64_t memory = budget.memory ? budget.memory : uint64_t{64} << 20;
        capacity_ = std::max<uint64_t>(64, memory / (2 * sizeof(Key)));
        out_.lower = before.lower;
    }

    Outcome run() {
        try {
            if (start_.won()) return finish(Status::SOLVED);
            uint8_t order[MAX_PILES];
            canonical_order(start_, order);
            std::vector<Key> first{pack(start_, order)};
            layers_.push_back(write_layer(first.data(), first.size()));
            for (;;) {
                Key parent;
                uint16_t move;
                if (expand(layers_.back(), parent, move)) {
                    out_.moves.push_back(move);
                    recover(parent);
                    out_.line_seconds = meter_.elapsed();
                    return finish(Status::SOLVED);
                }
                Layer next = merge_runs();
                if (!next.size()) return finish(Status::UNSOLVABLE);
                layers_.push_back(next);
            }
        } catch (const Exhausted& exhausted) {
            out_.memory_full = exhausted.memory;
            out_.disk_full = exhausted.disk;
            return finish(Status::UNKNOWN);
        }
    }

private:
    const Board start_;
    const Rules& rules_;
    const Budget& budget_;
    Meter meter_;
    Spill spill_;
    KeyOrder order_;
    uint64_t capacity_;
    Outcome out_;
    std::vector<Layer> layers_;
    std::vector<Key> buffer_;
    std::vector<std::pair<std::string, uint64_t>> runs_;  // file, records
    uint64_t stored_ = 0;
    int names_ = 0;

    Outcome finish(Status status) {
        out_.status = status;
        out_.nodes = meter_.nodes;
        out_.seconds = meter_.elapsed();
        out_.table_entries = stored_;
        out_.table_bytes = capacity_ * sizeof(Key);
        out_.disk_bytes = spill_.peak();
        return out_;
    }

    struct Closer {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    using File = std::unique_ptr<std::FILE, Closer>;

    static File create(const std::string& file) {
        std::FILE* f = std::fopen(file.c_str(), "wb");
        if (!f) throw std::runtime_error("cannot write " + file + ": " + std::strerror(errno));
        return File(f);
    }

    void write_keys(std::FILE* f, const Key* keys, uint64_t n) {
        if (!n) return;  // an empty vector's data may be null
        spill_.grow(n * sizeof(Key));
        if (std::fwrite(keys, sizeof(Key), n, f) != n)
            throw std::runtime_error("cannot write to the disk search's files");
    }

    // The layer of `n` keys sorted and distinct, written as they are.
    Layer write_layer(const Key* keys, uint64_t n) {
        Layer layer;
        layer.file = spill_.name("layer-" + std::to_string(names_++));
        File f = create(layer.file);
        write_keys(f.get(), keys, n);
        f.reset();
        for (uint64_t i = 0; i < n; ++i) ++layer.starts[bucket_of(keys[i], rules_) + 1];
        for (int b = 0; b < BUCKETS; ++b) layer.starts[b + 1] += layer.starts[b];
        stored_ += n;
        return layer;
    }

    // The buffer sorted, its duplicates dropped, written as a run.
    void flush() {
        std::sort(buffer_.begin(), buffer_.end(), order_);
        buffer_.erase(std::unique(buffer_.begin(), buffer_.end()), buffer_.end());
        std::string file = spill_.name("run-" + std::to_string(names_++));
        File f = create(file);
        write_keys(f.get(), buffer_.data(), buffer_.size());
        f.reset();
        runs_.emplace_back(file, buffer_.size());
        buffer_.clear();
    }

    // Every position of `layer` expanded, its children into runs; true when a child
    // wins, with the position it came from and the move.
    bool expand(const Layer& layer, Key& parent, uint16_t& move) {
        Triple moves[MAX_CHILDREN];
        uint8_t order[MAX_PILES];
        buffer_.reserve(capacity_);
        for (KeyReader in(layer.file, 0, layer.size()); !in.done; in.advance()) {
            meter_.tick();
            Board board = unpack(in.key, rules_.piles);
            int n = moves_of(board, rules_, moves);
            for (int m = 0; m < n; ++m) {
                Board child = board;
                play(child, rules_, moves[m], nullptr);
                if (child.won()) {
                    parent = in.key;
                    move = encode(to_move(board, moves[m]));
                    return true;
                }
                canonical_order(child, order);
                buffer_.push_back(pack(child, order));
                if (buffer_.size() >= capacity_) flush();
            }
        }
        if (!buffer_.empty()) flush();
        return false;
    }

    // The runs merged into the next layer, less what any earlier layer holds.
    Layer merge_runs() {
        std::vector<std::unique_ptr<KeyReader>> runs;
        for (const auto& [file, n] : runs_) runs.push_back(std::make_unique<KeyReader>(file, 0, n));
        auto later = [this](KeyReader* a, KeyReader* b) { return order_(b->key, a->key); };
        std::vector<KeyReader*> heap;
        for (auto& r : runs)
            if (!r->done) heap.push_back(r.get());
        std::make_heap(heap.begin(), heap.end(), later);
        Layer layer;
        layer.file = spill_.name("layer-" + std::to_string(names_++));
        File f = create(layer.file);
        std::vector<Key> block;
        std::vector<std::unique_ptr<KeyReader>> earlier;  // the earlier layers' bucket
        int bucket = -1;
        Key last{};
        bool any = false;
        uint64_t written = 0;
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end(), later);
            KeyReader* top = heap.back();
            Key key = top->key;
            top->advance();
            if (top->done) heap.pop_back();
            else std::push_heap(heap.begin(), heap.end(), later);
            if (any && key == last) continue;
            any = true;
            last = key;
            if (!(++written & 1023)) meter_.check();
            int b = bucket_of(key, rules_);
            if (b != bucket) {
                bucket = b;
                earlier.clear();
                for (const Layer& l : layers_)
                    if (l.starts[b + 1] > l.starts[b])
                        earlier.push_back(std::make_unique<KeyReader>(l.file, l.starts[b], l.starts[b + 1]));
            }
            bool seen = false;
            for (auto& e : earlier) {
                while (!e->done && order_(e->key, key)) e->advance();
                seen = seen || (!e->done && e->key == key);
            }
            if (seen) continue;
            ++layer.starts[b + 1];
            block.push_back(key);
            if (block.size() >= 4096) {
                write_keys(f.get(), block.data(), block.size());
                block.clear();
            }
        }
        write_keys(f.get(), block.data(), block.size());
        f.reset();
        earlier.clear();
        runs.clear();
        for (const auto& [file, n] : runs_) spill_.drop(file, n * sizeof(Key));
        runs_.clear();
        for (int b = 0; b < BUCKETS; ++b) layer.starts[b + 1] += layer.starts[b];
        stored_ += layer.size();
        return layer;
    }

    // The line to `parent`, found backwards: in each earlier layer, the position with a
    // move to the one after it.
    void recover(Key parent) {
        Triple moves[MAX_CHILDREN];
        uint8_t order[MAX_PILES];
        uint64_t looked = 0;
        for (size_t depth = layers_.size() - 1; depth-- > 0;) {
            const Layer& layer = layers_[depth];
            bool found = false;
            for (KeyReader in(layer.file, 0, layer.size()); !in.done && !found; in.advance()) {
                if (!(++looked & 1023)) meter_.check();
                Board board = unpack(in.key, rules_.piles);
                int n = moves_of(board, rules_, moves);
                for (int m = 0; m < n && !found; ++m) {
                    Board child = board;
                    play(child, rules_, moves[m], nullptr);
                    canonical_order(child, order);
                    if (pack(child, order) == parent) {
                        out_.moves.push_back(encode(to_move(board, moves[m])));
                        parent = in.key;
                        found = true;
                    }
                }
            }
            if (!found) throw std::logic_error("a disk layer's position has no parent");
        }
        std::reverse(out_.moves.begin(), out_.moves.end());
    }
};

// --- the searches, as `solve` runs them ----------------------------------------------

// Sends home what can go at once from a start (the opening every search begins after),
// recording it; returns how many cards went.
int opening(Board& start, const Rules& rules, std::vector<Played>* played) {
    int free[MAX_PILES + 2 * CARDS], n_free = 0;
    for (int i = 0; i < rules.piles; ++i)
        if (start.length(i)) free[n_free++] = start.top(i);
    for (uint64_t c = start.reserve | start.cells; c; c &= c - 1) free[n_free++] = __builtin_ctzll(c);
    return settle(start, rules, free, n_free, played);
}

void check_kind(const std::string& kind) {
    if (kind != "greedy" && kind != "astar" && kind != "idastar" && kind != "verdict" &&
        kind != "anytime" && kind != "anytime_idastar")
        throw py::value_error("kind is greedy, astar, idastar, verdict, anytime or "
                              "anytime_idastar");
}

// The search of `kind` from `start` (settled): run without the GIL.
Outcome search(const Board& start, const Rules& rules, const std::string& kind,
               const Budget& budget) {
    if (kind == "idastar") return IdaStar(start, rules, budget).run();
    if (kind == "verdict") return flares(start, rules, budget);
    if (kind == "anytime" || kind == "anytime_idastar")
        return Anytime(start, rules, budget, kind == "anytime_idastar").run();
    Outcome out = best_first(start, rules, kind == "astar", kind == "astar", budget);
    if (kind == "astar" && out.memory_full) {  // A*'s tables are given back by now
        Outcome more = IdaStar(start, rules, budget, out).run();
        more.table_bytes = std::max(more.table_bytes, out.table_bytes);
        more.table_entries = std::max(more.table_entries, out.table_entries);
        return more;
    }
    return out;
}

// --- numbered deals (deals.py) -------------------------------------------------------

constexpr int MAX_RESERVE = 12;
constexpr int MAX_CELLS = 8;

// Python's random.Random(n) for an integer n >= 0 (Modules/_randommodule.c): MT19937
// seeded by init_by_array with n's 32-bit words, low word first, and random() of 53 bits.
class Twister {
public:
    explicit Twister(uint64_t n) {
        uint32_t key[2] = {static_cast<uint32_t>(n), static_cast<uint32_t>(n >> 32)};
        int words = n >> 32 ? 2 : 1;
        mt_[0] = 19650218U;
        for (int i = 1; i < N; ++i)
            mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<uint32_t>(i);
        int i = 1, j = 0;
        for (int k = N; k; --k) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] +
                     static_cast<uint32_t>(j);
            ++i, ++j;
            if (i >= N) mt_[0] = mt_[N - 1], i = 1;
            if (j >= words) j = 0;
        }
        for (int k = N - 1; k; --k) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) -
                     static_cast<uint32_t>(i);
            if (++i >= N) mt_[0] = mt_[N - 1], i = 1;
        }
        mt_[0] = 0x80000000U;
    }

    double random() {
        uint32_t a = next() >> 5, b = next() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

private:
    static constexpr int N = 624, M = 397;
    uint32_t mt_[N];
    int index_ = N;

    uint32_t next() {
        if (index_ >= N) {
            for (int k = 0; k < N; ++k) {
                uint32_t y = (mt_[k] & 0x80000000U) | (mt_[(k + 1) % N] & 0x7fffffffU);
                mt_[k] = mt_[(k + M) % N] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfU : 0U);
            }
            index_ = 0;
        }
        uint32_t y = mt_[index_++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        return y ^ (y >> 18);
    }
};

// Where a variant deals its cards (deals.layout): for each card of the shuffled deck in
// dealing order (the aces left out first when `aces_first`), the pile, reserve slot or
// free cell it goes to; a card dealt to a pile that fits its foundation goes home under
// `citadel`; deals from `twister_from` on (0: none) are shuffled by PySolFC's Twister.
struct Layout {
    std::vector<int> to;  // a pile 0..P-1, P + a reserve slot, P + R + a cell
    int reserve = 0;
    bool aces_first = false;
    bool citadel = false;
    uint64_t twister_from = 0;
};

// The 52 cards in dealing order (deals.shuffled_deck).
void shuffled_deck(uint64_t number, const Layout& layout, uint8_t out[CARDS]) {
    if (layout.twister_from && number >= layout.twister_from) {
        // PySolFC's deck, suits C S H D, each ace to king, shuffled from its end, read back
        static const int SUITS[4] = {0, 3, 2, 1};
        uint8_t cards[CARDS];
        for (int s = 0; s < 4; ++s)
            for (int rank = 0; rank < 13; ++rank) cards[s * 13 + rank] = static_cast<uint8_t>(rank * 4 + SUITS[s]);
        Twister draw(number);
        for (int n = CARDS - 1; n > 0; --n)
            std::swap(cards[n], cards[static_cast<int>(draw.random() * (n + 1))]);
        for (int k = 0; k < CARDS; ++k) out[k] = cards[CARDS - 1 - k];
        return;
    }
    if (number >> 31) throw py::value_error("the FreeCell shuffle deals numbers below 2**31");
    uint8_t deck[CARDS];
    for (int c = 0; c < CARDS; ++c) deck[c] = static_cast<uint8_t>(c);
    uint64_t seed = number;
    for (int left = CARDS; left; --left) {
        seed = (seed * 214013 + 2531011) & 0x7FFFFFFF;
        std::swap(deck[(seed >> 16) % left], deck[left - 1]);
        out[CARDS - left] = deck[left - 1];
    }
}

// Deal `number` laid out (deals.deal): the board, and which card each reserve slot and
// cell holds (-1: none).
Board deal_board(uint64_t number, const Layout& layout, const Rules& rules,
                 int reserve_slots[MAX_RESERVE], int cell_slots[MAX_CELLS]) {
    uint8_t deck[CARDS], piles[MAX_PILES][CARDS];
    int lengths[MAX_PILES] = {};
    shuffled_deck(number, layout, deck);
    Board b{};
    b.piles = static_cast<uint8_t>(rules.piles);
    for (int k = 0; k < MAX_RESERVE; ++k) reserve_slots[k] = -1;
    for (int k = 0; k < MAX_CELLS; ++k) cell_slots[k] = -1;
    if (layout.aces_first) b.home[0] = b.home[1] = b.home[2] = b.home[3] = 1;
    int dealt = 0;
    for (int k = 0; k < CARDS; ++k) {
        int card = deck[k];
        if (layout.aces_first && rank_index(card) == 0) continue;  // home already
        int to = layout.to[dealt++];
        if (to < rules.piles) {
            if (layout.citadel && b.home[suit_of(card)] == rank_index(card)) ++b.home[suit_of(card)];
            else piles[to][lengths[to]++] = static_cast<uint8_t>(card);
        } else if (to < rules.piles + layout.reserve) {
            reserve_slots[to - rules.piles] = card;
            b.reserve |= bit(card);
        } else {
            cell_slots[to - rules.piles - layout.reserve] = card;
            b.cells |= bit(card);
        }
    }
    int at = 0;
    for (int i = 0; i < rules.piles; ++i) {
        b.start[i] = static_cast<uint8_t>(at);
        std::memcpy(b.cards + at, piles[i], lengths[i]);
        at += lengths[i];
    }
    b.start[rules.piles] = static_cast<uint8_t>(at);
    return b;
}

// --- a line replayed (rules.py, sequences.py) ----------------------------------------

// Whether `card` may go onto `top` by the build rule itself (rules.builds_on), not by
// the tables the moves are made from.
bool plain_builds_on(int build, int card, int top) {
    int rank = rank_index(card), below = rank_index(top);
    bool same = suit_of(card) == suit_of(top);
    if (build == SAME_SUIT_UP_OR_DOWN) return same && (rank == below + 1 || rank + 1 == below);
    if (below != rank + 1) return false;
    if (build == SAME_SUIT_DOWN) return same;
    if (build == ALTERNATE_DOWN) {
        auto red = [](int c) { return suit_of(c) == 1 || suit_of(c) == 2; };
        return red(card) != red(top);
    }
    return true;
}

// Fewest single-card moves that carry `count` cards with `cells` empty cells and `empty`
// empty piles (sequences.supermove).
int supermove(int count, int cells, int empty) {
    if (count <= cells + 1) return 2 * count - 1;
    int half = (cells + 1) << (empty - 1), best = 1 << 30;
    for (int top = std::max(1, count - half); top <= std::min(half, count - 1); ++top)
        best = std::min(best, 2 * supermove(top, cells, empty - 1) +
                                  supermove(count - top, cells, empty - 1));
    return best;
}

// The line `played` from `start` replayed by the plain rules (rules.apply: a free card or
// a built run within what the empty cells and piles carry, onto what takes it), and its
// length written out in single cards; -1 when a move breaks the rules or the line does
// not win. The check every solution passes before it is handed out, as solve.py replays
// one through rules.py.
int single_card_length(Board b, const Rules& rules, const std::vector<Played>& played) {
    int written = 0;
    for (const Played& m : played) {
        int card = m.card, run = 1;
        if (card < 0 || card >= CARDS) return -1;
        int free_cells = rules.cells - __builtin_popcountll(b.cells), empty = 0;
        for (int i = 0; i < b.piles; ++i) empty += !b.length(i);
        if (m.source >= 0) {
            if (m.source >= b.piles) return -1;
            int at = b.start[m.source], end = b.start[m.source + 1];
            while (at < end && b.cards[at] != card) ++at;
            if (at == end) return -1;
            run = end - at;
            for (int k = at + 1; k < end; ++k)
                if (!plain_builds_on(rules.build, b.cards[k], b.cards[k - 1])) return -1;
            if (run > 1 && (!rules.sequences || m.target < 0)) return -1;
        } else if (m.source == RESERVE_SOURCE || m.source == CELL_SOURCE) {
            if (!((m.source == RESERVE_SOURCE ? b.reserve : b.cells) >> card & 1)) return -1;
        } else if (m.source != FOUNDATION_SOURCE || !rules.worrying_back ||
                   b.home[suit_of(card)] != rank_index(card) + 1 || m.target < 0) {
            return -1;
        }
        if (m.target == HOME_TARGET) {
            if (m.source == FOUNDATION_SOURCE || b.home[suit_of(card)] != rank_index(card)) return -1;
        } else if (m.target == CELL_TARGET) {
            if (m.source == CELL_SOURCE || free_cells < 1) return -1;
        } else {
            if (m.target < 0 || m.target >= b.piles || m.target == m.source) return -1;
            bool to_empty = !b.length(m.target);
            if (to_empty ? !rules.fills(card) : !plain_builds_on(rules.build, card, b.top(m.target)))
                return -1;
            int piles_free = rules.fill == FILL_ANY ? empty - to_empty : 0;
            if (run > (free_cells + 1) << piles_free) return -1;
            written += run > 1 ? supermove(run, free_cells, piles_free) - 1 : 0;
        }
        ++written;
        if (run > 1) {
            uint8_t cards[CARDS];
            std::memcpy(cards, b.cards + b.start[m.source + 1] - run, run);
            for (int k = 0; k < run; ++k) b.pop(m.source);
            for (int k = 0; k < run; ++k) b.push(m.target, cards[k]);
            continue;
        }
        take(b, card, m.source);
        if (m.target == HOME_TARGET) ++b.home[suit_of(card)];
        else if (m.target == CELL_TARGET) b.cells |= bit(card);
        else b.push(m.target, card);
    }
    return b.won() ? written : -1;
}

// --- the Python interface ------------------------------------------------------------

using Piles = std::vector<std::vector<int>>;
using Home = std::array<int, 4>;
// A variant's play by field name, its build and empty piles in the rules file's words, as
// native.rules_of gives it: {"piles": 8, "cells": 0, "build": "same-suit-up-or-down",
// "empty": "any", "worrying_back": true, "sequence_moves": false}.
Rules read_rules(const py::dict& given) {
    static const char* const FIELDS[] = {"piles", "cells", "build", "empty", "worrying_back",
                                         "sequence_moves"};
    static const char* const BUILDS[] = {"same-suit-up-or-down", "same-suit-down",
                                         "any-suit-down", "alternate-colours-down"};
    static const char* const FILLS[] = {"any", "kings", "none"};
    for (const char* field : FIELDS)
        if (!given.contains(field)) throw py::value_error(std::string("rules lack ") + field);
    if (py::len(given) != std::size(FIELDS))
        throw py::value_error("rules are piles, cells, build, empty, worrying_back and "
                              "sequence_moves");
    auto word = [&](const char* field, const char* const* words, int n) {
        std::string value = given[field].cast<std::string>();
        for (int i = 0; i < n; ++i)
            if (value == words[i]) return i;
        throw py::value_error(std::string("rules: no ") + field + " " + value);
    };
    return Rules(given["piles"].cast<int>(), given["cells"].cast<int>(),
                 word("build", BUILDS, 4), word("empty", FILLS, 3),
                 given["worrying_back"].cast<bool>(), given["sequence_moves"].cast<bool>());
}

Board read_board(const Piles& piles, uint64_t reserve, uint64_t cells, const Home& home,
                 const Rules& rules) {
    if (static_cast<int>(piles.size()) != rules.piles)
        throw py::value_error("a position has as many piles as its rules");
    Board b{};
    b.piles = static_cast<uint8_t>(rules.piles);
    uint64_t seen = 0;
    auto claim = [&](int card) {
        if (card < 0 || card >= CARDS) throw py::value_error("a card is a number 0..51");
        if (seen >> card & 1) throw py::value_error("a card appears twice");
        seen |= uint64_t{1} << card;
    };
    int at = 0;
    for (int i = 0; i < rules.piles; ++i) {
        b.start[i] = static_cast<uint8_t>(at);
        for (int card : piles[i]) {
            claim(card);
            b.cards[at++] = static_cast<uint8_t>(card);
        }
    }
    b.start[rules.piles] = static_cast<uint8_t>(at);
    if ((reserve | cells) & ~ALL_CARDS) throw py::value_error("cards are 0..51");
    for (uint64_t r = reserve; r; r &= r - 1) claim(__builtin_ctzll(r));
    for (uint64_t c = cells; c; c &= c - 1) claim(__builtin_ctzll(c));
    if (__builtin_popcountll(cells) > rules.cells) throw py::value_error("too many cell cards");
    b.reserve = reserve;
    b.cells = cells;
    for (int s = 0; s < 4; ++s) {
        if (home[s] < 0 || home[s] > 13) throw py::value_error("a foundation holds 0..13 cards");
        b.home[s] = static_cast<uint8_t>(home[s]);
        for (int r = 0; r < home[s]; ++r) claim(r * 4 + s);
    }
    if (seen != ALL_CARDS) throw py::value_error("a position holds all 52 cards once");
    return b;
}

py::tuple state_of(const Board& b) {  // (piles in canonical order, reserve, cells, home)
    uint8_t order[MAX_PILES];
    canonical_order(b, order);
    py::list piles;
    for (int i = 0; i < b.piles; ++i) {
        py::list pile;
        for (int at = b.start[order[i]]; at < b.start[order[i] + 1]; ++at) pile.append(b.cards[at]);
        piles.append(py::tuple(pile));
    }
    return py::make_tuple(py::tuple(piles), b.reserve, b.cells,
                          py::make_tuple(b.home[0], b.home[1], b.home[2], b.home[3]));
}

// A step as problem.py writes it: (card, onto) per move.
py::tuple step_tuple(const std::vector<Played>& moves) {
    py::tuple step(moves.size());
    for (size_t i = 0; i < moves.size(); ++i) step[i] = py::make_tuple(moves[i].card, moves[i].onto);
    return step;
}

// A slot list's cards as a mask, each recorded with its slot; -1 is an empty slot.
uint64_t slot_mask(const std::vector<int>& slots, int most, int slot_of[CARDS]) {
    if (static_cast<int>(slots.size()) > most) throw py::value_error("too many slots");
    uint64_t mask = 0;
    for (size_t slot = 0; slot < slots.size(); ++slot) {
        int card = slots[slot];
        if (card == -1) continue;
        if (card < 0 || card >= CARDS) throw py::value_error("a card is a number 0..51");
        if (mask >> card & 1) throw py::value_error("a card appears twice");
        mask |= bit(card);
        slot_of[card] = static_cast<int>(slot);
    }
    return mask;
}

// Searches a position (reserve and cells given slot by slot, -1 for an empty slot) after
// sending home what can go at once; returns (status, moves, nodes, table entries,
// seconds, table bytes, lower bound, seconds into the search when the line was found),
// the moves as (card, source, target): source a pile 0..P-1, P + a reserve slot, -2 a
// cell, -3 the foundation; target a pile, -1 home, -2 a cell. The lower bound counts the
// opening's moves home; it is the length when optimal (an anytime search's line longer
// than it is not proven optimal). With `disk`, a directory, a search its memory stops
// goes on there as DiskSearch (its files at their largest the tuple's last element,
// within `disk_budget` bytes, 0 for no limit); its line, if it finds one, is not a
// shortest one.
py::tuple solve(const Piles& piles, const std::vector<int>& reserve_slots,
                const std::vector<int>& cell_slots, const Home& home, const py::dict& given,
                const std::string& kind, double seconds, uint64_t nodes, uint64_t table_entries,
                uint64_t memory, py::object stop, const std::string& disk,
                uint64_t disk_budget) {
    Rules rules = read_rules(given);
    int slot_of[CARDS];
    uint64_t reserve = slot_mask(reserve_slots, 12, slot_of);
    uint64_t cells = slot_mask(cell_slots, rules.cells, slot_of);
    Board start = read_board(piles, reserve, cells, home, rules);
    check_kind(kind);
    std::vector<Played> played;
    int settled = opening(start, rules, &played);
    Budget budget{seconds, nodes, table_entries, memory, std::move(stop)};
    Outcome out;
    {
        py::gil_scoped_release release;
        out = search(start, rules, kind, budget);
        if (out.status == Status::UNKNOWN && out.memory_full && !disk.empty()) {
            Outcome more = DiskSearch(start, rules, budget, disk, disk_budget, out).run();
            more.table_bytes = std::max(more.table_bytes, out.table_bytes);
            out = more;
        }
        Board board = start;
        for (uint16_t code : out.moves) play(board, rules, locate(board, decode(code)), &played);
    }
    py::list moves;
    if (out.status == Status::SOLVED) {
        for (const Played& m : played) {
            int source = m.source == RESERVE_SOURCE ? rules.piles + slot_of[m.card]
                         : m.source == CELL_SOURCE ? -2
                         : m.source == FOUNDATION_SOURCE ? -3 : m.source;
            int target = m.target == CELL_TARGET ? -2 : m.target;
            moves.append(py::make_tuple(m.card, source, target));
        }
    }
    return py::make_tuple(static_cast<int>(out.status), moves, out.nodes, out.table_entries,
                          out.seconds, out.table_bytes, settled + out.lower,
                          out.line_seconds, out.disk_bytes);
}

// A variant's layout as deals.layout gives it: {"to": [...], "reserve": R, "aces_first":
// bool, "citadel": bool, "twister_from": N}, checked against its rules.
Layout read_layout(const py::dict& given, const Rules& rules) {
    static const char* const FIELDS[] = {"to", "reserve", "aces_first", "citadel", "twister_from"};
    for (const char* field : FIELDS)
        if (!given.contains(field)) throw py::value_error(std::string("a layout lacks ") + field);
    Layout layout;
    layout.to = given["to"].cast<std::vector<int>>();
    layout.reserve = given["reserve"].cast<int>();
    layout.aces_first = given["aces_first"].cast<bool>();
    layout.citadel = given["citadel"].cast<bool>();
    layout.twister_from = given["twister_from"].cast<uint64_t>();
    if (layout.reserve < 0 || layout.reserve > MAX_RESERVE)
        throw py::value_error("a layout has 0..12 reserve slots");
    if (static_cast<int>(layout.to.size()) != CARDS - (layout.aces_first ? 4 : 0))
        throw py::value_error("a layout places every card dealt");
    int places = rules.piles + layout.reserve + rules.cells, once[MAX_PILES + MAX_RESERVE + MAX_CELLS] = {};
    for (int to : layout.to) {
        if (to < 0 || to >= places) throw py::value_error("a layout places a card nowhere");
        if (to >= rules.piles && once[to]++) throw py::value_error("a layout fills a slot twice");
    }
    return layout;
}

// Deal `number` as the kernel deals it: (piles, reserve slots, cells, home), a slot -1
// when empty; for the tests, which hold it to deals.deal.
py::tuple deal(uint64_t number, const py::dict& given_layout, const py::dict& given) {
    Rules rules = read_rules(given);
    Layout layout = read_layout(given_layout, rules);
    int reserve_slots[MAX_RESERVE], cell_slots[MAX_CELLS];
    Board b = deal_board(number, layout, rules, reserve_slots, cell_slots);
    py::list piles;
    for (int i = 0; i < b.piles; ++i) {
        py::list pile;
        for (int at = b.start[i]; at < b.start[i + 1]; ++at) pile.append(b.cards[at]);
        piles.append(pile);
    }
    std::vector<int> reserve(reserve_slots, reserve_slots + layout.reserve);
    std::vector<int> cells(cell_slots, cell_slots + rules.cells);
    return py::make_tuple(piles, reserve, cells,
                          py::make_tuple(b.home[0], b.home[1], b.home[2], b.home[3]));
}

// Deals and solves each of `numbers` in turn as `solve` solves a position, the budget
// each deal's own: the opening home, the search of `kind`, then its line replayed by the
// plain rules and written out in single cards (a line that breaks them is a logic_error).
// One record a deal, in order: (status, moves, single-card moves, nodes, seconds, table
// entries, table bytes, lower bound), the moves 0 unless solved. With `slice` > 0 it
// comes back once that many seconds have passed since it began, or once its first deal
// is decided if that takes longer: it starts no deal then, and gives up a deal (other
// than the first) still searching, so that its caller hears of each deal decided within
// about `slice` seconds. The deals after the last record are left for another call.
py::list solve_deals(const std::vector<uint64_t>& numbers, const py::dict& given_layout,
                     const py::dict& given, const std::string& kind, double seconds,
                     uint64_t nodes, uint64_t table_entries, uint64_t memory, py::object stop,
                     double slice) {
    Rules rules = read_rules(given);
    Layout layout = read_layout(given_layout, rules);
    check_kind(kind);
    for (uint64_t number : numbers) {
        if (!number) throw py::value_error("deal numbers start at 1");
        if (number >> 31 && !(layout.twister_from && number >= layout.twister_from))
            throw py::value_error("the FreeCell shuffle deals numbers below 2**31");
    }
    Budget budget{seconds, nodes, table_entries, memory, std::move(stop)};
    struct Record {
        Outcome out;
        int moves, cards;
    };
    std::vector<Record> records;
    {
        py::gil_scoped_release release;
        auto started = Clock::now(), signals_checked = started;
        auto ends = started + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(slice));
        for (uint64_t number : numbers) {
            auto now = Clock::now();
            if (slice > 0 && !records.empty()) {
                if (now >= ends) break;
                budget.abandon = ends;  // the first deal is never given up
            }
            if (now - signals_checked >= std::chrono::milliseconds(10)) {  // Ctrl-C, between
                signals_checked = now;                                      // short searches
                py::gil_scoped_acquire gil;
                if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            }
            int reserve_slots[MAX_RESERVE], cell_slots[MAX_CELLS];
            const Board dealt = deal_board(number, layout, rules, reserve_slots, cell_slots);
            Board start = dealt;
            std::vector<Played> played;
            int home = opening(start, rules, &played);
            Record record{{}, 0, 0};
            try {
                record.out = search(start, rules, kind, budget);
            } catch (const Abandoned&) {
                break;
            }
            record.out.lower += home;
            if (record.out.status == Status::SOLVED) {
                Board board = start;
                for (uint16_t code : record.out.moves)
                    play(board, rules, locate(board, decode(code)), &played);
                record.moves = static_cast<int>(played.size());
                record.cards = single_card_length(dealt, rules, played);
                if (record.cards < 0)
                    throw std::logic_error("the search's line of deal " + std::to_string(number) +
                                           " does not win by the rules");
            }
            record.out.moves = {};
            records.push_back(std::move(record));
        }
    }
    py::list out;
    for (const Record& r : records)
        out.append(py::make_tuple(static_cast<int>(r.out.status), r.moves, r.cards, r.out.nodes,
                                  r.out.seconds, r.out.table_entries, r.out.table_bytes,
                                  r.out.lower));
    return out;
}

py::dict beleaguered_fortress() {
    py::dict rules;
    rules["piles"] = 8;
    rules["cells"] = 0;
    rules["build"] = "same-suit-up-or-down";
    rules["empty"] = "any";
    rules["worrying_back"] = true;
    rules["sequence_moves"] = false;
    return rules;
}

py::list successors(const Piles& piles, uint64_t reserve, const Home& home, uint64_t cells,
                    const py::dict& given) {
    Rules rules = read_rules(given);
    Board board = read_board(piles, reserve, cells, home, rules);
    Triple moves[MAX_CHILDREN];
    int n = moves_of(board, rules, moves);
    py::list out;
    for (int m = 0; m < n; ++m) {
        Board child = board;
        std::vector<Played> record;
        int cost = play(child, rules, moves[m], &record);
        out.append(py::make_tuple(step_tuple(record), state_of(child), cost));
    }
    return out;
}

int bound(const Piles& piles, uint64_t reserve, const Home& home, bool thorough, uint64_t cells,
          const py::dict& given) {
    Rules rules = read_rules(given);
    Board board = read_board(piles, reserve, cells, home, rules);
    uint8_t order[MAX_PILES];
    canonical_order(board, order);
    return heuristic(board, rules, order, thorough);
}

}  // namespace

PYBIND11_MODULE(_kernel, m) {
    m.doc() = "The compiled search of Beleaguered Fortress's family; solver/beleaguered/native.py "
              "wraps it.";
    m.def("solve", &solve, py::arg("piles"), py::arg("reserve"), py::arg("cells"), py::arg("home"),
          py::arg("rules"), py::arg("kind"), py::arg("seconds"), py::arg("nodes"),
          py::arg("table_entries"), py::arg("memory"), py::arg("stop"), py::arg("disk") = "",
          py::arg("disk_budget") = 0,
          "Solve a position: (status, moves, nodes, table entries, seconds, table bytes, lower "
          "bound, seconds to the line, disk bytes); with disk (a directory) a search that "
          "fills its memory goes on there, breadth-first by layers, within disk_budget "
          "bytes; status 0 solved, 1 unsolvable, 2 unknown; a budget of 0 "
          "means no limit; memory in bytes; kind greedy, astar, idastar, anytime or "
          "anytime_idastar (solved with a line longer than the lower bound: not proven optimal). "
          "rules by name: piles, cells, build, empty, worrying_back, sequence_moves.");
    m.def("successors", &successors, py::arg("piles"), py::arg("reserve"), py::arg("home"),
          py::arg("cells") = 0, py::arg("rules") = beleaguered_fortress(),
          "Every (step, (piles by bottom card, reserve, cells, home), cost) the search expands to.");
    m.def("bound", &bound, py::arg("piles"), py::arg("reserve"), py::arg("home"),
          py::arg("thorough"), py::arg("cells") = 0, py::arg("rules") = beleaguered_fortress(),
          "The lower bound on the moves left, as heuristic.py gives it.");
    m.def("deal", &deal, py::arg("number"), py::arg("layout"), py::arg("rules"),
          "Deal a number laid out as the layout says (deals.layout): (piles, reserve slots, "
          "cells, home), -1 for an empty slot.");
    m.def("solve_deals", &solve_deals, py::arg("numbers"), py::arg("layout"), py::arg("rules"),
          py::arg("kind"), py::arg("seconds"), py::arg("nodes"), py::arg("table_entries"),
          py::arg("memory"), py::arg("stop"), py::arg("slice") = 0.0,
          "Deal and solve each number as solve does, the budget each deal's: one record a "
          "deal, (status, moves, single-card moves, nodes, seconds, table entries, table "
          "bytes, lower bound); with slice > 0, it comes back once that many seconds have "
          "passed (or its first deal is decided), no deal started then and any other than "
          "the first given up, so the records may stop short of the numbers.");
}
