//! Problem files as composers and GUIs write them: SFEN / USI lines, KIF and KI2 (board
//! diagrams included), CSA; one reader for all of them, and writers for KIF and CSA.
//!
//! A [`Problem`] is a start position with an optional line of moves (the intended solution,
//! 作意, or a game record's moves), the variations of a record, a name and a comment, and
//! where it came from. [`read_bytes`] and [`read_file`] find the format from the content
//! (whatever the file's extension) and the encoding (UTF-8 with or without BOM, or Shift-JIS /
//! cp932), and give one result per problem: a bad problem is a [`ProblemError`] naming the
//! file, the line (and the column where it helps) and what is wrong, and the other problems of
//! the file are still read.
//!
//! ```
//! use tsume::problem::{Format, read_str};
//! let kif = "後手の持駒：残り全部
//!   ９ ８ ７ ６ ５ ４ ３ ２ １
//! +---------------------------+
//! | ・ ・ ・v銀v玉v銀 ・ ・ ・|一
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|二
//! | ・ ・ ・ ・ 銀 ・ ・ ・ ・|三
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|四
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|五
//! | 角 ・ ・ ・ ・ ・ ・ ・ ・|六
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|七
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|八
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|九
//! +---------------------------+
//! 先手の持駒：銀
//! 手数----指手---------消費時間--
//!    1 ５二角成(96)
//!    2 同　銀(41)
//!    3 ４二銀打
//! まで3手で詰み
//! ";
//! let problems = read_str(kif, "classic.kif");
//! let p = problems[0].as_ref().unwrap();
//! assert_eq!(p.format, Format::Kif);
//! assert_eq!(p.position.to_sfen(), "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1");
//! assert_eq!(p.moves.len(), 3);
//! ```
//!
//! # The formats
//!
//! [`read_file`] (and `read_bytes`, `read_str`) reads every format below, found from the
//! content whatever the file's extension, in UTF-8 (with or without BOM) or Shift-JIS (cp932, as
//! Kifu for Windows writes `.kif`), detected. It gives one result per problem: a
//! [`Problem`] (start position, main line, variations, name, comment, termination,
//! origin `file:line`, format) or a [`ProblemError`] that names the file, the line, the
//! column where it helps, and what is wrong; a bad problem does not stop the others. One file of
//! each format is in `problems/`, with its expected answer in its comments (`tests/problem.rs`
//! checks them):
//!
//! **KIF**, the board diagram (BOD) composers and GUIs write (`problems/classic.kif`, Shift-JIS):
//! `後手の持駒：` / `先手の持駒：` (`上手` / `下手` for handicap games) with `なし`, kanji counts
//! (`歩十八`) or `残り全部` / `残りの駒全部` (the defender, or whichever side says so, holds every
//! piece not on the board or in the other hand), the 9×9 diagram with `v` for White, `後手番` for
//! White to move, then the moves with origin squares, `同　`, `打`, `成`, `不成`, time columns,
//! `*` comments (kept) and `&` bookmarks (ignored), `まで…手で詰み` or a termination move (`投了`,
//! `詰み`, `中断`, ...), and variations `変化：N手` (kept apart from the main line, nested ones
//! attached to the line they branch from). Without a diagram, `手合割` gives the start position
//! (平手 and the usual handicaps, White to move).
//!
//! ```text
//! 後手の持駒：残り全部
//!   ９ ８ ７ ６ ５ ４ ３ ２ １
//! +---------------------------+
//! | ・ ・ ・v銀v玉v銀 ・ ・ ・|一
//!   ...
//! | 角 ・ ・ ・ ・ ・ ・ ・ ・|六
//!   ...
//! +---------------------------+
//! 先手の持駒：銀
//! 手数----指手---------消費時間--
//!    1 ５二角成(96)   ( 0:00/00:00:00)
//!    2 同　銀(41)   ( 0:00/00:00:00)
//!    3 ４二銀打   ( 0:00/00:00:00)
//! まで3手で詰み
//! ```
//!
//! **KI2** (`problems/karolina.ki2`): the same header and diagram, moves without origin squares
//! (`▲２三角成 △３一香 ▲３三桂 △同　銀引 ...`), resolved against the legal moves with the marks
//! 右 左 直 上 引 寄 (行 and 入 read as 上), 打 optional where no board piece could go.
//!
//! **CSA** V2.2 and V3.0 (`problems/tsume.csa`, two records): `P1`..`P9` rows or `PI` with
//! removals (`PI82HI22KA`), `P+` / `P-` pieces with `00` for the hand and `P-00AL` (the rest of the
//! pieces, the tsume convention), `+` / `-` for the side to move, moves `+9652UM` with `T` times
//! (`T12`, `T1.250`), `%TSUMI` and other terminations, `'` comments, `$EVENT` (the name), `,`
//! between statements, several records separated by `/`.
//!
//! ```text
//! V2.2
//! $EVENT:mog_mate9
//! P1 *  *  *  * -OU *  *  *  *
//!   ...
//! P5 *  *  * +TO+FU *  *  *  *
//!   ...
//! P+00KI00KI00KI00KI
//! P-00AL
//! +
//! ```
//!
//! **SFEN lines** (`problems/*.sfen`): `[sfen] <sfen> [moves <usi> ...] [# comment]`, one problem
//! per line; the comment is kept (the test suites read their `# <expected> <name> | check: ...`
//! annotations from it). **USI** `position sfen ... [moves ...]` and `position startpos [moves
//! ...]` lines, as a GUI sends them (`problems/positions.usi`).
//!
//! ```sh
//! cargo run --release --example check_unique -- problems/karolina.ki2 --kif karolina-checked.kif
//! cargo run --release --example solve -- --last game.kif        # is the game's last position a mate?
//! ```
//!
//! Writing: [`write_kif`] gives the title, the board diagram, the comment, the main line
//! numbered with origin squares and `まで N 手で…`, then the variations in the order Kifu for
//! Windows lists them (depth first, later branches first; branching moves marked `+`).
//! `solve` / `check_unique` write `.kif` files in Shift-JIS (what Kifu for Windows expects; ShogiGUI,
//! Shogidokoro and Electron Shogi read it too) and `.kifu` in UTF-8 with the `#KIF version=2.0
//! encoding=UTF-8` line. [`write_csa`] gives a CSA V2.2 record of the main line (CSA has
//! no variations). Both round-trip through the reader (tested on every file above).
//!
//! Crates: `encoding_rs` decodes and encodes Shift-JIS. The `csa` crate was not used (one record
//! per call, errors without a line or column, integer times only, nom and time as dependencies),
//! nor `shogi-kifu-converter` (no `残り全部` in hands, errors without line numbers, its own position
//! types via JKF, four more dependencies): the readers here are this crate's own, build
//! [`Position`]s directly, and are fuzzed (`tests/problem.rs`: random bytes, token soups, mutated
//! and truncated sample files, Shift-JIS included).

