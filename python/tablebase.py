"""Probe distance to mate (DTM) from this project's compressed tables, with Python's standard library alone.

    import tablebase
    with tablebase.open_tablebase("tables") as tb:           # a table folder, or a folder of them
        tb.probe_dtm("8/8/8/8/8/2k5/1r6/KQ6 w - - 0 1")       # 3: White mates in 3 moves (5 plies: see below)
        tb.probe_wdl(board)                                   # a python-chess chess.Board works as well as a FEN

It reads the ``*.cdtm`` files that ``jobs/generate`` writes (docs/formats.md, "The compressed table"): raw LZMA
blocks of one side to move, decoded by the ``lzma`` module (tables of six pieces: Zstandard frames, decoded by the
``zstandard`` package, ``apt install python3-zstandard`` or ``pip install zstandard``); the other side to move, and entries marked as decided by
their captures and promotions, are answered by one ply of search over the stored values, as the Java probe does.
A material is read from its own table or from the table of its colours swapped (KRKQ from KQKR).

Values follow python-chess's tablebase probers: ``probe_wdl`` is 1, 0 or -1 (win, draw, loss for the side to move);
``probe_dtm`` is the distance to mate in moves, positive when the side to move mates, negative when it is mated, 0
for a draw and for a checkmate on the board (``probe_wdl`` tells them apart); ``probe_dtm_plies`` counts half-moves
(positive and odd for a win, negative and even for a loss, 0 checkmated) and is None for a draw. ``get_*`` return a default instead of raising
``MissingTableError`` or ``IllegalPositionError``. A ``Tablebase`` may be shared by threads: its block cache is locked.

Tables made with ``jobs/generate --dtz`` also answer the 50-move rule from their compressed DTZ files (one a side to
move): ``probe_dtz`` as python-chess's (plies to the next capture, pawn move or mate under play that keeps the result,
positive when the side to move wins, negative when it loses, 0 a draw or checkmate; past 100 a result the rule turns
into a draw) and ``probe_wdl50``, python-chess's five-valued ``probe_wdl`` (2 win, 1 cursed win, 0 draw, -1 blessed
loss, -2 loss); a table made without DTZ raises ``MissingTableError``.

Command line: ``python3 tablebase.py --tables DIR FEN...`` (or ``--fens FILE``, a FEN a line) prints a line a
position: the FEN, WDL and DTM in moves, tab-separated; with ``--dtz``, the FEN, five-valued WDL and DTZ.
"""

import collections
import hashlib
import json
import lzma
import mmap
import os
import struct
import sys
import threading
import zlib

__all__ = ["open_tablebase", "Tablebase", "TablebaseError", "MissingTableError", "IllegalPositionError",
           "CorruptTableError"]


class TablebaseError(Exception):
    """Any error of this module."""


