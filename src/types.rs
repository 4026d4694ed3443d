//! Vocabulary types: colour, square, piece kind, piece.

use std::fmt;
use std::num::NonZeroU8;

/// A side: Black (先手, sente) moves first in a game; White (後手, gote) second.
///
/// In a tsume problem the side to move is the attacker (攻方), usually Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// 先手 (sente), written in upper case in SFEN, ▲ in Japanese notation.
    Black = 0,
    /// 後手 (gote), written in lower case in SFEN, △ in Japanese notation.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: handy for indexing arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A square of the 9×9 board.
///
/// Files (筋) are numbered 1-9 from Black's right to left; ranks (段) 1-9 (USI letters `a`-`i`)
/// from White's side to Black's. In USI, `7g` is file 7, rank 7. Internally a square is the
/// index `(file - 1) * 9 + (rank - 1)`, so the nine squares of a file are contiguous.
/// `Option<Square>` is one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(NonZeroU8);

impl Square {
    /// Number of squares.
    pub const NUM: usize = 81;

    /// The square with the given file and rank, both 1-9.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square::from_index_unchecked(
                ((file - 1) * 9 + rank - 1) as usize,
            ))
        } else {
            None
        }
    }

    /// The square with internal index `index` (0-80), or `None`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square::from_index_unchecked(index))
        } else {
            None
        }
    }

    #[inline]
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < 81);
        // 1 + index, saturating: never zero, and exact for every index below 255.
        Square(NonZeroU8::MIN.saturating_add(index as u8))
    }

    /// Internal index 0-80, `(file - 1) * 9 + (rank - 1)`.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }

    /// File 1-9.
    #[inline]
    pub const fn file(self) -> u8 {
        self.index() as u8 / 9 + 1
    }

    /// Rank 1-9 (1 is White's back rank, USI `a`).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.index() as u8 % 9 + 1
    }

    /// The rank counted from `color`'s side: 1 is the rank farthest from `color`'s camp
    /// (the last rank for its pieces), 9 its own back rank.
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }

    /// Whether the square lies in `color`'s promotion zone (敵陣, the three farthest ranks).
    #[inline]
    pub const fn in_promotion_zone(self, color: Color) -> bool {
        self.relative_rank(color) <= 3
    }

    /// All 81 squares in index order (file 1 rank a, file 1 rank b, ...).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81).map(Square::from_index_unchecked)
    }

    /// Parses a USI square such as `7g`.
    pub fn from_usi(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        if !(b'1'..=b'9').contains(&b[0]) || !(b'a'..=b'i').contains(&b[1]) {
            return None;
        }
        Square::new(b[0] - b'0', b[1] - b'a' + 1)
    }
}

impl fmt::Display for Square {
    /// USI notation, e.g. `7g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The kind of a piece, without colour: the 8 base kinds and the 6 promoted ones.
///
/// The order is chosen so that the seven kinds a player can hold in hand come first
/// (`Pawn`..=`Gold`), and promoting adds 8 (`Pawn` → `ProPawn`, `Rook` → `Dragon`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// 歩 (fu), pawn.
    Pawn = 0,
    /// 香 (kyō), lance.
    Lance = 1,
    /// 桂 (kei), knight.
    Knight = 2,
    /// 銀 (gin), silver general.
    Silver = 3,
    /// 角 (kaku), bishop.
    Bishop = 4,
    /// 飛 (hi), rook.
    Rook = 5,
    /// 金 (kin), gold general. Never promotes.
    Gold = 6,
    /// 玉 / 王 (gyoku / ō), king. Never promotes, never in hand.
    King = 7,
    /// と (tokin), promoted pawn; moves as a gold.
    ProPawn = 8,
    /// 成香 (narikyō), promoted lance; moves as a gold.
    ProLance = 9,
    /// 成桂 (narikei), promoted knight; moves as a gold.
    ProKnight = 10,
    /// 成銀 (narigin), promoted silver; moves as a gold.
    ProSilver = 11,
    /// 馬 (uma), promoted bishop: bishop plus one step orthogonally.
    Horse = 12,
    /// 龍 (ryū), promoted rook: rook plus one step diagonally.
    Dragon = 13,
}

impl PieceKind {
    /// Number of kinds.
    pub const NUM: usize = 14;

