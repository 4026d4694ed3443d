//! The SFEN line format: one problem per line, `[position] [sfen | startpos] <sfen>
//! [moves <usi> ...] [# comment]`; empty lines and lines starting with `#` are skipped. The
//! moves are USI moves, read but not checked for legality. [`read_usi`] is the strict reading
//! of a USI `position` command, for engines: its moves are played and must be legal.

use super::{Format, Origin, Problem, ProblemError, ProblemErrorKind};
use crate::moves::Move;
use crate::position::Position;

pub(super) fn read(text: &str, file: &str) -> Vec<Result<Problem, ProblemError>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let (body, comment) = match raw.find('#') {
            Some(c) => (&raw[..c], raw[c + 1..].trim()),
            None => (raw, ""),
        };
        if body.trim().is_empty() {
            continue;
        }
        out.push(read_line(body, comment, file, i + 1).map_err(|mut e| {
            e.text = Some(body.trim().to_string());
            e
        }));
    }
    out
}

/// Words of a line with their 1-based character columns.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (col, (byte, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((col, byte)),
            (true, Some((sc, sb))) => {
                out.push((sc + 1, &line[sb..byte]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((sc, sb)) = start {
        out.push((sc + 1, &line[sb..]));
    }
    out
}

/// A USI `position` command (the word `position` itself optional), with its moves played.
///
/// Strict where a problem file is lenient: every move must be legal where it is played (an
/// illegal move is [`ProblemErrorKind::IllegalMove`] with its ply and column), and a `moves`
/// with nothing after it is taken as no moves, as GUIs send it. `#` is not a comment here.
pub(super) fn read_usi(command: &str) -> Result<Position, ProblemError> {
    let mut w = words(command);
    if w.last().is_some_and(|&(_, t)| t == "moves") {
        w.pop();
    }
    // A problem line may be a bare SFEN; a USI command must say which position it sets.
    let first = usize::from(w.first().is_some_and(|&(_, t)| t == "position"));
    match w.get(first) {
        Some(&(_, "startpos" | "sfen")) => {}
        other => {
            let (col, found) = other.map_or((command.chars().count() + 1, ""), |&(c, t)| (c, t));
            return Err(ProblemError::new(
                "position",
                1,
                ProblemErrorKind::UnexpectedWord {
                    expected: "'startpos' or 'sfen'",
                    found: found.to_string(),
                },
            )
            .at(col));
        }
    }
    let (p, columns) = read_words(w, "", "position", 1)?;
    let mut pos = p.position.clone();
    for (i, (&mv, col)) in p.moves.iter().zip(columns).enumerate() {
        pos.play(mv).map_err(|reason| {
            ProblemError::new(
                "position",
                1,
                ProblemErrorKind::IllegalMove {
                    ply: i + 1,
                    text: mv.to_string(),
                    reason,
                },
            )
            .at(col)
        })?;
    }
    Ok(pos)
}

fn read_line(body: &str, comment: &str, file: &str, line: usize) -> Result<Problem, ProblemError> {
    read_words(words(body), comment, file, line).map(|(p, _)| p)
}

/// A problem from the words of one line, with the column of each move.
fn read_words(
    mut w: Vec<(usize, &str)>,
    comment: &str,
    file: &str,
    line: usize,
) -> Result<(Problem, Vec<usize>), ProblemError> {
    let err = |kind| ProblemError::new(file, line, kind);
    let mut format = Format::Sfen;
    if w.first().is_some_and(|&(_, t)| t == "position") {
        w.remove(0);
        format = Format::Usi;
    }
    let startpos = match w.first() {
        Some(&(_, "sfen")) => {
            w.remove(0);
            false
        }
        Some(&(_, "startpos")) => {
            w.remove(0);
            true
        }
        _ => false,
    };
    let moves_at = w.iter().position(|&(_, t)| t == "moves");
    let (sfen_words, move_words) = match moves_at {
        Some(i) => (&w[..i], Some(&w[i + 1..])),
        None => (&w[..], None),
    };
    let position = if startpos {
        if let Some(&(col, t)) = sfen_words.first() {
            return Err(err(ProblemErrorKind::UnknownLine(t.to_string())).at(col));
        }
        Position::startpos()
    } else {
        let text: Vec<&str> = sfen_words.iter().map(|&(_, t)| t).collect();
        let col = sfen_words.first().map_or(1, |&(c, _)| c);
        Position::from_sfen(&text.join(" ")).map_err(|e| err(ProblemErrorKind::Sfen(e)).at(col))?
    };
    let mut p = Problem::new(
        position,
        Origin {
            file: file.to_string(),
            line,
        },
        format,
    );
    p.comment = comment.to_string();
    // The moves are read, not played: an intended line with an illegal move is the
    // composer's flaw to be reported (the checker does), not an unreadable problem.
    let mut columns = Vec::new();
    if let Some(list) = move_words {
        if list.is_empty() {
            let col = w[moves_at.unwrap_or(0)].0;
            return Err(err(ProblemErrorKind::NoMoves).at(col));
        }
        for &(col, t) in list {
            let mv = Move::from_usi(t).map_err(|_| {
                err(ProblemErrorKind::MoveSyntax {
                    text: t.to_string(),
                })
                .at(col)
            })?;
            p.moves.push(mv);
            columns.push(col);
        }
    }
    Ok((p, columns))
}
