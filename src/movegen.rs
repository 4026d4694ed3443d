//! Move generation: all legal moves, evasions, and checks generated directly.
//!
//! Every generator returns fully legal moves: no move leaves the mover's king attacked, drops
//! obey the two-pawn rule (二歩), never land where the piece could not move again, and a pawn
//! drop that would mate (打ち歩詰め) is left out.

use crate::bitboard::{self, Bitboard};
use crate::moves::{Move, MoveList};
use crate::position::{Position, live_squares};
use crate::types::{Color, PieceKind, Square};

/// What [`Position::evasion_counts`] counts (and, summed, [`Position::check_count`]: a
/// discovered check by the king counts as a board move, drops one each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct EvasionCounts {
    pub king: u32,
    pub board: u32,
    pub drop_squares: u32,
}

/// Which promotion variants a board move of `kind` from `from` has, as two target masks:
/// (squares reachable without promoting, squares reachable with promotion).
#[inline]
fn promotion_masks(us: Color, kind: PieceKind, from: Square) -> (Bitboard, Bitboard) {
    let zone = bitboard::far_ranks(us, 3);
    let promote = if kind.can_promote() {
        if from.in_promotion_zone(us) {
            Bitboard::ALL
        } else {
            zone
        }
    } else {
        Bitboard::EMPTY
    };
    (live_squares(us, kind), promote)
}

/// Where the generators put the moves they find: a [`MoveList`], or [`EvasionCounts`] for
/// the search's initial numbers, which need only how many there are of each kind. One
/// generator serves both, so the counts are those of the list by construction.
trait Sink {
    /// The king's moves from `ksq` to `tos`.
    fn king_moves(&mut self, ksq: Square, tos: Bitboard);
    /// One move per square of `plain` (no promotion) and of `promo` (promotion).
    fn moves(&mut self, from: Square, plain: Bitboard, promo: Bitboard);
    /// One pawn step per square of `tos`, the origin being one rank behind for `us`.
    fn pawn_steps(&mut self, us: Color, tos: Bitboard, promote: bool);
    /// The drops of `pos`'s side to move onto `empty` (which must be empty).
    fn drops(&mut self, pos: &Position, empty: Bitboard);
    /// The drops of `kind` onto each square of `tos`.
    fn drops_of(&mut self, kind: PieceKind, tos: Bitboard);
    /// One move.
    fn one(&mut self, mv: Move);
}

impl Sink for MoveList {
    #[inline(always)]
    fn king_moves(&mut self, ksq: Square, tos: Bitboard) {
        self.moves(ksq, tos, Bitboard::EMPTY);
    }

    #[inline(always)]
    fn moves(&mut self, from: Square, plain: Bitboard, promo: Bitboard) {
        for to in promo {
            self.push(Move::normal_unchecked(from, to, true));
        }
        for to in plain {
            self.push(Move::normal_unchecked(from, to, false));
        }
    }

    #[inline(always)]
    fn pawn_steps(&mut self, us: Color, tos: Bitboard, promote: bool) {
        for to in tos {
            let from = match us {
                Color::Black => to.index() + 1,
                Color::White => to.index() - 1,
            };
            self.push(Move::normal_unchecked(
                Square::from_index_unchecked(from),
                to,
                promote,
            ));
        }
    }

    #[inline(always)]
    fn drops(&mut self, pos: &Position, empty: Bitboard) {
        pos.generate_drops(self, empty);
    }

    #[inline(always)]
    fn drops_of(&mut self, kind: PieceKind, tos: Bitboard) {
        for to in tos {
            self.push(Move::drop_unchecked(kind, to));
        }
    }

    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.push(mv);
    }
}

impl Sink for EvasionCounts {
    #[inline(always)]
    fn king_moves(&mut self, _: Square, tos: Bitboard) {
        self.king += tos.count();
    }

    #[inline(always)]
    fn moves(&mut self, _: Square, plain: Bitboard, promo: Bitboard) {
        self.board += plain.count() + promo.count();
    }

    #[inline(always)]
    fn pawn_steps(&mut self, _: Color, tos: Bitboard, _: bool) {
        self.board += tos.count();
    }

    #[inline(always)]
    fn drops(&mut self, pos: &Position, empty: Bitboard) {
        self.drop_squares += pos.drop_squares(empty).count();
    }

