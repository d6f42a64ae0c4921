/*
 * carc.h — the public contract of libcarc, the Carcassonne rules engine.
 *
 * libcarc is pure: no I/O, no globals, no clock. Its only randomness is the ChaCha20 stream keyed by the
 * seed a game is created with, which lives in the game state, so the same seed and the same moves always
 * give the same state and the same events, bit for bit.
 *
 * Ownership: every value here is plain data owned by its caller. A carc_state is one flat allocation with
 * no pointers except `cat`, which must outlive it. carc_events and carc_moves own heap buffers that
 * carc_events_free / carc_moves_free release. Out of memory aborts (the daemon's policy; see docs/STYLE.md).
 *
 * Errors: functions return 0 on success and a negative carc_err on failure, and then write a message
 * (lower case, naming what was wrong) into the caller's buffer. A failing carc_apply leaves the state
 * exactly as it was.
 */
#ifndef CARC_H
#define CARC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- limits ------------------------------------------------------------------------------------------ */
#define CARC_SIDE_UNITS 12   /* a side is cut into 12 units; a road occupies [5,7) */
#define CARC_ROAD_LO 5
#define CARC_ROAD_HI 7
#define CARC_MIN_PLAYERS 2
#define CARC_MAX_PLAYERS 6
#define CARC_MEEPLES 7
#define CARC_ID_LEN 8        /* tile ids and part names, NUL included */
#define CARC_MAX_PARTS 12    /* feature segments of one tile */
#define CARC_MAX_SEGS 4      /* segments on one side */
#define CARC_MAX_TYPES 96    /* tile types in a catalog */
#define CARC_MAX_TILES 128   /* tiles in one game (stack + start) */
#define CARC_MAX_PIECES 160  /* pieces on the board: tiles and triangles */
#define CARC_MAX_FIGURES (CARC_MAX_PLAYERS * 10)
#define CARC_BAG_TOKENS 18   /* Hills & Sheep: 4x1 5x2 5x3 2x4 sheep, 2 wolves */
#define CARC_WOLF 0          /* a bag token's value: 0 wolf, 1..4 sheep */
#define CARC_MAX_SCRIPT 64   /* scripted bag draws */
#define CARC_FRUIT_TYPES 6   /* Fruit Trees: one type per tree, in the order trees are placed */
#define CARC_FRUIT_STACK 4   /* tokens per tree, values 2..5 */
#define CARC_MAX_HAND 12     /* Halb so wild II: triangles in one hand (at most all of them) */
#define CARC_NO_PIECE 0xFF
#define CARC_NO_TYPE 0xFF
/* piece and type indexes are uint8_t with 0xFF as "none" */
_Static_assert(CARC_MAX_PIECES < CARC_NO_PIECE, "piece indexes fit in uint8_t below CARC_NO_PIECE");
_Static_assert(CARC_MAX_TYPES < CARC_NO_TYPE, "type indexes fit in uint8_t below CARC_NO_TYPE");

typedef enum {
    CARC_OK = 0,
    CARC_E_INVALID = -1,     /* malformed input: unknown name, out-of-range value */
    CARC_E_NOT_TURN = -2,    /* the seat is not the one the game waits for */
    CARC_E_ILLEGAL = -3,     /* well-formed but against the rules now */
    CARC_E_FINISHED = -4,    /* the game is over */
    CARC_E_DATA = -5,        /* tile data failed to load or validate */
} carc_err;

/* ---- tiles: catalog loaded from the data files in engine/tiles/ (format: engine/tiles/FORMAT.md) ------- */
typedef enum { CARC_N, CARC_E, CARC_S, CARC_W, CARC_D } carc_side_idx; /* D: a triangle's long side */
#define CARC_NSIDES 5

/* A river side never packs into carc_board.nb_packed's 2 bits: a space facing one is the river's open end,
 * which only river tiles may take (board.c), so the fit tables never need it. */
