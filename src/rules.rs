//! The tsume rules this crate implements: the conventions, the main line, futile
//! interpositions, the mate length, and the flaws the checker reports.
//!
//! This module holds documentation only. Every other part of the crate's docs that speaks of
//! "the rules" means what is written here.
//!
//! # Contents
//!
//! - [The game](#the-game)
//! - [Tsume conventions](#tsume-conventions-詰将棋の約束)
//! - [The main line](#the-main-line-本手順)
//! - [Futile interpositions](#futile-interpositions-無駄合-mudaai)
//! - [The length is a proven bound](#the-length-is-a-proven-bound)
//! - [Flaws](#flaws-the-checker-reports)
//!
//! # The game
//!
//! The rules core plays standard shogi: a 9×9 board, files 1-9 counted from Black's right and
//! ranks a-i (1-9) from White's side; Black (先手, *sente*) and White (後手, *gote*); promotion
//! (成り, *nari*) optional inside the three far ranks and forced where the piece could never
//! move again; captured pieces go to the captor's hand unpromoted and may be dropped. A drop
//! may not put a second unpromoted pawn on a file (二歩, *nifu*), may not put a piece where it
//! could never move (行き所のない駒, *ikidokoro no nai koma*: a pawn or lance on the last rank, a
//! knight on the last two), and a pawn drop may not give checkmate (打ち歩詰め, *uchifuzume*; a
//! pawn *moved* to mate is fine, and so is any other piece dropped to mate). No move may leave
//! the mover's king attacked. [`IllegalMove`](crate::IllegalMove) names each rule a move can
//! break.
//!
//! # Tsume conventions (詰将棋の約束)
//!
//! - **The attacker checks, the defender answers.** The side to move is the attacker (攻方,
//!   *semekata*), Black or White. Every attacker move gives check (王手, *ōte*); the solver
//!   only looks at [`Position::check_moves`](crate::Position::check_moves). The defender (玉方,
//!   *gyokukata*) has a king and may play any legal reply
//!   ([`Position::evasions`](crate::Position::evasions)). The attacker usually has no king; if
//!   it has one, the ordinary rules hold for it: its moves may not leave it in check, and a
//!   defender reply may check it.
//! - **The defender holds the remaining pieces (残り駒全部, *nokori-goma zenbu*).** By
//!   convention every piece that is neither on the board nor in the attacker's hand is in the
//!   defender's hand, kings excepted. The solver plays the hands the position has; call
//!   [`Position::fill_defender_hand`](crate::Position::fill_defender_hand) to apply the
//!   convention to a position whose SFEN leaves the defender's hand out (the problem files of
//!   this crate spell it out). A position with more pieces than a full set (2 kings, 2 rooks,
//!   2 bishops, 4 golds, 4 silvers, 4 knights, 4 lances, 18 pawns) is rejected when it is read.
//! - **A repetition never mates.** In a game, the fourth occurrence of a position (千日手,
//!   *sennichite*) loses for the side that gave check throughout. In tsume the attacker always
//!   checks, so a position that comes back on the current line is a failure for the attacker:
//!   a cycle is no mate.
//! - **打ち歩詰め (*uchifuzume*) stays illegal**: a pawn drop that would mate is not among the
//!   attacker's checks, so it is never the last move of a line (a pawn drop that checks and
//!   leaves the king a way out is an ordinary check).
//! - **The mate length (手数, *tesū*) counts plies**: attacker moves and defender replies
//!   together, so a mate length is always odd. A mate in 3 is check, reply, mate.
//! - **Futile interpositions (無駄合, *mudaai*) are not counted**: a piece put between a distant
//!   checker and the king only to be captured adds nothing to the length (defined
//!   [below](#futile-interpositions-無駄合-mudaai)).
//!
//! # The main line (本手順)
//!
//! The line the solver reports (for a sound problem it is the composer's intended line, 作意,
//! *sakui*) follows these rules:
//!
//! - **The attacker plays a shortest mate.** Among the checks, one after which the mate is as
//!   short as it can be.
//! - **The defender plays a longest defence.** A reply after which there is no mate refutes the
//!   problem; otherwise the reply after which the mate is longest.
//! - **Among equally long defences, the one that leaves the attacker the fewest pieces in hand
//!   at the end** (駒余り, *koma-amari*, pieces left over): the defender makes the attacker use
//!   up its pieces. [`MateLine::hand_left`](crate::solver::MateLine::hand_left) is that hand. (The
//!   attacker, among equally short mates near the end, likewise takes one that leaves the
//!   fewest pieces, so that a sound problem's line uses up its pieces.)
//! - **Futile interpositions are neither counted nor shown**: the line goes on as if the
//!   defender had not made them, and where every reply left is one, the line ends there as at
//!   a checkmate.
//!
//! How the solver walks this line, and when it can say that the line is exactly the main
//! line, is told on the [crate's front page](crate#solving) ("The main line"; see
//! [`MateLine::exact`](crate::solver::MateLine::exact) and
//! [`MateLine::is_main_line`](crate::solver::MateLine::is_main_line)).
//!
//! # Futile interpositions (無駄合, *mudaai*)
//!
//! The definition the solver, the checker and
//! [`is_mate_with_futile_interpositions`](crate::solver::is_mate_with_futile_interpositions) implement:
//!
//! - An **interposition** (合駒, *aigoma*) is a defender reply onto a square strictly between
//!   the king and a single checker that gives check from a distance: a lance, bishop, rook,
//!   horse or dragon with at least one empty square between it and the king. The reply may be
//!   a drop or a move of a piece other than the king (移動合, *idō-ai*).
//! - Its **capture position** Q is what follows when the checker captures the interposed piece
//!   (a rook or bishop promotes when it may, a lance does not), the captured piece leaving the
//!   attacker's hand:
//!   - a **dropped** piece goes back to the defender's hand: Q is the position before the drop
//!     with the checker moved to the interposition square, as if the drop had not been made;
//!   - a **moved** piece goes to neither hand: the attacker holds it and never uses it, and the
//!     defender, who had it on the board and not in hand, does not get it in hand. The square
//!     it left stays empty, as in the game.
//! - **What a reply is worth**: a drop, the smaller of one ply plus the mate length after the
//!   reply (the interposition counted) and the mate length from Q (the interposition and its
//!   capture not counted). A 移動合 is worth nothing (it is futile) when Q ends the line in the
//!   sense below, and otherwise one ply plus the mate length after it (it counts). A defender
//!   node is worth the most that any of its replies is worth, and 0 when it has no reply
//!   (checkmate).
//! - An interposition is therefore **futile** when the attacker can capture it and then mate,
//!   never using the captured piece, in no more moves than the rest of the line (for a
//!   移動合: at once); it is then not shown. A line may end in a position where the defender
//!   still has replies if every one of them is a futile interposition whose capture position
//!   ends a line in this same sense;
//!   [`is_mate_with_futile_interpositions`](crate::solver::is_mate_with_futile_interpositions) decides
//!   exactly that, with the rules core alone. This covers a **chain of 移動合**: after a distant
//!   check, the defender moves piece after piece onto the line, the checker takes each, and
//!   the last capture position is mate; every capture position of the chain then ends the line,
//!   and the check that started it is the last move.
//! - **What the rule covers**: an interposition that another piece than the checker captures,
//!   or one that the attacker must not capture, is worth its real line and counts. One whose
//!   captured piece the attacker needs later (it drops it again) counts, since Q lacks that
//!   piece. An interposition next to the king, which the king could take back, counts when Q is
//!   not mated as quickly. A 移動合 whose departure changes something else (the square it left
//!   is a flight for the king, it opens a line for another defender piece, it lets a later
//!   interposition be a real one) counts, since Q, with that square empty, does not end the line.
//! - **Why a 移動合 is judged so**: giving a moved piece back to the defender's hand would give
//!   it a piece it could drop where none of its pieces on the board can go (next to the king,
//!   where the capture is taken back), so that a chain of 移動合 whose pieces the attacker never
//!   uses would count. And whether a piece's departure matters shows only in the mate lengths:
//!   it does when the mate from Q (the square empty) is longer than the mate with the piece
//!   still on its square. A mate at once cannot be longer than anything, so a 移動合 whose Q
//!   ends the line is futile by either measure, and one whose Q is mated later is counted
//!   without comparing the two. The rule may thus count a 移動合 that composers call futile
//!   (the attacker takes it, never uses it, the play after the capture is as it would have
//!   been, but not over at once): such a line comes out two plies longer for it, never shorter.
//! - **Sound**: when Q ends the line, so does the game's position after the capture (the same
//!   board, the defender's hand the same, the attacker holding one piece more), so a line that
//!   ends there ends in mate once the defender's further futile interpositions are played out.
//! - **Repeated interpositions (馬鋸, 龍鋸, the saw rule).** When the attacker's horse or
//!   dragon saws away from the king (the king stepping back and forth, the checker moving one
//!   step a check), the square the checker stood on a cycle earlier lies between it and the
//!   king again. A drop there, taken by the checker, brings the play back to where it was,
//!   the attacker a piece richer: the drop's capture position Q (the piece handed back) is a
//!   position the line has already passed through (the same board, hands and side to move,
//!   earlier on the line from the problem's start). Such a drop is a **repeated
//!   interposition**, and it is worth nothing (futile, neither counted nor shown) when the
//!   defender has another reply that is not one: the defender node is worth the most that its
//!   other replies are worth. When every reply is a repeated interposition, they count with
//!   their own lines (1 plus the mate after the drop), as any real interposition. Without this
//!   rule Q, a repetition, is never mated, the drop counts, and the next cycle repeats it while
//!   the defender has pieces: hundreds of plies, ending with a hand full of pawns.
//!   - **It terminates and it is sound**: after the drop and the capture the game's position is
//!     Q with the piece in the attacker's hand instead of the defender's, so the proof of Q
//!     (an ancestor on the line, proven with this node) mates it as well (superiority), and
//!     each time the defender comes back this way it has one piece fewer in hand. In the end
//!     it must play one of its other replies, the ones the rule counts.
//!   - **It depends on the line played**: the same position with the same drop is a real
//!     interposition on a line that did not pass through Q, so a position's length can
//!     differ between the lines that reach it. The solver keeps a proof that leaves such a
//!     drop out off its table of path-independent results until Q itself is proven, but the
//!     table still mixes lengths learned on different lines: a length learned where the drop
//!     counted is taken where the rule leaves it out, and a proof settled at Q is taken on a
//!     line where a position of its tree was played before Q. The mate is never false (every
//!     left-out drop is mated through Q), but **the length proven shortest can depend on the
//!     table's size** in problems whose lines saw: 世界大戦 of `problems/long.sfen` and
//!     ゴゴノソラ are proven shortest at different lengths with different tables (issue 40, open;
//!     `cargo run --release --example consistency` reports such contradictions). Problems
//!     without repeated interpositions are not affected.
//!   - What it leaves alone: moving interpositions (移動合, they have their own rule above),
//!     and any drop whose capture position is not a position of the line.
//! - **The one case the rule cannot show without counting**: when a futile interposition is the
//!   only longest defence (it lures the checker to a worse square), the line shows it and its
//!   capture, its length counts them, and the line is not marked
//!   [exact](crate::solver::MateLine::exact).
//!
//! A rook from afar, with every drop between futile: 5i1i checks along file 1. White's king
//! on 1a cannot move and no White piece on the board reaches the file, so every reply is a
//! drop between; the rook takes whatever is dropped (promoting in the zone), still checking,
//! and the dragon on 1b, guarded by the knight on 2d, is mate. Counted, the drops would go on
//! for more than eleven plies; not counted, this is a mate in 1:
//!
//! ```
//! use tsume::{Move, Position};
//! use tsume::solver::{Outcome, Solver, SolverConfig, is_mate_with_futile_interpositions};
//! let pos = Position::from_sfen("7lk/7p1/9/7N1/9/9/9/9/4R4 b r2b4g4s3n3l17p 1")?;
//!
//! let mut after = pos.clone();
//! after.play(Move::from_usi("5i1i").unwrap())?;
//! assert!(!after.legal_moves().is_empty()); // White has replies: the drops on 1b-1h,
//! assert!(is_mate_with_futile_interpositions(&after)); // and every one is futile.
//!
//! let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
//! match solver.solve(&pos).outcome {
//!     Outcome::Mate(line) => {
//!         assert_eq!(line.length(), 1);
//!         assert_eq!(line.moves(), [Move::from_usi("5i1i").unwrap()]);
//!     }
//!     other => panic!("expected a mate in 1, got {other:?}"),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The length is a proven bound
//!
//! The mate length a solution reports ([`MateLine::length`](crate::solver::MateLine::length), `length`
//! in JSON, "mate in N" in the programs' output) is always one that a proof in the search
//! shows: against every defence, the attacker mates in at most N plies, futile interpositions
//! not counted. It is the first proof's length or a shorter one proven since; the line shown
//! never sets it. [`MateLine::shortest_proven`](crate::solver::MateLine::shortest_proven) says whether
//! N is also minimal (no mate in N - 2).
//!
//! The line shown ([`MateLine::moves`](crate::solver::MateLine::moves)) is always a verified mate
//! ([`verify_mate`](crate::solver::verify_mate)). [`MateLine::is_main_line`](crate::solver::MateLine::is_main_line)
//! says whether its defender plays a longest defence within N; the line then has N plies, or
//! more only where it must show a futile interposition and its capture (the case above). When
//! the solver could not show the line at N within its limits, it says so and names the limit
//! ("mate in at most N; line shown: L plies, defence not the longest (time limit)") rather than
//! take the line's length for the mate length, and the checker lists "which defence is the
//! longest?" as undecided.
//!
//! # Flaws the checker reports
//!
//! A problem is **sound** when its main line ends in mate with the attacker's hand empty and no
//! other attacker move along it also forces mate. [`Solver::check`](crate::solver::Solver::check)
//! reports every way a problem falls short of that, each with the ply, the moves and, where
//! known, the length ([`Flaw`](crate::check::Flaw), [`FlawKind`](crate::check::FlawKind)):
//!
//! | kind | term | fatal | reported when |
//! |---|---|---|---|
//! | `no_mate` | 不詰 (*fuzumi*) | yes | the position has no mate; or, with an intended line, a defender reply after which there is none |
//! | `invalid_intended_line` | 不詰 | yes | the intended line has an illegal move, an attacker move that does not check, a futile interposition (which a tsume line leaves out), or does not end in mate |
//! | `alternative_mate` | 余詰 (*yozume*) | yes | at an attacker ply other than the last, another check also forces mate, of any length: without touching the line's later positions, or through them but joining the line sooner than the line does, or slower than the line |
//! | `promotion_choice` | 成・不成の非限定 (*narifunari no higentei*) | no (a note; yes under [`CheckConfig::strict`](crate::check::CheckConfig::strict)) | the played move with the other promotion choice also mates, only through positions of the line (same board, same hands, same side to move) reached no later than the line reaches them |
//! | `transposition` | 手順前後 (*tejun zengo*) | no (a note; yes under strict) | another check also mates, only through positions of the line reached at the line's own ply, as quickly as the line: a flaw, not a second solution |
//! | `alternative_final_move` | 最終手余詰 (*saishūte yozume*) | no (a note) | another move also mates at the last ply |
//! | `pieces_left_over` | 駒余り (*koma-amari*) | yes | the attacker ends the line with pieces in hand |
//! | `equal_length_variation` | 変同 (*hendō*) | no (a note) | at a defender ply, another reply leads to a mate as long, with no pieces left over |
//! | `longer_variation` | 変長 (*henchō*) | yes | at a defender ply of the intended line, another reply lasts longer |
//! | `shorter_mate` | 早詰 (*hayazume*) | yes | at an attacker ply of the intended line, a shorter mate exists (the first ply of a run) |
//! | `variation_alternative_mate` | 変化別詰 (*henka betsuzume*) | no (a note) | only with [`CheckConfig::variations`](crate::check::CheckConfig::variations): in a side variation mated no later than the line, another check mates as quickly at its first attacker ply |
//!
//! How each is decided:
//!
//! - **The line checked** is the composer's intended line (作意) when one is given and it is a
//!   mating line, else the solver's main line (shortest mate; near the end, among equally short
//!   mates, one that uses up the attacker's pieces, so that 駒余り is reported only when no line
//!   avoids it).
//! - **Attacker plies but the last (余詰)**: every other check is searched for a mate of any
//!   length. A check that mates is searched again with every position of the line counted as
//!   not mated when it is reached later than in the line: a detour (迂回手順, *ukai tejun*) that
//!   comes back to the line after extra moves, same board and same hands, is not 余詰. A move
//!   that reaches a position of the line at the same ply (a non-promotion captured just like
//!   the promotion, two drop squares that lead to the same position) mates as fast as the line
//!   and is 余詰; composers tolerate many of these as 非限定 (*hi-gentei*), and the report names
//!   the move so they can judge.
//! - **The last ply (最終手余詰)**: every other check that mates at once, or leaves only futile
//!   interpositions.
//! - **Defender plies (変同, 変長)**: every other reply is measured against the rest of the line.
//!   Shorter, or a futile interposition refuted by its capture as soon: nothing to report. As
//!   long: its own line is walked, and it is a 変同 if that leaves the attacker no pieces.
//!   Longer: a 変長 with its length, or 不詰 if there is no mate after it.
//! - **With an intended line (早詰)**: each attacker ply also asks whether there is a mate two
//!   plies shorter than the rest of the intended line.
//! - **Undecided is never sound.** Each question has a node allowance
//!   ([`CheckConfig::question_node_limit`](crate::check::CheckConfig::question_node_limit)), and the
//!   solver's limits bound the whole check. A question that runs out is listed in
//!   [`Report::undecided`](crate::check::Report::undecided), and the verdict is then
//!   [`Verdict::Undecided`](crate::check::Verdict::Undecided) unless a fatal flaw was found anyway.
//!   Without an intended line, a main line whose length is not proven shortest, whose defences
//!   were not all decided, or that is not shown at its proven length, is an undecided question
//!   too; so is a defence found to last longer than the solver's own line (that would make the
//!   solver's line not the main line, not the problem 変長).