class MissingTableError(TablebaseError, KeyError):
    """No table of the position's material was opened (a KeyError, as python-chess's probers raise)."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


class IllegalPositionError(TablebaseError, ValueError):
    """A FEN this module cannot read, or a position that cannot occur."""


class CorruptTableError(TablebaseError):
    """A table file that does not match its header, its checksums or its manifest."""


WHITE, BLACK = 0, 1
TYPES = "KQRBNP"  # the order of a material's pieces within each side
PROMOTIONS = "QRBN"
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK_RAYS, BISHOP_RAYS = ((1, 0), (0, 1), (-1, 0), (0, -1)), ((1, 1), (-1, 1), (-1, -1), (1, -1))
RAYS = {"Q": ROOK_RAYS + BISHOP_RAYS, "R": ROOK_RAYS, "B": BISHOP_RAYS}


def _square_name(sq):
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def _steps(sq, steps):
    f, r = sq % 8, sq // 8
    return [(r + dr) * 8 + f + df for df, dr in steps if 0 <= f + df < 8 and 0 <= r + dr < 8]


def _distance(a, b):
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


class Position:
    """Pieces as (colour, letter, square) in material order, the side to move and an en-passant square (or None)."""

    __slots__ = ("pieces", "turn", "ep")

    def __init__(self, pieces, turn, ep=None):
        self.pieces = tuple(sorted(pieces, key=lambda p: (p[0], TYPES.index(p[1]), p[2])))
        self.turn = turn
        self.ep = ep

    def material(self):
        """The material's name: White's king and pieces, then Black's, strongest first (KQKR, KRPKR)."""
        return "".join(p[1] for p in self.pieces if p[0] == WHITE) + "".join(p[1] for p in self.pieces if p[0] == BLACK)

    def squares(self):
        return [p[2] for p in self.pieces]

    def king(self, colour):
        return next(p[2] for p in self.pieces if p[0] == colour and p[1] == "K")

    def colours_swapped(self):
        """The same position seen from the other side: colours swapped, ranks mirrored; its value is this one's."""
        return Position([(1 - c, t, sq ^ 56) for c, t, sq in self.pieces], 1 - self.turn, None if self.ep is None else self.ep ^ 56)

    def attacked(self, sq, by):
        """Whether side ``by`` attacks square ``sq``."""
        occupied = {p[2] for p in self.pieces}
        for c, t, at in self.pieces:
            if c != by or at == sq:
                continue
            if t == "P":
                if sq in _pawn_captures(at, c):
                    return True
            elif t == "N":
                if sq in _steps(at, KNIGHT_STEPS):
                    return True
            elif t == "K":
                if _distance(at, sq) == 1:
                    return True
            elif sq in _slides(at, RAYS[t], occupied):
                return True
        return False

    def in_check(self):
        return self.attacked(self.king(self.turn), 1 - self.turn)

    def illegal_reason(self):
        """Why the position cannot occur, or None."""
        squares = self.squares()
        if len(set(squares)) != len(squares):
            return "two pieces on one square"
        if _distance(self.king(WHITE), self.king(BLACK)) <= 1:
            return "the kings touch"
        for c, t, sq in self.pieces:
            if t == "P" and sq // 8 in (0, 7):
                return "a pawn on " + _square_name(sq) + ", the first or last rank"
        if self.ep is not None:
            step = -8 if self.turn == WHITE else 8
            pawn = (1 - self.turn, "P", self.ep + step)
            if self.ep // 8 != (5 if self.turn == WHITE else 2) or pawn not in self.pieces \
                    or self.ep in squares or self.ep - step in squares:
                return "no pawn can just have moved two squares past " + _square_name(self.ep)
        if self.attacked(self.king(1 - self.turn), self.turn):
            return "the side not to move is in check"
        return None

    def legal_moves(self):
        """Each legal move as (position after it, whether it captures or promotes, UCI)."""
        moves = []
        occupied = {p[2]: p for p in self.pieces}
        for piece in self.pieces:
            c, t, sq = piece
            if c != self.turn:
                continue
            for to, promotion, taken in self._targets(piece, occupied):
                rest = [p for p in self.pieces if p is not piece and p is not taken]
                after = Position(rest + [(c, promotion or t, to)], 1 - c)
                if t == "P" and abs(to - sq) == 16:
                    after.ep = (sq + to) // 2
                if not after.attacked(after.king(c), 1 - c):
                    moves.append((after, taken is not None or promotion is not None,
                                  _square_name(sq) + _square_name(to) + (promotion or "").lower()))
        return moves

    def _targets(self, piece, occupied):
        """A piece's moves as (to, promotion or None, piece taken or None), its own king's safety not checked."""
        c, t, sq = piece
        if t == "P":
            step, start = (8, 1) if c == WHITE else (-8, 6)
            targets = []
            if sq + step not in occupied:
                targets.append((sq + step, None))
                if sq // 8 == start and sq + 2 * step not in occupied:
                    targets.append((sq + 2 * step, None))
            for to in _pawn_captures(sq, c):
                if to in occupied and occupied[to][0] != c:
                    targets.append((to, occupied[to]))
                elif to == self.ep:
                    targets.append((to, occupied[to - step]))
            out = []
            for to, taken in targets:
                promotions = PROMOTIONS if to // 8 in (0, 7) else (None,)
                out.extend((to, promotion, taken) for promotion in promotions)
            return out
        if t in RAYS:
            reach = _slides(sq, RAYS[t], occupied)
        else:
            reach = _steps(sq, KNIGHT_STEPS if t == "N" else KING_STEPS)
        return [(to, None, occupied.get(to)) for to in reach if to not in occupied or occupied[to][0] != c]


