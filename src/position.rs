//! The position: board, hands, side to move; SFEN reading and writing; making moves.

use crate::bitboard::{self, Bitboard};
use crate::hand::{Hand, SFEN_ORDER};
use crate::types::{Color, Piece, PieceKind, Square};
use crate::zobrist;
use std::fmt;
use std::str::FromStr;

/// A shogi position: the pieces on the board, both hands, the side to move and the move
/// number, with bitboards, king squares, the pieces giving check and Zobrist keys kept up to
/// date as moves are made.
///
/// A position always satisfies the rules' static constraints: no more pieces than a full
/// set, at most one king per side and at least one king in all, no two unpromoted pawns of
/// one side on a file, no piece on a square from which it can never move, and the side not
/// to move is not in check. [`Position::from_sfen`] enforces them.
///
/// ```
/// use tsume::Position;
/// let pos: Position = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".parse()?;
/// assert_eq!(pos, Position::startpos());
/// assert_eq!(pos.legal_moves().len(), 30);
/// # Ok::<(), tsume::SfenError>(())
/// ```
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 14],
    /// Pieces that move as a gold: gold, tokin, promoted lance, knight and silver.
    golds: Bitboard,
    hands: [Hand; 2],
    side: Color,
    kings: [Option<Square>; 2],
    checkers: Bitboard,
    board_key: u64,
    hand_key: u64,
    move_number: u32,
}

impl PartialEq for Position {
    /// Positions are equal when board, hands and side to move agree (the move number is
    /// ignored).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
}
impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state)
    }
}

/// The SFEN of the initial position of a game (平手).
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

