//! The uniqueness checker (余詰検討): every flaw of a composed problem, where it is and why.
//!
//! A problem is sound when its main line ends in mate with the attacker's hand empty and no
//! other attacker move along it also mates. [`Solver::check`] solves the problem, then walks
//! the line (the composer's intended line, 作意, when one is given, else the solver's main
//! line) ply by ply and asks the questions of [the rules](crate::rules#flaws-the-checker-reports) with bounded searches on
//! the solver's table:
//!
//! - at each attacker ply but the last, does another check force mate (余詰)? A search that
//!   finds one is repeated on a side table with every later position of the line treated as
//!   not mated: a mate there is a second solution. One that mates only through the line's
//!   positions is sorted by where it reaches them (see `Rejoin`): sooner than the line (余詰),
//!   at the line's own ply (手順前後, a note), no later with the other promotion choice of the
//!   played move (成・不成の非限定, a note), only later (a detour, 迂回手順: not reported); the
//!   two notes only when they are as quick as the line (else 余詰), and fatal under
//!   [`SolverConfig::strict_check`];
//! - at the last ply, does another check mate at once (最終手余詰, a note)?
//! - at each defender ply, does another reply last as long (変同, a note when the attacker
//!   then ends with no pieces in hand) or longer (変長)? Futile interpositions (無駄合) are no
//!   variations;
//! - with an intended line, is there a shorter mate at some attacker ply (早詰)?
//! - with [`SolverConfig::check_variations`], after each other defence mated no later than
//!   the line, does a second check mate as quickly at the variation's first attacker ply
//!   (変化別詰, a note)?
//! - does the attacker end with pieces in hand (駒余り)?
//!
//! A question that its share of nodes cannot settle is reported as [`Undecided`], and the
//! verdict is then [`Verdict::Undecided`] unless a fatal flaw was found anyway.

use super::config::SolverConfig;
use super::futile;
use super::line;
use super::monitor::Limits;
use super::outcome::{MateLine, Outcome, Progress, Stats, StopReason};
use super::plies::Plies;
use super::search::{NodeKind, Search, Within};
use super::shortest::{self, Allowance, shorten};
use super::tt::Table;
use super::verify::verify_mate;
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use ahash::AHashMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

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
    /// hi-gentei*). A note by default; fatal with [`SolverConfig::strict_check`].
    PromotionChoice,
    /// Another check also mates, but only by reaching a position of the line at the line's
    /// own ply by another order of moves, and as quickly as the line (手順前後, *tejun zengo*):
    /// a flaw, not a second solution. A note by default (composers judge it leniently, the
    /// more so near the end); fatal with [`SolverConfig::strict_check`].
    /// [`Flaw::rejoin_ply`] says where the two orders meet, [`Flaw::line_length`] how far
    /// from the end they part.
    Transposition,
    /// Inside a side variation (after another defence, mated no later than the line), a
    /// second attacker move mates as quickly as the first (変化別詰, *henka betsuzume*). A
    /// note; looked for only with [`SolverConfig::check_variations`].
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

    /// The lenient kinds that [`SolverConfig::strict_check`] counts as fatal: 非限定 and
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
    /// [`SolverConfig::strict_check`].
    pub fatal: bool,
    /// A sentence saying what is wrong, for people; everything it says is also in the other
    /// fields (match on [`Flaw::kind`]).
    pub detail: String,
}