typedef enum { CARC_SIDE_NONE, CARC_SIDE_FIELD, CARC_SIDE_ROAD, CARC_SIDE_CITY, CARC_SIDE_RIVER } carc_side_type;
typedef enum {
    CARC_PART_CITY, CARC_PART_ROAD, CARC_PART_FIELD, CARC_PART_CLOISTER, CARC_PART_GARDEN,
    CARC_PART_RIVER,   /* the river: no figure stands on it, it never scores; it only splits fields */
    CARC_NPART_KINDS
} carc_part_kind;
typedef enum { CARC_SQUARE, CARC_TRIANGLE } carc_shape;
enum { CARC_MARK_HILL = 1, CARC_MARK_VINEYARD = 2, CARC_MARK_TREE = 4, CARC_MARK_CC = 8 };
typedef enum { CARC_CC_NONE, CARC_CC_CLUB, CARC_CC_RAKE, CARC_CC_SHIELD } carc_cc_kind;
typedef enum {
    CARC_SET_BASE, CARC_SET_HILLS_SHEEP, CARC_SET_CROP_CIRCLES, CARC_SET_FRUIT_TREES, CARC_SET_HALFLINGS,
    CARC_NSETS,                    /* the expansions a game lists (carc_setup.expansions, a bit each) */
    /* sets a game option brings in, not an expansion: their tiles exist when the set's `when` option is on */
    CARC_SET_RIVER = CARC_NSETS,   /* option river: the River of the 2nd-edition base box */
    CARC_NSETS_ALL
} carc_set;

typedef struct { uint8_t lo, hi, part; } carc_seg;          /* [lo,hi) on the side belongs to part */
typedef struct { uint8_t type, nseg; carc_seg seg[CARC_MAX_SEGS]; } carc_side;
typedef struct {
    char name[CARC_ID_LEN];   /* as in the data file: "c1", "r2", "f1", "cl" */
    uint8_t kind;             /* carc_part_kind */
    uint8_t pennants;
    uint8_t nsegs;            /* side segments of this part: its open intervals while alone */
    uint16_t touches;         /* fields: bit i set = touches city part i of the same tile */
} carc_part;

typedef struct {
    char id[CARC_ID_LEN];     /* the API's tile id: "D", "HS02", "HW01" */
    uint8_t shape, set, count;
    uint8_t start;            /* copies of this type that are the start tile (0 or 1) */
    int8_t when;              /* carc_opt that must be on for this type to exist, or -1 */
    uint8_t replaces;         /* type whose copies this type replaces, or CARC_NO_TYPE */
    uint8_t marks, cc;        /* CARC_MARK_* bits; carc_cc_kind */
    uint8_t nparts;
    uint8_t river;            /* bit per local side that is a river side (derived when loaded); 0: no river */
    carc_part parts[CARC_MAX_PARTS];
    carc_side side[CARC_NSIDES]; /* square: N E S W; triangle (right angle NW): N, W and D */
    /* Squares, derived from `side` when the type is loaded: bit r of fit[p] is set when at rotation r every
     * side matches what the neighbours of a space show, p being those sides packed as carc_board.nb_packed
     * (0 where no neighbour), and at least one shows something. Legal-move scans look the frontier up here
     * instead of comparing sides. Zero for triangles. */
    uint8_t fit[256];
} carc_tile_type;

typedef struct carc_catalog {
    int ntypes;
    carc_tile_type types[CARC_MAX_TYPES];
} carc_catalog;

/* Parses one set's text and appends its types. `name` labels error messages. */
int carc_catalog_parse(carc_catalog *cat, const char *text, size_t len, const char *name, char *err,
                       size_t errlen);
/* Loads every built-in set (compiled in from engine/tiles/). */
int carc_catalog_load(carc_catalog *cat, char *err, size_t errlen);
/* Type index of a tile id, or -1. */
int carc_catalog_find(const carc_catalog *cat, const char *id);
/* Part index of a part name on a type, or -1. */
int carc_part_find(const carc_tile_type *t, const char *name);