mod csa;
mod kif;
mod sfen;
mod text;

pub use csa::write_csa;
pub use kif::write_kif;

use crate::legality::IllegalMove;
use crate::moves::Move;
use crate::position::{Position, SfenError};
use std::fmt;
use std::io;
use std::path::Path;
use std::sync::Arc;

/// The formats read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// One problem per line: `[sfen] <sfen> [moves <usi> ...] [# comment]`.
    Sfen,
    /// A USI `position sfen ... [moves ...]` or `position startpos [moves ...]` line.
    Usi,
    /// KIF (柿木形式): header, optional board diagram, numbered moves with their origin squares.
    Kif,
    /// KI2: as KIF, but moves written `▲７六歩` without origin squares.
    Ki2,
    /// CSA (V2.2 / V3.0).
    Csa,
}

impl Format {
    /// The usual name: `sfen`, `usi`, `kif`, `ki2`, `csa`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Sfen => "sfen",
            Format::Usi => "usi",
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text encoding a file was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 without a byte-order mark.
    Utf8,
    /// UTF-8 with a byte-order mark.
    Utf8Bom,
    /// Shift-JIS (Windows code page 932), as Kifu for Windows writes `.kif` files.
    ShiftJis,
}

/// Where a problem came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The file name as given (`<stdin>`, `<argument>` for text given directly).
    pub file: String,
    /// The 1-based line the problem starts on.
    pub line: usize,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A variation of a record (変化): moves that replace the line from one ply on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The 1-based ply of its first move: it replaces that ply of its parent line.
    pub ply: usize,
    /// The index in [`Problem::variations`] of the line it branches from, `None` for the
    /// main line.
    pub parent: Option<usize>,
    /// Its moves, the first one at `ply`.
    pub moves: Vec<Move>,
    /// Comments attached to its moves (`*` lines in KIF), joined by newlines.
    pub comment: String,
}