impl Position {
    fn empty() -> Position {
        Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 14],
            golds: Bitboard::EMPTY,
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            kings: [None; 2],
            checkers: Bitboard::EMPTY,
            board_key: 0,
            hand_key: 0,
            move_number: 1,
        }
    }

    /// The initial position of a game.
    pub fn startpos() -> Position {
        Position::from_sfen(STARTPOS_SFEN).expect("the start position is valid")
    }

    // ----- accessors ------------------------------------------------------------------------

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// `color`'s hand.
    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// The side to move (in a tsume problem: the attacker).
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The move number (the SFEN's last field; 1 if it was missing).
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The square of `color`'s king, if it has one.
    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// Whether the side to move is in check (王手).
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.is_any()
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares occupied by `color`.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares holding a piece of `kind`, either colour.
    #[inline]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind as usize]
    }

    /// The squares holding a piece of `color` and `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind as usize]
    }

    /// `color`'s pieces that move as a gold (gold, tokin, promoted lance, knight, silver).
    #[inline]
    pub(crate) fn golds(&self, color: Color) -> Bitboard {
        self.golds & self.by_color[color.index()]
    }

    /// Zobrist key of the board and the side to move, without hands.
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }

    /// Zobrist key of both hands (a wrapping sum over the pieces in hand).
    #[inline]
    pub fn hand_key(&self) -> u64 {
        self.hand_key
    }

    /// Zobrist key of the whole position (board, side to move and hands).
    #[inline]
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key
    }

    /// The board key, hand key and `color`'s hand after the legal move `mv`, without making
    /// it (for the solver's table look-ups of children). Crate-private: it trusts `mv` and
    /// panics when `mv` moves from an empty square or promotes a piece that cannot.
    #[inline]
    pub(crate) fn keys_after(&self, mv: Move, color: Color) -> (u64, u64, Hand) {
        let us = self.side;
        let to = mv.to();
        let mut board = self.board_key ^ zobrist::side_key();
        let mut hands = self.hand_key;
        let mut hand = self.hands[color.index()];
        match mv.from() {
            None => {
                let kind = mv.drop_kind().expect("a drop has a kind");
                board ^= zobrist::piece_key(Piece::new(us, kind), to);
                hands = hands.wrapping_sub(zobrist::hand_key(us, kind));
                if color == us {
                    hand.remove(kind);
                }
            }
            Some(from) => {
                let piece = self.board[from.index()].expect("a piece to move");
                board ^= zobrist::piece_key(piece, from);
                let moved = if mv.is_promotion() {
                    Piece::new(us, piece.kind().promote().expect("a promotable piece"))
                } else {
                    piece
                };
                board ^= zobrist::piece_key(moved, to);
                if let Some(captured) = self.board[to.index()] {
                    board ^= zobrist::piece_key(captured, to);
                    let k = captured.kind().unpromote();
                    hands = hands.wrapping_add(zobrist::hand_key(us, k));
                    if color == us {
                        hand.add(k);
                    }
                }
            }
        }
        (board, hands, hand)
    }

    /// The board key and hand key of the capture position of an interposition (see the
    /// solver's futile-interposition rule): after the defender's `mv` to a square between the
    /// king and the distant `checker`, the checker captures there (promoting when `promote`);
    /// a dropped piece goes back to the defender's hand, a moved one is taken out of play
    /// ([`Position::take_out_of_play`]). Keys only; the caller has checked that the capture is
    /// legal.
    pub(crate) fn capture_keys_after(
        &self,
        mv: Move,
        checker: Square,
        promote: bool,
    ) -> (u64, u64) {
        let to = mv.to();
        let piece = self.board[checker.index()].expect("a checker");
        let moved = if promote {
            Piece::new(
                piece.color(),
                piece.kind().promote().expect("a promotable checker"),
            )
        } else {
            piece
        };
        let mut board =
            self.board_key ^ zobrist::piece_key(piece, checker) ^ zobrist::piece_key(moved, to);
        // A dropped piece handed back leaves the hands as before the drop.
        if let Some(from) = mv.from() {
            let interposed = self.board[from.index()].expect("a piece to move");
            board ^= zobrist::piece_key(interposed, from);
            let kind = interposed.kind().unpromote();
            let n = self.in_play(kind);
            board ^= zobrist::in_play_key(kind, n) ^ zobrist::in_play_key(kind, n - 1);
        }
        (board, self.hand_key)
    }

    /// Computes the board key from scratch (the incremental key must always equal it).
    pub fn compute_board_key(&self) -> u64 {
        let mut k = 0;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                k ^= zobrist::piece_key(p, sq);
            }
        }
        if self.side == Color::White {
            k ^= zobrist::side_key();
        }
        k
    }

    /// Computes the hand key from scratch.
    pub fn compute_hand_key(&self) -> u64 {
        let mut k = 0u64;
        for c in Color::ALL {
            for kind in PieceKind::HAND {
                k = k.wrapping_add(
                    zobrist::hand_key(c, kind)
                        .wrapping_mul(self.hands[c.index()].count(kind) as u64),
                );
            }
        }
        k
    }

    // ----- attacks --------------------------------------------------------------------------

    /// The pieces of either colour that would attack `sq` by one step (pawn, knight, silver,
    /// gold-movers, king, and the king steps of horse and dragon) if they belonged to the
    /// opponent of `them`.
    #[inline]
    fn step_attackers(&self, sq: Square, them: Color) -> Bitboard {
        let k = &self.by_kind;
        (bitboard::pawn_attacks(them, sq) & k[PieceKind::Pawn as usize])
            | (bitboard::knight_attacks(them, sq) & k[PieceKind::Knight as usize])
            | (bitboard::silver_attacks(them, sq) & k[PieceKind::Silver as usize])
            | (bitboard::gold_attacks(them, sq) & self.golds)
            | (bitboard::king_attacks(sq)
                & (k[PieceKind::King as usize]
                    | k[PieceKind::Horse as usize]
                    | k[PieceKind::Dragon as usize]))
    }

    /// The squares of `targets` that `by` attacks, with `occ` as the occupied squares: for
    /// the king's moves out of check, where testing each square on its own repeats the same
    /// work (the same few attacking pieces) up to eight times.
    #[inline]
    pub(crate) fn attacked_among(&self, targets: Bitboard, by: Color, occ: Bitboard) -> Bitboard {
        let mut attacked = Bitboard::EMPTY;
        for from in self.by_color[by.index()] {
            let kind = self.board[from.index()].expect("a piece").kind();
            attacked |= bitboard::attacks(by, kind, from, occ);
        }
        attacked & targets
    }

    /// The pieces of `by` that attack `sq`, with `occ` as the occupied squares.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let them = by.flip();
        let ours = self.by_color[by.index()];
        let k = &self.by_kind;
        let steps = self.step_attackers(sq, them);
        let rooks = k[PieceKind::Rook as usize] | k[PieceKind::Dragon as usize];
        let bishops = k[PieceKind::Bishop as usize] | k[PieceKind::Horse as usize];
        let lances = k[PieceKind::Lance as usize] & ours;
        let mut sliders = Bitboard::EMPTY;
        if (bitboard::rook_pseudo_attacks(sq) & rooks & ours).is_any() {
            sliders |= bitboard::rook_attacks(sq, occ) & rooks;
        }
        if (bitboard::bishop_pseudo_attacks(sq) & bishops & ours).is_any() {
            sliders |= bitboard::bishop_attacks(sq, occ) & bishops;
        }
        if (bitboard::lance_pseudo_attacks(them, sq) & lances).is_any() {
            sliders |= bitboard::lance_attacks(them, sq, occ) & lances;
        }
        (steps | sliders) & ours
    }

    /// Whether any piece of `by` attacks `sq`, with `occ` as the occupied squares.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = by.flip();
        let ours = self.by_color[by.index()];
        let k = &self.by_kind;
        let steps = self.step_attackers(sq, them);
        if (steps & ours).is_any() {
            return true;
        }
        let rooks = (k[PieceKind::Rook as usize] | k[PieceKind::Dragon as usize]) & ours;
        if (bitboard::rook_pseudo_attacks(sq) & rooks).is_any()
            && (bitboard::rook_attacks(sq, occ) & rooks).is_any()
        {
            return true;
        }
        let bishops = (k[PieceKind::Bishop as usize] | k[PieceKind::Horse as usize]) & ours;
        if (bitboard::bishop_pseudo_attacks(sq) & bishops).is_any()
            && (bitboard::bishop_attacks(sq, occ) & bishops).is_any()
        {
            return true;
        }
        let lances = k[PieceKind::Lance as usize] & ours;
        (bitboard::lance_pseudo_attacks(them, sq) & lances).is_any()
            && (bitboard::lance_attacks(them, sq, occ) & lances).is_any()
    }

    /// The pieces (of either colour) that alone stand between `color`'s king and an enemy
    /// slider aiming at it, with `occ` as the occupied squares. Those of `color` are pinned.
    pub(crate) fn blockers_for_king(&self, color: Color, occ: Bitboard) -> Bitboard {
        let Some(ksq) = self.kings[color.index()] else {
            return Bitboard::EMPTY;
        };
        self.slider_blockers(ksq, color.flip(), occ)
    }

    /// The pieces that alone stand between `sq` and a slider of `by` aiming at it.
    #[inline]
    pub(crate) fn slider_blockers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let k = &self.by_kind;
        let theirs = self.by_color[by.index()];
        let snipers = ((bitboard::rook_pseudo_attacks(sq)
            & (k[PieceKind::Rook as usize] | k[PieceKind::Dragon as usize]))
            | (bitboard::bishop_pseudo_attacks(sq)
                & (k[PieceKind::Bishop as usize] | k[PieceKind::Horse as usize]))
            | (bitboard::lance_pseudo_attacks(by.flip(), sq) & k[PieceKind::Lance as usize]))
            & theirs;
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = bitboard::between(sq, s) & occ;
            if b.is_any() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    // ----- board edits ----------------------------------------------------------------------

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color().index()] |= bb;
        self.by_kind[piece.kind() as usize] |= bb;
        if moves_as_gold(piece.kind()) {
            self.golds |= bb;
        }
        self.board_key ^= zobrist::piece_key(piece, sq);
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq.index()].take().expect("a piece to remove");
        let bb = Bitboard::from_square(sq);
        self.by_color[piece.color().index()] ^= bb;
        self.by_kind[piece.kind() as usize] ^= bb;
        self.golds &= !bb;
        self.board_key ^= zobrist::piece_key(piece, sq);
        piece
    }

    #[inline]
    fn add_to_hand(&mut self, color: Color, kind: PieceKind) {
        self.hands[color.index()].add(kind);
        self.hand_key = self
            .hand_key
            .wrapping_add(zobrist::hand_key(color, kind.unpromote()));
    }

    #[inline]
    fn remove_from_hand(&mut self, color: Color, kind: PieceKind) {
        self.hands[color.index()].remove(kind);
        self.hand_key = self.hand_key.wrapping_sub(zobrist::hand_key(color, kind));
    }

    /// Moves one piece of `kind` from `from`'s hand to the other side's hand (the futile
    /// interposition test hands a captured dropped piece back to the defender).
    ///
    /// # Panics
    /// If `from` holds no piece of `kind`.
    pub(crate) fn hand_back(&mut self, from: Color, kind: PieceKind) {
        self.remove_from_hand(from, kind);
        self.add_to_hand(from.flip(), kind);
    }

    /// The pieces of base kind `kind` in play: on the board (promoted or not) and in both
    /// hands.
    pub(crate) fn in_play(&self, kind: PieceKind) -> u8 {
        let mut n = self.by_kind[kind as usize].count();
        if let Some(promoted) = kind.promote() {
            n += self.by_kind[promoted as usize].count();
        }
        let hands = self.hands[0].count(kind) + self.hands[1].count(kind);
        n as u8 + hands
    }

    /// Takes one piece of `kind` out of `from`'s hand and out of play: it is in neither hand
    /// (the futile-interposition rule's capture position of a moving interposition, 移動合:
    /// the attacker holds the captured piece but never uses it, and the defender, who had it
    /// on the board, does not get it in hand). The board key changes with the count of that
    /// kind in play ([`zobrist::in_play_key`]), so that the position never shares a
    /// transposition-table entry with one where the defender holds the piece; it then differs
    /// from [`Position::compute_board_key`], which knows nothing of pieces out of play.
    ///
    /// # Panics
    /// If `from` holds no piece of `kind`.
    pub(crate) fn take_out_of_play(&mut self, from: Color, kind: PieceKind) {
        let n = self.in_play(kind);
        self.remove_from_hand(from, kind);
        self.board_key ^= zobrist::in_play_key(kind, n) ^ zobrist::in_play_key(kind, n - 1);
    }

    fn update_checkers(&mut self) {
        self.checkers = match self.kings[self.side.index()] {
            Some(k) => self.attackers_to(k, self.side.flip(), self.occupied()),
            None => Bitboard::EMPTY,
        };
    }

    /// Makes `mv` without checking it. The move must be legal in this position (generated by
    /// one of the move generators or accepted by [`Position::is_legal`]); anything else may
    /// leave the position inconsistent or panic. Use [`Position::play`] for untrusted moves.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        let to = mv.to();
        match mv.from() {
            None => {
                let kind = mv.drop_kind().expect("a drop has a kind");
                self.remove_from_hand(us, kind);
                self.put(to, Piece::new(us, kind));
            }
            Some(from) => {
                if self.board[to.index()].is_some() {
                    let captured = self.take(to);
                    self.add_to_hand(us, captured.kind().unpromote());
                }
                let piece = self.take(from);
                let piece = if mv.is_promotion() {
                    Piece::new(us, piece.kind().promote().expect("a promotable piece"))
                } else {
                    piece
                };
                if piece.kind() == PieceKind::King {
                    self.kings[us.index()] = Some(to);
                }
                self.put(to, piece);
            }
        }
        self.side = us.flip();
        self.board_key ^= zobrist::side_key();
        self.move_number = self.move_number.saturating_add(1);
        self.update_checkers();
    }

    /// Fills the defender's hand (the side *not* to move) with every piece that is neither on
    /// the board nor in the attacker's hand, kings excepted: the tsume convention that the
    /// defender holds all remaining pieces (残り駒全部).
    ///
    /// ```
    /// use tsume::{Position, PieceKind, Color};
    /// let mut pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1")?;
    /// pos.fill_defender_hand();
    /// assert_eq!(pos.hand(Color::White).count(PieceKind::Gold), 3);
    /// assert_eq!(pos.hand(Color::White).count(PieceKind::Pawn), 17);
    /// assert_eq!(pos.to_sfen(), "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    /// # Ok::<(), tsume::SfenError>(())
    /// ```
    pub fn fill_defender_hand(&mut self) {
        let defender = self.side.flip();
        let used = self.piece_counts();
        for kind in PieceKind::HAND {
            let n = kind.full_set_count() - used[kind as usize] as u8;
            for _ in 0..n {
                self.add_to_hand(defender, kind);
            }
        }
    }

    /// Pieces of each base kind on the board and in both hands, indexed by base kind.
    fn piece_counts(&self) -> [u32; 8] {
        let mut n = [0u32; 8];
        for p in self.board.iter().flatten() {
            n[p.kind().unpromote() as usize] += 1;
        }
        for c in Color::ALL {
            for k in PieceKind::HAND {
                n[k as usize] += self.hands[c.index()].count(k) as u32;
            }
        }
        n
    }

    // ----- SFEN -----------------------------------------------------------------------------

    /// Reads a position in SFEN: `<board> <side> <hands> [<move number>]`, optionally after
    /// the word `sfen`. Hands may repeat letters (`PP` = `2P`).
    ///
    /// Never panics; on bad input the error says what is wrong and where.
    ///
    /// ```
    /// use tsume::{Position, SfenError};
    /// let pos = Position::from_sfen("sfen 4k4/9/9/9/9/9/9/9/9 b GPP")?;
    /// assert_eq!(pos.to_sfen(), "4k4/9/9/9/9/9/9/9/9 b G2P 1");
    /// let err = Position::from_sfen("4k4/9/9/9/9/9/9/9/8 b -").unwrap_err();
    /// assert_eq!(err.to_string(), "rank 9 (i) is 8 squares wide, expected 9");
    /// # Ok::<(), SfenError>(())
    /// ```
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        let mut fields = sfen.split_whitespace();
        let mut board_field = fields.next().ok_or(SfenError::Empty)?;
        if board_field == "sfen" {
            board_field = fields.next().ok_or(SfenError::MissingField("board"))?;
        }
        let side_field = fields
            .next()
            .ok_or(SfenError::MissingField("side to move"))?;
        let hand_field = fields.next().ok_or(SfenError::MissingField("hands"))?;
        let move_field = fields.next();
        if let Some(extra) = fields.next() {
            return Err(SfenError::ExtraField(extra.to_string()));
        }

        let mut pos = Position::empty();

        // Board.
        let ranks: Vec<&str> = board_field.split('/').collect();
        if ranks.len() != 9 {
            return Err(SfenError::RankCount(ranks.len()));
        }
        for (ri, text) in ranks.iter().enumerate() {
            let rank = ri as u8 + 1;
            let mut file: i32 = 9; // next file to fill, counting down
            let mut width = 0usize;
            let mut chars = text.chars();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(SfenError::UnknownPiece {
                            rank,
                            text: c.to_string(),
                        });
                    }
                    width += d as usize;
                    file -= d as i32;
                    continue;
                }
                let token = if c == '+' {
                    match chars.next() {
                        Some(n) => format!("+{n}"),
                        None => "+".to_string(),
                    }
                } else {
                    c.to_string()
                };
                let piece = Piece::from_sfen(&token).ok_or(SfenError::UnknownPiece {
                    rank,
                    text: token.clone(),
                })?;
                width += 1;
                if file >= 1 && width <= 9 {
                    let sq = Square::new(file as u8, rank).expect("file and rank in range");
                    pos.board[sq.index()] = Some(piece);
                }
                file -= 1;
            }
            if width != 9 {
                return Err(SfenError::RankWidth { rank, width });
            }
        }

        // Side to move.
        pos.side = match side_field {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(SfenError::SideToMove(other.to_string())),
        };

        // Hands (counted first, checked against the full set below).
        let mut hand_counts = [[0u32; 7]; 2];
        if hand_field != "-" {
            let mut count: Option<u32> = None;
            for c in hand_field.chars() {
                if let Some(d) = c.to_digit(10) {
                    let n = count.unwrap_or(0).saturating_mul(10).saturating_add(d);
                    count = Some(n);
                    continue;
                }
                let bad = |reason: &'static str| SfenError::Hand {
                    text: hand_field.to_string(),
                    reason,
                };
                let kind = PieceKind::from_sfen_letter(c).ok_or(bad("unknown piece letter"))?;
                if !kind.is_hand_kind() {
                    return Err(bad("a king cannot be in hand"));
                }
                let n = count.take().unwrap_or(1);
                if n == 0 {
                    return Err(bad("a count of zero"));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let slot = &mut hand_counts[color.index()][kind as usize];
                *slot = slot.saturating_add(n);
            }
            if count.is_some() {
                return Err(SfenError::Hand {
                    text: hand_field.to_string(),
                    reason: "a count with no piece letter after it",
                });
            }
        }

        // Move number.
        if let Some(m) = move_field {
            pos.move_number = m
                .parse::<u32>()
                .map_err(|_| SfenError::MoveNumber(m.to_string()))?;
        }

        // Piece counts against the full set.
        let mut total = [0u32; 8];
        for p in pos.board.iter().flatten() {
            total[p.kind().unpromote() as usize] += 1;
        }
        for counts in &hand_counts {
            for (t, &n) in total.iter_mut().zip(counts) {
                *t = t.saturating_add(n);
            }
        }
        for kind in [
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Gold,
            PieceKind::Silver,
            PieceKind::Knight,
            PieceKind::Lance,
            PieceKind::Pawn,
            PieceKind::King,
        ] {
            if total[kind as usize] > kind.full_set_count() as u32 {
                return Err(SfenError::TooManyPieces {
                    kind,
                    count: total[kind as usize],
                });
            }
        }

        // Now that counts are known to fit, build the position for real.
        let board = pos.board;
        pos.board = [None; 81];
        for sq in Square::all() {
            if let Some(p) = board[sq.index()] {
                if p.kind() == PieceKind::King {
                    if pos.kings[p.color().index()].is_some() {
                        return Err(SfenError::TooManyKings(p.color()));
                    }
                    pos.kings[p.color().index()] = Some(sq);
                }
                if !can_ever_move(p, sq) {
                    return Err(SfenError::DeadPiece {
                        piece: p,
                        square: sq,
                    });
                }
                pos.put(sq, p);
            }
        }
        if pos.kings == [None, None] {
            return Err(SfenError::NoKing);
        }
        for c in Color::ALL {
            for file in 1..=9 {
                let pawns = pos.pieces(c, PieceKind::Pawn) & Bitboard::file_mask(file);
                if pawns.more_than_one() {
                    return Err(SfenError::TwoPawns { color: c, file });
                }
            }
            for k in PieceKind::HAND {
                for _ in 0..hand_counts[c.index()][k as usize] {
                    pos.add_to_hand(c, k);
                }
            }
        }
        if pos.side == Color::White {
            pos.board_key ^= zobrist::side_key();
        }
        let not_to_move = pos.side.flip();
        if let Some(k) = pos.kings[not_to_move.index()] {
            if pos.is_attacked(k, pos.side, pos.occupied()) {
                return Err(SfenError::OpponentInCheck(not_to_move));
            }
        }
        pos.update_checkers();
        Ok(pos)
    }

    /// Writes the position in canonical SFEN: hands in the order R B G S N L P, Black's first,
    /// counts before letters, `-` when both are empty, and the move number.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in 1..=9u8 {
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let sq = Square::new(file, rank).expect("in range");
                match self.board[sq.index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push_str(&p.to_string());
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank < 9 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(match self.side {
            Color::Black => 'b',
            Color::White => 'w',
        });
        s.push(' ');
        let before = s.len();
        for c in Color::ALL {
            for k in SFEN_ORDER {
                let n = self.hands[c.index()].count(k);
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    s.push_str(&n.to_string());
                }
                let l = k.sfen_letter();
                s.push(if c == Color::Black {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            }
        }
        if s.len() == before {
            s.push('-');
        }
        s.push(' ');
        s.push_str(&self.move_number.to_string());
        s
    }
}