    /// All 14 kinds in index order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The seven kinds that can be held in hand and dropped (持ち駒), in index order.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
    ];

    /// Index 0-13.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `i` (0-13).
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 14 {
            Some(PieceKind::ALL[i])
        } else {
            None
        }
    }

    /// Whether this kind may promote (pawn, lance, knight, silver, bishop, rook).
    #[inline]
    pub const fn can_promote(self) -> bool {
        (self as u8) < 6
    }

    /// Whether this is a promoted kind.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// The promoted kind, or `None` for kinds that do not promote.
    #[inline]
    pub const fn promote(self) -> Option<PieceKind> {
        if self.can_promote() {
            PieceKind::from_index(self as usize + 8)
        } else {
            None
        }
    }

    /// The unpromoted kind (the kind a captured piece becomes in hand); base kinds map to
    /// themselves.
    #[inline]
    pub const fn unpromote(self) -> PieceKind {
        if self.is_promoted() {
            PieceKind::ALL[self as usize - 8]
        } else {
            self
        }
    }

    /// Whether a piece of this kind can be held in hand.
    #[inline]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) < 7
    }

    /// The upper-case SFEN letter of the base kind (`P L N S B R G K`); promoted kinds use the
    /// letter of their base kind with a `+` prefix in SFEN.
    pub const fn sfen_letter(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Gold => 'G',
            _ => 'K',
        }
    }

    /// The base kind for an SFEN letter (either case), or `None`.
    pub const fn from_sfen_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'L' => Some(PieceKind::Lance),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Silver),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'G' => Some(PieceKind::Gold),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// How many pieces of this base kind a full set holds (both sides, promoted or not):
    /// 18 pawns, 4 lances, knights, silvers and golds, 2 bishops, rooks and kings.
    pub const fn full_set_count(self) -> u8 {
        match self.unpromote() {
            PieceKind::Pawn => 18,
            PieceKind::Bishop | PieceKind::Rook | PieceKind::King => 2,
            _ => 4,
        }
    }

    /// The usual Japanese name (one or two characters), e.g. `歩`, `と`, `成香`, `龍`.
    pub const fn japanese(self) -> &'static str {
        match self {
            PieceKind::Pawn => "歩",
            PieceKind::Lance => "香",
            PieceKind::Knight => "桂",
            PieceKind::Silver => "銀",
            PieceKind::Bishop => "角",
            PieceKind::Rook => "飛",
            PieceKind::Gold => "金",
            PieceKind::King => "玉",
            PieceKind::ProPawn => "と",
            PieceKind::ProLance => "成香",
            PieceKind::ProKnight => "成桂",
            PieceKind::ProSilver => "成銀",
            PieceKind::Horse => "馬",
            PieceKind::Dragon => "龍",
        }
    }
}

/// A piece: a kind and a colour. `Option<Piece>` is one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        match NonZeroU8::new(((color as u8) << 4) | (kind as u8 + 1)) {
            Some(v) => Piece(v),
            None => panic!("unreachable"),
        }
    }

    /// The piece's colour.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0.get() >> 4 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The piece's kind.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[((self.0.get() & 15) - 1) as usize]
    }

    /// A dense index 0-27: `color * 14 + kind`.
    #[inline]
    pub const fn index(self) -> usize {
        self.color() as usize * 14 + self.kind() as usize
    }

    /// Parses an SFEN piece (`P`, `+p`, `K`, ...): upper case is Black, lower case White.
    pub fn from_sfen(s: &str) -> Option<Piece> {
        let (promoted, rest) = match s.strip_prefix('+') {
            Some(r) => (true, r),
            None => (false, s),
        };
        let mut chars = rest.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        let kind = PieceKind::from_sfen_letter(c)?;
        let kind = if promoted { kind.promote()? } else { kind };
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        Some(Piece::new(color, kind))
    }
}

impl fmt::Display for Piece {
    /// SFEN notation: `P`, `+p`, `K`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.kind();
        if k.is_promoted() {
            f.write_str("+")?;
        }
        let c = k.sfen_letter();
        let c = match self.color() {
            Color::Black => c,
            Color::White => c.to_ascii_lowercase(),
        };
        write!(f, "{c}")
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::new(sq.file(), sq.rank()), Some(sq));
            assert_eq!(Square::from_usi(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::from_usi("7g").unwrap().index(), 6 * 9 + 6);
        assert_eq!(Square::from_usi("0a"), None);
        assert_eq!(Square::from_usi("1j"), None);
        assert_eq!(Square::from_usi("7`"), None);
        assert_eq!(Square::new(10, 1), None);
        assert_eq!(std::mem::size_of::<Option<Square>>(), 1);
    }

    #[test]
    fn piece_round_trip() {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!(p.color(), c);
                assert_eq!(p.kind(), k);
                assert_eq!(Piece::from_sfen(&p.to_string()), Some(p));
            }
        }
        assert_eq!(Piece::from_sfen("+k"), None);
        assert_eq!(Piece::from_sfen("+g"), None);
        assert_eq!(Piece::from_sfen("x"), None);
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }

    #[test]
    fn promotion_table() {
        assert_eq!(PieceKind::Pawn.promote(), Some(PieceKind::ProPawn));
        assert_eq!(PieceKind::Rook.promote(), Some(PieceKind::Dragon));
        assert_eq!(PieceKind::Bishop.promote(), Some(PieceKind::Horse));
        assert_eq!(PieceKind::Gold.promote(), None);
        assert_eq!(PieceKind::King.promote(), None);
        assert_eq!(PieceKind::Horse.unpromote(), PieceKind::Bishop);
        assert_eq!(PieceKind::Gold.unpromote(), PieceKind::Gold);
    }
}