def _pawn_captures(sq, colour):
    return _steps(sq, ((-1, 1), (1, 1)) if colour == WHITE else ((-1, -1), (1, -1)))


def _slides(sq, rays, occupied):
    reach = []
    for df, dr in rays:
        f, r = sq % 8 + df, sq // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            reach.append(r * 8 + f)
            if r * 8 + f in occupied:
                break
            f, r = f + df, r + dr
    return reach


def parse_fen(fen):
    """A position from a FEN (``_`` may stand for spaces); castling rights must be ``-``."""
    fields = fen.replace("_", " ").split()
    if not 2 <= len(fields) <= 6:
        raise IllegalPositionError("a FEN has 2 to 6 fields (board, side to move, ...), this has %d" % len(fields))
    ranks = fields[0].split("/")
    if len(ranks) != 8:
        raise IllegalPositionError("the board needs 8 ranks separated by '/', not %d" % len(ranks))
    pieces = []
    for k, text in enumerate(ranks):
        rank, file = 7 - k, 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
            elif ch.upper() in TYPES and file < 8:
                pieces.append((WHITE if ch.isupper() else BLACK, ch.upper(), rank * 8 + file))
                file += 1
            else:
                raise IllegalPositionError("unexpected '%s' on rank %d" % (ch, rank + 1))
        if file != 8:
            raise IllegalPositionError("rank %d has %d squares, not 8" % (rank + 1, file))
    if fields[1] not in ("w", "b"):
        raise IllegalPositionError("side to move must be 'w' or 'b', not '%s'" % fields[1])
    if len(fields) > 2 and fields[2] != "-":
        raise IllegalPositionError("castling rights '%s' are out of scope: endgame tables hold no castling" % fields[2])
    ep = None
    if len(fields) > 3 and fields[3] != "-":
        text = fields[3]
        if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "36":
            raise IllegalPositionError("en passant square '%s' is not a square of the third or sixth rank" % text)
        ep = "abcdefgh".index(text[0]) + 8 * (int(text[1]) - 1)
    for colour in (WHITE, BLACK):
        kings = sum(1 for p in pieces if p[0] == colour and p[1] == "K")
        if kings != 1:
            raise IllegalPositionError("%s must have exactly one king, not %d" % (("White", "Black")[colour], kings))
    return Position(pieces, WHITE if fields[1] == "w" else BLACK, ep)


def _transform(sq, s):
    """Symmetry ``s`` of the board: bit 2 swaps file and rank (first), bit 0 mirrors the file, bit 1 the rank."""
    f, r = sq % 8, sq // 8
    if s & 4:
        f, r = r, f
    if s & 1:
        f = 7 - f
    if s & 2:
        r = 7 - r
    return r * 8 + f


def _binomial(n, k):
    if k < 0 or n < k:
        return 0
    result = 1
    for j in range(k):
        result = result * (n - j) // (j + 1)
    return result


class _KingPairs:
    """The classes of king placements under some symmetries: canonical pair codes ``wk * 64 + bk``, ascending."""

    def __init__(self, symmetries):
        self.symmetries = symmetries
        self.pair_index = {}
        for code in range(64 * 64):
            wk, bk = divmod(code, 64)
            if _distance(wk, bk) > 1 and code == min(_transform(wk, s) * 64 + _transform(bk, s) for s in symmetries):
                self.pair_index[code] = len(self.pair_index)


_EIGHT, _MIRROR = _KingPairs(range(8)), _KingPairs((0, 1))