/* ---- options ---------------------------------------------------------------------------------------- */
typedef enum {
    CARC_OPT_ABBOT,              /* bool, default false */
    CARC_OPT_HILL_TAKES_TILE,    /* bool, default true */
    CARC_OPT_HILL_TIEBREAK,      /* at_least_one | count */
    CARC_OPT_CC_ADD_WHERE,       /* same_tile | same_feature */
    CARC_OPT_CC_ADD,             /* optional | mandatory */
    CARC_OPT_FRUIT_ACTIONS,      /* one | per_tree */
    CARC_OPT_FRUIT_MAX_SET,      /* 4 | 6 */
    CARC_OPT_HALFLINGS_DEAL,     /* random | draft */
    CARC_OPT_ASK_FORCED,         /* bool, default false: ask even for a decision with one legal move */
    CARC_OPT_RIVER,              /* bool, default false: the River (set river) starts the game */
    CARC_NOPTS
} carc_opt;
typedef enum { CARC_OPTK_BOOL, CARC_OPTK_ENUM, CARC_OPTK_INT } carc_opt_kind;
typedef struct {
    const char *name;
    uint8_t kind, nvalues, dflt;   /* dflt: index into the values */
    const char *names[4];          /* CARC_OPTK_ENUM: the JSON strings */
    int ints[4];                   /* CARC_OPTK_INT: the JSON numbers */
    uint8_t absent;                /* 1 + the value a stored game without this option has (it predates the
                                    * option and was played that way); 0: a stored game must name it */
} carc_opt_info;
extern const carc_opt_info carc_opt_table[CARC_NOPTS];   /* const data, not state */
extern const char *const carc_set_names[CARC_NSETS_ALL]; /* "base", "hills_sheep", ..., "river" */
int carc_opt_find(const char *name);                    /* option index, or -1 */

/* ---- randomness ------------------------------------------------------------------------------------- */
/* ChaCha20 (RFC 8439) keystream, key = the game's 256-bit seed, nonce 0; `pos` counts 32-bit words used.
 * {key, pos} is the whole generator; `block`/`cached` only keep the last keystream block so that drawing a
 * word is not a cipher set-up each time. They are never serialised: a copy without them continues the
 * same stream. */
typedef struct {
    uint8_t key[32];
    uint64_t pos;
    uint64_t cached;     /* index + 1 of the block in `block`; 0 = none */
    uint8_t block[64];
} carc_rng;
void carc_rng_seed(carc_rng *r, const uint8_t key[32]);
uint32_t carc_rng_u32(carc_rng *r);
/* Uniform in [0, n), n > 0, by rejection: no modulo bias. */
uint32_t carc_rng_below(carc_rng *r, uint32_t n);
/* Fisher–Yates with carc_rng_below. */
void carc_rng_shuffle(carc_rng *r, uint8_t *a, size_t n);
/* One RFC 8439 ChaCha20 block (via OpenSSL). Exposed for the test vectors. */
void carc_chacha20_block(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12], uint8_t out[64]);

/* ---- game state ------------------------------------------------------------------------------------- */
typedef enum { CARC_FIG_MEEPLE, CARC_FIG_ABBOT, CARC_FIG_SHEPHERD, CARC_NFIG_KINDS } carc_fig_kind;

typedef struct {
    int16_t x, y;
    uint8_t type;
    uint8_t rot;      /* square: quarter turns clockwise; triangle: corner of the right angle 0 nw 1 ne 2 se 3 sw */
    uint8_t under;    /* hills: the hidden tile type under this piece, or CARC_NO_TYPE */
    uint8_t pad;
} carc_piece;

typedef struct {
    uint8_t seat, kind;   /* carc_fig_kind */
    uint8_t piece, part;  /* the segment it stands on */
} carc_figure;

typedef struct {
    int32_t score;
} carc_player;