impl Flaw {
    /// A flaw of `kind` at `ply` with nothing more known than `detail`: no moves, lengths or
    /// rejoin ply, not fatal until the report counts it ([`FlawKind::is_fatal_with`]).
    fn new(kind: FlawKind, ply: usize, detail: String) -> Flaw {
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

/// The result of [`Solver::check`](crate::Solver::check).
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

/// The share of a question that shortens a second solution found on the side table: a
/// quarter, since the length of a 余詰 is a detail beside the fact that it mates.
const DETOUR_SHORTEN_SHARE: u64 = 4;

/// With [`SolverConfig::first_flaw`], the first walk along the line gives each question this
/// part of its share.
const QUICK_SHARE_PART: u64 = 16;

/// The moves, positions and keys along a line.
struct Walk {
    moves: Vec<Move>,
    positions: Vec<Position>,
    keys: Vec<u64>,
}

impl Walk {
    fn new(root: &Position, moves: &[Move]) -> Walk {
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut p = root.clone();
        positions.push(p.clone());
        for &mv in moves {
            p.play_unchecked(mv);
            positions.push(p.clone());
        }
        let keys = positions.iter().map(Position::key).collect();
        Walk {
            moves: moves.to_vec(),
            positions,
            keys,
        }
    }
}

/// The state of one check.
struct Checker<'s, 'a> {
    search: &'s mut Search<'a>,
    /// The table for searches that avoid the line (created on first use).
    side: &'s mut Option<Table>,
    /// Nodes each question may search.
    cap: u64,
    /// The solver's settings and stop flag, for the searches on the side table.
    config: &'s SolverConfig,
    stop: &'s Arc<AtomicBool>,
    flaws: Vec<Flaw>,
    undecided: Vec<Undecided>,
    /// Whether the line checked is the composer's intended line (else the solver's).
    intended: bool,
    /// Whether the side table holds entries of searches that allow line positions (it is
    /// then started afresh before the next search that allows none, see [`Rejoin`]).
    side_dirty: bool,
}

/// The check of [`Solver::check`](super::Solver::check): solve, then ask every question along the line.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    table: &mut Table,
    side_table: &mut Option<Table>,
    config: &SolverConfig,
    stop: &Arc<AtomicBool>,
    progress: Option<&mut (dyn FnMut(&Progress) + Send + 'static)>,
    pos: &Position,
    intended: Option<&[Move]>,
) -> Report {
    if let Some(side) = side_table.as_mut() {
        // Its entries were found under another problem's exclusions.
        side.new_search();
    }
    let limits = config.limits(stop, progress);
    let mut search = Search::new(table, pos.side_to_move(), limits);
    let mut flaws = Vec::new();
    let mut undecided = Vec::new();

    let given = intended.map(<[Move]>::to_vec);
    // The intended line must be a mating line; if not, the problem is still solved.
    let intended = match intended {
        Some(moves) => match verify_mate(pos, moves) {
            Ok(()) => Some(moves.to_vec()),
            Err(e) => {
                let (ply, mv) = e.place(moves.len());
                flaws.push(Flaw {
                    moves: mv.into_iter().collect(),
                    line_length: Some(moves.len() as u32),
                    ..Flaw::new(
                        FlawKind::InvalidIntendedLine,
                        ply,
                        format!("the intended line is not a mate: {e}"),
                    )
                });
                None
            }
        },
        None => None,
    };

    let outcome = shortest::outcome(
        &mut search,
        pos,
        Plies::Unlimited,
        config.get_shortest_node_limit(),
        false,
        config.get_shortcuts(),
    );
    let main_line = match outcome {
        Outcome::Mate(line) => Some(line),
        Outcome::NoMate => {
            flaws.push(Flaw::new(
                FlawKind::NoMate,
                1,
                "the position has no forced mate".into(),
            ));
            None
        }
        Outcome::Unknown(reason) => {
            undecided.push(Undecided {
                ply: 1,
                mv: None,
                kind: Question::Mate,
                question: "is there a mate?".into(),
                reason,
            });
            None
        }
    };
    let cap = config
        .get_question_node_limit()
        .unwrap_or(search.nodes().max(SolverConfig::MIN_QUESTION_NODES));
    // A futile interposition (無駄合) is never played in a tsume line.
    let intended = match intended {
        Some(moves) if main_line.is_some() => match futile_in_line(&mut search, pos, &moves, cap) {
            Some((ply, mv, false)) => {
                // Not settled: the line is still checked, and the verdict stays undecided.
                undecided.push(Undecided {
                    ply: ply as u32,
                    mv: Some(mv),
                    kind: Question::FutileInterposition,
                    question: "is this interposition of the intended line futile (無駄合)?".into(),
                    reason: search.aborted().unwrap_or(StopReason::QuestionLimit),
                });
                Some(moves)
            }
            Some((ply, mv, true)) => {
                flaws.push(Flaw {
                    kind: FlawKind::InvalidIntendedLine,
                    ply: ply as u32,
                    moves: vec![mv],
                    length: None,
                    length_exact: false,
                    line_length: Some(moves.len() as u32),
                    rejoin_ply: None,
                    fatal: false,
                    detail: "the intended line plays a futile interposition (無駄合), which \
                             a tsume line leaves out together with its capture"
                        .into(),
                });
                None
            }
            None => Some(moves),
        },
        other => other,
    };
    let (line, checked_intended) = match (&intended, &main_line) {
        (Some(moves), _) => (moves.clone(), true),
        (None, Some(ml)) => (ml.moves().to_vec(), false),
        (None, None) => (Vec::new(), false),
    };
    let mut hand_left = Hand::EMPTY;
    if let (false, Some(ml)) = (checked_intended, &main_line) {
        if !ml.is_main_line() {
            undecided.push(Undecided {
                ply: 1,
                mv: None,
                kind: Question::MainLineDefences,
                question: format!(
                    "the main line is a mate in at most {} but the line shown has {} \
                     plies: which defence is the longest?",
                    ml.length(),
                    ml.line_len()
                ),
                reason: search.aborted().unwrap_or(StopReason::QuestionLimit),
            });
        }
        if !ml.shortest_proven() {
            undecided.push(Undecided {
                ply: 1,
                mv: None,
                kind: Question::MainLineShortest,
                question: "is the main line's length the shortest mate?".into(),
                reason: search.aborted().unwrap_or(StopReason::QuestionLimit),
            });
        } else if !ml.exact() {
            undecided.push(Undecided {
                ply: 1,
                mv: None,
                kind: Question::MainLineDefences,
                question: "is every defence of the main line the longest?".into(),
                reason: search.aborted().unwrap_or(StopReason::QuestionLimit),
            });
        }
    }
    if !line.is_empty() {
        // With `first_flaw`, a first walk gives each question a small share: a second
        // solution that is cheap to find anywhere along the line ends the check before the
        // full shares are spent on hard questions at earlier plies. Only when it finds no
        // fatal flaw does the full walk follow (on the same tables, so it repeats little).
        let shares: &[u64] = if config.get_first_flaw() {
            &[(cap / QUICK_SHARE_PART).max(1), cap]
        } else {
            &[cap]
        };
        let mut side_dirty = false;
        for (i, &share) in shares.iter().enumerate() {
            let mut checker = Checker {
                search: &mut search,
                side: &mut *side_table,
                cap: share,
                config,
                stop,
                flaws: flaws.clone(),
                undecided: undecided.clone(),
                intended: checked_intended,
                side_dirty,
            };
            let end = checker.examine(pos, &line, checked_intended);
            side_dirty = checker.side_dirty;
            // A walk cut short by the whole check's limits keeps what it found: a second
            // walk would stop at once and report less.
            let cut = checker.search.aborted().is_some();
            let last = i + 1 == shares.len();
            if last || checker.at_first_flaw() || cut {
                hand_left = end;
                flaws = checker.flaws;
                if !last && !cut {
                    // The questions this quick walk left open were asked with a part of
                    // their share only: not questions the check could not settle. Where it
                    // stopped is kept.
                    let walked = checker.undecided.split_off(undecided.len());
                    undecided.extend(
                        walked
                            .into_iter()
                            .filter(|u| u.reason == StopReason::FirstFlaw),
                    );
                } else {
                    undecided = checker.undecided;
                }
                break;
            }
        }
    }
    // The intended line's own errors first (their plies count along that line), then
    // the flaws of the line checked, in ply order.
    flaws.sort_by_key(|f| (f.kind != FlawKind::InvalidIntendedLine, f.ply));
    for f in &mut flaws {
        f.fatal = f.kind.is_fatal_with(config.get_strict_check());
    }
    let verdict = if flaws.iter().any(|f| f.fatal) {
        Verdict::Unsound
    } else if !undecided.is_empty() {
        Verdict::Undecided
    } else {
        Verdict::Sound
    };
    let stats = search.stats();
    Report {
        verdict,
        line,
        checked_intended,
        intended: given,
        main_line,
        hand_left,
        flaws,
        undecided,
        stats,
    }
}

impl Checker<'_, '_> {
    /// Asks every question along `line` (a verified mating line from `root`); the attacker's
    /// hand at its end.
    fn examine(&mut self, root: &Position, line: &[Move], intended: bool) -> Hand {
        let walk = Walk::new(root, line);
        let n = line.len();
        let attacker = root.side_to_move();
        let end = walk.positions[n].hand(attacker);
        let left_over = |end: Hand| {
            Flaw::new(
                FlawKind::PiecesLeftOver,
                n,
                format!("the attacker ends with {} in hand", end.japanese()),
            )
        };
        // Known from the line alone: with `first_flaw` it ends the walk before its searches.
        let left_over_first = self.config.get_first_flaw() && end.total() > 0;
        if left_over_first {
            self.flaws.push(left_over(end));
        }
        let mut shorter_before = false;
        for (k, &mv) in line.iter().enumerate() {
            // Stopped at the first fatal flaw (found during ply k, 1-based, or before the
            // walk), or the whole check's limits ran out before ply k + 1.
            let stop = if self.at_first_flaw() {
                Some((k.max(1), StopReason::FirstFlaw))
            } else {
                self.search.aborted().map(|reason| (k + 1, reason))
            };
            if let Some((ply, reason)) = stop {
                let question = if ply > k {
                    "the plies from here on were not examined"
                } else {
                    "the rest of this ply and the plies after it were not examined"
                };
                self.undecided.push(Undecided {
                    ply: ply as u32,
                    mv: None,
                    kind: Question::NotExamined,
                    question: question.into(),
                    reason,
                });
                break;
            }
            let rest = (n - k) as i32;
            if k % 2 == 0 {
                let mut skip = None;
                if intended {
                    let shorter = self.shorter_mate(&walk, k, rest, shorter_before);
                    shorter_before = shorter.is_some();
                    skip = shorter.flatten();
                }
                if k + 1 == n {
                    self.final_move(&walk, k, mv);
                } else {
                    self.alternative_mates(&walk, k, mv, skip, rest);
                }
            } else {
                self.variations(&walk, k, mv, rest);
            }
        }
        if end.total() > 0 && !left_over_first {
            self.flaws.push(left_over(end));
        }
        end
    }

    /// The shortest mate from `pos` (an attacker node on `path`), proven mated in `found`
    /// plies, with one question's share of nodes; and whether it is proven shortest.
    fn shortest(&mut self, pos: &Position, path: &[u64], found: u16) -> (u16, bool) {
        let stop_at = self.search.nodes().saturating_add(self.cap);
        let s = shorten(
            self.search,
            pos,
            path,
            NodeKind::Or,
            found,
            Allowance {
                stop_at,
                share: self.cap,
                top_down: None,
                root: false,
            },
            false,
        );
        (s.len, s.minimal)
    }

    /// Whether the check is to stop here: [`SolverConfig::first_flaw`] asked for, and a
    /// fatal flaw found.
    fn at_first_flaw(&self) -> bool {
        let strict = self.config.get_strict_check();
        self.config.get_first_flaw() && self.flaws.iter().any(|f| f.kind.is_fatal_with(strict))
    }

    fn undecided(&mut self, ply: usize, mv: Option<Move>, kind: Question, question: String) {
        let reason = self.search.aborted().unwrap_or(StopReason::QuestionLimit);
        self.undecided.push(Undecided {
            ply: ply as u32,
            mv,
            kind,
            question,
            reason,
        });
    }

    /// 早詰: is the position at attacker ply `k` mated sooner than the `rest` of the
    /// intended line? `Some(first move of the shorter mate, if found)` when it is. Only the
    /// first ply of a run of such plies is reported (the later ones are usually the same
    /// shortcut).
    fn shorter_mate(
        &mut self,
        walk: &Walk,
        k: usize,
        rest: i32,
        reported_before: bool,
    ) -> Option<Option<Move>> {
        let pos = &walk.positions[k];
        let path = &walk.keys[..k];
        let found = match self
            .search
            .within(pos, NodeKind::Or, rest - 2, path, Some(self.cap))
        {
            Within::No => return None,
            Within::Unknown => {
                self.undecided(
                    k + 1,
                    None,
                    Question::ShorterMate,
                    format!("is there a mate in {} or fewer?", rest - 2),
                );
                return None;
            }
            Within::Yes(l) => l,
        };
        // The shortest length, then its first move in generation order.
        let (len, exact) = self.shortest(pos, path, found);
        let mut first = None;
        // One share of nodes for finding the first move, over all the checks.
        let until = self.search.nodes().saturating_add(self.cap);
        for mv in pos.check_moves() {
            let mut c = pos.clone();
            c.play_unchecked(mv);
            let left = until.saturating_sub(self.search.nodes()).max(1);
            let w = self.search.within(
                &c,
                NodeKind::And,
                len as i32 - 1,
                &walk.keys[..=k],
                Some(left),
            );
            if let Within::Yes(_) = w {
                first = Some(mv);
                break;
            }
        }
        if !reported_before {
            self.flaws.push(Flaw {
                moves: first.into_iter().collect(),
                length: Some(len as u32),
                length_exact: exact,
                line_length: Some(rest as u32),
                ..Flaw::new(
                    FlawKind::ShorterMate,
                    k + 1,
                    format!(
                        "a mate in {}{len} from here, the intended line takes {rest} plies",
                        if exact { "" } else { "at most " }
                    ),
                )
            });
        }
        Some(first)
    }

    /// 最終手余詰: other moves that mate at the last ply.
    fn final_move(&mut self, walk: &Walk, k: usize, played: Move) {
        let pos = &walk.positions[k];
        for mv in pos.check_moves() {
            if mv == played {
                continue;
            }
            let mut c = pos.clone();
            c.play_unchecked(mv);
            if futile::is_mate_on_path(&c, &walk.keys[..=k]) {
                self.flaws.push(Flaw {
                    moves: vec![mv],
                    length: Some(1),
                    length_exact: true,
                    line_length: Some(1),
                    ..Flaw::new(
                        FlawKind::AlternativeFinalMove,
                        k + 1,
                        "another move also mates at the last ply".into(),
                    )
                });
            }
        }
    }

    /// 余詰, 非限定, 手順前後: other checks at attacker ply `k` that force mate, sorted by how
    /// they use the line's positions (see [`Rejoin`]).
    ///
    /// Each check is searched for a mate of any length on the main table (which holds the
    /// line's proofs). One that mates is searched again on the side table with every
    /// position of the line after this ply off limits: a mate there is a second solution
    /// (余詰). Only when there is none does the check need more, how it comes back to the
    /// line ([`Checker::classify`]).
    fn alternative_mates(
        &mut self,
        walk: &Walk,
        k: usize,
        played: Move,
        skip: Option<Move>,
        rest: i32,
    ) {
        let pos = &walk.positions[k];
        let path = &walk.keys[..=k];
        for mv in pos.check_moves() {
            if self.at_first_flaw() {
                return; // `examine` says where the walk stopped
            }
            if mv == played || Some(mv) == skip {
                continue;
            }
            let mut c = pos.clone();
            c.play_unchecked(mv);
            if walk.keys[..=k + 1].contains(&c.key()) {
                continue; // back to a position the line had already reached: a detour
            }
            // Does it mate at all? On the main table, which knows the line's proofs.
            match self
                .search
                .within_any(&c, NodeKind::And, path, Some(self.cap))
            {
                Within::No => continue,
                Within::Unknown => {
                    self.undecided(
                        k + 1,
                        Some(mv),
                        Question::AlternativeMate,
                        "does this check also force mate?".into(),
                    );
                    continue;
                }
                Within::Yes(_) => {}
            }
            // It mates: again, with the line's positions off limits.
            match self.side_search(walk, k, &c, Rejoin::Never, Plies::Unlimited) {
                Side::Mate(len, exact) => {
                    self.push_alternative(FlawKind::AlternativeMate, k, vec![mv], len, exact, rest)
                }
                Side::NoMate => self.classify(walk, k, mv, &c, played, rest),
                Side::Unknown => self.undecided(
                    k + 1,
                    Some(mv),
                    Question::AlternativeAvoidingLine,
                    "does this check force mate other than through the line's positions?".into(),
                ),
            }
        }
    }

    /// A check at ply `k` that mates, but not without the line's later positions: how does
    /// it use them? A promotion choice (the played move with the other promotion flag) that
    /// mates without reaching any line position later than the line is 非限定; another check
    /// that mates reaching a line position sooner than the line does is 余詰 (it joins the
    /// line early); one that mates only through line positions reached at the line's own ply
    /// is 手順前後; one that mates only by coming back later is a detour (迂回手順), not
    /// reported. The two notes must also be as quick as the line ([`Checker::against_line`]).
    fn classify(&mut self, walk: &Walk, k: usize, mv: Move, c: &Position, played: Move, rest: i32) {
        let promotion_choice = mv.from().is_some()
            && mv.from() == played.from()
            && mv.to() == played.to()
            && mv.is_promotion() != played.is_promotion();
        // The side table's entries from here on may rest on line positions these searches
        // allow: it starts afresh for the next question (see `Rejoin`).
        self.side_dirty = true;
        if !promotion_choice {
            match self.side_search(walk, k, c, Rejoin::Earlier, Plies::Unlimited) {
                Side::Mate(len, exact) => {
                    self.push_alternative(FlawKind::AlternativeMate, k, vec![mv], len, exact, rest);
                    return;
                }
                Side::NoMate => {}
                Side::Unknown => {
                    self.undecided(
                        k + 1,
                        Some(mv),
                        Question::AlternativeAvoidingLine,
                        "does this check force mate other than by rejoining the line?".into(),
                    );
                    return;
                }
            }
        }
        let kind = if promotion_choice {
            FlawKind::PromotionChoice
        } else {
            FlawKind::Transposition
        };
        let side = match self.side_search(walk, k, c, Rejoin::SamePly, Plies::Unlimited) {
            Side::Mate(..) => match self.against_line(walk, k, mv, c, kind, rest) {
                Some(len) => Side::Mate(len.0, len.1),
                None => return, // a second solution after all, or undecided: recorded
            },
            other => other,
        };
        match side {
            Side::Mate(len, exact) => {
                let found = rejoin_order(walk, k, mv, c, promotion_choice);
                let (moves, rejoin) = match found {
                    Some((moves, ply)) => (moves, Some(ply)),
                    None => (vec![mv], None),
                };
                self.push_alternative(kind, k, moves, len, exact, rest);
                if let Some(f) = self.flaws.last_mut() {
                    f.rejoin_ply = rejoin.map(|r| r as u32);
                    let n = walk.moves.len();
                    f.detail = match rejoin {
                        Some(j) => {
                            // The line's own moves in another order, or other moves.
                            let mut ours = f.moves.clone();
                            let mut theirs = walk.moves[k..j].to_vec();
                            ours.sort_unstable_by_key(|m| m.raw());
                            theirs.sort_unstable_by_key(|m| m.raw());
                            let how = if kind == FlawKind::PromotionChoice {
                                ""
                            } else if ours == theirs {
                                " by the line's own moves in another order"
                            } else {
                                " by other moves"
                            };
                            let at = match n - j {
                                0 => "the line's final position".to_string(),
                                1 => "1 ply from the end".to_string(),
                                d => format!("{d} plies from the end"),
                            };
                            format!(
                                "{}; it reaches{how} the line's position after ply {j}, {at}",
                                f.detail
                            )
                        }
                        None => format!(
                            "{}; it mates only through the line's positions, reached no \
                             later than the line (the order was not found by a short search)",
                            f.detail
                        ),
                    };
                }
            }
            Side::NoMate => {} // only a detour back to the line
            Side::Unknown => self.undecided(
                k + 1,
                Some(mv),
                Question::Transposition,
                "does this check reach the line's positions no later than the line \
                 (手順前後 / 非限定), or only after a detour?"
                    .into(),
            ),
        }
    }

    /// A check at ply `k` (reaching `c`) that mates through the line's positions: is it
    /// as quick as the line? Asked on the main table, without exclusions: the side table
    /// treats the capture position of a futile interposition (無駄合) as reached two plies
    /// later than the plies counted, so a line position reached through one would look like
    /// a detour there. Slower (the defender has a longer way out, where the two never meet):
    /// 余詰, pushed here. For 手順前後, faster (it joins the line sooner) is 余詰 too; for
    /// 非限定, "no later than the line" allows it. The length to report after the check and
    /// whether it is exact; `None` when a flaw or an undecided question was recorded instead.
    fn against_line(
        &mut self,
        walk: &Walk,
        k: usize,
        mv: Move,
        c: &Position,
        kind: FlawKind,
        rest: i32,
    ) -> Option<(u16, bool)> {
        let path = &walk.keys[..=k];
        let undecided = |me: &mut Self| {
            me.undecided(
                k + 1,
                Some(mv),
                Question::Transposition,
                format!("does this check, which mates through the line, mate within the line's {rest} plies?"),
            );
            None
        };
        let as_long = match self
            .search
            .within(c, NodeKind::And, rest - 1, path, Some(self.cap))
        {
            Within::Yes(l) => l,
            Within::Unknown => return undecided(self),
            Within::No => {
                // It mates (the first search said so): the length of the mate found, if the
                // table still has it.
                let len = match self
                    .search
                    .within_any(c, NodeKind::And, path, Some(self.cap))
                {
                    Within::Yes(l) => Some(l),
                    _ => None,
                };
                self.push_alternative(
                    FlawKind::AlternativeMate,
                    k,
                    vec![mv],
                    len.unwrap_or(0),
                    false,
                    rest,
                );
                if let Some(f) = self.flaws.last_mut() {
                    f.length = len.map(|l| l as u32 + 1);
                    f.detail = format!(
                        "this check also forces mate, longer than the line ({rest} plies): it \
                         meets the line only in some variations"
                    );
                }
                return None;
            }
        };
        match self
            .search
            .within(c, NodeKind::And, rest - 3, path, Some(self.cap))
        {
            Within::No => Some(((rest - 1) as u16, true)),
            Within::Yes(l) if kind == FlawKind::PromotionChoice => Some((l.min(as_long), false)),
            Within::Yes(l) => {
                self.push_alternative(FlawKind::AlternativeMate, k, vec![mv], l, false, rest);
                if let Some(f) = self.flaws.last_mut() {
                    f.detail
                        .push_str(", sooner than the line, through its positions");
                }
                None
            }
            Within::Unknown => undecided(self),
        }
    }

    /// Records an alternative check at ply `k` that mates in `len` plies after it.
    fn push_alternative(
        &mut self,
        kind: FlawKind,
        k: usize,
        moves: Vec<Move>,
        len: u16,
        exact: bool,
        rest: i32,
    ) {
        let what = match kind {
            FlawKind::PromotionChoice => "the other promotion choice also forces mate",
            FlawKind::Transposition => "this check also forces mate, through the line",
            _ => "this check also forces mate",
        };
        self.flaws.push(Flaw {
            moves,
            length: Some(len as u32 + 1),
            length_exact: exact,
            line_length: Some(rest as u32),
            ..Flaw::new(
                kind,
                k + 1,
                format!(
                    "{what}, in {}{} plies from here",
                    if exact { "" } else { "at most " },
                    len as u32 + 1
                ),
            )
        });
    }

    /// Searches `child` (a defender node after an alternative check at ply `k`) on the side
    /// table, with the line's positions treated as not mated as `rejoin` says, and shortens
    /// a mate it finds with a share of the question's nodes.
    fn side_search(
        &mut self,
        walk: &Walk,
        k: usize,
        child: &Position,
        rejoin: Rejoin,
        budget: Plies,
    ) -> Side {
        if self.side.is_none() {
            // A side table that cannot be allocated leaves the question undecided.
            match Table::try_new_kib(self.config.get_hash_kib() / 2) {
                Ok(mut t) => {
                    t.set_exact_proofs(true);
                    *self.side = Some(t)
                }
                Err(_) => return Side::Unknown,
            }
        }
        let Some(side) = self.side.as_mut() else {
            return Side::Unknown;
        };
        if self.side_dirty && rejoin == Rejoin::Never {
            side.new_search();
            self.side_dirty = false;
        }
        // What is left of the whole check's limits, without progress reports.
        let spent = self.search.elapsed();
        let limits = Limits {
            nodes: self
                .config
                .get_node_limit()
                .map(|n| n.saturating_sub(self.search.nodes())),
            time: self
                .config
                .get_time_limit()
                .map(|t| t.saturating_sub(spent)),
            ..self.config.limits(self.stop, None)
        };
        let mut side_search = Search::new(side, self.search.attacker, limits);
        // Line position `j` (after ply `j`) is not mated when reached later than `at`.
        side_search.exclude(
            walk.keys
                .iter()
                .enumerate()
                .skip(k + 1)
                .map(|(j, &key)| {
                    let at = match rejoin {
                        Rejoin::Never => k + 1,
                        Rejoin::Earlier => j - 1,
                        Rejoin::SamePly => j,
                    };
                    (key, at as u32)
                })
                .collect::<AHashMap<u64, u32>>(),
        );
        if rejoin != Rejoin::Never {
            // Whether a line position is reached in time depends on the ply.
            side_search.key_by_depth();
        }
        side_search.set_path(&walk.keys[..=k]);
        let depth = (k + 1) as u32;
        let v = side_search.solve_until(child, NodeKind::And, depth, budget, self.cap);
        let result = match v {
            Some(v) if side_search.aborted().is_none() && v.pn == 0 => {
                let share = self.cap / DETOUR_SHORTEN_SHARE;
                let stop_at = side_search.nodes().saturating_add(share);
                let s = shorten(
                    &mut side_search,
                    child,
                    &walk.keys[..=k],
                    NodeKind::And,
                    v.len.plies(),
                    Allowance {
                        stop_at,
                        share,
                        top_down: None,
                        root: false,
                    },
                    false,
                );
                Side::Mate(s.len, s.minimal && side_search.aborted().is_none())
            }
            Some(v)
                if side_search.aborted().is_none() && v.dn == 0 && !side_search.depth_limited() =>
            {
                Side::NoMate
            }
            _ => Side::Unknown,
        };
        let used = side_search.nodes();
        drop(side_search);
        self.search.add_nodes(used);
        result
    }

    /// 変同 / 変長 at defender ply `k`, where the line has `rest` plies left (this reply
    /// included).
    fn variations(&mut self, walk: &Walk, k: usize, played: Move, rest: i32) {
        let pos = &walk.positions[k];
        let path = &walk.keys[..=k];
        let distant = futile::distant_check(pos);
        let repeated = futile::repeated_interpositions(pos, path);
        for mv in pos.evasions() {
            if self.at_first_flaw() {
                return;
            }
            if mv == played || repeated.contains(&mv) {
                // A repeated interposition (the saw rule) is worth nothing: no variation.
                continue;
            }
            let mut c = pos.clone();
            c.play_unchecked(mv);
            let capture = distant
                .filter(|(_, between)| between.contains(mv.to()))
                .and_then(|(checker, _)| futile::capture_position(pos, mv, checker));
            let cap = Some(self.cap);
            // Shorter than the line (or futile, refuted by its capture as soon): nothing to say.
            let short = self.search.within(&c, NodeKind::Or, rest - 3, path, cap);
            let q_short = match &capture {
                Some(q) => self.search.within(q, NodeKind::And, rest, path, cap),
                None => Within::No,
            };
            if matches!(q_short, Within::Yes(_)) {
                continue; // a futile interposition: no variation
            }
            if let Within::Yes(found) = short {
                if self.config.get_check_variations() {
                    self.variation_mates(walk, k, mv, &c, found);
                }
                continue;
            }
            let same = self.search.within(&c, NodeKind::Or, rest - 1, path, cap);
            match (short, q_short, same) {
                (Within::No, Within::No, Within::Yes(found)) => {
                    if self.config.get_check_variations() {
                        self.variation_mates(walk, k, mv, &c, found);
                    }
                    self.equal_length(walk, k, mv, &c, rest)
                }
                (Within::No, Within::No, Within::No) => self.longer(walk, k, mv, &c, rest),
                _ => self.undecided(
                    k + 1,
                    Some(mv),
                    Question::DefenceLength,
                    format!("is this defence as long as the line ({rest} plies)?"),
                ),
            }
        }
    }

    /// 変化別詰: after `defence` at defender ply `k` (reaching `child`, mated within `found`
    /// plies, no later than the line), the checks that mate as quickly as the quickest. The
    /// first in generation order is the variation's mate, each other one a note. Only the
    /// first attacker ply of the variation is examined, only when its shortest mate is proven
    /// and at least 3 plies (a variation's last move with two mates is left out, as noisy as
    /// it is harmless), and a question that its share cannot settle is not listed: the kind
    /// is a note, it cannot change the verdict.
    fn variation_mates(
        &mut self,
        walk: &Walk,
        k: usize,
        defence: Move,
        child: &Position,
        found: u16,
    ) {
        let path = &walk.keys[..=k];
        let (len, exact) = self.shortest(child, path, found);
        if !exact || len < 3 {
            return;
        }
        let mut inner = path.to_vec();
        inner.push(child.key());
        let mut first: Option<Move> = None;
        for mv in child.check_moves() {
            let mut c = child.clone();
            c.play_unchecked(mv);
            let w = self
                .search
                .within(&c, NodeKind::And, len as i32 - 1, &inner, Some(self.cap));
            if !matches!(w, Within::Yes(_)) {
                continue;
            }
            let Some(main) = first else {
                first = Some(mv);
                continue;
            };
            let rest = (walk.moves.len() - k) as u32;
            self.flaws.push(Flaw {
                moves: vec![defence, mv],
                length: Some(len as u32 + 1),
                length_exact: true,
                line_length: Some(rest),
                ..Flaw::new(
                    FlawKind::VariationAlternativeMate,
                    k + 1,
                    format!(
                        "after this defence, this check mates in {len} plies, as quickly as {main}"
                    ),
                )
            });
        }
    }

    /// A reply as long as the line: 変同 if its line leaves the attacker no pieces.
    fn equal_length(&mut self, walk: &Walk, k: usize, mv: Move, child: &Position, rest: i32) {
        let path = &walk.keys[..=k];
        let line = line::extract_line(
            self.search,
            child,
            path,
            (rest - 1) as u16,
            true,
            false,
            self.cap,
        );
        match line {
            Some(w) if w.hand_left.total() == 0 => {
                let mut moves = vec![mv];
                moves.extend(w.moves);
                self.flaws.push(Flaw {
                    moves,
                    length: Some(rest as u32),
                    length_exact: true,
                    line_length: Some(rest as u32),
                    ..Flaw::new(
                        FlawKind::EqualLengthVariation,
                        k + 1,
                        "another defence is as long and leaves no pieces over".into(),
                    )
                });
            }
            Some(w) if w.exact => {} // as long, but with pieces left over: not a 変同
            _ => self.undecided(
                k + 1,
                Some(mv),
                Question::EqualLengthPieces,
                "does this equally long defence end with no pieces left over?".into(),
            ),
        }
    }

    /// A reply longer than the line: 変長, or no mate at all after it.
    fn longer(&mut self, walk: &Walk, k: usize, mv: Move, child: &Position, rest: i32) {
        let path = &walk.keys[..=k];
        match self
            .search
            .within_any(child, NodeKind::Or, path, Some(self.cap))
        {
            Within::Yes(found) => {
                let (len, exact) = self.shortest(child, path, found);
                if !self.intended {
                    // The line checked is the solver's own: a longer defence shows that its
                    // line is not the main line, not that the problem has a 変長.
                    self.undecided(
                        k + 1,
                        Some(mv),
                        Question::MainLineDefences,
                        format!(
                            "this defence lasts {}{} plies, longer than the solver's line \
                             ({rest}): which defence is the longest?",
                            if exact { "" } else { "at most " },
                            len as u32 + 1
                        ),
                    );
                    return;
                }
                self.flaws.push(Flaw {
                    moves: vec![mv],
                    length: Some(len as u32 + 1),
                    length_exact: exact,
                    line_length: Some(rest as u32),
                    ..Flaw::new(
                        FlawKind::LongerVariation,
                        k + 1,
                        format!(
                            "this defence lasts {}{} plies, the line {rest}",
                            if exact { "" } else { "at most " },
                            len as u32 + 1
                        ),
                    )
                });
            }
            Within::No => self.flaws.push(Flaw {
                moves: vec![mv],
                line_length: Some(rest as u32),
                ..Flaw::new(
                    FlawKind::NoMate,
                    k + 1,
                    "after this defence there is no mate".into(),
                )
            }),
            Within::Unknown => self.undecided(
                k + 1,
                Some(mv),
                Question::LongerDefence,
                "how long does this defence last (longer than the line)?".into(),
            ),
        }
    }
}

/// How the side table's searches treat the positions of the line after the ply in question
/// (each is a position the line mates in what is left of it): as not mated when reached
/// anywhere after the alternative ([`Rejoin::Never`], a mate that never touches the line: a
/// second solution), when reached at the line's own ply or later ([`Rejoin::Earlier`]: a mate
/// may join the line sooner than the line does), or only when reached later than the line
/// ([`Rejoin::SamePly`], as a detour does).
///
/// A proof found under more exclusions holds under fewer, and a refutation reaches the table
/// only when it rests on no excluded position: so one table serves every [`Rejoin::Never`]
/// search of a problem, and the other two after them, after which the table starts afresh.
/// In a [`Rejoin::Never`] search every position of the line is off limits whatever the ply
/// asked about (those up to it are on the search's path, where reaching one again counts as
/// not mated; the later ones are excluded), so its proofs hold for any ply, in any order of
/// plies (the first-flaw check walks the line twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rejoin {
    Never,
    Earlier,
    SamePly,
}

/// The answer of a side-table search.
enum Side {
    /// Mated: the length after the check (the shortest found) and whether it is proven
    /// shortest.
    Mate(u16, bool),
    /// Not mated.
    NoMate,
    Unknown,
}

/// Nodes the search for the order of a 手順前後 / 非限定 may visit.
const REJOIN_NODES: u32 = 20_000;
/// Plies after the alternative within which that order is looked for.
const REJOIN_PLIES: usize = 8;

/// One order of moves, `mv` (the alternative check at ply `k`, reaching `after`) first, by
/// which the play reaches a position of the line: at the line's own ply, or with
/// `no_later`, at that ply or sooner. The moves and the line's ply (the line's position
/// after that many plies). A bounded depth-first search, the line's own moves tried first; it
/// only shows an order, the classifying searches have shown that the attacker can force one.
fn rejoin_order(
    walk: &Walk,
    k: usize,
    mv: Move,
    after: &Position,
    no_later: bool,
) -> Option<(Vec<Move>, usize)> {
    fn dfs(
        walk: &Walk,
        pos: &Position,
        ply: usize,
        left: usize,
        no_later: bool,
        moves: &mut Vec<Move>,
        budget: &mut u32,
    ) -> Option<usize> {
        let key = pos.key();
        let n = walk.moves.len();
        if no_later {
            if let Some(j) = (ply..=n).find(|&j| walk.keys[j] == key) {
                return Some(j);
            }
        } else if ply <= n && walk.keys[ply] == key {
            return Some(ply);
        }
        if left == 0 || *budget == 0 || ply >= n {
            return None;
        }
        *budget -= 1;
        let attacker = ply % 2 == 0;
        let mut list: Vec<Move> = if attacker {
            pos.check_moves().iter().copied().collect()
        } else {
            pos.legal_moves().iter().copied().collect()
        };
        if let Some(i) = list.iter().position(|&m| m == walk.moves[ply]) {
            list.swap(0, i);
        }
        for m in list {
            let mut c = pos.clone();
            c.play_unchecked(m);
            moves.push(m);
            if let Some(j) = dfs(walk, &c, ply + 1, left - 1, no_later, moves, budget) {
                return Some(j);
            }
            moves.pop();
        }
        None
    }
    let mut budget = REJOIN_NODES;
    for depth in 1..=REJOIN_PLIES {
        let mut moves = vec![mv];
        if let Some(j) = dfs(walk, after, k + 1, depth, no_later, &mut moves, &mut budget) {
            return Some((moves, j));
        }
        if budget == 0 {
            break;
        }
    }
    None
}

/// The first defender move of `moves` (a verified mating line from `root`) that is a futile
/// interposition: its capture position is mated as soon as the line goes on after it, each
/// question searched with at most `cap` nodes. The 1-based ply, the move, and whether it was
/// shown futile (true) or the question could not be settled (false).
fn futile_in_line(
    search: &mut Search<'_>,
    root: &Position,
    moves: &[Move],
    cap: u64,
) -> Option<(usize, Move, bool)> {
    let walk = Walk::new(root, moves);
    let n = moves.len();
    for k in (1..n).step_by(2) {
        let pos = &walk.positions[k];
        let mv = moves[k];
        let Some((checker, between)) = futile::distant_check(pos) else {
            continue;
        };
        if !between.contains(mv.to()) {
            continue;
        }
        if futile::repeated_interpositions(pos, &walk.keys[..=k]).contains(&mv) {
            return Some((k + 1, mv, true));
        }
        let Some(q) = futile::capture_position(pos, mv, checker) else {
            continue;
        };
        // The reply is worth (n - k) plies in the line; its capture position no more.
        let rest = (n - k) as i32;
        match search.within(&q, NodeKind::And, rest, &walk.keys[..=k], Some(cap)) {
            Within::Yes(_) => return Some((k + 1, mv, true)),
            Within::Unknown => return Some((k + 1, mv, false)),
            Within::No => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From problems/flawed.sfen: the lance mates from afar at once (L*1i); the pawn dropped
    /// between (P*1e) is captured and the lance mates again, so the intended line's ply 2 is a
    /// futile interposition, found within a question's share.
    #[test]
    fn a_futile_interposition_in_an_intended_line_is_found() {
        let pos = Position::from_sfen("8k/6G2/9/7N1/9/9/9/9/9 b L2r2b3g4s3n3l18p 1").unwrap();
        let moves: Vec<Move> = ["L*1i", "P*1e", "1i1e"]
            .iter()
            .map(|m| Move::from_usi(m).unwrap())
            .collect();
        let mut table = Table::new(1);
        table.new_search();
        let mut s = Search::new(&mut table, pos.side_to_move(), Limits::for_tests());
        let found = futile_in_line(&mut s, &pos, &moves, 10_000);
        assert_eq!(found, Some((2, moves[1], true)));
    }

    /// From problems/antma.sfen (tsume5-9): ▲R*5b and ▲R*5c reach the line's final position
    /// by another order (手順前後, as flawed.sfen expects), and every other mate after them
    /// does too, so a search that keeps clear of the line's positions finds none. The searches
    /// of the checks before them on the same side table store proofs for some hands; when
    /// those served larger hands too (superiority), ▲R*5c's search was led through the line's
    /// final position and came out a 余詰 in 5, ▲R*5b's in 7.
    #[test]
    fn a_side_table_proof_is_not_taken_for_a_larger_hand() {
        let pos =
            Position::from_sfen("9/9/3S5/3p1p3/4kb3/3P2s2/4P4/4N4/9 b RNrb3g2s2n4l14p 1").unwrap();
        let line: Vec<Move> = ["R*5a", "P*5d", "N*6g", "4e6g+", "5a5d+"]
            .iter()
            .map(|m| Move::from_usi(m).unwrap())
            .collect();
        let walk = Walk::new(&pos, &line);
        let config = SolverConfig::new().hash_mib(2);
        let stop = Arc::new(AtomicBool::new(false));
        let mut table = Table::new(1);
        table.new_search();
        let mut search = Search::new(&mut table, pos.side_to_move(), Limits::for_tests());
        let mut side = None;
        let mut checker = Checker {
            search: &mut search,
            side: &mut side,
            cap: 100_000,
            config: &config,
            stop: &stop,
            flaws: Vec::new(),
            undecided: Vec::new(),
            intended: true,
            side_dirty: false,
        };
        let mut results = Vec::new();
        for mv in ["5g5f", "6c5d+", "N*4g", "N*6g", "R*5b", "R*5c"] {
            let mut c = pos.clone();
            c.play_unchecked(Move::from_usi(mv).unwrap());
            let r = checker.side_search(&walk, 0, &c, Rejoin::Never, Plies::Unlimited);
            results.push((mv, matches!(r, Side::Mate(..))));
        }
        assert!(
            results.iter().all(|&(_, mate)| !mate),
            "no check mates clear of the line: {results:?}"
        );
    }

    #[test]
    fn flaw_kinds_are_all_listed_with_distinct_names() {
        // Each kind's place in `ALL`. A kind added to the enum makes this match fail to
        // compile; given an arm here and not a place in `ALL`, the assertion below fails.
        let place = |k: FlawKind| match k {
            FlawKind::NoMate => 0,
            FlawKind::InvalidIntendedLine => 1,
            FlawKind::AlternativeMate => 2,
            FlawKind::AlternativeFinalMove => 3,
            FlawKind::PiecesLeftOver => 4,
            FlawKind::EqualLengthVariation => 5,
            FlawKind::LongerVariation => 6,
            FlawKind::ShorterMate => 7,
            FlawKind::PromotionChoice => 8,
            FlawKind::Transposition => 9,
            FlawKind::VariationAlternativeMate => 10,
        };
        let places: Vec<usize> = FlawKind::ALL.iter().map(|&k| place(k)).collect();
        assert_eq!(places, (0..=10).collect::<Vec<_>>());
        let mut names: Vec<&str> = FlawKind::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FlawKind::ALL.len());
    }

    #[test]
    fn question_names_are_distinct() {
        let all = [
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
        let mut names: Vec<&str> = all.iter().map(|q| q.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert!(
            names
                .iter()
                .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        );
    }

    #[test]
    fn the_walk_holds_every_position_and_key_of_the_line() {
        let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
        let moves = [
            Move::from_usi("9f5b+").unwrap(),
            Move::from_usi("4a5b").unwrap(),
            Move::from_usi("S*4b").unwrap(),
        ];
        let w = Walk::new(&pos, &moves);
        assert_eq!(w.positions.len(), 4);
        assert_eq!(w.keys[0], pos.key());
        assert!(w.positions[3].legal_moves().is_empty(), "the end is mate");
        assert_eq!(w.keys[3], w.positions[3].key());
    }
}