class PositionIndex:
    """The index of docs/formats.md: ``kingPair * restSize + rest``, the canonical image's (the least index)."""

    def __init__(self, material):
        self.material = material
        colours = [WHITE if k < material.index("K", 1) else BLACK for k in range(len(material))]
        self.kings = (0, material.index("K", 1))
        self.pairs = _MIRROR if "P" in material else _EIGHT
        self.runs = []  # (first piece, length, square offset, radix), in material order
        for k, t in enumerate(material):
            if t == "K":
                continue
            last = self.runs[-1] if self.runs else None
            if last and last[0] + last[1] == k and material[last[0]] == t and colours[last[0]] == colours[k]:
                self.runs[-1] = (last[0], last[1] + 1, last[2], _binomial(64 - 2 * last[2], last[1] + 1))
            else:
                offset = 8 if t == "P" else 0
                self.runs.append((k, 1, offset, 64 - 2 * offset))
        self.rest_size = 1
        for run in self.runs:
            self.rest_size *= run[3]
        self.size = len(self.pairs.pair_index) * self.rest_size

    def index(self, squares):
        wk, bk = squares[self.kings[0]], squares[self.kings[1]]
        images = [(_transform(wk, s) * 64 + _transform(bk, s), s) for s in self.pairs.symmetries]
        least = min(images)[0]
        rest = min(self._rest(squares, s) for code, s in images if code == least)
        return self.pairs.pair_index[least] * self.rest_size + rest

    def _rest(self, squares, s):
        rest = 0
        for first, length, offset, radix in self.runs:
            placed = sorted(_transform(sq, s) - offset for sq in squares[first:first + length])
            rest = rest * radix + sum(_binomial(sq, j + 1) for j, sq in enumerate(placed))
        return rest

    def run_radices(self):
        return [run[3] for run in self.runs]


class _BlockOrder:
    """Where offset ``at`` of a part's index order lies in its blocks' order (one digit brought to the front)."""

    def __init__(self, index, size, lead):
        radices = index.run_radices()
        if lead == 0:
            self.radix, self.weight = None, None
            return
        self.radix = radices[lead - 1]
        self.weight = 1
        for radix in radices[lead:]:  # the digits after the lead's
            self.weight *= radix
        self.stride = size // self.radix

    def stored(self, at):
        if self.radix is None:
            return at
        q, low = divmod(at, self.weight)
        high, digit = divmod(q, self.radix)
        return digit * self.stride + high * self.weight + low


_MAGIC, _LATE_MAGIC, _MARK = b"TBDTMZ01", b"TBLATE01", 255


def _result_byte(stored):
    """A block's byte back to the result byte (0 draw, else ply + 1) where the blocks hold wins first, then losses."""
    if stored in (0, 255):
        return stored
    return 2 * stored if stored < 128 else 2 * (stored - 128) + 1


_RESULT_BYTES = bytes(_result_byte(b) for b in range(256))


