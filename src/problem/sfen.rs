//! The SFEN line format: one problem per line, `[position] [sfen | startpos] <sfen>
//! [moves <usi> ...] [# comment]`; empty lines and lines starting with `#` are skipped. The
//! moves are USI moves, read but not checked for legality.

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

fn read_line(body: &str, comment: &str, file: &str, line: usize) -> Result<Problem, ProblemError> {
    let err = |kind| ProblemError::new(file, line, kind);
    let mut w = words(body);
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
        }
    }
    Ok(p)
}