/// A problem: a start position, an optional line, where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The start position (the tsume diagram, or a record's start).
    pub position: Position,
    /// The main line: the intended solution (作意) of a tsume, or a record's moves. In KIF,
    /// KI2 and CSA every move is legal in turn from `position` (they are read by playing
    /// them); in the SFEN / USI line format they are only read as USI moves, so that the
    /// checker can report an illegal intended line as the composer's flaw
    /// ([`Problem::legal_len`] says how many are legal).
    pub moves: Vec<Move>,
    /// A record's variations (変化), in file order; each branches from the main line or from
    /// an earlier variation.
    pub variations: Vec<Variation>,
    /// The title (KIF `表題`, CSA `$EVENT`), if given.
    pub name: Option<String>,
    /// The comment: an SFEN line's text after `#`, KIF `*` comments before the first move, CSA
    /// `'` comments; joined by newlines.
    pub comment: String,
    /// How the record ended, if it says (`詰み`, `投了`, `%TSUMI`, ...).
    pub termination: Option<String>,
    /// Where it came from.
    pub origin: Origin,
    /// The format it was read from.
    pub format: Format,
}

impl Problem {
    /// A problem with no moves, from `position`.
    pub fn new(position: Position, origin: Origin, format: Format) -> Problem {
        Problem {
            position,
            moves: Vec::new(),
            variations: Vec::new(),
            name: None,
            comment: String::new(),
            termination: None,
            origin,
            format,
        }
    }

    /// The position after the first `ply` moves of the main line, `None` when the line is
    /// shorter or one of those moves is illegal.
    pub fn position_after(&self, ply: usize) -> Option<Position> {
        let mut pos = self.position.clone();
        for &mv in self.moves.get(..ply)? {
            pos.play(mv).ok()?;
        }
        Some(pos)
    }

    /// How many moves of the main line are legal in turn from the start.
    pub fn legal_len(&self) -> usize {
        legal_prefix(&self.position, &self.moves)
    }

    /// The whole line of variation `index` from the start position: its parent's moves before
    /// its ply, then its own. `None` for an index out of range.
    pub fn variation_line(&self, index: usize) -> Option<Vec<Move>> {
        let v = self.variations.get(index)?;
        let mut line = match v.parent {
            None => self.moves.clone(),
            // Parents come earlier in the list, so this recursion ends.
            Some(p) if p < index => self.variation_line(p)?,
            Some(_) => return None,
        };
        line.truncate(v.ply.saturating_sub(1));
        line.extend_from_slice(&v.moves);
        Some(line)
    }

    /// Checks that the position is a tsume: the defender (the side not to move) has a king.
    /// The solver answers any position; the checker's flaws and the length of a mate mean
    /// something only for a tsume.
    ///
    /// # Errors
    ///
    /// [`ProblemErrorKind::NoDefenderKing`], at the problem's origin and with its SFEN line.
    pub fn check_tsume(&self) -> Result<(), ProblemError> {
        let pos = &self.position;
        if pos.king_square(pos.side_to_move().flip()).is_none() {
            return Err(ProblemError::new(
                &self.origin.file,
                self.origin.line,
                ProblemErrorKind::NoDefenderKing,
            )
            .with_text(self.to_sfen_line()));
        }
        Ok(())
    }

    /// The problem as one line of the SFEN line format: `<sfen> [moves ...]`.
    pub fn to_sfen_line(&self) -> String {
        let mut s = self.position.to_sfen();
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for m in &self.moves {
                s.push(' ');
                s.push_str(&m.to_string());
            }
        }
        s
    }
}

/// How many of `moves` are legal in turn from `pos`.
pub(crate) fn legal_prefix(pos: &Position, moves: &[Move]) -> usize {
    let mut p = pos.clone();
    moves.iter().take_while(|&&m| p.play(m).is_ok()).count()
}