class _Part:
    """One ``.cdtm`` part file: its header, block table and late plies, checked."""

    def __init__(self, path, index):
        with open(path, "rb") as f:  # mapped: a lookup reads its block's bytes only
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if os.fstat(f.fileno()).st_size >= 64 else b""
        try:
            self._check(path, index, data)
        except BaseException:
            if data:
                data.close()
            raise

    def _check(self, path, index, data):
        if len(data) < 64 or data[:8] != _MAGIC:
            raise CorruptTableError("%s is not a compressed table (no TBDTMZ01 header)" % path)
        self.path = path
        self.material = data[8:24].rstrip(b"\0").decode("ascii")
        size, self.lo, self.hi = struct.unpack_from("<qqq", data, 24)
        self.side, properties, lead, flags = data[48], data[49], data[50], data[51]
        dictionary, self.block_entries, crc = struct.unpack_from("<iiI", data, 52)
        blocks = -(-(self.hi - self.lo) // self.block_entries) if self.block_entries > 0 else 0
        # flag bit 2: each block's entry also holds its chunks' CRC-32s (8 int32), which a whole block's decoding needs not
        stride = 48 if flags & 4 else 16
        table_end = 64 + stride * blocks
        if self.material != index.material or size != index.size or flags & ~15 or flags & 12 == 12 or len(data) < table_end:
            raise CorruptTableError("%s has a header this reader does not know" % path)
        # flag bit 3: each block is a Zstandard frame, not a raw LZMA stream
        self.zstd = _zstandard(path) if flags & 8 else None
        if zlib.crc32(data[64:table_end], zlib.crc32(data[:60])) != crc:
            raise CorruptTableError("%s: its header or block table does not match its CRC-32" % path)
        self.marks, self.wins_first = bool(flags & 1), bool(flags & 2)
        self.order = _BlockOrder(index, self.hi - self.lo, lead)
        pb, rest = divmod(properties, 45)
        lp, lc = divmod(rest, 9)
        self.filters = [{"id": lzma.FILTER_LZMA1, "dict_size": dictionary, "lc": lc, "lp": lp, "pb": pb}]
        self.blocks = [struct.unpack_from("<qiI", data, 64 + stride * j) for j in range(blocks)]
        end = table_end
        for offset, length, _ in self.blocks:
            if offset != end or length <= 0:
                raise CorruptTableError("%s: a block is not where the one before it ends" % path)
            end += length
        if len(data) < end:
            raise CorruptTableError("%s has %d bytes; its block table says %d" % (path, len(data), end))
        self.data = data
        self.marker, self.late = _late_plies(data[end:], path)

    def block(self, j):
        offset, length, crc = self.blocks[j]
        n = min(self.block_entries, self.hi - self.lo - j * self.block_entries)
        try:
            if self.zstd:
                out = self.zstd.ZstdDecompressor().decompress(self.data[offset:offset + length], max_output_size=n)
            else:
                out = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=self.filters).decompress(self.data[offset:offset + length], max_length=n)
        except (lzma.LZMAError,) + ((self.zstd.ZstdError,) if self.zstd else ()) as e:
            raise CorruptTableError("%s: block %d does not decompress (%s)" % (self.path, j, e))
        if len(out) != n or zlib.crc32(out) != crc:
            raise CorruptTableError("%s: block %d does not match its CRC-32" % (self.path, j))
        return bytearray(out.translate(_RESULT_BYTES) if self.wins_first else out)


def _zstandard(path):
    """The ``zstandard`` package, which a table of Zstandard blocks needs; a TablebaseError that says so where it is missing."""
    try:
        import zstandard
    except ImportError:
        raise TablebaseError("%s holds Zstandard blocks: install the zstandard package (apt install python3-zstandard, "
                             "or pip install zstandard)" % path) from None
    return zstandard


def _late_plies(tail, path):
    """The part's late plies (marker byte, {entry 2 * index + side: ply}); none when the file ends with its blocks."""
    if not tail:
        return 254, {}
    if len(tail) < 24 or (len(tail) - 24) % 12 or tail[:8] != _LATE_MAGIC or zlib.crc32(tail[:-4]) != struct.unpack_from("<I", tail, len(tail) - 4)[0]:
        raise CorruptTableError("%s: the bytes after its blocks are not a list of late plies" % path)
    marker, count = struct.unpack_from("<iq", tail, 8)
    return marker, {entry: ply for entry, ply in (struct.unpack_from("<qi", tail, 20 + 12 * k) for k in range(count))}


class _Table:
    """A material's compressed table: the stored side's result codes (0 draw, else ply + 1), or ``_MARK``."""

    def __init__(self, material, paths, cache):
        self.material = material
        self.index = PositionIndex(material)
        self.parts = sorted((_Part(p, self.index) for p in paths), key=lambda part: part.lo)
        if [p.lo for p in self.parts] != [0] + [p.hi for p in self.parts[:-1]] or self.parts[-1].hi != self.index.size:
            raise CorruptTableError("the parts of the %s table do not cover its %d indexes" % (material, self.index.size))
        self.stored = self.parts[0].side  # the writer's choice of the two, the same in every part
        if any(p.side != self.stored or p.side > 1 for p in self.parts):
            raise CorruptTableError("the parts of the %s table store other sides to move" % material)
        self.cache = cache

    def code(self, position):
        i = self.index.index(position.squares())
        part = next(p for p in reversed(self.parts) if p.lo <= i)
        j, k = divmod(part.order.stored(i - part.lo), part.block_entries)
        b = self.cache.block(part, j)[k]
        if b == _MARK and part.marks:
            return _MARK, (part, j, k)
        if b == part.marker and 2 * i + self.stored in part.late:
            return part.late[2 * i + self.stored] + 1, None
        return b, None