typedef enum {
    CARC_PENDING_NONE,             /* game over */
    CARC_PENDING_PLACE,            /* place the drawn tile */
    CARC_PENDING_FIGURE,           /* figure on the piece just placed, or pass */
    CARC_PENDING_DRAW_OR_TRIANGLE, /* halflings: draw a tile, or place a triangle from the hand */
    CARC_PENDING_FRUIT,            /* fruit trees: harvest, sell or pass */
    CARC_PENDING_FLOCK,            /* hills & sheep: grow or stable the flock */
    CARC_PENDING_CC_CHOICE,        /* crop circles: the active player chooses add (A) or remove (B) */
    CARC_PENDING_CC_ACTION,        /* crop circles: `seat` adds or removes one follower */
    CARC_PENDING_DRAFT,            /* halflings draft: `seat` takes one face-up triangle */
    CARC_NPENDING
} carc_pending_kind;

typedef struct {
    uint8_t kind;   /* carc_pending_kind */
    uint8_t seat;
    uint8_t tile;   /* PLACE: the drawn tile type (public) */
    uint8_t piece;  /* FIGURE: the piece placed this turn */
} carc_pending;

/* Derived lookup structures, rebuilt from `pieces` by replaying them (never serialised). */
#define CARC_MAX_SPACES 512    /* occupied + frontier: at most 3 per piece + 2 (a straight line) */
#define CARC_HASH_CAP 1024     /* power of two, twice CARC_MAX_SPACES */
#define CARC_NODES (CARC_MAX_PIECES * CARC_MAX_PARTS)
typedef struct {
    int16_t x, y;
    uint8_t dir_piece[4];   /* piece whose side lies on this space's N/E/S/W border, or CARC_NO_PIECE */
    uint8_t dir_side[4];    /* that piece's local side index */
    uint8_t nb_type[4];     /* carc_side_type that the neighbour across N/E/S/W shows this space */
    uint8_t npieces;        /* 0 = frontier (empty, next to a piece), 1 or 2 */
    uint8_t piece[2];
} carc_space;

typedef struct {
    uint16_t nspaces;
    /* The river while it is built: the space at its open end (index + 1; 0 = no open end, before the spring
     * or after the lake), the direction it flows into that space, and which way its last curve turned
     * (0 none yet, 1 left, 2 right). Only river tiles may take that space (board.c, legal.c). */
    uint16_t river_end;
    uint8_t river_dir, river_turn;
    carc_space spaces[CARC_MAX_SPACES];
    /* bit i set = spaces[i] holds no piece (the frontier): legal-move scans walk these bits in index order
     * instead of every space, two thirds of which are filled by mid-game */
    uint64_t empty[CARC_MAX_SPACES / 64];
    /* each space's nb_type packed 2 bits per direction (N lowest), the index into carc_tile_type.fit; kept
     * apart from spaces[] so that the patterns of one word of `empty` lie in one 64-byte line */
    uint8_t nb_packed[CARC_MAX_SPACES];
    uint16_t hash[CARC_HASH_CAP];            /* space index + 1, 0 = empty slot */
    uint16_t piece_space[CARC_MAX_PIECES];   /* space index of each piece */
    /* union-find over feature parts (node = piece * CARC_MAX_PARTS + part), kept flat: every node's
     * `root` is its feature's root, and `next` links a feature's nodes in a ring, so finding is one load and
     * a feature's parts can be walked without scanning the board. A union relabels the smaller feature. */
    uint16_t root[CARC_NODES];
    uint16_t next[CARC_NODES];
    uint16_t size[CARC_NODES];
    uint16_t open[CARC_NODES];    /* at a root: side segments of the feature that face nothing yet */
} carc_board;

typedef enum { CARC_ACTIVE, CARC_FINISHED } carc_status;

