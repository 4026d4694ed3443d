//! What a check reports: the verdict, each flaw with its kind, ply and line, and the
//! questions left undecided.

use crate::hand::Hand;
use crate::moves::Move;
use crate::solver::outcome::{MateLine, Stats, StopReason};
use crate::types::{Color, Piece, Square};
use std::fmt;

/// The kinds of flaw the checker reports ([the rules](crate::rules#flaws-the-checker-reports)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FlawKind {
    /// No mate (不詰, *fuzumi*): the position has no forced mate, or the intended line is
    /// refuted by a defender reply after which there is none.
    NoMate,
    /// The intended line is not a mating line: an illegal move, an attacker move that does
    /// not check, or a final position that is not mate (不詰 of the 作意).
    InvalidIntendedLine,
    /// Another check also forces mate at an attacker ply other than the last (余詰,
    /// *yozume*). Fatal.
    AlternativeMate,
    /// Another move also mates at the last ply (最終手余詰). A note.
    AlternativeFinalMove,
    /// Pieces left in the attacker's hand at the end of the line (駒余り, *koma-amari*).
    /// Fatal.
    PiecesLeftOver,
    /// Another defence is as long and also ends with no pieces left over (変同, *hendou*).
    /// A note.
    EqualLengthVariation,
    /// Another defence leads to a longer mate than the intended line (変長, *henchou*).
    /// Fatal.
    LongerVariation,
    /// There is a shorter mate than the intended line (早詰, *hayazume*). Fatal.
    ShorterMate,
    /// The same move with the other promotion choice also mates, only through positions of
    /// the line (same board, same hands, same side to move) that its play reaches no later
    /// than the line does, and no slower than the line (成・不成の非限定, *narazu
    /// hi-gentei*). A note by default; fatal with [`CheckConfig::strict`](super::CheckConfig::strict).
    PromotionChoice,
    /// Another check also mates, but only by reaching a position of the line at the line's
    /// own ply by another order of moves, and as quickly as the line (手順前後, *tejun zengo*):
    /// a flaw, not a second solution. A note by default (composers judge it leniently, the
    /// more so near the end); fatal with [`CheckConfig::strict`](super::CheckConfig::strict).
    /// [`Flaw::rejoin_ply`] says where the two orders meet, [`Flaw::line_length`] how far
    /// from the end they part.
    Transposition,
    /// Inside a side variation (after another defence, mated no later than the line), a
    /// second attacker move mates as quickly as the first (変化別詰, *henka betsuzume*). A
    /// note; looked for only with [`CheckConfig::variations`](super::CheckConfig::variations).
    VariationAlternativeMate,
}