class _BlockCache:
    """Decoded blocks, least recently used dropped past a budget of bytes; one lock for every thread."""

    def __init__(self, budget):
        self.budget, self.used = budget, 0
        self.blocks = collections.OrderedDict()
        self.lock = threading.Lock()

    def block(self, part, j):
        key = (id(part), j)
        with self.lock:
            bytes_ = self.blocks.get(key)
            if bytes_ is not None:
                self.blocks.move_to_end(key)
                return bytes_
        bytes_ = part.block(j)
        with self.lock:
            self.blocks[key] = bytes_
            self.used += len(bytes_)
            while self.used > self.budget and len(self.blocks) > 1:
                self.used -= len(self.blocks.popitem(last=False)[1])
        return bytes_


_RULE = 100  # the 50-move rule in plies


def _dtz_signed(code):
    """python-chess's DTZ of a DTZ code (0 draw, 2n a win in n plies, 2n + 1 a loss in n, 1 checkmated)."""
    return 0 if code == 0 else code >> 1 if code % 2 == 0 else -(code >> 1)


def _wdl50(code):
    if code == 0:
        return 0
    within = code >> 1 <= _RULE
    return (2 if within else 1) if code % 2 == 0 else (-2 if within else -1)


def _dtz_preference(code):
    """How much the side to move prefers a code: a quicker win, then a draw, then a longer loss."""
    return 0 if code == 0 else (1 << 20) - (code >> 1) if code % 2 == 0 else -(1 << 20) + (code >> 1)


def _dtz_by_move(after, zeroing):
    """A move's worth from the code after it (the opponent to move): one ply more, or after a capture or pawn move 1,
    or past the rule 101, where the opponent's result holds within the rule or not."""
    if after == 0:
        return 0
    plies = after >> 1
    n = (1 if plies <= _RULE else _RULE + 1) if zeroing else plies + 1
    return 2 * n if after % 2 == 1 else 2 * n + 1


def _fold(plies):
    """A position's ply from those its moves reach (the opponent to move): win fastest, else draw, else lose slowest."""
    wins = [p + 1 for p in plies if p >= 0 and p % 2 == 0]
    if wins:
        return min(wins)
    if -1 in plies:
        return -1
    return max(p + 1 for p in plies)