/* Where the turn machine stands (game.c runs the phases in this order, docs/RULES.md §6). */
typedef enum {
    CARC_PH_START,    /* draw (or choose draw / triangle) */
    CARC_PH_PLACE,    /* a drawn tile waits to be placed */
    CARC_PH_FIGURE,   /* the piece is placed: figure step */
    CARC_PH_FRUIT,    /* fruit action, if eligible */
    CARC_PH_FLOCK,    /* flock action, if eligible */
    CARC_PH_SCORE,    /* completed features, closed fields with shepherds */
    CARC_PH_CROP,     /* crop circle action, if the piece shows one */
    CARC_PH_NEXT,     /* pass the turn on */
    CARC_PH_DRAFT,    /* before the first turn: halflings draft */
} carc_phase;

typedef struct {
    uint8_t phase;        /* carc_phase */
    uint8_t piece;        /* piece placed this turn, or CARC_NO_PIECE */
    uint8_t figure;       /* carc_fig_kind the active player put on it this turn, or 0xFF */
    uint8_t fruit_done;   /* fruit actions taken this turn: bit per tree index */
} carc_turn;

/* Hills & Sheep. Draws from the bag are uniform over what it holds (or follow the admin's script). */
typedef struct {
    uint8_t bag_n;
    uint8_t bag[CARC_BAG_TOKENS];                              /* hidden: what is still in the bag */
    uint8_t flock_n[CARC_MAX_PLAYERS];
    uint8_t flock[CARC_MAX_PLAYERS][CARC_BAG_TOKENS];          /* tokens beside each seat's shepherd */
    uint8_t script_n, script_pos;
    uint8_t script[CARC_MAX_SCRIPT];                           /* hidden: scripted draws, values as bag */
} carc_hills;

/* Fruit Trees. Tree i (placed i-th) carries fruit type i; its stack was shuffled at set-up. */
typedef struct {
    uint8_t ntrees;
    uint8_t tree_piece[CARC_FRUIT_TYPES];
    uint8_t tree_n[CARC_FRUIT_TYPES];                          /* tokens left: public */
    uint8_t stack[CARC_FRUIT_TYPES][CARC_FRUIT_STACK];         /* hidden: values, top = [tree_n - 1] */
    uint8_t held_n[CARC_MAX_PLAYERS];
    uint8_t held[CARC_MAX_PLAYERS][CARC_FRUIT_TYPES * CARC_FRUIT_STACK];   /* fruit << 4 | value: public */
} carc_fruit;
/* Fruit type names, in the order trees are stocked: quince, apple, apricot, cherry, plum, elderberry. */
extern const char *const carc_fruit_names[CARC_FRUIT_TYPES];

/* Crop Circles: the action being resolved. */
typedef struct {
    uint8_t kind;    /* carc_cc_kind, CARC_CC_NONE when no action is in progress */
    uint8_t mode;    /* 0 add (A), 1 remove (B) */
    uint8_t piece;   /* the circle's piece */
    uint8_t step;    /* players already asked or skipped, counting from the active player's left */
} carc_crop;

/* Halb so wild II. */
typedef struct {
    uint8_t hand_n[CARC_MAX_PLAYERS];
    uint8_t hand[CARC_MAX_PLAYERS][CARC_MAX_HAND];             /* private (random deal) or public (draft) */
    uint8_t pool_n;
    uint8_t pool[CARC_MAX_HAND];                               /* draft: still face up */
    uint8_t draft_step;                                        /* picks made */
} carc_halflings;

