//! The uniqueness checker (余詰検討): every flaw of a composed problem, where it is and why.
//!
//! A problem is sound when its main line ends in mate with the attacker's hand empty and no
//! other attacker move along it also mates. [`Solver::check`](crate::solver::Solver::check) solves the problem, then walks
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
//!   [`CheckConfig::strict`];
//! - at the last ply, does another check mate at once (最終手余詰, a note)?
//! - at each defender ply, does another reply last as long (変同, a note when the attacker
//!   then ends with no pieces in hand) or longer (変長)? Futile interpositions (無駄合) are no
//!   variations;
//! - with an intended line, is there a shorter mate at some attacker ply (早詰)?
//! - with [`CheckConfig::variations`], after each other defence mated no later than
//!   the line, does a second check mate as quickly at the variation's first attacker ply
//!   (変化別詰, a note)?
//! - does the attacker end with pieces in hand (駒余り)?
//!
//! A question that its share of nodes cannot settle is reported as [`Undecided`], and the
//!
//! The checker's settings are a [`CheckConfig`]; the table, the limits for the whole check and
//! the progress reports are the [`Solver`](crate::solver::Solver)'s.
//!
//! # From the command line
//!
//! ```sh
//! cargo run --release --example check_unique -- problems/flawed.sfen
//! ```
//!
//! The input is any [problem file](crate::problem); a record's main line is
//! the intended line (作意): the moves after a KIF diagram, or after the word `moves` of an SFEN
//! line (`<sfen> [moves <usi move> ...] [# comment]`, as in the USI `position` command). `-` reads
//! standard input. Options:
//! `--time SECS` and `--nodes N` (for the whole check of one problem), `--question-nodes N` (for each
//! question, see below), `--hash-mb MB`, `--jobs N`, `--threads N` (threads per check, the questions shared out among them: [parallel search](crate::solver#parallel-search)), `--prefault` (as for `solve`, the checker's side tables included), `--json`, `--strict` (count 非限定 and 手順前後
//! as fatal, [`CheckConfig::strict`]), `--variations` (also look for 変化別詰,
//! [`CheckConfig::variations`]), `--first-flaw` (stop at the first fatal flaw, see
//! [A quick verdict](#a-quick-verdict---first-flaw)), and `--kif FILE` /
//! `--kif-dir DIR`: the line checked as a KIF file with every flaw's alternative as a variation
//! (`変化：N手`, its first move commented `*余詰 (alternative mate): ...`; a 余詰 is continued by a
//! search from the alternative, the defender's longest reply first), so a composer sees each flaw
//! on the board in Kifu for Windows, ShogiGUI, Shogidokoro or Electron Shogi; `--csa` / `--csa-dir`
//! for the line alone (`--help` gives the defaults). The exit status is 0 when every
//! problem is sound, 1 when any is unsound or undecided, 2 when some input could not be read (the
//! others are still checked). Human output, for the 古典3手詰 with a lance added to the hand (the
//! lance can be used, so the main line does; the original solution, which leaves it over, is now a
//! second one):
//!
//! ```text
//! verdict: unsound (1 fatal flaw, 1 note, 0 undecided)
//! main line (mate in 3, 3 plies, attacker's hand at the end: none)
//! usi: L*5b 4a5b S*4b
//! kif: ▲５二香 △同　銀左 ▲４二銀打
//!   ply   1  FLAW 余詰 (alternative mate): this check also forces mate, in 3 plies from here; ▲５二角成 [9f5b+]
//!   ply   2  note 変同 (equal-length variation): another defence is as long and leaves no pieces over; △同　銀右 ▲６二銀打 [6a5b S*6b]
//! ```
//!
//! With `--json`, one object per problem per line (the schema: the `tsume::json` module's docs):
//! the verdict, the line checked (`length`: the solver's proven mate length when the line checked
//! is its main line, the intended line's own length when that is checked; `line_length`,
//! `line_is_main`), the intended line as given, the attacker's hand at the end, each flaw with its
//! kind, ply, moves and lengths, the undecided questions (with their `kind`, see [`Question::name`]), and the counters. A position whose
//! defender has no king, a bad SFEN or USI token, and `moves` with nothing after it are bad
//! input; an intended line with an illegal move is the composer's flaw and reported as one.
//! The kinds:
//!
//! | kind | term | fatal | reported when |
//! |---|---|---|---|
//! | `no_mate` | 不詰 | yes | the position has no mate; or, with an intended line, a defender reply after which there is none |
//! | `invalid_intended_line` | 不詰 | yes | the intended line has an illegal move, an attacker move that does not check, a futile interposition (無駄合, which a tsume line leaves out), or does not end in mate (ply and move named, along the intended line; listed first) |
//! | `alternative_mate` | 余詰 | yes | at an attacker ply other than the last, another check also forces mate, of any length: without touching the line's later positions, or through them but joining the line sooner than the line does, or through them but slower than the line (the defender has a way out where the two never meet) |
//! | `promotion_choice` | 成・不成の非限定 | no (a note; yes with `--strict`) | the played move with the other promotion choice also mates, only through positions of the line (same board, same hands, same side to move) reached no later than the line reaches them, and no slower than the line; `rejoin_ply` and the moves show where |
//! | `transposition` | 手順前後 | no (a note; yes with `--strict`) | another check also mates, only through positions of the line reached at the line's own ply, as quickly as the line (a flaw, not a second solution); reported with its order (`moves`) and the line's (the line from `ply` to `rejoin_ply`), how far from the end (`line_length`), and whether its moves are the line's own in another order or other moves (two drop squares) |
//! | `alternative_final_move` | 最終手余詰 | no (a note) | another move also mates at the last ply |
//! | `pieces_left_over` | 駒余り | yes | the attacker ends the line with pieces in hand |
//! | `equal_length_variation` | 変同 | no (a note) | at a defender ply, another reply leads to a mate as long, with no pieces left over |
//! | `longer_variation` | 変長 | yes | at a defender ply of the intended line, another reply lasts longer |
//! | `shorter_mate` | 早詰 | yes | at an attacker ply of the intended line, a shorter mate exists (the first ply of a run) |
//! | `variation_alternative_mate` | 変化別詰 | no (a note) | only with `--variations`: after another defence that is mated no later than the line, at the variation's first attacker ply, another check mates as quickly as the first one found (variations mated in 1, and questions left open, are not listed) |
//!
//! Each flaw's `fatal` says how it was counted in this check (the default severities above, or
//! `--strict`). (The same definitions, with the conventions they rest on:
//! [`rules`, "Flaws the checker reports"](crate::rules#flaws-the-checker-reports).)
//!
//! From the library:
//!
//! ```rust
//! use tsume::Position;
//! use tsume::check::{CheckConfig, FlawKind, Verdict};
//! use tsume::solver::{Solver, SolverConfig};
//! let mut solver = Solver::new(SolverConfig::new().hash_mib(32));
//! let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1")?;
//! let report = solver.check(&pos, None, &CheckConfig::new()); // or Some(&intended_moves)
//! assert_eq!(report.verdict, Verdict::Sound);       // sound, with one note:
//! assert_eq!(report.flaws[0].kind, FlawKind::EqualLengthVariation);
//! assert_eq!(report.flaws[0].ply, 2);               // △同銀右 instead of △同銀左 is as long
//! for flaw in &report.flaws {
//!     println!("ply {} {} {:?} {:?}", flaw.ply, flaw.kind.japanese(), flaw.moves, flaw.length);
//! }
//! # Ok::<(), tsume::SfenError>(())
//! ```
//!
//! **How it checks.** The problem is solved as by [`Solver::solve`](crate::solver::Solver::solve) (main line, shortest mate;
//! near the end, among equally short mates, the one that uses up the attacker's pieces, so 駒余り is
//! reported only when no such line exists). The line checked is the intended line when one is
//! given and it is a mating line, else the main line.
//! Then, ply by ply, on the solver's table:
//!
//! - attacker plies: every other check gets a search for a mate of any length. One that mates is
//!   searched again on a second table (half the size, allocated on first use) with every position
//!   of the line after this ply treated as not mated: a mate there is a real second solution, 余詰
//!   (its length is the shortest such mate, `length_exact` says whether it was proven shortest).
//!   Either search, when its share does not settle it, gets a quarter of the share more to look
//!   for a mate at most four plies longer than the rest of the line (a search for a mate of any
//!   length can lose itself in mates of dozens of plies made of the defender's pieces in hand).
//!   On that table a proof serves only the attacker's hand it was found with: with more in hand
//!   the same moves reach other positions, and one of them may be a line position, so the
//!   superiority the main table uses (a mate with some hand is a mate with more) does not hold
//!   there; disproofs still serve smaller hands.
//!   A check that mates, but not that way, mates through the line's positions (same board, same
//!   hands, same side to move), and two more searches on the second table say how: one that may
//!   reach them sooner than the line (a mate there joins the line early: 余詰), then one that may
//!   reach them at the line's own ply (a mate there is 手順前後, or 非限定 when the check is the
//!   played move with the other promotion flag, for which "no later" is enough); a check that
//!   mates only by coming back later than the line is a detour (迂回手順) and not reported (these
//!   two searches keep their table entries apart by ply: whether a line position is reached in
//!   time depends on the ply a position is met at, and the same position comes back deeper by
//!   another order of moves). A 手順前後 or 非限定 is then measured on the main table: slower than the line is 余詰 after all
//!   (the defender has a longer way out in which the two never meet), and for 手順前後 so is
//!   faster. Its order of moves is found by a small search (the line's own moves tried first) and
//!   shown beside the line's. Composers tolerate 非限定 and judge 手順前後 leniently, the more so
//!   near the end (収束): both are notes unless `--strict` (the letter of
//!   [the rules](crate::rules#flaws-the-checker-reports), which counts them as 余詰);
//! - the last ply: every other check that mates at once (or leaves only futile interpositions);
//! - defender plies: every other reply is judged against the rest of the line with length-bounded
//!   searches: shorter (or a futile interposition, 無駄合, refuted by its capture as soon): nothing to
//!   say; as long: its own line is walked, and a 変同 is reported if it leaves the attacker no
//!   pieces; longer: 変長 with its length (or 不詰 if there is no mate after it). With
//!   `--variations`, each reply mated no later than the line also gets its shortest mate, and
//!   every other check at its first attacker ply a search for a mate as quick (変化別詰);
//! - with an intended line, each attacker ply also asks "is there a mate two plies shorter than the
//!   rest of the intended line?" (早詰, with the shorter mate's first move and length).
//!
//! Each question may search at most [`CheckConfig::question_node_limit`](crate::check::CheckConfig::question_node_limit) nodes (its docs give the
//! default); the node and time limits bound the whole check. A question
//! that runs out is listed in [`Report::undecided`] (reason `question node limit reached`, or the
//! whole check's limit) and the verdict is then `Undecided` unless a fatal
//! flaw was found anyway: an unsettled question is never taken as sound. Without an intended line, a
//! main line whose length is not proven shortest, whose defences were not all decided, or whose
//! line does not realise its proven length (see
//! [The length is a proven bound](#the-length-is-a-proven-bound)) is also an undecided question;
//! so is a defence found to last longer than the solver's own line (that is the solver's line not
//! being the main line, not a 変長 of the problem).
//!
//! What the checker does not decide: whether an alternative's play "follows the same moves" when
//! it never comes back to a position of the line (a promotion choice whose piece stays unpromoted
//! to the end is 余詰 here, though many composers would call it 非限定; in mog_mate11 and
//! mog_mate13 of `problems/long.sfen` the unpromoted rook promotes later and rejoins the line, so
//! they are 非限定 notes). And the second table counts the capture position of a futile
//! interposition two plies after the reply (the plies on the board, not the plies counted, as the
//! search does everywhere below such a position): a check that comes back to the line only through
//! such a capture position, at the line's ply as counted, looks like a detour there and is not
//! reported (a lenient kind missed); one that joins the line sooner that way and nowhere else
//! would be taken for 手順前後 rather than 余詰 (no such case is known; counting capture positions
//! at their counted ply belongs to the search, `search.rs`). Whether a 手順前後 or 非限定 is as
//! quick as the line is asked on the main table, which has no exclusions. A question left open is
//! listed as undecided, as above (`transposition`: "does this check reach the line no later, and
//! mate as quickly?").
//!
//! ## A quick verdict (`--first-flaw`)
//!
//! A full check looks for every flaw, and on an unsound problem that is most of its work: each
//! other check at each attacker ply is searched to the end, the second solutions shortened to
//! their shortest, and questions that cannot change the verdict any more (does this fourth
//! alternative also mate?) may spend a whole share. With `--first-flaw`
//! ([`CheckConfig::first_flaw`](crate::check::CheckConfig::first_flaw)) the check ends at the first fatal flaw it finds: an unsound
//! problem is reported unsound, with the flaws found up to there (each one a flaw of the full
//! report by kind, ply and move; a length may be given as a bound, "at most N", where the full
//! check proves it exact) and an undecided entry `not_examined` with the reason "stopped at the
//! first fatal flaw" at the ply where the walk stopped. To find a cheap second solution wherever
//! it is, the walk first gives every question a sixteenth of its share; only when that walk finds
//! no fatal flaw does the walk with the full shares follow, on the same tables. So a sound problem
//! gets the full check (with the quick walk's entries in the tables: its report was the full
//! check's on every sound problem of the suites, but with small tables or shares an entry may
//! settle a question differently), and the flaw reported is the first one found, not
//! necessarily the one at the earliest ply (the quick walk's open questions are not listed).
//! Pieces left over (駒余り) are seen from the line alone and end the walk before its searches.
//! The `--nodes` and `--time` limits count both walks. For one of the YaneuraOu samples (line 9
//! of `problems/yaneuraou.sfen`, whose full check reports five 余詰 at ply 1 and the pieces):
//!
//! ```text
//! verdict: unsound (1 fatal flaw, 0 notes, 0 undecided; stopped at the first fatal flaw)
//! main line (mate in 3, 3 plies, attacker's hand at the end: 金 歩)
//! usi: B*5g 4h5h 7i6i
//! kif: △５七角 ▲５八玉 △６九馬
//!   ply   3  FLAW 駒余り (pieces left over): the attacker ends with 金 歩 in hand
//!   ply   1  stopped: the plies from here on were not examined (stopped at the first fatal flaw)
//! ```
//!
//! It gives the verdict of the full check on every problem of the sample suites; `tests/check.rs` runs the problems of
//! `yaneuraou.sfen`, `antma.sfen` and `flawed.sfen` (those without `strict` or `variations`) this
//! way and asserts the documented verdict, that every flaw reported is a documented one, that a
//! sound problem keeps all its notes, and where an unsound one stopped; and one strict problem.

mod attacker;
mod config;
mod defender;
mod record;
mod rejoin;
mod report;
mod run;
#[cfg(test)]
mod tests;
mod unnecessary;

pub use config::CheckConfig;
pub use report::{
    Flaw, FlawKind, Question, Report, Undecided, UnnecessaryPiece, UnnecessaryPieces, Verdict,
};
pub(crate) use run::{SideTables, run};
pub(crate) use unnecessary::find as find_unnecessary;
