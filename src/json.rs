//! JSON objects for results and reports (feature `serde`): the objects the `solve` and
//! `check_unique` examples print with `--json`, one per problem per line.
//!
//! [`Solution`], [`MateLine`], [`Report`], [`Flaw`], [`Undecided`], [`Stats`], [`Move`] (a
//! USI string) and [`Hand`] (SFEN letters) implement [`serde::Serialize`]; [`SolveRecord`]
//! and [`CheckRecord`] add where the problem came from, and [`ErrorRecord`] stands for a
//! problem that could not be read. This is the one place the schema is written down.
//!
//! ## `solve --json`: one [`SolveRecord`] per problem
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `sfen` | string | the position solved |
//! | `file`, `line` | string, integer or null | where the problem came from |
//! | `ply` | integer or null | the record's ply solved from (`--ply` / `--last`), null for the start |
//! | `result` | `"mate"`, `"nomate"`, `"unknown"` (or `"error"`, see below) | the verdict |
//! | `length` | integer or null | mate: the mate length the proof shows, in plies (an upper bound unless `shortest_proven`) |
//! | `line_length` | integer | mate: the number of plies of the line shown in `moves` |
//! | `line_is_main` | bool | mate: whether the line's defence is a longest one within `length` |
//! | `moves` | array of USI strings | mate: the line; else empty |
//! | `hand_left` | string | mate: the attacker's pieces left at the end (駒余り), SFEN letters |
//! | `shortest_proven`, `exact` | bool | mate: see [`MateLine`] |
//! | `status` | string | mate: the status in one sentence, [`MateLine::status`] (`"mate in 11"`, `"mate in 11 (not proven shortest)"`, ...) |
//! | `reason` | string | unknown: why the search stopped |
//! | `nodes`, `time_ms`, `nps` | integers | search counters |
//! | `first_proof_nodes`, `first_proof_ms` | integers | when the first proof (mate or no mate) was complete, before the length was shortened and the line walked ([`Stats::first_proof_nodes`]); absent when there was none |
//!
//! ## `check_unique --json`: one [`CheckRecord`] per problem
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `sfen`, `file`, `line`, `comment` | | the problem and where it came from |
//! | `sound` | bool or null | true sound, false unsound, null undecided |
//! | `verdict` | `"sound"`, `"unsound"`, `"undecided"` (or `"error"`) | |
//! | `length` | integer or null | the mate length: the solver's proven bound when its main line is checked, the intended line's own length when that is |
//! | `line_length` | integer or null | the plies of `moves` |
//! | `line_is_main` | bool or null | for the solver's line: whether it realises `length`; null for an intended line |
//! | `moves` | array of USI strings | the line checked |
//! | `intended` | bool | whether that line is the intended one given with the problem |
//! | `intended_moves` | array or null | the intended line as given |
//! | `hand_left` | string | the attacker's hand at the end of the line checked |
//! | `flaws` | array of objects | `kind` ([`crate::check::FlawKind::name`]), `japanese`, `ply`, `moves`, `length`, `length_exact`, `line_length`, `rejoin_ply`, `fatal` (as counted in this check: [`crate::check::CheckConfig::strict`]), `detail`: see [`Flaw`] |
//! | `undecided` | array of objects | `ply`, `move` (or null), `kind` ([`crate::check::Question::name`]), `question`, `reason` |
//! | `nodes`, `time_ms` | integers | counters over the whole check |
//! | `unnecessary_pieces` | object, absent unless asked for ([`crate::check::CheckConfig::unnecessary_pieces`]) and the problem is sound | `found` and `undecided`: arrays of `{square` (USI), `piece` (SFEN), `japanese` (`▲１九歩`)`}`, the undecided ones with their `reason` |
//!
//! ## A problem that could not be read: an [`ErrorRecord`]
//!
//! `file`, `line`, `column` (or null), `sfen` (the text of a one-line problem, or null),
//! `error` (the message), `result` / `verdict` = `"error"`, `length` = null, `moves` = [],
//! `nodes` = 0, `time_ms` = 0.
//!
//! ```
//! use tsume::Position;
//! use tsume::solver::{Solver, SolverConfig};
//! let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
//! let solution = Solver::new(SolverConfig::new().hash_mib(16)).solve(&pos);
//! let v = serde_json::to_value(&solution).unwrap();
//! assert_eq!(v["result"], "mate");
//! assert_eq!(v["length"], 3);
//! assert_eq!(v["moves"][0], "9f5b+");
//! ```

use crate::check::{Flaw, Report, Undecided, UnnecessaryPiece, UnnecessaryPieces};
use crate::problem::ProblemError;
use crate::solver::{MateLine, Outcome, Solution, Stats, StopReason};
use crate::{Hand, Move};
use serde::{Serialize, Serializer};