typedef struct carc_state {
    const carc_catalog *cat;
    uint8_t opt[CARC_NOPTS];      /* value index per option, see carc_opt_table */
    uint8_t expansions;           /* bit per carc_set; base always set */
    uint8_t nplayers;
    uint8_t status;               /* carc_status */
    uint8_t active;               /* seat whose turn it is */
    uint16_t turn;                /* turns begun, 1-based once play starts */
    carc_player players[CARC_MAX_PLAYERS];
    carc_rng rng;
    uint8_t stack_len, stack_pos; /* stack[stack_pos..stack_len) is still to draw, in order: hidden */
    uint8_t stack[CARC_MAX_TILES];
    uint8_t ndiscarded;
    uint8_t discarded[CARC_MAX_TILES];  /* tiles shown and removed because they fit nowhere: public */
    uint16_t npieces;
    carc_piece pieces[CARC_MAX_PIECES];
    uint8_t nfigures;
    carc_figure figures[CARC_MAX_FIGURES];
    carc_pending pending;
    carc_turn tn;                 /* the turn in progress */
    uint8_t left;                 /* bit per seat that left the game (resigned, forfeited) */
    carc_hills hills;
    carc_fruit fruit;
    carc_crop crop;
    carc_halflings half;
    carc_board board;             /* derived */
} carc_state;

typedef struct {
    int nplayers;
    uint8_t seed[32];
    uint8_t expansions;           /* bits of carc_set; base is implied */
    uint8_t opt[CARC_NOPTS];      /* value indexes; carc_setup_defaults fills the defaults */
    /* scripted games: when nstack > 0 the stack is exactly these types in draw order (start tile excluded) */
    int nstack;
    uint8_t stack[CARC_MAX_TILES];
    /* Hills & Sheep: the bag draws in order (values as carc_hills.bag), checked against what the bag holds */
    int nsheep;
    uint8_t sheep[CARC_MAX_SCRIPT];
    /* Fruit Trees: each fruit type's stack, top first (fruit_scripted = 1 when given) */
    uint8_t fruit_scripted;
    uint8_t fruit[CARC_FRUIT_TYPES][CARC_FRUIT_STACK];
    /* Halb so wild II: each seat's triangles (hands_scripted = 1 when given) */
    uint8_t hands_scripted;
    uint8_t hand_n[CARC_MAX_PLAYERS];
    uint8_t hand[CARC_MAX_PLAYERS][CARC_MAX_HAND];
} carc_setup;

void carc_setup_defaults(carc_setup *s);

/* ---- moves and events ------------------------------------------------------------------------------- */
typedef enum {
    CARC_MV_PLACE,         /* tile at x, y, rot (a triangle from the hand: rot = corner) */
    CARC_MV_FIGURE,        /* figure kind on part of the piece just placed (shepherd too) */
    CARC_MV_PASS,          /* no figure / no fruit action */
    CARC_MV_ABBOT_RETURN,  /* instead of a figure: take the abbot back and score it */
    CARC_MV_DRAW,          /* halflings: draw a tile instead of placing a triangle */
    CARC_MV_HARVEST,       /* fruit: take the top token of tree `piece` */
    CARC_MV_SELL,          /* fruit: sell one held token of each fruit type in `set` (bitmask) */
    CARC_MV_GROW,          /* flock: draw a token */
    CARC_MV_STABLE,        /* flock: score and return the flock */
    CARC_MV_CC_ADD,        /* crop circle choice A */
    CARC_MV_CC_REMOVE,     /* crop circle choice B */
    CARC_MV_CC_FIGURE,     /* crop circle action: add a follower on (piece, part) / return the one there */
    CARC_MV_CC_SKIP,       /* crop circle action A when adding is optional: add nothing */
    CARC_MV_DRAFT,         /* halflings draft: take triangle `tile` */
    CARC_NMOVE_KINDS
} carc_move_kind;

typedef struct {
    uint8_t kind;   /* carc_move_kind */
    uint8_t tile;   /* PLACE, DRAFT */
    uint8_t rot;    /* PLACE */
    uint8_t fig;    /* FIGURE: carc_fig_kind */
    uint8_t part;   /* FIGURE, CC_FIGURE */
    uint8_t piece;  /* HARVEST (tree's piece), CC_FIGURE */
    uint8_t set;    /* SELL: bit per fruit type */
    uint8_t pad;
    int16_t x, y;   /* PLACE */
} carc_move;