class Tablebase:
    """The tables of one or more folders; see the module's documentation. Close it, or use it in a ``with``."""

    def __init__(self, cache_bytes=64 << 20):
        self._folders = {}  # material -> (folder, manifest)
        self._tables = {}
        self._dtz_tables = {}  # (material, side to move) -> _Table of that side's DTZ codes
        self._cache = _BlockCache(cache_bytes)
        self._lock = threading.Lock()
        self._closed = False

    def add_directory(self, directory, verify=False):
        """Adds a table folder, or a folder of them (a material met twice is read from the first); returns how many
        tables were added. ``verify`` reads every compressed file against the SHA-256 of its manifest."""
        if os.path.isfile(os.path.join(directory, "manifest.json")):
            folders = [directory]
        elif os.path.isdir(directory):
            folders = sorted(os.path.join(directory, d) for d in os.listdir(directory)
                             if os.path.isfile(os.path.join(directory, d, "manifest.json")))
        else:
            raise MissingTableError("%s: no such folder" % directory)
        added = 0
        for folder in folders:
            with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as f:
                manifest = json.load(f)
            if not manifest.get("compressed_files"):
                continue  # packed files only: the Java probe reads them
            if verify:
                for entry in manifest["compressed_files"] + (manifest.get("dtz") or {}).get("compressed_files", []):
                    with open(os.path.join(folder, entry["name"]), "rb") as f:
                        if hashlib.sha256(f.read()).hexdigest() != entry["sha256"]:
                            raise CorruptTableError("%s does not match the SHA-256 in its manifest.json" % os.path.join(folder, entry["name"]))
            if self._folders.setdefault(manifest["endgame"], (folder, manifest))[0] == folder:
                added += 1
        if not self._folders:
            raise MissingTableError("%s holds no compressed table" % directory)
        return added

    def close(self):
        """Closes the files; later probes raise TablebaseError."""
        with self._lock:
            self._closed = True
            for table in list(self._tables.values()) + list(self._dtz_tables.values()):
                for part in table.parts:
                    part.data.close()
            self._tables.clear()
            self._dtz_tables.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def probe_wdl(self, board):
        """1, 0 or -1: the side to move wins, draws or loses."""
        ply = self._ply(self._legal(board))
        return 0 if ply < 0 else 1 if ply % 2 else -1

    def probe_dtm(self, board):
        """Moves to mate: n > 0 the side to move mates in n, -n it is mated in n, 0 a draw or checkmate on the board."""
        ply = self._ply(self._legal(board))
        return 0 if ply < 0 else (ply + 1) // 2 if ply % 2 else -(ply // 2)

    def probe_dtm_plies(self, board):
        """Half-moves to mate: n > 0 (odd) the side to move mates after n, -n (even) it is mated after n, 0 it is
        checkmated; None for a draw."""
        ply = self._ply(self._legal(board))
        return None if ply < 0 else ply if ply % 2 else -ply

    def probe_dtz(self, board):
        """DTZ under the 50-move rule (python-chess's ``probe_dtz``); needs tables made with ``--dtz``."""
        return _dtz_signed(self._dtz(self._legal(board)))

    def probe_wdl50(self, board):
        """Five-valued WDL under the 50-move rule, the halfmove clock at 0 (python-chess's ``probe_wdl``)."""
        return _wdl50(self._dtz(self._legal(board)))

    def get_wdl(self, board, default=None):
        try:
            return self.probe_wdl(board)
        except (MissingTableError, IllegalPositionError):
            return default

    def get_dtm(self, board, default=None):
        try:
            return self.probe_dtm(board)
        except (MissingTableError, IllegalPositionError):
            return default

    @staticmethod
    def _legal(board):
        position = parse_fen(board if isinstance(board, str) else board.fen())
        reason = position.illegal_reason()
        if reason:
            raise IllegalPositionError("illegal position: " + reason)
        return position

    def _table(self, material):
        with self._lock:
            if self._closed:
                raise TablebaseError("this tablebase is closed")
            table = self._tables.get(material)
            if table is None:
                folder, manifest = self._folders[material]
                paths = [os.path.join(folder, entry["name"]) for entry in manifest["compressed_files"]]
                table = self._tables[material] = _Table(material, paths, self._cache)
            return table

    def _as_stored(self, position):
        """The position as a table holds it (no en-passant right; its material's table, or its twin's with the colours
        swapped), or None where an en-passant capture can be made: a table holds no such position, its moves are searched."""
        if position.ep is not None:
            target = _square_name(position.ep)  # empty: only a pawn taking en passant captures onto it
            if any(capture and uci[2:4] == target for _, capture, uci in position.legal_moves()):
                return None
            position = Position(position.pieces, position.turn)
        material = position.material()
        if material in self._folders:
            return position
        swapped = position.colours_swapped()
        if swapped.material() not in self._folders:
            raise MissingTableError("no %s table among %s" % (material, ", ".join(sorted(self._folders))))
        return swapped

    def _dtz(self, position):
        """The DTZ code of a legal position: its side's compressed DTZ, or with a usable en-passant right its moves'."""
        if len(position.pieces) == 2:
            return 0
        stored = self._as_stored(position)
        if stored is None:
            return self._dtz_from_moves(position)
        code, _ = self._dtz_table(stored.material(), stored.turn).code(stored)
        return code

    def _dtz_from_moves(self, position):
        moves = position.legal_moves()
        if not moves:
            return 1 if position.in_check() else 0
        pawns = {sq for c, t, sq in position.pieces if c == position.turn and t == "P"}
        best = None
        for after, exit_, uci in moves:
            zeroing = exit_ or (ord(uci[0]) - 97) + 8 * (int(uci[1]) - 1) in pawns
            worth = _dtz_by_move(self._dtz(after), zeroing)
            if best is None or _dtz_preference(worth) > _dtz_preference(best):
                best = worth
        return best

    def _dtz_table(self, material, side):
        with self._lock:
            if self._closed:
                raise TablebaseError("this tablebase is closed")
            table = self._dtz_tables.get((material, side))
            if table is None:
                folder, manifest = self._folders[material]
                files = (manifest.get("dtz") or {}).get("compressed_files")
                if not files:
                    raise MissingTableError("the %s table was made without DTZ (generate it again with --dtz)" % material)
                half = len(files) // 2  # White to move's parts, then Black's
                parts = files[side * half:(side + 1) * half]
                table = self._dtz_tables[(material, side)] = _Table(material, [os.path.join(folder, f["name"]) for f in parts], self._cache)
                if table.stored != side:
                    raise CorruptTableError("%s holds the DTZ of the other side to move" % parts[0]["name"])
            return table

    def _ply(self, position):
        """The ply of a legal position: -1 a draw, else odd when the side to move mates, even when it is mated."""
        if len(position.pieces) == 2:
            return -1
        stored = self._as_stored(position)
        if stored is None:
            return self._ply_from_moves(position)
        position = stored
        table = self._table(position.material())
        if position.turn != table.stored:
            return self._ply_from_moves(position)
        code, at = table.code(position)
        if code != _MARK:
            return code - 1
        ply = _fold([self._ply(after) for after, exit_, _ in position.legal_moves() if exit_])
        if ply + 1 < at[0].marker:  # read as that ply from now on, as the Java probe does
            self._cache.block(at[0], at[1])[at[2]] = ply + 1
        return ply

    def _ply_from_moves(self, position):
        moves = position.legal_moves()
        if not moves:
            return 0 if position.in_check() else -1
        return _fold([self._ply(after) for after, _, _ in moves])