use crate::moves::Move;

/// Whether a piece of this kind moves as a gold.
#[inline]
pub(crate) const fn moves_as_gold(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Gold
            | PieceKind::ProPawn
            | PieceKind::ProLance
            | PieceKind::ProKnight
            | PieceKind::ProSilver
    )
}

/// Whether `piece` standing on `sq` has at least one square it could move to on an empty
/// board (pawns and lances not on the last rank, knights not on the last two).
pub(crate) fn can_ever_move(piece: Piece, sq: Square) -> bool {
    let r = sq.relative_rank(piece.color());
    match piece.kind() {
        PieceKind::Pawn | PieceKind::Lance => r > 1,
        PieceKind::Knight => r > 2,
        _ => true,
    }
}

/// The squares onto which a piece of `kind` and `color` may be dropped or moved without
/// promoting: everything but the last rank for pawns and lances and the last two for knights.
#[inline]
pub(crate) fn live_squares(color: Color, kind: PieceKind) -> Bitboard {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => !bitboard::far_ranks(color, 1),
        PieceKind::Knight => !bitboard::far_ranks(color, 2),
        _ => Bitboard::ALL,
    }
}

impl FromStr for Position {
    type Err = SfenError;
    fn from_str(s: &str) -> Result<Position, SfenError> {
        Position::from_sfen(s)
    }
}

