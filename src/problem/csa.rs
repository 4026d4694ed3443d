//! CSA records (V2.2 and V3.0): `P1`..`P9` rows or `PI` with removals, `P+` / `P-` pieces
//! (`00AL`: the rest of the pieces in that hand), the side to move, moves with `T` times,
//! `%` terminations, `'` comments, `,` between statements, several records separated by `/`;
//! and a writer for one record.

use super::text::{csa_kind, csa_name};
use super::{Format, Origin, Problem, ProblemError, ProblemErrorKind};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, PieceKind, Square};

/// Whether a (trimmed) line can only come from a CSA file.
pub(super) fn looks_like_csa(t: &str) -> bool {
    let b = t.as_bytes();
    t.starts_with("V2")
        || t.starts_with("V3")
        || t.starts_with("N+")
        || t.starts_with("N-")
        || t.starts_with('$')
        || t.starts_with('\'')
        || t.starts_with("PI")
        || t.starts_with("P+")
        || t.starts_with("P-")
        || (b.len() >= 3
            && b[0] == b'P'
            && (b'1'..=b'9').contains(&b[1])
            && matches!(b[2], b'+' | b'-' | b' '))
        || t == "+"
        || t == "-"
        || is_move(t)
}

fn is_move(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() >= 7
        && matches!(b[0], b'+' | b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..7].iter().all(u8::is_ascii_uppercase)
}

pub(super) fn read(text: &str, file: &str) -> Vec<Result<Problem, ProblemError>> {
    let mut out = Vec::new();
    let mut start = 0;
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.trim() == "/" {
            out.push(read_record(&lines[start..i], start, file));
            start = i + 1;
        }
    }
    if lines[start..].iter().any(|l| !l.trim().is_empty()) {
        out.push(read_record(&lines[start..], start, file));
    }
    out
}

struct Record<'a> {
    file: &'a str,
    board: [[Option<Piece>; 9]; 9],
    hands: [[u32; 8]; 2],
    rest_to: Option<Color>,
    any_position: bool,
    side: Option<Color>,
    pos: Option<Position>,
    problem: Option<Problem>,
    name: Option<String>,
    comments: Vec<String>,
    first_line: usize,
    ended: bool,
}

fn square(file: u8, rank: u8) -> Option<Square> {
    Square::new(file, rank)
}