/// What is wrong with a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProblemErrorKind {
    /// The file could not be read: the operating system's error, kept whole (its
    /// [`kind`](IoError::kind) tells a missing file from one that cannot be read).
    Io(IoError),
    /// The input holds no problem.
    NoProblem,
    /// A bad SFEN (or a position built from a diagram that is not legal).
    Sfen(SfenError),
    /// A move that cannot be read.
    MoveSyntax {
        /// The move's text.
        text: String,
    },
    /// A move that is not legal where it is played.
    IllegalMove {
        /// Its 1-based ply.
        ply: usize,
        /// The move's text.
        text: String,
        /// Why it is illegal.
        reason: IllegalMove,
    },
    /// A move without an origin square (KI2) that no legal move fits.
    NoSuchMove {
        /// Its 1-based ply.
        ply: usize,
        /// The move's text.
        text: String,
    },
    /// A move without an origin square (KI2) that several legal moves fit.
    AmbiguousMove {
        /// Its 1-based ply.
        ply: usize,
        /// The move's text.
        text: String,
        /// The candidates, in USI.
        candidates: Vec<String>,
    },
    /// A move whose piece is not the one on its origin square.
    WrongPiece {
        /// Its 1-based ply.
        ply: usize,
        /// The move's text.
        text: String,
    },
    /// A move number that does not follow the previous one.
    MoveNumber {
        /// The number expected.
        expected: usize,
        /// The number found.
        found: usize,
    },
    /// A board diagram that cannot be read.
    Board(String),
    /// A hand that cannot be read.
    Hand(String),
    /// A `手合割` that is not known.
    UnknownHandicap(String),
    /// A variation (`変化：N手`) that branches from no line with a move at that ply.
    Variation {
        /// Its ply.
        ply: usize,
    },
    /// A line that belongs to no part of the format.
    UnknownLine(String),
    /// A tsume whose defender (the side not to move) has no king.
    NoDefenderKing,
    /// `moves` with no move after it.
    NoMoves,
    /// A word other than the one the format has there (a USI `position` command that names
    /// neither `startpos` nor `sfen`).
    UnexpectedWord {
        /// What the format has there.
        expected: &'static str,
        /// What was found (empty at the end of the text).
        found: String,
    },
    /// A ply asked for (`--ply N`) beyond the record's main line.
    PlyBeyondLine {
        /// The ply asked for.
        ply: usize,
        /// The moves of the main line.
        moves: usize,
    },
}

impl fmt::Display for ProblemErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemErrorKind::Io(e) => write!(f, "cannot read: {e}"),
            ProblemErrorKind::NoProblem => write!(f, "no problem found"),
            ProblemErrorKind::Sfen(e) => write!(f, "bad position: {e}"),
            ProblemErrorKind::MoveSyntax { text } => write!(f, "cannot read the move {text:?}"),
            ProblemErrorKind::IllegalMove { ply, text, reason } => {
                write!(f, "move {ply} {text:?} is illegal: {reason}")
            }
            ProblemErrorKind::NoSuchMove { ply, text } => {
                write!(f, "move {ply} {text:?} fits no legal move")
            }
            ProblemErrorKind::AmbiguousMove {
                ply,
                text,
                candidates,
            } => write!(
                f,
                "move {ply} {text:?} fits several legal moves: {}",
                candidates.join(", ")
            ),
            ProblemErrorKind::WrongPiece { ply, text } => {
                write!(
                    f,
                    "move {ply} {text:?} names another piece than the one there"
                )
            }
            ProblemErrorKind::MoveNumber { expected, found } => {
                write!(f, "move number {found}, expected {expected}")
            }
            ProblemErrorKind::Board(what) => write!(f, "bad board diagram: {what}"),
            ProblemErrorKind::Hand(what) => write!(f, "bad hand: {what}"),
            ProblemErrorKind::UnknownHandicap(h) => write!(f, "unknown 手合割 {h:?}"),
            ProblemErrorKind::Variation { ply } => write!(
                f,
                "variation at move {ply} branches from no line that has a move {ply}"
            ),
            ProblemErrorKind::UnknownLine(l) => write!(f, "cannot read the line {l:?}"),
            ProblemErrorKind::PlyBeyondLine { ply, moves } => {
                write!(
                    f,
                    "no position after move {ply}: the record has {moves} moves"
                )
            }
            ProblemErrorKind::NoMoves => write!(f, "`moves` is followed by no move"),
            ProblemErrorKind::UnexpectedWord { expected, found } if found.is_empty() => {
                write!(f, "expected {expected}, found nothing")
            }
            ProblemErrorKind::UnexpectedWord { expected, found } => {
                write!(f, "expected {expected}, found {found:?}")
            }
            ProblemErrorKind::NoDefenderKing => {
                write!(f, "the defender (the side not to move) has no king")
            }
        }
    }
}

