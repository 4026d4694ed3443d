//! The checker's settings: [`CheckConfig`], built with chained setters, each with a getter.

/// Settings of one check ([`Solver::check`](crate::solver::Solver::check)), built with
/// chained setters; each setter has a getter of the same name with `get_` in front. The
/// table size, the node and time limits of the whole check and the progress reports are
/// the solver's ([`SolverConfig`](crate::solver::SolverConfig)).
///
/// ```
/// use tsume::check::CheckConfig;
/// let config = CheckConfig::new().first_flaw(true).question_node_limit(Some(200_000));
/// assert!(config.get_first_flaw());
/// assert_eq!(config.get_question_node_limit(), Some(200_000));
/// assert!(!CheckConfig::default().get_strict());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckConfig {
    question_node_limit: Option<u64>,
    strict: bool,
    variations: bool,
    first_flaw: bool,
    unnecessary_pieces: bool,
}

impl CheckConfig {
    /// The least automatic share of one question (when
    /// [`CheckConfig::question_node_limit`] is `None`, it is as many nodes as the solution
    /// took, and at least this many).
    pub const MIN_QUESTION_NODES: u64 = 1_000_000;

    /// The defaults: automatic question shares, the lenient kinds as notes, no search for
    /// 変化別詰, the whole line checked.
    pub fn new() -> CheckConfig {
        CheckConfig::default()
    }

    /// Nodes each question may search: one alternative move, "does this check also mate?",
    /// "is this defence as long?". A question that runs out is reported as
    /// [undecided](super::Undecided). A search for a mate of any length after another check
    /// (does it mate? does it mate clear of the line?) that its share does not settle gets a
    /// quarter of it more to look for a mate at most four plies longer than the rest of the
    /// line: such a search can spend its share on mates of dozens of plies, made of the
    /// defender's pieces in hand, and miss a short one. `None` (the default): as many as the
    /// solution took, and at least [`MIN_QUESTION_NODES`](Self::MIN_QUESTION_NODES). With
    /// [threads](crate::solver::SolverConfig::threads), the nodes of every thread count: the
    /// solution's of all threads set the share, and those of every thread that works on a
    /// question count towards it.
    pub fn question_node_limit(mut self, nodes: Option<u64>) -> CheckConfig {
        self.question_node_limit = nodes;
        self
    }

    /// Count the lenient kinds, 成・不成の非限定
    /// ([`FlawKind::PromotionChoice`](super::FlawKind::PromotionChoice)) and 手順前後
    /// ([`FlawKind::Transposition`](super::FlawKind::Transposition)), as fatal, as the letter
    /// of [the rules](crate::rules#flaws-the-checker-reports) does; off by default (they are
    /// then notes, as most composers and magazine checkers judge them). Each
    /// [`Flaw::fatal`](super::Flaw::fatal) says how it was counted.
    pub fn strict(mut self, on: bool) -> CheckConfig {
        self.strict = on;
        self
    }

    /// Also look for 変化別詰: after each other defence that is mated no later than the line,
    /// a second attacker move that mates as quickly
    /// ([`FlawKind::VariationAlternativeMate`](super::FlawKind::VariationAlternativeMate), a
    /// note). Off by default: it costs a search per check at the first attacker ply of every
    /// side variation.
    pub fn variations(mut self, on: bool) -> CheckConfig {
        self.variations = on;
        self
    }