typedef struct { carc_move *v; size_t n, cap; } carc_moves;
void carc_moves_free(carc_moves *m);

typedef enum {
    CARC_EV_GAME_STARTED,     /* start tile placed */
    CARC_EV_TILE_DRAWN,       /* seat, tile */
    CARC_EV_TILE_DISCARDED,   /* tile: fits nowhere, shown and removed */
    CARC_EV_PIECE_PLACED,     /* seat, tile, x, y, rot */
    CARC_EV_FIGURE_PLACED,    /* seat, fig, piece's x y, part */
    CARC_EV_FIGURE_RETURNED,  /* seat, fig, x, y, part */
    CARC_EV_SCORE,            /* seats (bitmask), points each, feature, reason, spaces */
    CARC_EV_TURN,             /* seat: the next turn begins */
    CARC_EV_GAME_OVER,        /* final scores are in players[] */
    CARC_EV_PASSED,           /* seat made no figure move (chosen or forced) */
    CARC_EV_HILL_COVERED,     /* hills: a tile went under the hill at x,y; `tile` is the hidden one */
    CARC_EV_TOKEN_DRAWN,      /* hills: seat drew `value` (0 wolf) for its shepherd */
    CARC_EV_FLOCK_SCATTERED,  /* hills: a wolf scattered the flocks of the field at x,y */
    CARC_EV_TREE_STOCKED,     /* fruit: tree at x,y got fruit type `value` (4 hidden tokens) */
    CARC_EV_HARVESTED,        /* fruit: seat took fruit `aux` worth `value` from the tree at x,y */
    CARC_EV_SOLD,             /* fruit: seat sold the set `aux` (bit per fruit type) */
    CARC_EV_CC_CHOSEN,        /* crop circle: seat chose `value` 0 add / 1 remove for kind `aux` */
    CARC_EV_CC_SKIPPED,       /* crop circle: seat had no choice and was skipped */
    CARC_EV_TRIANGLE_DEALT,   /* halflings: seat got triangle `tile` (private to that seat) */
    CARC_EV_TRIANGLE_DRAFTED, /* halflings: seat took triangle `tile` */
    CARC_EV_SEAT_LEFT,        /* seat left the game */
    CARC_EV_FORCED_MOVE,      /* seat had exactly one legal move, `move`: the engine made it (its events follow) */
    CARC_EV_SEAT_TO_BOT,      /* seat's player left it to a bot (carc_leave_to_bot): it stays in the game */
    CARC_NEVENT_KINDS
} carc_event_kind;

typedef enum {
    CARC_REASON_COMPLETED, CARC_REASON_FINAL, CARC_REASON_ABBOT,
    CARC_REASON_FLOCK,       /* hills: a flock stabled (every shepherd there scores the whole flock) */
    CARC_REASON_HARVEST,     /* fruit: a harvested token's value */
    CARC_REASON_SELL,        /* fruit: a sold set */
    CARC_REASON_FRUIT_FINAL, /* fruit: 1 per token still held */
    CARC_NREASONS
} carc_reason;

/* A score event's feature: a carc_part_kind, or this for what Fruit Trees pays (harvests, sales, the
 * tokens held at the end), which no part of a tile is. */
#define CARC_FEATURE_FRUIT CARC_NPART_KINDS
#define CARC_NFEATURES (CARC_NPART_KINDS + 1)

typedef struct {
    uint8_t kind;        /* carc_event_kind */
    uint8_t seat;
    uint8_t tile;        /* type index */
    uint8_t rot;
    int16_t x, y;
    uint8_t fig, part;
    /* CARC_EV_SCORE */
    uint8_t feature;     /* carc_part_kind or CARC_FEATURE_FRUIT */
    uint8_t reason;      /* carc_reason */
    uint8_t seats;       /* bit per seat that scores `points` */
    uint8_t forced;      /* PASSED: 1 when there was no choice */
    uint8_t aux;         /* expansion events: see carc_event_kind */
    int16_t value;       /* expansion events: see carc_event_kind */
    int32_t points;
    uint32_t spaces_at;  /* index of the first (x, y) pair in carc_events.xy */
    uint16_t nspaces;
    carc_move move;      /* FORCED_MOVE: the move made for `seat` */
} carc_event;

