//! The df-pn tsume solver and the uniqueness checker: how they search, what they promise,
//! and what each setting buys. (Their types are also at the crate root.)
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
//!
//! # Solving
//! The attacker is the side to move, Black or White; it may have a king (then its moves must not
//! leave it in check, and the defender's replies may check it).
//!
//! The table's memory is reserved at once and mapped page by page as the search first touches it,
//! so a short problem costs no more than it uses; before a long search, or to keep page faults out
//! of a timing, [`Solver::prefault`] maps all of it up front (the USI engine does it at
//! `isready`).
//!
//! **How it searches.** df-pn (Nagai 2002) over OR nodes (attacker to move, [`Position::check_moves`](crate::Position::check_moves)
//! only) and AND nodes (defender to move, [`Position::evasions`](crate::Position::evasions)):
//!
//! - a transposition table of fixed size, keyed by the board and side to move, holding the attacker's
//!   hand per entry: proof hands (証明駒) and disproof hands (反証駒) are stored, and a look-up with hand
//!   H is answered by any proof whose hand H covers or any disproof whose hand covers H
//!   (superiority, 優越関係). Entries are verified by the full 64-bit board key and the exact hand.
//!   When an 8-entry cluster is full, the entry with the least search work behind it goes first,
//!   solved entries last; entries a new proof or disproof makes useless are dropped at once
//!   (eight rather than sixteen: a look-up asks for the whole cluster, and the search waits on
//!   memory more than it computes; the history of benches/README.md in git has the measurements);
//! - beside the table, a memo of the initial numbers of new nodes (a thirty-second of the table,
//!   at most 512 KiB): most children are never searched, so the table never holds them, and
//!   their replies or checks would be counted again at every visit of their parent;
//! - thresholds with the 1+ε trick (ε = 1/4 for the proof-number threshold of an OR node's best
//!   check, 1/8 for the disproof-number threshold of an AND node's best reply: fewer nodes on hard
//!   disproofs and first proofs, measured in the history of benches/README.md in git); df-pn+ initial numbers at new AND
//!   nodes (the replies weighted by kind: 3 for a king move, 2 for another board reply, 1 for each
//!   square the defender can drop on) and at new OR nodes (disproof number 2 for each check, plus 8, so that
//!   the defender's replies that leave the attacker fewest checks are tried first); a mate-in-one
//!   test at every new child of an OR node; no checks = disproven at once, already when the
//!   defender's reply is first looked at;
//! - interposition drops on one square are expanded one piece kind at a time (pawn first), the next
//!   kind only once the previous one is proven; an interposition is refuted either by its own child
//!   or by its capture position (see the futile-interposition rule below), searched side by side as
//!   the two branches of an OR, and a proven capture position settles every drop on that square at
//!   once; against a horse or dragon checking from three or more squares away, the open drops on
//!   the squares between that no defender piece guards count once together in the AND node's
//!   proof number (they are often futile: the checker takes the piece and the check stands),
//!   though each is still searched and refuted;
//! - weak sums: an AND node's proof number is its largest child's plus one for each other open
//!   child, an OR node's disproof number likewise;
//! - repetition: a position already on the current path is a failure for the attacker (a repetition
//!   never mates). So is an inferior repetition (劣等局面): the board of a node on the path again,
//!   with no more in the attacker's hand (a loop that only costs the attacker a pawn each time
//!   round). Whatever mates such a position mates that node too, with a smaller tree and no more
//!   plies, so the smallest and the shortest mates never pass through it and no answer changes;
//!   the search just stops going round. A disproof that rests on a repetition is path-dependent: it is kept in a
//!   separate table keyed by the position and the set of positions on the path, and reused only on
//!   that same path (graph-history interaction), with the ply of the shallowest path position it
//!   rests on; at that node the loop is closed (every repetition it counts comes back to the node
//!   itself), and the disproof holds on any path and goes to the main table. A proof that leaves out a repeated
//!   interposition (the saw rule below) rests on the path too: it goes to the same table, with
//!   the ply of the path position it rests on, and reaches the main table once that position is
//!   proven;
//! - every search has a ply budget: a proof records its mate length, a disproof the number of
//!   plies it holds for, and an open node the budget its numbers were searched with; a look-up
//!   answers only with entries valid for the budget asked (an open node's numbers serve that
//!   budget or a smaller one: for a larger one, a node near a bounded search's horizon would look
//!   far harder than it is). A node with one ply left is decided on the spot (does one of its
//!   checks mate at once?) rather than by visiting every check: at the horizon of a search for a
//!   short mate such nodes and their children were more than half of the search.
//!
//! **The main line.** A mate comes with the tsume main line (the rules:
//! [`rules`, "The main line"](crate::rules#the-main-line-本手順)):
//!
//! - the attacker plays a shortest mate. After a first proof of at most 127 plies the solver
//!   searches from the bottom up: a mate in 1? in 3? in 5? ..., each a df-pn search with that
//!   budget and each allowed half of what is left of the allowance, the first with a mate being
//!   the shortest (a first proof can be far longer than the shortest mate: 67 plies for a mate in
//!   11). When the first proof took 50,000 nodes or more, it first asks from the top (a mate in
//!   two plies fewer?), each search allowed one and a half times the first proof's nodes, and
//!   goes to the bottom-up searches only when one runs out or finds its shorter mate only after
//!   more than an eighth of a search's share of the allowance: where the first proof is nearly the shortest, the ladder's
//!   rungs would each cost about as much as the last search from the top alone (図巧98番: 3.9 M
//!   nodes the ladder's way, 2.5 M this way). When one of these runs out, or after a longer first proof, it asks "is there a mate in
//!   two plies fewer?" again and again until the answer is no or lies below the budgets already
//!   refuted ([`MateLine::shortest_proven`]), or its allowance of nodes runs out
//!   ([`SolverConfig::shortest_node_limit`]; by default 10,000,000 nodes, whatever the first
//!   proof took; each search from the root starts with an eighth of the allowance,
//!   and one that runs out goes on with twice as much). With that default 寿, ACTの夢, Astral
//!   Traveler, Astral390, 橋本587 and 図巧98番 come out proven shortest; `--shortest-nodes 1`
//!   (`Some(1)`) gives the first verified mate at once, and a time limit that runs out during
//!   this work still gives the mate found so far.
//!   When one such search runs out of its share, the line found so far is tightened from its end
//!   back to the root ([`SolverConfig::shortcuts`], on by default): at each attacker node every
//!   other check gets a small bounded search for a mate two plies sooner (a shortcut: 300 nodes
//!   for a check the line itself plays at a later attacker ply, the usual move-order waste, and 30
//!   for the rest), and each
//!   position of the line is proven again within what its part of the line then needs; while a
//!   pass shortens the root's mate, the line is walked again at the new length (a defence that
//!   has become the longest is then part of it) and tightened again, and a line that a later
//!   search from the top shortens further is tightened once more. Long problems whose first
//!   proof wastes moves in many places get their length this way (Microcosmos gets its 1525 plies
//!   so), though
//!   without the proof that it is minimal within the default allowance (with an allowance that
//!   does not run out, `--shortest-nodes unlimited`, the proof comes). The search that
//!   ran out then goes on with twice its share, from what the table holds, until the allowance
//!   is spent;
//! - the defender plays the longest defence and, among equally long ones, the one that leaves the
//!   attacker the fewest pieces in hand (駒余り); [`MateLine::hand_left`] is that hand;
//! - futile interpositions (無駄合) are neither counted nor shown (definition in [`rules`](crate::rules#futile-interpositions-無駄合-mudaai));
//! - the line is walked from the root with the proven length as budget: at attacker nodes the first
//!   check in move-generation order that mates within the budget left (near the end of the line,
//!   among the checks that mate as soon, the one that leaves the fewest pieces in hand, so that a
//!   sound problem's line uses up the attacker's pieces), at defender nodes the replies
//!   that are not mated two plies sooner, each question answered from the table or by a bounded
//!   search (with the default allowance the walk's searches take at most a quarter of the first
//!   proof's nodes, and at least 1,000,000: on 橋本587 more bought the same line; a line that
//!   still falls short of the length is walked again with twice the nodes, up to six times, while
//!   no limit set by the caller runs out). When the length
//!   is proven minimal and every such question was answered,
//!   [`MateLine::exact`] is true: each choice then depends only on the position and the
//!   move-generation order, not on what the table happened to hold, so the line is the same for
//!   every table size and every run (tested with 1, 4 and 64 MiB and a reused solver). Otherwise (long problems, where proving minimality is out of reach) the line is
//!   still a verified mate with the best length found, and the flags say what was not shown;
//! - with [`SolverConfig::defences`], every defender ply of the line lists all replies with
//!   their mate lengths ([`DefenderChoice`], [`DefenderReply`]);
//! - [`SolverConfig::max_mate_length`] restricts a search to mates of at most N plies (`NoMate`
//!   then means none that short), which is how the tests check a minimal length independently.
//!
//! Every line is checked move by move by [`verify_mate`] (rules core only) before it is reported; a
//! proof whose line cannot be verified is reported as `Unknown(UnverifiedLine)`, never as a mate.
//!
//! ## The length is a proven bound
//!
//! [`MateLine::length`] — `length` in the JSON, "mate in N" in the output of `solve` and
//! `check_unique` — is always a length that a proof in the search shows: against every defence
//! the attacker has a mate in at most N plies (futile interpositions not counted). It is the
//! first proof's length, or a shorter one proven since; the line shown never sets it.
//! [`MateLine::shortest_proven`] says whether N is also minimal (no mate in N-2).
//!
//! The line shown ([`MateLine::moves`], [`MateLine::line_len`]) is a verified mate, and
//! [`MateLine::is_main_line`] says whether its defender plays a longest defence within N: the line
//! then has N plies (more only when it has to show a futile interposition and its capture). When
//! the allowance for the shortest-mate work runs out, the line is walked at N with what the table
//! knows; where a defence could not be decided and the line comes out shorter, the solver proves
//! the line's own length from its end back to the root (with an eighth of the allowance of its own),
//! lowers N to that proof when it succeeds and walks again. Only when that fails too is the line
//! reported as not the main line — `mate in at most N; line shown: L plies, defence not the
//! longest` — and the checker then lists "which defence is the longest?" as undecided.
//!
//! **Futile interpositions (無駄合).** An interposition (合駒) between the king and a distant
//! checker, by a drop or a move (移動合), is not counted when the attacker can take it with the
//! checker and mate as fast without ever using the captured piece (a 移動合: when that capture
//! leaves a mate at once, as at the end of a chain of 移動合 after a distant check); the line does
//! not show it, and a position where every reply is such an interposition ends a line like a
//! checkmate ([`is_mate_with_futile_interpositions`]). In a horse or dragon saw (馬鋸, 龍鋸) a drop
//! on a square the checker left a cycle earlier, taken back, only brings the line back to a
//! position it has passed through, the attacker a piece richer: such a **repeated interposition**
//! is worth nothing while the defender has another reply (the saw rule), so a saw is not lengthened
//! by pawns dropped again and again (tested on a horse saw's positions in `tests/futile.rs` and the
//! search's and line walk's unit tests; no problem of the suites has a saw in its main line). The exact definition, why the saw rule is sound and where it
//! depends on the line played, and the one case the rule cannot show without counting:
//! [`rules`, "Futile interpositions"](crate::rules#futile-interpositions-無駄合-mudaai).
//!
//! # Checking a problem (余詰検討)
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
//! question, see below), `--hash-mb MB`, `--jobs N`, `--prefault` (as for `solve`), `--json`, `--strict` (count 非限定 and 手順前後
//! as fatal, [`SolverConfig::strict_check`]), `--variations` (also look for 変化別詰,
//! [`SolverConfig::check_variations`]), `--first-flaw` (stop at the first fatal flaw, see
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
//! use tsume::{FlawKind, Position, Solver, SolverConfig, Verdict};
//! let mut solver = Solver::new(SolverConfig::new().hash_mib(32));
//! let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1")?;
//! let report = solver.check(&pos, None);            // or Some(&intended_moves)
//! assert_eq!(report.verdict, Verdict::Sound);       // sound, with one note:
//! assert_eq!(report.flaws[0].kind, FlawKind::EqualLengthVariation);
//! assert_eq!(report.flaws[0].ply, 2);               // △同銀右 instead of △同銀左 is as long
//! for flaw in &report.flaws {
//!     println!("ply {} {} {:?} {:?}", flaw.ply, flaw.kind.japanese(), flaw.moves, flaw.length);
//! }
//! # Ok::<(), tsume::SfenError>(())
//! ```
//!
//! **How it checks.** The problem is solved as by [`Solver::solve`] (main line, shortest mate;
//! near the end, among equally short mates, the one that uses up the attacker's pieces, so 駒余り is
//! reported only when no such line exists). The line checked is the intended line when one is
//! given and it is a mating line, else the main line.
//! Then, ply by ply, on the solver's table:
//!
//! - attacker plies: every other check gets a search for a mate of any length. One that mates is
//!   searched again on a second table (half the size, allocated on first use) with every position
//!   of the line after this ply treated as not mated: a mate there is a real second solution, 余詰
//!   (its length is the shortest such mate, `length_exact` says whether it was proven shortest).
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
//! Each question may search at most [`SolverConfig::question_node_limit`] nodes (its docs give the
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
//! ([`SolverConfig::first_flaw`]) the check ends at the first fatal flaw it finds: an unsound
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
    DefenderChoice, DefenderReply, LineCut, MateLine, MateStatus, Outcome, Progress, Solution,
    Stats, StopHandle, StopReason, UnverifiedLine,
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