    #[inline(always)]
    fn drops_of(&mut self, _: PieceKind, tos: Bitboard) {
        self.drop_squares += tos.count();
    }

    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.board += 1;
    }
}

/// The moves of a silver, bishop or rook from `from` to `t`: with and without promotion
/// where the move starts or ends in the zone.
#[inline(always)]
fn optional_promotions(sink: &mut impl Sink, us: Color, from: Square, t: Bitboard, zone: Bitboard) {
    let promo = if from.in_promotion_zone(us) {
        t
    } else {
        t & zone
    };
    sink.moves(from, t, promo);
}

impl Position {
    /// Every legal move.
    ///
    /// ```
    /// use tsume::Position;
    /// assert_eq!(Position::startpos().legal_moves().len(), 30);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Appends every legal move to `list`.
    pub fn generate_legal(&self, list: &mut MoveList) {
        if self.in_check() {
            self.generate_evasions(list);
        } else {
            self.generate_non_evasions(list);
        }
    }

    /// Every legal reply to a check: king moves, captures of the checker, and interpositions
    /// by a move or a drop. Empty when the side to move is not in check.
    pub fn evasions(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_evasions(&mut list);
        list
    }

    /// Appends the evasions (see [`Position::evasions`]) to `list`.
    pub fn generate_evasions(&self, list: &mut MoveList) {
        self.evasions_into(list);
    }

    /// How many evasions [`Position::evasions`] would list, by kind, without listing them:
    /// king moves, other board replies (each promotion variant counted), and the squares
    /// where some drop is legal (every drop square once, whatever the kinds). For the
    /// search's initial numbers of a new node, which need only these counts.
    pub(crate) fn evasion_counts(&self) -> EvasionCounts {
        let mut n = EvasionCounts::default();
        self.evasions_into(&mut n);
        n
    }

    /// The evasions, into `sink`.
    #[inline]
    fn evasions_into(&self, sink: &mut impl Sink) {
        let checkers = self.checkers();
        if checkers.is_empty() {
            return;
        }
        let us = self.side_to_move();
        let them = us.flip();
        let ksq = self.king_square(us).expect("a side in check has a king");
        let occ = self.occupied();
        let ours = self.pieces_of(us);

        // King moves, with the king lifted so that it cannot hide behind itself.
        let occ_no_king = occ ^ Bitboard::from_square(ksq);
        let steps = bitboard::king_attacks(ksq) & !ours;
        sink.king_moves(ksq, steps & !self.attacked_among(steps, them, occ_no_king));
        if checkers.more_than_one() {
            return;
        }
        let checker = checkers.first().expect("one checker");
        let block = bitboard::between(ksq, checker);
        let target = block | checkers;
        // A pinned piece can never capture the checker or interpose.
        let pinned = self.blockers_for_king(us, occ) & ours;
        self.generate_piece_moves(sink, target, pinned, ksq, Bitboard::EMPTY, occ);
        if block.is_any() {
            sink.drops(self, block);
        }
    }

    /// The squares of `empty` (which must be empty) where [`Position::generate_drops`] lists
    /// at least one drop.
    fn drop_squares(&self, empty: Bitboard) -> Bitboard {
        let us = self.side_to_move();
        let hand = self.hand(us);
        let mut squares = Bitboard::EMPTY;
        if hand.has(PieceKind::Pawn) {
            squares |= self.pawn_drop_squares(empty);
        }
        let has = |k: PieceKind| hand.has(k);
        let anywhere = [
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ]
        .into_iter()
        .any(has);
        if anywhere {
            squares |= empty;
        } else if has(PieceKind::Lance) {
            squares |= empty & !bitboard::far_ranks(us, 1);
        } else if has(PieceKind::Knight) {
            squares |= empty & !bitboard::far_ranks(us, 2);
        }
        squares
    }

