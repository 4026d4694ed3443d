//! Unnecessary pieces (不要駒, *fuyōgoma*): pieces a sound problem would be as sound without.

use super::config::CheckConfig;
use super::report::{Report, UnnecessaryPiece, UnnecessaryPieces, Verdict};
use super::run::SideTables;
use crate::moves::Move;
use crate::position::Position;
use crate::solver::config::SolverConfig;
use crate::solver::outcome::{Progress, StopReason};
use crate::solver::parallel::Crew;
use crate::solver::tt::Table;
use crate::types::{Color, PieceKind, Square};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// `pos` with the piece on `sq` taken off the board and given to the defender's hand (the
/// tsume convention: every piece not on the board or in the attacker's hand is the
/// defender's), or `None` when that is not a position a problem can have: the piece is a king,
/// or taking it off leaves the defender in check with the attacker to move.
pub(crate) fn without_piece(pos: &Position, sq: Square) -> Option<Position> {
    let piece = pos.piece_at(sq)?;
    if piece.kind() == PieceKind::King {
        return None;
    }
    let attacker = pos.side_to_move();
    let mut board = String::new();
    for rank in 1..=9 {
        let mut empty = 0;
        for file in (1..=9).rev() {
            let here = Square::new(file, rank)?;
            match pos.piece_at(here).filter(|_| here != sq) {
                Some(p) => {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    board.push_str(&p.to_string());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank < 9 {
            board.push('/');
        }
    }
    let mut hands = [pos.hand(Color::Black), pos.hand(Color::White)];
    hands[attacker.flip().index()].add(piece.kind().unpromote());
    let hand_text = format!("{}{}", hands[0], hands[1].to_string().to_lowercase());
    let sfen = format!(
        "{board} {} {} 1",
        if attacker == Color::Black { 'b' } else { 'w' },
        if hand_text.is_empty() {
            "-"
        } else {
            &hand_text
        }
    );
    let reduced = Position::from_sfen(&sfen).ok()?;
    let king = reduced.king_square(attacker.flip())?;
    if reduced.is_attacked(king, attacker, reduced.occupied()) {
        return None;
    }
    Some(reduced)
}

/// Whether some move of `line` starts from or lands on `sq` (so the piece there moves or is
/// captured, and the line needs it).
fn line_touches(line: &[Move], sq: Square) -> bool {
    line.iter().any(|m| m.to() == sq || m.from() == Some(sq))
}

/// Looks for the unnecessary pieces of a sound problem (see
/// [`CheckConfig::unnecessary_pieces`]) and records them in `report` (a piece whose question
/// the limits left open is listed as such; the verdict is the problem's and stays as it is).
#[allow(clippy::too_many_arguments)]
pub(crate) fn find(
    table: &Table,
    side_table: &mut SideTables,
    config: &SolverConfig,
    check: &CheckConfig,
    stop: &Arc<AtomicBool>,
    mut progress: Option<&mut (dyn FnMut(&Progress) + Send + 'static)>,
    crew: Option<&Crew>,
    pos: &Position,
    report: &mut Report,
    started: Instant,
) {
    if report.verdict != Verdict::Sound || report.line.is_empty() {
        return;
    }
    let line = report.line.clone();
    let sub_check = check.clone().first_flaw(true).unnecessary_pieces(false);
    let mut out = UnnecessaryPieces::default();
    let squares: Vec<Square> = Square::all()
        .filter(|&s| pos.piece_at(s).is_some())
        .collect();
    for (i, &sq) in squares.iter().enumerate() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        if piece.kind() == PieceKind::King || line_touches(&line, sq) {
            continue;
        }
        let Some(reduced) = without_piece(pos, sq) else {
            continue;
        };
        // The whole check's limits bound this part too.
        let nodes_left = config
            .get_node_limit()
            .map(|n| n.saturating_sub(report.stats.nodes));
        let time_left = config
            .get_time_limit()
            .map(|t| t.saturating_sub(started.elapsed()));
        let out_of = if stop.load(Ordering::Relaxed) {
            Some(StopReason::Stopped)
        } else if nodes_left == Some(0) {
            Some(StopReason::NodeLimit)
        } else if time_left.is_some_and(|t| t.is_zero()) {
            Some(StopReason::TimeLimit)
        } else {
            None
        };
        if let Some(reason) = out_of {
            for &rest in &squares[i..] {
                if pos
                    .piece_at(rest)
                    .is_none_or(|p| p.kind() == PieceKind::King)
                {
                    continue;
                }
                if line_touches(&line, rest) || without_piece(pos, rest).is_none() {
                    continue;
                }
                if let Some(p) = pos.piece_at(rest) {
                    let piece = UnnecessaryPiece {
                        square: rest,
                        piece: p,
                    };
                    out.undecided.push((piece, reason.clone()));
                }
            }
            break;
        }
        // With threads, every search of the check counts its nodes in the crew's one count
        // from the start, which the node limit is measured against.
        let sub_nodes = if crew.is_some() {
            config.get_node_limit()
        } else {
            nodes_left
        };
        let sub_config = config.clone().node_limit(sub_nodes).time_limit(time_left);
        table.new_search();
        let sub = super::run(
            table,
            side_table,
            &sub_config,
            &sub_check,
            stop,
            progress.as_deref_mut(),
            crew,
            &reduced,
            Some(&line),
        );
        if crew.is_some() {
            // The crew's count: every node of the check so far.
            report.stats.nodes = sub.stats.nodes;
        } else {
            report.stats.nodes += sub.stats.nodes;
        }
        match sub.verdict {
            Verdict::Sound => out.found.push(UnnecessaryPiece { square: sq, piece }),
            Verdict::Unsound => {}
            Verdict::Undecided => {
                let reason = sub
                    .undecided
                    .first()
                    .map_or(StopReason::QuestionLimit, |u| u.reason.clone());
                out.undecided
                    .push((UnnecessaryPiece { square: sq, piece }, reason));
            }
        }
    }
    report.stats.elapsed = started.elapsed();
    report.unnecessary_pieces = Some(out);
}