impl FlawKind {
    /// Every kind, in the order of the rules' table (for listing them, or finding one by
    /// [`FlawKind::name`]).
    pub const ALL: &'static [FlawKind] = &[
        FlawKind::NoMate,
        FlawKind::InvalidIntendedLine,
        FlawKind::AlternativeMate,
        FlawKind::AlternativeFinalMove,
        FlawKind::PiecesLeftOver,
        FlawKind::EqualLengthVariation,
        FlawKind::LongerVariation,
        FlawKind::ShorterMate,
        FlawKind::PromotionChoice,
        FlawKind::Transposition,
        FlawKind::VariationAlternativeMate,
    ];

    /// The name used in JSON output: `no_mate`, `invalid_intended_line`, `alternative_mate`,
    /// `alternative_final_move`, `pieces_left_over`, `equal_length_variation`,
    /// `longer_variation`, `shorter_mate`, `promotion_choice`, `transposition`,
    /// `variation_alternative_mate`.
    pub fn name(self) -> &'static str {
        match self {
            FlawKind::NoMate => "no_mate",
            FlawKind::InvalidIntendedLine => "invalid_intended_line",
            FlawKind::AlternativeMate => "alternative_mate",
            FlawKind::AlternativeFinalMove => "alternative_final_move",
            FlawKind::PiecesLeftOver => "pieces_left_over",
            FlawKind::EqualLengthVariation => "equal_length_variation",
            FlawKind::LongerVariation => "longer_variation",
            FlawKind::ShorterMate => "shorter_mate",
            FlawKind::PromotionChoice => "promotion_choice",
            FlawKind::Transposition => "transposition",
            FlawKind::VariationAlternativeMate => "variation_alternative_mate",
        }
    }

    /// The Japanese term: 不詰, 余詰, 最終手余詰, 駒余り, 変同, 変長, 早詰, 非限定 (成・不成),
    /// 手順前後, 変化別詰.
    pub fn japanese(self) -> &'static str {
        match self {
            FlawKind::NoMate | FlawKind::InvalidIntendedLine => "不詰",
            FlawKind::AlternativeMate => "余詰",
            FlawKind::AlternativeFinalMove => "最終手余詰",
            FlawKind::PiecesLeftOver => "駒余り",
            FlawKind::EqualLengthVariation => "変同",
            FlawKind::LongerVariation => "変長",
            FlawKind::ShorterMate => "早詰",
            FlawKind::PromotionChoice => "成・不成の非限定",
            FlawKind::Transposition => "手順前後",
            FlawKind::VariationAlternativeMate => "変化別詰",
        }
    }

    /// Whether the flaw makes the problem unsound by default; 最終手余詰, 変同, 非限定,
    /// 手順前後 and 変化別詰 are notes ([`FlawKind::is_fatal_with`] for the strict count).
    pub fn is_fatal(self) -> bool {
        !matches!(
            self,
            FlawKind::AlternativeFinalMove
                | FlawKind::EqualLengthVariation
                | FlawKind::PromotionChoice
                | FlawKind::Transposition
                | FlawKind::VariationAlternativeMate
        )
    }

    /// The lenient kinds that [`CheckConfig::strict`](super::CheckConfig::strict) counts as fatal: 非限定 and
    /// 手順前後, which the letter of the rules counts as 余詰.
    pub fn is_lenient(self) -> bool {
        matches!(self, FlawKind::PromotionChoice | FlawKind::Transposition)
    }

    /// Whether the flaw makes the problem unsound, counting the lenient kinds as fatal when
    /// `strict`.
    pub fn is_fatal_with(self, strict: bool) -> bool {
        self.is_fatal() || (strict && self.is_lenient())
    }
}

impl fmt::Display for FlawKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FlawKind::NoMate => "no mate",
            FlawKind::InvalidIntendedLine => "invalid intended line",
            FlawKind::AlternativeMate => "alternative mate",
            FlawKind::AlternativeFinalMove => "alternative final move",
            FlawKind::PiecesLeftOver => "pieces left over",
            FlawKind::EqualLengthVariation => "equal-length variation",
            FlawKind::LongerVariation => "longer variation",
            FlawKind::ShorterMate => "shorter mate",
            FlawKind::PromotionChoice => "promotion choice",
            FlawKind::Transposition => "transposition",
            FlawKind::VariationAlternativeMate => "alternative mate in a variation",
        })
    }
}

/// One flaw: what, where, which moves, how long.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Flaw {
    /// What kind of flaw.
    pub kind: FlawKind,
    /// The 1-based ply of the line where it occurs: the ply whose move the alternative in
    /// [`Flaw::moves`] replaces; for 駒余り the last ply; for a position without mate, 1.
    pub ply: u32,
    /// The alternative move first, then, where one was walked, its line to the mate (for an
    /// invalid intended line: the offending move). Empty for 駒余り and for no mate at all.
    pub moves: Vec<Move>,
    /// Plies from [`Flaw::ply`] to the mate along the alternative, its own move included,
    /// futile interpositions not counted; `None` where there is no mate or it is not known.
    /// For 余詰 this is the shortest mate that does not come back to the line (a shorter one
    /// may exist that does).
    pub length: Option<u32>,
    /// Whether [`Flaw::length`] is proven the shortest; otherwise it is the length of the mate
    /// that was found, an upper bound.
    pub length_exact: bool,
    /// Plies from [`Flaw::ply`] to the end of the line checked, for comparison (for 手順前後:
    /// how far from the end the two orders part).
    pub line_length: Option<u32>,
    /// For 手順前後 and 非限定: the ply of the line after which the alternative's play (its
    /// order in [`Flaw::moves`]) stands in the line's position, same board and hands; the
    /// line's own order is the line checked from [`Flaw::ply`] to here. `None` for the other
    /// kinds, and where no order was found within a small search (the flaw itself is still
    /// decided by the searches that classify it).
    pub rejoin_ply: Option<u32>,
    /// Whether this flaw counts as fatal in this check: [`FlawKind::is_fatal_with`] under
    /// [`CheckConfig::strict`](super::CheckConfig::strict).
    pub fatal: bool,
    /// A sentence saying what is wrong, for people; everything it says is also in the other
    /// fields (match on [`Flaw::kind`]).
    pub detail: String,
}