    fn generate_non_evasions(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let target = !self.pieces_of(us);
        match self.king_square(us) {
            Some(ksq) => {
                let pinned = self.blockers_for_king(us, occ) & self.pieces_of(us);
                self.generate_piece_moves(list, target, Bitboard::EMPTY, ksq, pinned, occ);
                for to in bitboard::king_attacks(ksq) & target {
                    // Not in check: no slider looks through the king, so `occ` is right.
                    if !self.is_attacked(to, them, occ) {
                        list.push(Move::normal_unchecked(ksq, to, false));
                    }
                }
            }
            None => {
                // No king: nothing is pinned. Use a square no line passes through for `ksq`
                // (the pinned set is empty, so it is never read).
                let any = Square::from_index_unchecked(0);
                self.generate_piece_moves(list, target, Bitboard::EMPTY, any, Bitboard::EMPTY, occ);
            }
        }
        self.generate_drops(list, !occ);
    }

    /// Moves of every non-king piece of the side to move onto `target`. Pieces in `excluded`
    /// do not move; pieces in `pinned` move only along the line through `ksq`.
    #[inline]
    fn generate_piece_moves(
        &self,
        list: &mut impl Sink,
        target: Bitboard,
        excluded: Bitboard,
        ksq: Square,
        pinned: Bitboard,
        occ: Bitboard,
    ) {
        let us = self.side_to_move();
        let ours = self.pieces_of(us) & !excluded;
        let free = ours & !pinned;
        let zone = bitboard::far_ranks(us, 3);
        let last = bitboard::far_ranks(us, 1);
        let last2 = bitboard::far_ranks(us, 2);

        // Pawns: one step forward, all unpinned pawns at once; promotion in the zone, forced
        // on the last rank.
        let pawns = self.pieces(us, PieceKind::Pawn) & free;
        let steps = match us {
            Color::Black => Bitboard(pawns.0 >> 1),
            Color::White => Bitboard(pawns.0 << 1),
        } & target;
        list.pawn_steps(us, steps & zone, true);
        list.pawn_steps(us, steps & !last, false);
        // Lances: promotion forced on the last rank.
        // (Sliders first test their reach on an empty board: against a check the targets
        // are a few squares, mostly out of it, and the real attacks cost more.)
        for from in self.pieces(us, PieceKind::Lance) & free {
            if (bitboard::lance_pseudo_attacks(us, from) & target).is_empty() {
                continue;
            }
            let t = bitboard::lance_attacks(us, from, occ) & target;
            list.moves(from, t & !last, t & zone);
        }
        // Knights: promotion forced on the last two ranks.
        for from in self.pieces(us, PieceKind::Knight) & free {
            let t = bitboard::knight_attacks(us, from) & target;
            list.moves(from, t & !last2, t & zone);
        }
        // Silvers, bishops, rooks: promotion optional when starting or ending in the zone.
        for from in self.pieces(us, PieceKind::Silver) & free {
            let t = bitboard::silver_attacks(us, from) & target;
            optional_promotions(list, us, from, t, zone);
        }
        for from in self.pieces(us, PieceKind::Bishop) & free {
            if (bitboard::bishop_pseudo_attacks(from) & target).is_empty() {
                continue;
            }
            let t = bitboard::bishop_attacks(from, occ) & target;
            optional_promotions(list, us, from, t, zone);
        }
        for from in self.pieces(us, PieceKind::Rook) & free {
            if (bitboard::rook_pseudo_attacks(from) & target).is_empty() {
                continue;
            }
            let t = bitboard::rook_attacks(from, occ) & target;
            optional_promotions(list, us, from, t, zone);
        }
        // Pieces that never promote.
        for from in self.golds(us) & free {
            let t = bitboard::gold_attacks(us, from) & target;
            list.moves(from, t, Bitboard::EMPTY);
        }
        for from in self.pieces(us, PieceKind::Horse) & free {
            if ((bitboard::bishop_pseudo_attacks(from) | bitboard::king_attacks(from)) & target)
                .is_empty()
            {
                continue;
            }
            let t = (bitboard::bishop_attacks(from, occ) | bitboard::king_attacks(from)) & target;
            list.moves(from, t, Bitboard::EMPTY);
        }
        for from in self.pieces(us, PieceKind::Dragon) & free {
            if ((bitboard::rook_pseudo_attacks(from) | bitboard::king_attacks(from)) & target)
                .is_empty()
            {
                continue;
            }
            let t = (bitboard::rook_attacks(from, occ) | bitboard::king_attacks(from)) & target;
            list.moves(from, t, Bitboard::EMPTY);
        }
        // Pinned pieces (rare) move only along the line through their king.
        for from in ours & pinned {
            let kind = self.piece_at(from).expect("a pinned piece").kind();
            let t = bitboard::attacks(us, kind, from, occ) & target & bitboard::ray(ksq, from);
            let (plain_ok, promo_ok) = promotion_masks(us, kind, from);
            list.moves(from, t & plain_ok, t & promo_ok);
        }
    }