/// A problem that could not be read: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProblemError {
    /// The file name as given.
    pub file: String,
    /// The 1-based line (0 when the whole file is concerned).
    pub line: usize,
    /// The 1-based column (in characters) where it helps.
    pub column: Option<usize>,
    /// What is wrong (boxed: errors are rare, results are passed around a lot).
    pub kind: Box<ProblemErrorKind>,
    /// The problem's text when it is one line (SFEN / USI), for reports.
    pub text: Option<String>,
}

impl ProblemError {
    /// An error at `file:line` (line 0: the whole file).
    pub fn new(file: &str, line: usize, kind: ProblemErrorKind) -> ProblemError {
        ProblemError {
            file: file.to_string(),
            line,
            column: None,
            kind: Box::new(kind),
            text: None,
        }
    }

    /// The same error at a column.
    pub fn at(mut self, column: usize) -> ProblemError {
        self.column = Some(column);
        self
    }

    /// The same error with the problem's text.
    pub fn with_text(mut self, text: String) -> ProblemError {
        self.text = Some(text);
        self
    }

    /// `file:line` or `file:line:column` (just `file` for line 0).
    pub fn place(&self) -> String {
        match (self.line, self.column) {
            (0, _) => self.file.clone(),
            (l, None) => format!("{}:{l}", self.file),
            (l, Some(c)) => format!("{}:{l}:{c}", self.file),
        }
    }
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place(), self.kind)
    }
}

impl std::error::Error for ProblemError {
    /// The operating system's error for [`ProblemErrorKind::Io`]; the SFEN error for
    /// [`ProblemErrorKind::Sfen`].
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.kind {
            ProblemErrorKind::Io(e) => Some(e.get_ref()),
            ProblemErrorKind::Sfen(e) => Some(e),
            _ => None,
        }
    }
}

/// An I/O error as a [`ProblemError`] keeps it: the [`io::Error`] itself, shared so that the
/// error stays `Clone`. Two are equal when their kind and message are.
#[derive(Clone, Debug)]
pub struct IoError(Arc<io::Error>);

impl IoError {
    /// What kind of failure: [`io::ErrorKind::NotFound`] for a missing file, and so on.
    pub fn kind(&self) -> io::ErrorKind {
        self.0.kind()
    }

    /// The operating system's error.
    pub fn get_ref(&self) -> &io::Error {
        &self.0
    }
}

impl From<io::Error> for IoError {
    fn from(e: io::Error) -> IoError {
        IoError(Arc::new(e))
    }
}

impl PartialEq for IoError {
    fn eq(&self, other: &IoError) -> bool {
        self.kind() == other.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl Eq for IoError {}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Decodes a file's bytes: UTF-8 (a byte-order mark is dropped) when they are UTF-8, else
/// Shift-JIS (cp932). Never fails: bytes that do not decode become U+FFFD, which the readers
/// then reject where they matter.
pub fn decode(bytes: &[u8]) -> (String, Encoding) {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return (
            String::from_utf8_lossy(rest).into_owned(),
            Encoding::Utf8Bom,
        );
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), Encoding::Utf8),
        // A UTF-8 file cut in the middle of its last character is still UTF-8.
        Err(e) if e.error_len().is_none() && bytes.len() - e.valid_up_to() < 4 => {
            (String::from_utf8_lossy(bytes).into_owned(), Encoding::Utf8)
        }
        Err(_) => {
            let (text, _) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
            (text.into_owned(), Encoding::ShiftJis)
        }
    }
}