    /// End the walk along the line at the first fatal flaw found (a second solution, a
    /// shorter mate, pieces left over, ...; [`Flaw::fatal`](super::Flaw::fatal)), for a quick
    /// verdict on a draft. Off by default.
    ///
    /// A first walk gives each question a sixteenth of its share, so that a second solution
    /// that is cheap to find anywhere along the line ends the check before hard questions at
    /// earlier plies spend their whole shares; only when it finds no fatal flaw does the walk
    /// with the full shares follow, on the same tables. So a sound problem gets the full
    /// check (its tables holding the quick walk's entries, which with small tables or shares
    /// may settle a question differently). An unsound one is reported unsound with the flaws
    /// found up to the stop (each one a flaw the full check reports too, by kind, ply and
    /// move; a length found in the quick walk may be a bound, "at most N", where the full
    /// check proves it exact) and a [`Question::NotExamined`](super::Question::NotExamined)
    /// entry with [`StopReason::FirstFlaw`](crate::solver::StopReason::FirstFlaw) at the ply
    /// where the walk stopped. The flaw is the first one found, not necessarily the one at the
    /// earliest ply, and the quick walk's open questions are not listed. The whole check's
    /// node and time limits count both walks: near those limits a check may come out
    /// undecided where the full check alone would not.
    pub fn first_flaw(mut self, on: bool) -> CheckConfig {
        self.first_flaw = on;
        self
    }

    /// Also look for unnecessary pieces (不要駒, *fuyōgoma*) of a sound problem: board pieces
    /// (kings aside) that can be taken off with the problem still sound by the same solution.
    /// Off by default: it costs a check per piece. The answer is
    /// [`Report::unnecessary_pieces`](super::Report::unnecessary_pieces).
    ///
    /// **The same solution**, precisely: the piece is taken off the board and put in the
    /// defender's hand (the tsume convention: every piece that is neither on the board nor in
    /// the attacker's hand is the defender's; a promoted piece goes back unpromoted), and then
    ///
    /// - no move of the line checked ([`Report::line`](super::Report::line)) moves or captures
    ///   the piece (a piece the line plays with or takes is needed);
    /// - the position is one a problem can have (the defender's king is not left in check);
    /// - the checker, with the line checked as the intended line (作意), finds the reduced
    ///   problem sound: the line is still legal, every attacker move a check, mate at its
    ///   end with nothing left in hand, no second solution (余詰), no shorter mate (早詰), no
    ///   longer defence (変長), under the same settings (strict or not). Notes (変同, ...)
    ///   may differ.
    ///
    /// So a piece that only guards against a second solution (余詰防止駒) is needed, and so is
    /// one whose removal lets the defender escape or defend longer. Each piece's check runs
    /// with what is left of the whole check's node and time limits (with
    /// [`first_flaw`](CheckConfig::first_flaw), for a quick no); a piece whose check these
    /// limits cut short is listed as undecided. Only a sound problem is examined: for an
    /// unsound or undecided one the answer is `None`.
    ///
    /// ```
    /// use tsume::Position;
    /// use tsume::check::CheckConfig;
    /// use tsume::solver::{Solver, SolverConfig};
    /// let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
    /// // 古典3手詰 with a black pawn added far away on 1i: it plays no part.
    /// let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/8P b S2rb4g4n4l17p 1")?;
    /// let report = solver.check(&pos, None, &CheckConfig::new().unnecessary_pieces(true));
    /// let found = &report.unnecessary_pieces.as_ref().unwrap().found;
    /// assert_eq!(found.len(), 1);
    /// assert_eq!(found[0].square.to_string(), "1i");
    /// # Ok::<(), tsume::SfenError>(())
    /// ```
    pub fn unnecessary_pieces(mut self, on: bool) -> CheckConfig {
        self.unnecessary_pieces = on;
        self
    }

    /// See [`CheckConfig::unnecessary_pieces`].
    pub fn get_unnecessary_pieces(&self) -> bool {
        self.unnecessary_pieces
    }

    /// See [`CheckConfig::question_node_limit`].
    pub fn get_question_node_limit(&self) -> Option<u64> {
        self.question_node_limit
    }

    /// See [`CheckConfig::strict`].
    pub fn get_strict(&self) -> bool {
        self.strict
    }

    /// See [`CheckConfig::variations`].
    pub fn get_variations(&self) -> bool {
        self.variations
    }

    /// See [`CheckConfig::first_flaw`].
    pub fn get_first_flaw(&self) -> bool {
        self.first_flaw
    }
}