impl fmt::Display for Position {
    /// The canonical SFEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

/// Why an SFEN string was rejected.
///
/// Every variant says what is wrong and where; `Display` gives a one-line, lower-case
/// message suitable for showing to a user next to the input's file and line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SfenError {
    /// The string is empty or only whitespace.
    Empty,
    /// A required field is missing (`"board"`, `"side to move"`, `"hands"`).
    MissingField(&'static str),
    /// Text after the move number.
    ExtraField(String),
    /// The board does not have 9 ranks separated by `/`.
    RankCount(usize),
    /// A rank (1-9) does not describe exactly 9 squares.
    RankWidth {
        /// The rank, 1-9.
        rank: u8,
        /// How many squares it describes.
        width: usize,
    },
    /// A character of the board that is no piece (or `+` before a piece that cannot promote).
    UnknownPiece {
        /// The rank, 1-9.
        rank: u8,
        /// The offending text.
        text: String,
    },
    /// The side to move is not `b` or `w`.
    SideToMove(String),
    /// The hands field is malformed.
    Hand {
        /// The hands field.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// The move number is not a number.
    MoveNumber(String),
    /// More pieces of a kind (board and hands, promoted or not) than a full set holds.
    TooManyPieces {
        /// The base kind.
        kind: PieceKind,
        /// How many there are.
        count: u32,
    },
    /// More than one king of one colour.
    TooManyKings(Color),
    /// No king on the board.
    NoKing,
    /// Two unpromoted pawns of one colour on one file (二歩, nifu).
    TwoPawns {
        /// Whose pawns.
        color: Color,
        /// The file, 1-9.
        file: u8,
    },
    /// A piece on a square from which it can never move (行き所のない駒): a pawn or lance on
    /// its last rank, a knight on its last two.
    DeadPiece {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// The side not to move is in check: the position could not arise.
    OpponentInCheck(Color),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank_letter = |r: u8| (b'a' + r - 1) as char;
        match self {
            SfenError::Empty => write!(f, "empty sfen"),
            SfenError::MissingField(name) => write!(f, "missing field: {name}"),
            SfenError::ExtraField(t) => write!(f, "unexpected text after the move number: {t:?}"),
            SfenError::RankCount(n) => {
                write!(f, "board has {n} ranks separated by '/', expected 9")
            }
            SfenError::RankWidth { rank, width } => write!(
                f,
                "rank {rank} ({}) is {width} squares wide, expected 9",
                rank_letter(*rank)
            ),
            SfenError::UnknownPiece { rank, text } => write!(
                f,
                "unknown piece {text:?} in rank {rank} ({})",
                rank_letter(*rank)
            ),
            SfenError::SideToMove(t) => write!(f, "side to move must be 'b' or 'w', found {t:?}"),
            SfenError::Hand { text, reason } => write!(f, "bad hands field {text:?}: {reason}"),
            SfenError::MoveNumber(t) => write!(f, "bad move number {t:?}"),
            SfenError::TooManyPieces { kind, count } => write!(
                f,
                "{count} pieces of kind {} ({}) on board and in hand, a full set has {}",
                kind.sfen_letter(),
                kind.japanese(),
                kind.full_set_count()
            ),
            SfenError::TooManyKings(c) => write!(f, "{c} has more than one king"),
            SfenError::NoKing => write!(f, "no king on the board"),
            SfenError::TwoPawns { color, file } => {
                write!(f, "two unpromoted {color} pawns on file {file} (nifu)")
            }
            SfenError::DeadPiece { piece, square } => {
                write!(f, "piece {piece} on {square} can never move")
            }
            SfenError::OpponentInCheck(c) => {
                write!(f, "{c} is in check but it is not {c}'s move")
            }
        }
    }
}

impl std::error::Error for SfenError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_round_trip() {
        let p = Position::startpos();
        assert_eq!(p.to_sfen(), STARTPOS_SFEN);
        assert_eq!(p.king_square(Color::Black), Square::from_usi("5i"));
        assert_eq!(p.king_square(Color::White), Square::from_usi("5a"));
        assert!(!p.in_check());
        assert_eq!(p.board_key(), p.compute_board_key());
    }

    #[test]
    fn errors_name_the_problem() {
        let cases = [
            ("", SfenError::Empty),
            ("9/9/9/9/9/9/9/9/9", SfenError::MissingField("side to move")),
            ("4k4/9/9/9/9/9/9/9 b -", SfenError::RankCount(8)),
            ("4k4/9/9/9/9/9/9/9/9 x -", SfenError::SideToMove("x".into())),
            (
                "4k4/9/9/9/9/9/9/9/9 b - 1 extra",
                SfenError::ExtraField("extra".into()),
            ),
            (
                "4k4/9/9/9/9/9/9/9/9 b - one",
                SfenError::MoveNumber("one".into()),
            ),
            (
                "4k3/9/9/9/9/9/9/9/9 b -",
                SfenError::RankWidth { rank: 1, width: 8 },
            ),
            (
                "4k5/9/9/9/9/9/9/9/9 b -",
                SfenError::RankWidth { rank: 1, width: 10 },
            ),
            (
                "4k4/9/9/4x4/9/9/9/9/9 b -",
                SfenError::UnknownPiece {
                    rank: 4,
                    text: "x".into(),
                },
            ),
            (
                "4k4/9/9/4+g4/9/9/9/9/9 b -",
                SfenError::UnknownPiece {
                    rank: 4,
                    text: "+g".into(),
                },
            ),
            ("9/9/9/9/9/9/9/9/9 b -", SfenError::NoKing),
            (
                "4k4/9/9/9/9/9/9/9/4k4 b -",
                SfenError::TooManyKings(Color::White),
            ),
            (
                "4k4/9/9/9/9/9/9/9/9 b 3R",
                SfenError::TooManyPieces {
                    kind: PieceKind::Rook,
                    count: 3,
                },
            ),
            (
                "4k4/9/9/9/9/9/9/9/9 b 19P",
                SfenError::TooManyPieces {
                    kind: PieceKind::Pawn,
                    count: 19,
                },
            ),
            (
                "4k4/9/9/4+B4/9/9/9/9/9 b Bb",
                SfenError::TooManyPieces {
                    kind: PieceKind::Bishop,
                    count: 3,
                },
            ),
            (
                "4k4/9/9/4P4/9/4P4/9/9/9 b -",
                SfenError::TwoPawns {
                    color: Color::Black,
                    file: 5,
                },
            ),
            (
                "P3k4/9/9/9/9/9/9/9/9 b -",
                SfenError::DeadPiece {
                    piece: Piece::new(Color::Black, PieceKind::Pawn),
                    square: Square::from_usi("9a").unwrap(),
                },
            ),
            (
                "4k4/4R4/9/9/9/9/9/9/9 b -",
                SfenError::OpponentInCheck(Color::White),
            ),
            (
                "4k4/9/9/9/9/9/9/9/9 b K",
                SfenError::Hand {
                    text: "K".into(),
                    reason: "a king cannot be in hand",
                },
            ),
            (
                "4k4/9/9/9/9/9/9/9/9 b 2",
                SfenError::Hand {
                    text: "2".into(),
                    reason: "a count with no piece letter after it",
                },
            ),
        ];
        for (sfen, expected) in cases {
            let got = Position::from_sfen(sfen).unwrap_err();
            assert_eq!(got, expected, "{sfen}");
            assert!(!got.to_string().is_empty());
        }
    }

    #[test]
    fn accepts_lenient_forms() {
        let a = Position::from_sfen("sfen 4k4/9/9/9/9/9/9/9/9 w PPGp").unwrap();
        assert_eq!(a.to_sfen(), "4k4/9/9/9/9/9/9/9/9 w G2Pp 1");
        assert_eq!(a.side_to_move(), Color::White);
        let b = Position::from_sfen("  4k4/9/9/9/9/9/9/9/9   b   -   7 ").unwrap();
        assert_eq!(b.move_number(), 7);
        // Side to move in check is fine; only the other side may not be.
        let c = Position::from_sfen("4k4/4R4/9/9/9/9/9/9/9 w -").unwrap();
        assert!(c.in_check());
    }
}