impl Record<'_> {
    fn err(&self, line: usize, kind: ProblemErrorKind) -> ProblemError {
        ProblemError::new(self.file, line, kind)
    }

    fn build(&mut self, line: usize, side: Option<Color>) -> Result<(), ProblemError> {
        if self.pos.is_some() {
            return Ok(());
        }
        if !self.any_position {
            return Err(self.err(
                line,
                ProblemErrorKind::Board("no position (P1-P9, PI or P+/P- lines) before".into()),
            ));
        }
        let side = self.side.or(side).unwrap_or(Color::Black);
        let grid = &self.board;
        let (board, mut used) = super::text::board_sfen(
            (1..=9usize).map(|rank| (1..=9usize).rev().map(move |file| grid[file - 1][rank - 1])),
        );
        let mut hands = self.hands;
        for c in hands.iter() {
            for (k, n) in c.iter().enumerate() {
                used[k] += n;
            }
        }
        if let Some(c) = self.rest_to {
            for k in PieceKind::HAND {
                hands[c.index()][k as usize] +=
                    (k.full_set_count() as u32).saturating_sub(used[k as usize]);
            }
        }
        let mut hand_text = String::new();
        for (c, h) in hands.iter().enumerate() {
            for k in crate::hand::SFEN_ORDER {
                let n = h[k as usize];
                if n > 0 {
                    if n > 1 {
                        hand_text.push_str(&n.to_string());
                    }
                    let l = k.sfen_letter();
                    hand_text.push(if c == 0 { l } else { l.to_ascii_lowercase() });
                }
            }
        }
        let sfen = super::text::sfen(&board, side, &hand_text);
        let pos =
            Position::from_sfen(&sfen).map_err(|e| self.err(line, ProblemErrorKind::Sfen(e)))?;
        let mut p = Problem::new(
            pos.clone(),
            Origin {
                file: self.file.to_string(),
                line: self.first_line,
            },
            Format::Csa,
        );
        p.name = self.name.clone();
        self.pos = Some(pos);
        self.problem = Some(p);
        Ok(())
    }

    fn statement(&mut self, s: &str, line: usize) -> Result<(), ProblemError> {
        let unknown = || ProblemErrorKind::UnknownLine(s.to_string());
        if s.is_empty() || s.starts_with('V') || s.starts_with('N') || s.starts_with('T') {
            return Ok(());
        }
        if let Some(ev) = s.strip_prefix("$EVENT:") {
            self.name = Some(ev.trim().to_string());
            return Ok(());
        }
        if s.starts_with('$') {
            return Ok(());
        }
        if let Some(t) = s.strip_prefix('%') {
            self.ended = true;
            if let Some(p) = self.problem.as_mut() {
                p.termination = Some(match t {
                    "TSUMI" => "詰み".to_string(),
                    "TORYO" => "投了".to_string(),
                    "CHUDAN" => "中断".to_string(),
                    "SENNICHITE" => "千日手".to_string(),
                    "JISHOGI" => "持将棋".to_string(),
                    "FUZUMI" => "不詰".to_string(),
                    other => format!("%{other}"),
                });
            }
            return Ok(());
        }
        if self.pos.is_none() {
            if s == "+" || s == "-" {
                self.side = Some(if s == "+" { Color::Black } else { Color::White });
                return self.build(line, None);
            }
            if let Some(rest) = s.strip_prefix("PI") {
                self.any_position = true;
                let start = Position::startpos();
                for sq in Square::all() {
                    self.board[sq.file() as usize - 1][sq.rank() as usize - 1] = start.piece_at(sq);
                }
                let b = rest.as_bytes();
                if b.len() % 4 != 0 || !rest.is_ascii() {
                    return Err(self.err(line, unknown()));
                }
                for (i, c) in b.chunks(4).enumerate() {
                    let col = 3 + 4 * i;
                    let (f, r) = (c[0].wrapping_sub(b'0'), c[1].wrapping_sub(b'0'));
                    let kind = std::str::from_utf8(&c[2..]).ok().and_then(csa_kind);
                    let Some(sq) = square(f, r) else {
                        return Err(self.err(line, unknown()).at(col));
                    };
                    let cell = &mut self.board[f as usize - 1][r as usize - 1];
                    if cell.map(|p| p.kind()) != kind {
                        return Err(self
                            .err(
                                line,
                                ProblemErrorKind::Board(format!("PI removes a piece not on {sq}")),
                            )
                            .at(col));
                    }
                    *cell = None;
                }
                return Ok(());
            }
            let b = s.as_bytes();
            if b.len() >= 2 && b[0] == b'P' && (b'1'..=b'9').contains(&b[1]) {
                self.any_position = true;
                let rank = (b[1] - b'0') as usize;
                let mut row = s[2..].to_string();
                if !row.is_ascii() {
                    return Err(self.err(line, unknown()));
                }
                while row.len() < 27 {
                    row.push(' ');
                }
                if row.len() > 27 && !row[27..].trim().is_empty() {
                    return Err(self
                        .err(
                            line,
                            ProblemErrorKind::Board("a row has more than 9 squares".into()),
                        )
                        .at(30));
                }
                for i in 0..9 {
                    let cell = &row[3 * i..3 * i + 3];
                    let file = 9 - i;
                    let col = 3 + 3 * i;
                    self.board[file - 1][rank - 1] = match cell {
                        " * " | " *" | "   " => None,
                        _ => {
                            let color = match cell.as_bytes()[0] {
                                b'+' => Color::Black,
                                b'-' => Color::White,
                                _ => return Err(self.err(line, unknown()).at(col)),
                            };
                            let kind = csa_kind(&cell[1..]).ok_or_else(|| {
                                self.err(
                                    line,
                                    ProblemErrorKind::Board(format!("{cell:?} is no piece")),
                                )
                                .at(col)
                            })?;
                            Some(Piece::new(color, kind))
                        }
                    };
                }
                return Ok(());
            }
            if let Some(rest) = s.strip_prefix("P+").or_else(|| s.strip_prefix("P-")) {
                self.any_position = true;
                let color = if s.as_bytes()[1] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                let b = rest.as_bytes();
                if b.len() % 4 != 0 || !rest.is_ascii() {
                    return Err(self.err(line, unknown()));
                }
                for (i, c) in b.chunks(4).enumerate() {
                    let col = 3 + 4 * i;
                    let name = std::str::from_utf8(&c[2..]).unwrap_or("");
                    if &c[..2] == b"00" {
                        if name == "AL" {
                            self.rest_to = Some(color);
                            continue;
                        }
                        match csa_kind(name).filter(|k| k.is_hand_kind()) {
                            Some(k) => self.hands[color.index()][k as usize] += 1,
                            None => {
                                return Err(self
                                    .err(line, ProblemErrorKind::Hand(name.into()))
                                    .at(col));
                            }
                        }
                        continue;
                    }
                    let (f, r) = (c[0].wrapping_sub(b'0'), c[1].wrapping_sub(b'0'));
                    let (Some(_), Some(kind)) = (square(f, r), csa_kind(name)) else {
                        return Err(self.err(line, unknown()).at(col));
                    };
                    self.board[f as usize - 1][r as usize - 1] = Some(Piece::new(color, kind));
                }
                return Ok(());
            }
        }
        if is_move(s) {
            let sign = if s.starts_with('+') {
                Color::Black
            } else {
                Color::White
            };
            self.build(line, Some(sign))?;
            if self.ended {
                return Ok(());
            }
            let pos = self.pos.as_mut().expect("built");
            let p = self.problem.as_mut().expect("built");
            let ply = p.moves.len() + 1;
            let b = s.as_bytes();
            let text = s[..7].to_string();
            if pos.side_to_move() != sign {
                return Err(ProblemError::new(
                    self.file,
                    line,
                    ProblemErrorKind::WrongPiece { ply, text },
                ));
            }
            let d = |i: usize| b[i] - b'0';
            let kind = csa_kind(&s[5..7]);
            let to = square(d(3), d(4));
            let syntax = || ProblemErrorKind::MoveSyntax { text: text.clone() };
            let (Some(kind), Some(to)) = (kind, to) else {
                return Err(ProblemError::new(self.file, line, syntax()));
            };
            let mv = if d(1) == 0 && d(2) == 0 {
                if !kind.is_hand_kind() {
                    return Err(ProblemError::new(self.file, line, syntax()));
                }
                Move::new_drop(kind, to)
            } else {
                let Some(from) = square(d(1), d(2)).filter(|&f| f != to) else {
                    return Err(ProblemError::new(self.file, line, syntax()));
                };
                let promote = match pos.piece_at(from) {
                    Some(piece) if piece.kind() == kind => false,
                    Some(piece) if piece.kind().promote() == Some(kind) => true,
                    Some(_) => {
                        return Err(ProblemError::new(
                            self.file,
                            line,
                            ProblemErrorKind::WrongPiece { ply, text },
                        ));
                    }
                    None => false,
                };
                Move::new_normal(from, to, promote)
            };
            pos.play(mv).map_err(|reason| {
                ProblemError::new(
                    self.file,
                    line,
                    ProblemErrorKind::IllegalMove {
                        ply,
                        text: text.clone(),
                        reason,
                    },
                )
            })?;
            p.moves.push(mv);
            return Ok(());
        }
        Err(self.err(line, unknown()))
    }
}