def open_tablebase(directory, cache_bytes=64 << 20, verify=False):
    """Opens a table folder, or a folder of table folders (``jobs/generate --up-to 5 --out DIR``)."""
    tablebase = Tablebase(cache_bytes)
    tablebase.add_directory(directory, verify)
    return tablebase


def main(argv):
    """The command: a line a position, or a line saying why it has no answer (exit status 1 if any had none)."""
    import argparse
    parser = argparse.ArgumentParser(prog="tablebase.py", description="Probe DTM from compressed tables: prints FEN, WDL, DTM in moves.")
    parser.add_argument("--tables", required=True, help="a table folder or a folder of them")
    parser.add_argument("--fens", help="a file of FENs, one a line")
    parser.add_argument("--dtz", action="store_true", help="print five-valued WDL and DTZ under the 50-move rule instead")
    parser.add_argument("fen", nargs="*", help="FENs to probe ('_' may stand for spaces)")
    args = parser.parse_args(argv)
    try:
        tablebase = open_tablebase(args.tables)
        fens = list(args.fen)
        if args.fens:
            with open(args.fens, encoding="utf-8") as f:
                fens.extend(line.strip() for line in f if line.strip())
    except (TablebaseError, OSError, ValueError) as e:
        print("tablebase.py: error: %s" % e, file=sys.stderr)
        return 2
    status = 0
    with tablebase:
        for fen in fens:
            try:
                if args.dtz:
                    print("%s\t%d\t%d" % (fen, tablebase.probe_wdl50(fen), tablebase.probe_dtz(fen)))
                else:
                    print("%s\t%d\t%d" % (fen, tablebase.probe_wdl(fen), tablebase.probe_dtm(fen)))
            except TablebaseError as e:
                print("%s\terror: %s" % (fen, e))
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