/// The format of a text, from its content.
pub fn detect(text: &str) -> Format {
    let mut sfen_like = false;
    for line in text.lines() {
        let t = line.trim_start_matches('\u{feff}').trim();
        if t.is_empty() || (t.starts_with('#') && !t.starts_with("#KIF")) {
            continue;
        }
        // An SFEN line's comment may say anything.
        let body = if t.starts_with('#') {
            t
        } else {
            t.split('#').next().unwrap_or("")
        };
        if kif::looks_like_kif(body) {
            return if text.lines().any(kif::is_kif_move_line) {
                Format::Kif
            } else if text.contains(['▲', '△', '☗', '☖']) {
                Format::Ki2
            } else {
                Format::Kif
            };
        }
        if !sfen_like && csa::looks_like_csa(t) {
            return Format::Csa;
        }
        if t.starts_with("position") {
            return Format::Usi;
        }
        sfen_like = true;
    }
    Format::Sfen
}

/// Reads every problem of a text; `file` names it in origins and errors.
pub fn read_str(text: &str, file: &str) -> Vec<Result<Problem, ProblemError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let out = match detect(text) {
        Format::Sfen | Format::Usi => sfen::read(text, file),
        Format::Kif | Format::Ki2 => vec![kif::read(text, file)],
        Format::Csa => csa::read(text, file),
    };
    if out.is_empty() {
        return vec![Err(ProblemError::new(file, 0, ProblemErrorKind::NoProblem))];
    }
    out
}

/// Reads every problem of a file's bytes (any encoding [`decode`] knows).
pub fn read_bytes(bytes: &[u8], file: &str) -> Vec<Result<Problem, ProblemError>> {
    read_str(&decode(bytes).0, file)
}

/// Reads every problem of a file; `-` reads standard input.
pub fn read_file(path: impl AsRef<Path>) -> Vec<Result<Problem, ProblemError>> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let bytes = if name == "-" {
        let mut b = Vec::new();
        match std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut b) {
            Ok(_) => b,
            Err(e) => {
                return vec![Err(ProblemError::new(
                    "<stdin>",
                    0,
                    ProblemErrorKind::Io(IoError::from(e)),
                ))];
            }
        }
    } else {
        match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                return vec![Err(ProblemError::new(
                    &name,
                    0,
                    ProblemErrorKind::Io(IoError::from(e)),
                ))];
            }
        }
    };
    let name = if name == "-" { "<stdin>".into() } else { name };
    read_bytes(&bytes, &name)
}

/// Encodes text in Shift-JIS (cp932), as Kifu for Windows expects a `.kif` file to be; the
/// KIF writer's output is all within cp932.
pub fn to_shift_jis(text: &str) -> Vec<u8> {
    encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
}

/// The extensions of problem files (lower case), for telling a missing file from problem text
/// in [`read_input`].
pub const EXTENSIONS: [&str; 9] = [
    "kif", "kifu", "ki2", "ki2u", "csa", "sfen", "bod", "usi", "txt",
];

/// Reads the problems an input names, as a program's argument does: a file (any format, as
/// [`read_file`]), `-` for standard input, or the text of a problem itself (an SFEN, a USI
/// `position` line, a whole KIF or CSA record; origin `<argument>`).
///
/// A word that is neither an existing file nor a problem is a missing file: the error is
/// [`ProblemErrorKind::Io`] with [`std::io::ErrorKind::NotFound`], naming it ("no such file"
/// when it looks like a path: a slash or a problem file's extension), not a complaint about
/// the text.
///
/// ```
/// use tsume::problem::{ProblemErrorKind, read_input};
/// let from_text = read_input("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1");
/// assert_eq!(from_text[0].as_ref().unwrap().origin.file, "<argument>");
/// let missing = read_input("no/such/problem.kif");
/// let err = missing[0].as_ref().unwrap_err();
/// assert!(matches!(&*err.kind, ProblemErrorKind::Io(e) if e.kind() == std::io::ErrorKind::NotFound));
/// assert_eq!(err.to_string(), "no/such/problem.kif: cannot read: no such file");
/// ```
pub fn read_input(input: &str) -> Vec<Result<Problem, ProblemError>> {
    if input == "-" || Path::new(input).exists() {
        return read_file(input);
    }
    // Every problem text has a space or a line break (an SFEN's fields, a record's lines);
    // a word that is none of the files is a file name that is not there.
    let looks_like_text = input.contains(char::is_whitespace);
    let looks_like_path = input.contains(['/', '\\'])
        || Path::new(input)
            .extension()
            .is_some_and(|e| EXTENSIONS.contains(&e.to_string_lossy().to_lowercase().as_str()));
    match read_one(input, "<argument>") {
        Ok(p) => vec![Ok(p)],
        Err(e) if looks_like_text => vec![Err(e)],
        Err(_) => {
            let what = if looks_like_path {
                "no such file"
            } else {
                "no such file, and not a problem"
            };
            let e = io::Error::new(io::ErrorKind::NotFound, what);
            vec![Err(ProblemError::new(
                input,
                0,
                ProblemErrorKind::Io(e.into()),
            ))]
        }
    }
}