fn read_record(lines: &[&str], offset: usize, file: &str) -> Result<Problem, ProblemError> {
    let mut r = Record {
        file,
        board: [[None; 9]; 9],
        hands: [[0; 8]; 2],
        rest_to: None,
        any_position: false,
        side: None,
        pos: None,
        problem: None,
        name: None,
        comments: Vec::new(),
        first_line: offset + 1,
        ended: false,
    };
    let mut first = true;
    for (i, raw) in lines.iter().enumerate() {
        let n = offset + i + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        if first {
            r.first_line = n;
            first = false;
        }
        if let Some(c) = t.strip_prefix('\'') {
            if !c.starts_with("CSA encoding") && !c.starts_with("encoding") {
                r.comments.push(c.to_string());
            }
            continue;
        }
        // `,` separates statements, but not inside names and header values.
        if t.starts_with('N') || t.starts_with('$') {
            r.statement(t, n)?;
            continue;
        }
        for s in t.split(',') {
            r.statement(s.trim(), n)?;
        }
    }
    let last = offset + lines.len();
    if r.pos.is_none() {
        if !r.any_position {
            return Err(r.err(last.max(1), ProblemErrorKind::NoProblem));
        }
        r.build(last, None)?;
    }
    let mut p = r.problem.take().expect("built");
    p.comment = r.comments.join("\n");
    Ok(p)
}