    /// The squares of `empty` where a pawn of the side to move (which must hold one) may
    /// drop: not on the last rank, not on a file with its unpromoted pawn (二歩), not a mate
    /// (打ち歩詰め).
    fn pawn_drop_squares(&self, empty: Bitboard) -> Bitboard {
        let us = self.side_to_move();
        let mut t = empty & live_squares(us, PieceKind::Pawn) & !self.pawn_files(us);
        if let Some(front) = self.pawn_check_square() {
            if t.contains(front) && self.is_pawn_drop_mate(front) {
                t.remove(front);
            }
        }
        t
    }

    /// Drops of every kind in hand onto the squares of `empty` (which must be empty).
    fn generate_drops(&self, list: &mut MoveList, empty: Bitboard) {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() {
            return;
        }
        if hand.has(PieceKind::Pawn) {
            for to in self.pawn_drop_squares(empty) {
                list.push(Move::drop_unchecked(PieceKind::Pawn, to));
            }
        }
        // The other kinds, grouped by where they may land.
        let mut kinds = [PieceKind::Pawn; 6];
        let mut n = 0;
        for k in [
            PieceKind::Lance,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ] {
            if hand.has(k) {
                kinds[n] = k;
                n += 1;
            }
        }
        let kinds = &kinds[..n];
        if kinds.is_empty() {
            return;
        }
        // Squares where all kinds may land, then the last ranks for the kinds allowed there.
        let last = bitboard::far_ranks(us, 1);
        let last2 = bitboard::far_ranks(us, 2);
        for to in empty & !last2 {
            for &k in kinds {
                list.push(Move::drop_unchecked(k, to));
            }
        }
        for to in empty & last2 & !last {
            for &k in kinds {
                if k != PieceKind::Knight {
                    list.push(Move::drop_unchecked(k, to));
                }
            }
        }
        for to in empty & last {
            for &k in kinds {
                if k != PieceKind::Knight && k != PieceKind::Lance {
                    list.push(Move::drop_unchecked(k, to));
                }
            }
        }
    }

    /// The files holding an unpromoted pawn of `color` (where it may not drop another).
    #[inline]
    pub(crate) fn pawn_files(&self, color: Color) -> Bitboard {
        let mut files = Bitboard::EMPTY;
        for sq in self.pieces(color, PieceKind::Pawn) {
            files |= Bitboard::file_mask(sq.file());
        }
        files
    }

    /// The square from which a pawn of the side to move would check the enemy king.
    #[inline]
    fn pawn_check_square(&self) -> Option<Square> {
        let them = self.side_to_move().flip();
        let ksq = self.king_square(them)?;
        bitboard::pawn_attacks(them, ksq).first()
    }

