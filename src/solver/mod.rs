//! The df-pn tsume solver.
//!
//! [`Solver`] proves mate or no-mate for the side to move (the attacker), which may be Black or
//! White. The attacker plays checks only; the defender any legal reply. A proven mate comes
//! with a mating line that has been verified move by move with the rules core
//! ([`verify_mate`]) before it is reported.
//!
//! ```
//! use tsume::{Outcome, Position, Solver, SolverConfig};
//! let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
//! let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1")?;
//! let result = solver.solve(&pos);
//! match &result.outcome {
//!     Outcome::Mate(line) => assert_eq!(line.length(), 3),
//!     other => panic!("expected a mate, got {other:?}"),
//! }
//! # Ok::<(), tsume::SfenError>(())
//! ```

mod check;
mod config;
mod entry;
mod expansion;
mod futile;
mod hands;
mod line;
mod memo;
mod monitor;
mod outcome;
mod path;
mod plies;
mod pn;
mod search;
mod shortest;
mod tt;
mod verify;

pub use check::{Flaw, FlawKind, Question, Report, Undecided, Verdict};
pub use config::SolverConfig;
pub use entry::Solver;
pub use futile::is_mate_with_futile_interpositions;
pub use outcome::{
    Alternative, DefenderChoice, MateLine, Outcome, Progress, Solution, Stats, StopHandle,
    StopReason, UnverifiedLine,
};
pub use tt::AllocError;
pub use verify::{LineError, verify_mate};
#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>() {}

    #[test]
    fn solver_is_send() {
        assert_send::<Solver>();
    }
}