impl Flaw {
    /// A flaw of `kind` at `ply` with nothing more known than `detail`: no moves, lengths or
    /// rejoin ply, not fatal until the report counts it ([`FlawKind::is_fatal_with`]).
    pub(super) fn new(kind: FlawKind, ply: usize, detail: String) -> Flaw {
        Flaw {
            kind,
            ply: ply as u32,
            moves: Vec::new(),
            length: None,
            length_exact: false,
            line_length: None,
            rejoin_ply: None,
            fatal: false,
            detail,
        }
    }
}

/// Which question of the checker was left undecided: something to match on beside
/// [`Undecided::question`], the sentence for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Question {
    /// Is there a mate at all?
    Mate,
    /// Is the main line's length the shortest mate?
    MainLineShortest,
    /// Is every defence of the main line the longest (does its line realise its length)?
    MainLineDefences,
    /// The plies from here on were not examined (the whole check's limits ran out).
    NotExamined,
    /// Is there a shorter mate than the rest of the intended line (早詰)?
    ShorterMate,
    /// Does this check also force mate (余詰)?
    AlternativeMate,
    /// Does this check force mate other than by rejoining the line (a detour)?
    AlternativeAvoidingLine,
    /// Is this defence as long as the line, or shorter (変同 / 変長)?
    DefenceLength,
    /// Does this equally long defence end with no pieces left over (変同)?
    EqualLengthPieces,
    /// How long does this longer defence last (変長)?
    LongerDefence,
    /// Is this interposition of the intended line futile (無駄合)?
    FutileInterposition,
    /// Does this check, which mates only through positions of the line, reach them no later
    /// than the line (手順前後 / 非限定) or only after a detour?
    Transposition,
    /// Does this other attacker move in a side variation mate as quickly (変化別詰)?
    VariationAlternativeMate,
}

impl Question {
    /// Every question, in the order of the enum (for listing them, or finding one by
    /// [`Question::name`]).
    pub const ALL: &'static [Question] = &[
        Question::Mate,
        Question::MainLineShortest,
        Question::MainLineDefences,
        Question::NotExamined,
        Question::ShorterMate,
        Question::AlternativeMate,
        Question::AlternativeAvoidingLine,
        Question::DefenceLength,
        Question::EqualLengthPieces,
        Question::LongerDefence,
        Question::FutileInterposition,
        Question::Transposition,
        Question::VariationAlternativeMate,
    ];

    /// The name used in JSON output: `mate`, `main_line_shortest`, `main_line_defences`,
    /// `not_examined`, `shorter_mate`, `alternative_mate`, `alternative_avoiding_line`,
    /// `defence_length`, `equal_length_pieces`, `longer_defence`, `futile_interposition`,
    /// `transposition`, `variation_alternative_mate`.
    pub fn name(self) -> &'static str {
        match self {
            Question::Mate => "mate",
            Question::MainLineShortest => "main_line_shortest",
            Question::MainLineDefences => "main_line_defences",
            Question::NotExamined => "not_examined",
            Question::ShorterMate => "shorter_mate",
            Question::AlternativeMate => "alternative_mate",
            Question::AlternativeAvoidingLine => "alternative_avoiding_line",
            Question::DefenceLength => "defence_length",
            Question::EqualLengthPieces => "equal_length_pieces",
            Question::LongerDefence => "longer_defence",
            Question::FutileInterposition => "futile_interposition",
            Question::Transposition => "transposition",
            Question::VariationAlternativeMate => "variation_alternative_mate",
        }
    }
}