/// The problem's main line as a CSA V2.2 record: the position as `P1`..`P9` rows and `P+` /
/// `P-` hands, the side to move, the moves, and `%TSUMI` for a mate (CSA has no variations).
pub fn write_csa(problem: &Problem) -> String {
    let pos = &problem.position;
    let mut out = String::from("V2.2\n");
    if let Some(name) = &problem.name {
        out.push_str(&format!("$EVENT:{name}\n"));
    }
    for l in problem.comment.lines() {
        out.push_str(&format!("'{l}\n"));
    }
    for rank in 1..=9u8 {
        out.push_str(&format!("P{rank}"));
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("on the board");
            match pos.piece_at(sq) {
                None => out.push_str(" * "),
                Some(p) => {
                    out.push(if p.color() == Color::Black { '+' } else { '-' });
                    out.push_str(csa_name(p.kind()));
                }
            }
        }
        out.push('\n');
    }
    for (c, sign) in [(Color::Black, '+'), (Color::White, '-')] {
        let h = pos.hand(c);
        if h.is_empty() {
            continue;
        }
        out.push_str(&format!("P{sign}"));
        for (k, n) in h.iter() {
            for _ in 0..n {
                out.push_str("00");
                out.push_str(csa_name(k));
            }
        }
        out.push('\n');
    }
    out.push_str(if pos.side_to_move() == Color::Black {
        "+\n"
    } else {
        "-\n"
    });
    let mut p = pos.clone();
    let legal = super::legal_prefix(pos, &problem.moves);
    for &mv in &problem.moves[..legal] {
        let sign = if p.side_to_move() == Color::Black {
            '+'
        } else {
            '-'
        };
        let (from, kind) = match mv.from() {
            None => ((0, 0), mv.drop_kind().unwrap_or(PieceKind::Pawn)),
            Some(f) => {
                let k = p.piece_at(f).map_or(PieceKind::Pawn, |x| x.kind());
                let k = if mv.is_promotion() {
                    k.promote().unwrap_or(k)
                } else {
                    k
                };
                ((f.file(), f.rank()), k)
            }
        };
        out.push_str(&format!(
            "{sign}{}{}{}{}{}\n",
            from.0,
            from.1,
            mv.to().file(),
            mv.to().rank(),
            csa_name(kind)
        ));
        p.play_unchecked(mv);
    }
    match problem.termination.as_deref() {
        Some("詰み") => out.push_str("%TSUMI\n"),
        Some("投了") => out.push_str("%TORYO\n"),
        Some("中断") => out.push_str("%CHUDAN\n"),
        Some("不詰") => out.push_str("%FUZUMI\n"),
        Some(t) if t.starts_with('%') => out.push_str(&format!("{t}\n")),
        _ => {}
    }
    out
}