// The few places that read a MateLine's length and kind of line.
fn mate_length(line: &MateLine) -> u32 {
    line.length()
}
fn line_len(line: &MateLine) -> u32 {
    line.line_len()
}
fn line_is_main(line: &MateLine) -> bool {
    line.is_main_line()
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Serialize for Hand {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[derive(Serialize)]
struct MateLineJson<'a> {
    length: u32,
    line_length: u32,
    line_is_main: bool,
    moves: &'a [Move],
    hand_left: Hand,
    shortest_proven: bool,
    exact: bool,
    status: String,
}

impl<'a> MateLineJson<'a> {
    fn new(l: &'a MateLine) -> Self {
        MateLineJson {
            length: mate_length(l),
            line_length: line_len(l),
            line_is_main: line_is_main(l),
            moves: l.moves(),
            hand_left: l.hand_left(),
            shortest_proven: l.shortest_proven(),
            exact: l.exact(),
            status: l.status().to_string(),
        }
    }
}

/// `length`, `line_length`, `line_is_main`, `moves`, `hand_left`, `shortest_proven`, `exact`,
/// `status`.
impl Serialize for MateLine {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        MateLineJson::new(self).serialize(s)
    }
}

/// `nodes`, `time_ms`, `nps`, `table_fill`, and `first_proof_nodes`, `first_proof_ms` when
/// there was a first proof.
impl Serialize for Stats {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct StatsJson {
            nodes: u64,
            time_ms: u64,
            nps: u64,
            table_fill: f64,
            #[serde(skip_serializing_if = "Option::is_none")]
            first_proof_nodes: Option<u64>,
            #[serde(skip_serializing_if = "Option::is_none")]
            first_proof_ms: Option<u64>,
        }
        StatsJson {
            nodes: self.nodes,
            time_ms: self.elapsed.as_millis() as u64,
            nps: self.nodes_per_second(),
            table_fill: self.table_fill,
            first_proof_nodes: self.first_proof_nodes,
            first_proof_ms: self.first_proof_time.map(|t| t.as_millis() as u64),
        }
        .serialize(s)
    }
}

#[derive(Serialize)]
struct SolutionJson<'a> {
    result: &'static str,
    length: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line_length: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line_is_main: Option<bool>,
    moves: &'a [Move],
    #[serde(skip_serializing_if = "Option::is_none")]
    hand_left: Option<Hand>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shortest_proven: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    nodes: u64,
    time_ms: u64,
    nps: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_proof_nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_proof_ms: Option<u64>,
}

/// The solve object without `sfen` / `file` / `line` (see the module docs).
impl Serialize for Solution {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let st = &self.stats;
        let mut j = SolutionJson {
            result: "unknown",
            length: None,
            line_length: None,
            line_is_main: None,
            moves: &[],
            hand_left: None,
            shortest_proven: None,
            exact: None,
            status: None,
            reason: None,
            nodes: st.nodes,
            time_ms: st.elapsed.as_millis() as u64,
            nps: st.nodes_per_second(),
            first_proof_nodes: st.first_proof_nodes,
            first_proof_ms: st.first_proof_time.map(|t| t.as_millis() as u64),
        };
        match &self.outcome {
            Outcome::Mate(l) => {
                j.result = "mate";
                j.length = Some(mate_length(l));
                j.line_length = Some(line_len(l));
                j.line_is_main = Some(line_is_main(l));
                j.moves = l.moves();
                j.hand_left = Some(l.hand_left());
                j.shortest_proven = Some(l.shortest_proven());
                j.exact = Some(l.exact());
                j.status = Some(l.status().to_string());
            }
            Outcome::NoMate => j.result = "nomate",
            Outcome::Unknown(r) => j.reason = Some(r.to_string()),
        }
        j.serialize(s)
    }
}

/// `kind`, `japanese`, `ply`, `moves`, `length`, `length_exact`, `line_length`,
/// `rejoin_ply`, `fatal`, `detail`.
impl Serialize for Flaw {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct FlawJson<'a> {
            kind: &'static str,
            japanese: &'static str,
            ply: u32,
            moves: &'a [Move],
            length: Option<u32>,
            length_exact: bool,
            line_length: Option<u32>,
            rejoin_ply: Option<u32>,
            fatal: bool,
            detail: &'a str,
        }
        FlawJson {
            kind: self.kind.name(),
            japanese: self.kind.japanese(),
            ply: self.ply,
            moves: &self.moves,
            length: self.length,
            length_exact: self.length_exact,
            line_length: self.line_length,
            rejoin_ply: self.rejoin_ply,
            fatal: self.fatal,
            detail: &self.detail,
        }
        .serialize(s)
    }
}