/// A question the checker could not settle within its limits.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Undecided {
    /// The 1-based ply of the line concerned.
    pub ply: u32,
    /// The alternative move in question, if any.
    pub mv: Option<Move>,
    /// Which question.
    pub kind: Question,
    /// What was asked, as a sentence (with the lengths concerned).
    pub question: String,
    /// Why it was not settled.
    pub reason: StopReason,
}

/// The checker's overall answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A mate with no fatal flaw and every question settled (notes may be present).
    Sound,
    /// At least one fatal flaw.
    Unsound,
    /// No fatal flaw found, but some question was not settled within the limits.
    Undecided,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Sound => "sound",
            Verdict::Unsound => "unsound",
            Verdict::Undecided => "undecided",
        })
    }
}

/// The result of [`Solver::check`](crate::solver::Solver::check).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Report {
    /// The overall answer.
    pub verdict: Verdict,
    /// The line that was checked: the intended line when one was given and it is a mating
    /// line, else the solver's main line; empty when there is no mate.
    pub line: Vec<Move>,
    /// Whether [`Report::line`] is the intended line.
    pub checked_intended: bool,
    /// The intended line as given (valid or not), if any; an
    /// [`FlawKind::InvalidIntendedLine`] flaw's ply refers to it.
    pub intended: Option<Vec<Move>>,
    /// The solver's main line, when a mate was found.
    pub main_line: Option<MateLine>,
    /// The attacker's hand at the end of [`Report::line`].
    pub hand_left: Hand,
    /// Every flaw found, in ply order (fatal ones and notes).
    pub flaws: Vec<Flaw>,
    /// Questions not settled within the limits.
    pub undecided: Vec<Undecided>,
    /// Counters over every search of the check.
    pub stats: Stats,
    /// With [`CheckConfig::unnecessary_pieces`](super::CheckConfig::unnecessary_pieces), for a
    /// sound problem: the pieces it needs not have (不要駒). `None` when not asked for, or the
    /// problem is not sound.
    pub unnecessary_pieces: Option<UnnecessaryPieces>,
}

/// Unnecessary pieces (不要駒, *fuyōgoma*) of a problem: see
/// [`CheckConfig::unnecessary_pieces`](super::CheckConfig::unnecessary_pieces).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnnecessaryPieces {
    /// The pieces the problem is as sound without, each on its own.
    pub found: Vec<UnnecessaryPiece>,
    /// The pieces whose check the limits cut short, with why.
    pub undecided: Vec<(UnnecessaryPiece, StopReason)>,
}

/// A piece on the board of a problem, named by its square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnnecessaryPiece {
    /// Where it stands.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
}

impl UnnecessaryPiece {
    /// The piece in Japanese with its square and side: `▲１九歩`, `△２三と`.
    pub fn japanese(&self) -> String {
        const DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
        const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
        format!(
            "{}{}{}{}",
            if self.piece.color() == Color::Black {
                '▲'
            } else {
                '△'
            },
            DIGITS[self.square.file() as usize - 1],
            RANKS[self.square.rank() as usize - 1],
            self.piece.kind().japanese()
        )
    }
}

impl Report {
    /// `Some(true)` when sound, `Some(false)` when unsound, `None` when undecided.
    pub fn sound(&self) -> Option<bool> {
        match self.verdict {
            Verdict::Sound => Some(true),
            Verdict::Unsound => Some(false),
            Verdict::Undecided => None,
        }
    }

    /// The fatal flaws (as counted in this check, [`Flaw::fatal`]).
    pub fn fatal_flaws(&self) -> impl Iterator<Item = &Flaw> {
        self.flaws.iter().filter(|f| f.fatal)
    }
}