    /// Whether dropping a pawn of the side to move on `to` (the square in front of the enemy
    /// king) would mate: drop-pawn mate (打ち歩詰め, uchifuzume), which is illegal.
    pub(crate) fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side_to_move();
        let them = us.flip();
        let Some(ksq) = self.king_square(them) else {
            return false;
        };
        let occ = self.occupied() | Bitboard::from_square(to);
        // Can a defender other than the king take the pawn? Pins are computed with the pawn
        // on the board.
        let pinned = self.slider_blockers(ksq, us, occ) & self.pieces_of(them);
        let takers =
            self.attackers_to(to, them, occ) & !self.pieces(them, PieceKind::King) & !pinned;
        if takers.is_any() {
            return false;
        }
        // Can the king step anywhere safe, taking the pawn included?
        let occ_no_king = occ ^ Bitboard::from_square(ksq);
        for sq in bitboard::king_attacks(ksq) & !self.pieces_of(them) {
            if !self.is_attacked(sq, us, occ_no_king) {
                return false;
            }
        }
        true
    }

    /// Every legal move that gives check (王手), direct or discovered, generated directly from
    /// the squares that attack the enemy king rather than by filtering all legal moves.
    ///
    /// Empty when the opponent has no king.
    ///
    /// ```
    /// use tsume::Position;
    /// // A lone gold in hand checks from 5b, 4b, 6b (in front of the king) and 4a, 6a (beside it).
    /// let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b G")?;
    /// let mut checks: Vec<String> = pos.check_moves().iter().map(|m| m.to_string()).collect();
    /// checks.sort();
    /// assert_eq!(checks, ["G*4a", "G*4b", "G*5b", "G*6a", "G*6b"]);
    /// # Ok::<(), tsume::SfenError>(())
    /// ```
    pub fn check_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_checks(&mut list);
        list
    }

    /// Appends the checking moves (see [`Position::check_moves`]) to `list`.
    pub fn generate_checks(&self, list: &mut MoveList) {
        self.checks_into(list);
    }

    /// How many checking moves there are: `check_moves().len()`, without making the list
    /// (the search's initial numbers need only the count).
    pub(crate) fn check_count(&self) -> u32 {
        let mut n = EvasionCounts::default();
        self.checks_into(&mut n);
        n.king + n.board + n.drop_squares
    }

    /// The checking moves, into `list`.
    fn checks_into(&self, list: &mut impl Sink) {
        let us = self.side_to_move();
        let them = us.flip();
        let Some(eksq) = self.king_square(them) else {
            return;
        };
        if self.in_check() {
            // Rare in tsume (only when the attacker has a king and the defender checked it):
            // every check must also answer the check.
            let mut ev = MoveList::new();
            self.generate_evasions(&mut ev);
            for m in ev {
                if self.gives_check(m) {
                    list.one(m);
                }
            }
            return;
        }
        let occ = self.occupied();
        let ours = self.pieces_of(us);
        let target = !ours;
        let empty = !occ;

        // Squares from which each kind of ours attacks the enemy king.
        let cs_pawn = bitboard::pawn_attacks(them, eksq);
        let cs_knight = bitboard::knight_attacks(them, eksq);
        let cs_silver = bitboard::silver_attacks(them, eksq);
        let cs_gold = bitboard::gold_attacks(them, eksq);
        let cs_lance = bitboard::lance_attacks(them, eksq, occ);
        let cs_bishop = bitboard::bishop_attacks(eksq, occ);
        let cs_rook = bitboard::rook_attacks(eksq, occ);
        let king_ring = bitboard::king_attacks(eksq);
        let check_squares = |k: PieceKind| -> Bitboard {
            match k {
                PieceKind::Pawn => cs_pawn,
                PieceKind::Lance => cs_lance,
                PieceKind::Knight => cs_knight,
                PieceKind::Silver => cs_silver,
                PieceKind::Bishop => cs_bishop,
                PieceKind::Rook => cs_rook,
                PieceKind::Horse => cs_bishop | king_ring,
                PieceKind::Dragon => cs_rook | king_ring,
                PieceKind::King => Bitboard::EMPTY,
                _ => cs_gold,
            }
        };

        // Our pieces whose moving off the line uncovers one of our sliders on the enemy king.
        let discoverers = self.slider_blockers(eksq, us, occ) & ours;
        let our_king = self.king_square(us);
        let pinned = match our_king {
            Some(_) => self.blockers_for_king(us, occ) & ours,
            None => Bitboard::EMPTY,
        };

        // A piece can only give check if it is a discoverer or can reach a checking square;
        // filter the pieces cheaply before computing their attacks. The checking squares of
        // a piece that steps are next to the king (two ranks away for a knight), so it
        // moves from near the king; a slider may come from anywhere.
        let sliders = self.pieces(us, PieceKind::Lance)
            | self.pieces(us, PieceKind::Bishop)
            | self.pieces(us, PieceKind::Rook)
            | self.pieces(us, PieceKind::Horse)
            | self.pieces(us, PieceKind::Dragon);
        let knights = self.pieces(us, PieceKind::Knight);
        let mut movers = ours
            & (sliders
                | discoverers
                | bitboard::near_box(eksq)
                | (knights & bitboard::knight_box(eksq)));
        if let Some(k) = our_king {
            movers.remove(k);
        }
        for from in movers {
            let piece = self.piece_at(from).expect("our piece");
            let kind = piece.kind();
            let mut t = bitboard::attacks(us, kind, from, occ) & target;
            if t.is_empty() {
                continue;
            }
            if pinned.contains(from) {
                t &= bitboard::ray(our_king.expect("pinned implies a king"), from);
            }
            let discovered = if discoverers.contains(from) {
                t & !bitboard::ray(eksq, from)
            } else {
                Bitboard::EMPTY
            };
            let (plain_ok, promo_ok) = promotion_masks(us, kind, from);
            let plain = t & plain_ok & (check_squares(kind) | discovered);
            let promo = match kind.promote() {
                Some(pk) => t & promo_ok & (check_squares(pk) | discovered),
                None => Bitboard::EMPTY,
            };
            list.moves(from, plain, promo);
        }

        // The king gives only discovered checks.
        if let Some(k) = our_king {
            if discoverers.contains(k) {
                for to in bitboard::king_attacks(k) & target & !bitboard::ray(eksq, k) {
                    if !self.is_attacked(to, them, occ) {
                        list.one(Move::normal_unchecked(k, to, false));
                    }
                }
            }
        }

        // Drops.
        let hand = self.hand(us);
        for kind in PieceKind::HAND {
            if !hand.has(kind) {
                continue;
            }
            let mut t = check_squares(kind) & empty & live_squares(us, kind);
            if kind == PieceKind::Pawn {
                t &= !self.pawn_files(us);
                if let Some(to) = t.first() {
                    if self.is_pawn_drop_mate(to) {
                        t = Bitboard::EMPTY;
                    }
                }
            }
            list.drops_of(kind, t);
        }
    }

    /// Whether the legal move `mv` gives check to the opponent.
    pub fn gives_check(&self, mv: Move) -> bool {
        let mut after = self.clone();
        after.play_unchecked(mv);
        after.in_check()
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;

    /// Every position two plies from the problems of a suite (attacker and defender to move,
    /// in check or not).
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        for line in include_str!("../problems/random.sfen").lines().take(60) {
            let sfen = line.split('#').next().unwrap_or("").trim();
            let Ok(root) = Position::from_sfen(sfen) else {
                continue;
            };
            for m1 in root.legal_moves() {
                let mut p1 = root.clone();
                p1.play_unchecked(m1);
                for m2 in p1.legal_moves().into_iter().take(8) {
                    let mut p2 = p1.clone();
                    p2.play_unchecked(m2);
                    out.push(p2);
                }
                out.push(p1);
            }
            out.push(root);
        }
        out
    }

    #[test]
    fn counts_are_the_lengths_of_the_lists() {
        let all = positions();
        assert!(all.len() > 10_000, "{}", all.len());
        for p in &all {
            assert_eq!(
                p.check_count() as usize,
                p.check_moves().len(),
                "{}",
                p.to_sfen()
            );
            if p.in_check() {
                let n = p.evasion_counts();
                let evasions = p.evasions();
                assert_eq!(
                    (n.king + n.board) as usize,
                    evasions.iter().filter(|m| !m.is_drop()).count(),
                    "{}",
                    p.to_sfen()
                );
                let mut drop_squares: Vec<_> = evasions
                    .iter()
                    .filter(|m| m.is_drop())
                    .map(|m| m.to())
                    .collect();
                drop_squares.sort_unstable_by_key(|s| s.index());
                drop_squares.dedup();
                assert_eq!(
                    n.drop_squares as usize,
                    drop_squares.len(),
                    "{}",
                    p.to_sfen()
                );
            }
        }
    }

    /// The check generator's shortcuts (pieces too far from the king to check are not tried,
    /// sliders out of reach of the targets skipped) leave out no check: the same moves as the
    /// legal moves that give check.
    #[test]
    fn checks_are_the_legal_moves_that_check() {
        for p in positions() {
            let mut direct: Vec<_> = p.check_moves().into_iter().map(|m| m.raw()).collect();
            let mut filtered: Vec<_> = p
                .legal_moves()
                .into_iter()
                .filter(|&m| p.gives_check(m))
                .map(|m| m.raw())
                .collect();
            direct.sort_unstable();
            filtered.sort_unstable();
            assert_eq!(direct, filtered, "{}", p.to_sfen());
        }
    }
}