/// `ply`, `move`, `question`, `reason`.
impl Serialize for Undecided {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct UndecidedJson<'a> {
            ply: u32,
            #[serde(rename = "move")]
            mv: Option<Move>,
            kind: &'static str,
            question: &'a str,
            reason: String,
        }
        UndecidedJson {
            ply: self.ply,
            mv: self.mv,
            kind: self.kind.name(),
            question: &self.question,
            reason: self.reason.to_string(),
        }
        .serialize(s)
    }
}

/// The check object without `sfen` / `file` / `line` / `comment` (see the module docs).
impl Serialize for Report {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct ReportJson<'a> {
            sound: Option<bool>,
            verdict: String,
            length: Option<usize>,
            line_length: Option<usize>,
            line_is_main: Option<bool>,
            moves: &'a [Move],
            intended: bool,
            intended_moves: Option<&'a [Move]>,
            hand_left: Hand,
            flaws: &'a [Flaw],
            undecided: &'a [Undecided],
            nodes: u64,
            time_ms: u64,
            #[serde(skip_serializing_if = "Option::is_none")]
            unnecessary_pieces: Option<UnnecessaryJson>,
        }
        ReportJson {
            sound: self.sound(),
            verdict: self.verdict.to_string(),
            // The mate length: the solver's proven bound when its main line is checked, the
            // intended line's own length when that is.
            length: match (&self.main_line, self.checked_intended) {
                (Some(ml), false) => Some(ml.length() as usize),
                _ => (!self.line.is_empty()).then_some(self.line.len()),
            },
            line_length: (!self.line.is_empty()).then_some(self.line.len()),
            line_is_main: match (&self.main_line, self.checked_intended) {
                (Some(ml), false) => Some(ml.is_main_line()),
                _ => None,
            },
            moves: &self.line,
            intended: self.checked_intended,
            intended_moves: self.intended.as_deref(),
            hand_left: self.hand_left,
            flaws: &self.flaws,
            undecided: &self.undecided,
            nodes: self.stats.nodes,
            time_ms: self.stats.elapsed.as_millis() as u64,
            unnecessary_pieces: self.unnecessary_pieces.as_ref().map(UnnecessaryJson::new),
        }
        .serialize(s)
    }
}

#[derive(Serialize)]
struct PieceJson {
    square: String,
    piece: String,
    japanese: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

impl PieceJson {
    fn new(p: &UnnecessaryPiece, reason: Option<&StopReason>) -> PieceJson {
        PieceJson {
            square: p.square.to_string(),
            piece: p.piece.to_string(),
            japanese: p.japanese(),
            reason: reason.map(|r| r.to_string()),
        }
    }
}

#[derive(Serialize)]
struct UnnecessaryJson {
    found: Vec<PieceJson>,
    undecided: Vec<PieceJson>,
}

impl UnnecessaryJson {
    fn new(u: &UnnecessaryPieces) -> UnnecessaryJson {
        UnnecessaryJson {
            found: u.found.iter().map(|p| PieceJson::new(p, None)).collect(),
            undecided: u
                .undecided
                .iter()
                .map(|(p, r)| PieceJson::new(p, Some(r)))
                .collect(),
        }
    }
}

/// One line of `solve --json`.
#[derive(Serialize)]
pub struct SolveRecord<'a> {
    /// The position solved, in SFEN.
    pub sfen: String,
    /// The file it came from.
    pub file: &'a str,
    /// The line it came from (none for an argument).
    pub line: Option<usize>,
    /// The ply of a record's main line the position is after (`--ply`, `--last`).
    pub ply: Option<usize>,
    /// The result.
    #[serde(flatten)]
    pub solution: &'a Solution,
}

/// One line of `check_unique --json`.
#[derive(Serialize)]
pub struct CheckRecord<'a> {
    /// The position checked, in SFEN.
    pub sfen: String,
    /// The file it came from.
    pub file: &'a str,
    /// The line it came from.
    pub line: Option<usize>,
    /// The problem's comment.
    pub comment: &'a str,
    /// The report.
    #[serde(flatten)]
    pub report: &'a Report,
}

/// The object printed for a problem that could not be read (see the module docs).
pub struct ErrorRecord<'a>(pub &'a ProblemError);

impl Serialize for ErrorRecord<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct ErrorJson<'a> {
            sfen: Option<&'a str>,
            file: &'a str,
            line: usize,
            column: Option<usize>,
            result: &'static str,
            verdict: &'static str,
            sound: Option<bool>,
            error: String,
            length: Option<u32>,
            moves: [Move; 0],
            nodes: u64,
            time_ms: u64,
        }
        let e = self.0;
        ErrorJson {
            sfen: e.text.as_deref(),
            file: &e.file,
            line: e.line,
            column: e.column,
            result: "error",
            verdict: "error",
            sound: None,
            error: e.kind.to_string(),
            length: None,
            moves: [],
            nodes: 0,
            time_ms: 0,
        }
        .serialize(s)
    }
}

/// A value as one line of JSON.
pub fn to_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