/// Writes `problem` to `path` in the format its extension names, in the encoding programs
/// expect of it: `.kif` (KIF, Shift-JIS, as Kifu for Windows writes it; ShogiGUI, Shogidokoro
/// and Electron Shogi read it too), `.kifu` (KIF in UTF-8, with the `#KIF version=2.0
/// encoding=UTF-8` line), `.csa` (CSA V2.2 of the main line, Shift-JIS), `.sfen` and `.usi`
/// (the SFEN line with its moves, UTF-8). The variations go to KIF only (the other formats
/// have none).
///
/// # Errors
///
/// The file's error, or [`std::io::ErrorKind::InvalidInput`] for an extension not listed
/// above (nothing is written): pick one of them.
pub fn write_file(path: impl AsRef<Path>, problem: &Problem) -> io::Result<()> {
    let path = path.as_ref();
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let bytes = match ext.as_str() {
        "kif" => to_shift_jis(&write_kif(problem)),
        "kifu" => format!("#KIF version=2.0 encoding=UTF-8\n{}", write_kif(problem)).into_bytes(),
        "csa" => to_shift_jis(&write_csa(problem)),
        "sfen" | "usi" => format!("{}\n", problem.to_sfen_line()).into_bytes(),
        _ => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "cannot tell the format from the extension: write .kif, .kifu, .csa or .sfen",
            ));
        }
    };
    std::fs::write(path, bytes)
}

/// The position of a USI `position` command (`position startpos moves 7g7f`, `position sfen
/// <sfen> moves ...`; the leading word `position` may be left out), with its moves played.
///
/// This is the engine's reading, stricter than a problem file's: every move must be legal
/// where it is played, since an engine cannot search a position that does not exist. A `moves`
/// with nothing after it is accepted (some GUIs send it). Errors name the file `position` and
/// give the column of the word that is wrong.
///
/// # Errors
///
/// [`ProblemErrorKind::UnexpectedWord`] when neither `startpos` nor `sfen` follows `position`,
/// [`ProblemErrorKind::Sfen`] for a bad SFEN, [`ProblemErrorKind::UnknownLine`] for words
/// after `startpos`, [`ProblemErrorKind::MoveSyntax`] for a word that is no USI move and
/// [`ProblemErrorKind::IllegalMove`] (with its ply) for a move that cannot be played.
///
/// ```
/// use tsume::problem::{ProblemErrorKind, read_usi_position};
/// use tsume::Color;
/// let pos = read_usi_position("position startpos moves 7g7f 3c3d 2g2f").unwrap();
/// assert_eq!(pos.side_to_move(), Color::White);
/// let err = read_usi_position("position startpos moves 7g7f 7g7f").unwrap_err();
/// assert!(matches!(&*err.kind, ProblemErrorKind::IllegalMove { ply: 2, .. }));
/// assert_eq!(err.column, Some(30));
/// ```
pub fn read_usi_position(command: &str) -> Result<Position, ProblemError> {
    sfen::read_usi(command)
}

/// Reads one problem given as text (an SFEN, a USI `position` line, or a whole KIF / CSA
/// record), as from a command-line argument; `file` names it in errors.
pub fn read_one(text: &str, file: &str) -> Result<Problem, ProblemError> {
    read_str(text, file)
        .into_iter()
        .next()
        .unwrap_or_else(|| Err(ProblemError::new(file, 0, ProblemErrorKind::NoProblem)))
}

#[cfg(test)]
mod tests;