typedef struct {
    carc_event *v;
    size_t n, cap;
    int16_t *xy;         /* 2 * total spaces */
    size_t nxy, capxy;
} carc_events;
void carc_events_free(carc_events *e);
void carc_events_clear(carc_events *e);

/* ---- the engine ------------------------------------------------------------------------------------- */
/* Starts a game: shuffles the stack with the seed (or takes the script), places the start tile, draws the
 * first tile. Appends the opening events. */
int carc_game_new(carc_state *st, const carc_catalog *cat, const carc_setup *setup, carc_events *ev,
                  char *err, size_t errlen);
/* Every move `seat` may make now, each one carc_apply accepts as is; none when it is not that seat's turn. */
void carc_legal_moves(const carc_state *st, int seat, carc_moves *out);
/* Validates and applies one move by `seat`; on error the state is unchanged. Then, unless the option
 * ask_forced is on, every decision that follows with exactly one legal move is made at once, each announced
 * by a forced_move event before its own events (carc_game_new and carc_leave do the same), so the game only
 * ever waits for a seat that has a choice. */
int carc_apply(carc_state *st, int seat, const carc_move *mv, carc_events *ev, char *err, size_t errlen);
/* Recomputes st->board from st->pieces (after decoding a state). */
int carc_state_rebuild(carc_state *st, char *err, size_t errlen);
/* Does for every rule what *dst = *src does, copying only the board's live part: the spaces in use, the
 * union-find nodes of the pieces placed, the hash and the frontier bits, and everything before the board.
 * The board only grows, and carc_board_add initialises each space and node as it first uses it, so no rule
 * reads what lies past them (stale in dst). A bot tries hundreds of moves on copies of a state; this copies
 * some 8-12 KB of its 31 KB in a mid-game base game (tests/unit/test_board.c plays games on such copies
 * made into garbage and checks they go exactly as on whole copies); the daemon's state cache copies states
 * in and out with it. Implemented in board.c. */
void carc_state_copy(carc_state *dst, const carc_state *src);

/* The move a turn clock makes for the seat the game waits for when its time runs out: the first legal
 * move, except that "no" is preferred wherever it is legal (pass, skip an optional crop circle add, draw
 * rather than place a triangle) — the smallest change, the same every time. -1 when nobody is waited for. */
int carc_default_move(const carc_state *st, carc_move *out);
/* Seat leaves the game (resigns or forfeits): decisions it owes now are made with carc_default_move, its
 * followers stay on the board, it takes no further turns; when one seat remains the game ends with final
 * scoring. CARC_E_ILLEGAL when it already left, CARC_E_FINISHED after the end. */
int carc_leave(carc_state *st, int seat, carc_events *ev, char *err, size_t errlen);
/* Seat's player leaves and a bot plays the seat on (the server's "bot_after_leave"): the state is unchanged
 * — the seat stays in the game, owes what it owed and may win — and a seat_to_bot event says so, so the log
 * and whoever follows it see the change. Errors as carc_leave. */
int carc_leave_to_bot(carc_state *st, int seat, carc_events *ev, char *err, size_t errlen);
/* The winners, a bit per seat (score.c): the best score among the seats still in the game (a seat that
 * resigned or forfeited wins nothing, whatever its followers scored). */
unsigned carc_winners(const carc_state *st);

/* Remaining followers in a seat's supply. */
int carc_supply(const carc_state *st, int seat, carc_fig_kind kind);
/* Whether an expansion set is in play. */
static inline bool carc_has(const carc_state *st, carc_set set) { return st->expansions >> set & 1; }

#endif
