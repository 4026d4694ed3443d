//! KIF and KI2 (柿木形式): headers, the board diagram (BOD) with `残り全部`, `手合割`, move
//! lists with or without origin squares, `*` comments, variations (`変化：N手`); and a KIF
//! writer whose output Kifu for Windows, ShogiGUI, Shogidokoro and Electron Shogi open.

use super::text::{count, digit, piece_char, piece_name};
use super::{Format, Origin, Problem, ProblemError, ProblemErrorKind, Variation};
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, PieceKind, Square};

/// Whether a (trimmed) line can only come from a KIF or KI2 file.
pub(super) fn looks_like_kif(t: &str) -> bool {
    const STARTS: [&str; 20] = [
        "#KIF",
        "|",
        "手合割",
        "手数-",
        "手数－",
        "変化",
        "表題",
        "開始日時",
        "終了日時",
        "先手：",
        "後手：",
        "上手：",
        "下手：",
        "棋戦：",
        "作者：",
        "後手番",
        "先手番",
        "上手番",
        "下手番",
        "作品番号",
    ];
    STARTS.iter().any(|s| t.starts_with(s))
        || t.contains("の持駒")
        || t.starts_with(['▲', '△', '☗', '☖'])
}

const TERMINATIONS: [&str; 16] = [
    "投了",
    "詰み",
    "中断",
    "千日手",
    "持将棋",
    "切れ負け",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "不詰",
    "封じ手",
    "不戦勝",
    "不戦敗",
    "トライ",
    "詰",
    "頓死",
];

/// The move number and the rest of a KIF move line (`   1 ７六歩(77) ...`), if it is one.
fn split_number(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    let end = t
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || ('０'..='９').contains(&c)))
        .map_or(t.len(), |(i, _)| i);
    if end == 0 {
        return None;
    }
    let rest = &t[end..];
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let mut n: usize = 0;
    for c in t[..end].chars() {
        n = n.checked_mul(10)?.checked_add(digit(c)? as usize)?;
    }
    Some((n, rest.trim_start()))
}

/// Whether a line is a KIF move line (a number, then a move or a termination).
pub(super) fn is_kif_move_line(line: &str) -> bool {
    split_number(line).is_some_and(|(_, rest)| {
        rest.starts_with(|c: char| digit(c).is_some() && !('一'..='九').contains(&c))
            || rest.starts_with('同')
            || TERMINATIONS.iter().any(|t| rest.starts_with(t))
    })
}

/// A move as written: where to, what, and the marks.
#[derive(Debug)]
struct MoveText {
    /// `None` for 同 (the square just moved to).
    to: Option<Square>,
    kind: PieceKind,
    /// 右左直上引寄 (行 and 入 read as 上).
    marks: Vec<char>,
    promote: Option<bool>,
    drop: bool,
    from: Option<Square>,
}

/// Reads a move's text (`７六歩(77)`, `同　銀`, `５五角打`, `２三歩不成`, `８八角成`,
/// `５二金右`); the text after it (times, `+`) is ignored.
fn parse_move(s: &str) -> Option<MoveText> {
    let chars: Vec<char> = s.chars().collect();
    let mut i;
    let to = if chars.first() == Some(&'同') {
        i = 1;
        while i < chars.len() && (chars[i] == ' ' || chars[i] == '　') {
            i += 1;
        }
        None
    } else {
        let file = digit(*chars.first()?)?;
        let rank = digit(*chars.get(1)?)?;
        i = 2;
        Some(Square::new(file, rank)?)
    };
    let rest: String = chars[i..].iter().collect();
    let (kind, len) = piece_name(&rest)?;
    i += len;
    let mut marks = Vec::new();
    let mut promote = None;
    let mut drop = false;
    let mut from = None;
    while let Some(&c) = chars.get(i) {
        match c {
            '右' | '左' | '直' | '上' | '引' | '寄' => marks.push(c),
            '行' | '入' => marks.push('上'),
            '成' if promote.is_none() => promote = Some(true),
            '不' if chars.get(i + 1) == Some(&'成') && promote.is_none() => {
                promote = Some(false);
                i += 1;
            }
            '生' if promote.is_none() => promote = Some(false),
            '打' => drop = true,
            '(' | '（' => {
                let f = digit(*chars.get(i + 1)?)?;
                let r = digit(*chars.get(i + 2)?)?;
                if !matches!(chars.get(i + 3), Some(')') | Some('）')) {
                    return None;
                }
                from = Some(Square::new(f, r)?);
                break;
            }
            _ => break,
        }
        i += 1;
    }
    Some(MoveText {
        to,
        kind,
        marks,
        promote,
        drop,
        from,
    })
}

/// The vertical direction of a move as its mover sees it: 1 forward, -1 back, 0 sideways.
fn direction(us: Color, from: Square, to: Square) -> i32 {
    from.relative_rank(us) as i32 - to.relative_rank(us) as i32
}

/// The move a text means in `pos`, `prev` being the move before it.
fn resolve(
    pos: &Position,
    t: &MoveText,
    prev: Option<Move>,
    ply: usize,
    text: &str,
) -> Result<Move, ProblemErrorKind> {
    let syntax = || ProblemErrorKind::MoveSyntax {
        text: text.to_string(),
    };
    let to = match t.to {
        Some(sq) => sq,
        None => prev.ok_or_else(syntax)?.to(),
    };
    let us = pos.side_to_move();
    if let Some(from) = t.from {
        if from == to {
            return Err(syntax());
        }
        match pos.piece_at(from) {
            Some(p) if p.kind() != t.kind && p.color() == us => {
                return Err(ProblemErrorKind::WrongPiece {
                    ply,
                    text: text.to_string(),
                });
            }
            _ => {}
        }
        let mv = Move::new_normal(from, to, t.promote == Some(true));
        return pos.check_legality(mv).map(|()| mv).map_err(|reason| {
            ProblemErrorKind::IllegalMove {
                ply,
                text: text.to_string(),
                reason,
            }
        });
    }
    let drop = |kind: PieceKind| -> Result<Move, ProblemErrorKind> {
        if !kind.is_hand_kind() {
            return Err(syntax());
        }
        let mv = Move::new_drop(kind, to);
        pos.check_legality(mv)
            .map(|()| mv)
            .map_err(|reason| ProblemErrorKind::IllegalMove {
                ply,
                text: text.to_string(),
                reason,
            })
    };
    if t.drop {
        return drop(t.kind);
    }
    let promote = t.promote == Some(true);
    let mut cands: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| {
            m.to() == to
                && m.is_promotion() == promote
                && m.from()
                    .and_then(|f| pos.piece_at(f))
                    .is_some_and(|p| p.kind() == t.kind)
        })
        .collect();
    if cands.is_empty() {
        // No board piece can go there: a drop need not say 打.
        if t.promote.is_none() && t.marks.is_empty() && pos.hand(us).has(t.kind) {
            return drop(t.kind);
        }
        return Err(ProblemErrorKind::NoSuchMove {
            ply,
            text: text.to_string(),
        });
    }
    for &mark in &t.marks {
        let from = |m: &Move| m.from().expect("board moves only");
        match mark {
            '上' => cands.retain(|m| direction(us, from(m), to) > 0),
            '引' => cands.retain(|m| direction(us, from(m), to) < 0),
            '寄' => cands.retain(|m| direction(us, from(m), to) == 0),
            '直' => {
                cands.retain(|m| direction(us, from(m), to) > 0 && from(m).file() == to.file())
            }
            _ => {
                // 右 / 左 as the mover sees the board: Black's right is the lower file.
                let key = |m: &Move| {
                    let f = from(m).file() as i32;
                    if (mark == '右') == (us == Color::Black) {
                        f
                    } else {
                        -f
                    }
                };
                if let Some(best) = cands.iter().map(key).min() {
                    cands.retain(|m| key(m) == best);
                }
            }
        }
    }
    match cands.as_slice() {
        [m] => Ok(*m),
        [] => Err(ProblemErrorKind::NoSuchMove {
            ply,
            text: text.to_string(),
        }),
        many => Err(ProblemErrorKind::AmbiguousMove {
            ply,
            text: text.to_string(),
            candidates: many.iter().map(|m| m.to_string()).collect(),
        }),
    }
}

/// A hand as a diagram writes it.
enum HandSpec {
    Pieces(Hand),
    /// `残り全部`: every piece not on the board or in the other hand.
    Rest,
}

fn parse_hand(s: &str) -> Result<HandSpec, ProblemErrorKind> {
    let s = s.trim_matches(|c: char| c.is_whitespace());
    if s.is_empty() || s == "なし" || s == "無し" {
        return Ok(HandSpec::Pieces(Hand::EMPTY));
    }
    if s.starts_with("残り") {
        return Ok(HandSpec::Rest);
    }
    let mut hand = Hand::EMPTY;
    for item in s.split(|c: char| c.is_whitespace() || c == '、' || c == ',' || c == '，') {
        if item.is_empty() {
            continue;
        }
        let bad = || ProblemErrorKind::Hand(format!("{item:?} is not a piece and a count"));
        let mut chars = item.chars();
        let kind = chars.next().and_then(piece_char).ok_or_else(bad)?;
        if !kind.is_hand_kind() {
            return Err(bad());
        }
        let rest = chars.as_str();
        let n = if rest.is_empty() {
            1
        } else {
            count(rest).ok_or_else(bad)?
        };
        let total = hand.count(kind) as u32 + n as u32;
        if total > kind.full_set_count() as u32 {
            return Err(ProblemErrorKind::Hand(format!(
                "{item:?}: {total} pieces of {}, a full set has {}",
                kind.japanese(),
                kind.full_set_count()
            )));
        }
        hand = hand.with_count(kind, total as u8).ok_or_else(bad)?;
    }
    Ok(HandSpec::Pieces(hand))
}

/// A diagram row `| ・v香 歩 ...|一`: nine squares, file 9 first.
fn parse_row(line: &str) -> Result<[Option<Piece>; 9], (ProblemErrorKind, usize)> {
    let mut out = [None; 9];
    let mut n = 0;
    let mut white = false;
    for (col, c) in line.chars().enumerate().skip(1) {
        let col = col + 1;
        if c == '|' {
            if n != 9 {
                return Err((
                    ProblemErrorKind::Board(format!("a row has {n} squares, expected 9")),
                    col,
                ));
            }
            return Ok(out);
        }
        match c {
            'v' | 'V' => white = true,
            '^' | '+' => {}
            c if c.is_whitespace() => {}
            '・' | '．' | '.' | '*' => {
                if n == 9 {
                    return Err((ProblemErrorKind::Board("a row is too long".into()), col));
                }
                n += 1;
                white = false;
            }
            c => {
                let kind = piece_char(c)
                    .ok_or_else(|| (ProblemErrorKind::Board(format!("{c:?} is no piece")), col))?;
                if n == 9 {
                    return Err((ProblemErrorKind::Board("a row is too long".into()), col));
                }
                let color = if white { Color::White } else { Color::Black };
                out[n] = Some(Piece::new(color, kind));
                n += 1;
                white = false;
            }
        }
    }
    Err((
        ProblemErrorKind::Board("a row does not end with '|'".into()),
        line.chars().count(),
    ))
}

/// The SFEN of a `手合割` (the upper hand, 上手, is White and moves first).
fn handicap_sfen(name: &str) -> Option<String> {
    let top = match name {
        "平手" => return Some(crate::position::STARTPOS_SFEN.to_string()),
        "香落ち" | "左香落ち" => "lnsgkgsn1/1r5b1",
        "右香落ち" => "1nsgkgsnl/1r5b1",
        "角落ち" => "lnsgkgsnl/1r7",
        "飛車落ち" | "飛落ち" => "lnsgkgsnl/7b1",
        "飛香落ち" => "lnsgkgsn1/7b1",
        "二枚落ち" => "lnsgkgsnl/9",
        "三枚落ち" => "lnsgkgsn1/9",
        "四枚落ち" => "1nsgkgsn1/9",
        "五枚落ち" | "左五枚落ち" => "1nsgkgs2/9",
        "右五枚落ち" => "2sgkgsn1/9",
        "六枚落ち" => "2sgkgs2/9",
        "左七枚落ち" | "七枚落ち" => "2sgkg3/9",
        "右七枚落ち" => "3gkgs2/9",
        "八枚落ち" => "3gkg3/9",
        "十枚落ち" => "4k4/9",
        _ => return None,
    };
    Some(format!(
        "{top}/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    ))
}

/// Which line moves are being added to.
#[derive(Clone, Copy, PartialEq)]
enum Current {
    Main,
    Var(usize),
}

struct Reader<'a> {
    file: &'a str,
    name: Option<String>,
    handicap: Option<(String, usize)>,
    hands: [Option<(HandSpec, usize)>; 2],
    rows: Vec<[Option<Piece>; 9]>,
    board_line: usize,
    side: Option<Color>,
    comment: Vec<String>,
    problem: Option<Problem>,
    current: Current,
    /// The current line's position and its last move.
    pos: Option<Position>,
    prev: Option<Move>,
    ended: bool,
    saw_ki2: bool,
    saw_kif: bool,
}

impl Reader<'_> {
    fn err(&self, line: usize, kind: ProblemErrorKind) -> ProblemError {
        ProblemError::new(self.file, line, kind)
    }

    /// The start position, built once from the header (at the first move or the end).
    fn start(&mut self, first_mover: Option<Color>) -> Result<(), ProblemError> {
        if self.problem.is_some() {
            return Ok(());
        }
        let mut pos = if !self.rows.is_empty() {
            if self.rows.len() != 9 {
                let n = self.rows.len();
                return Err(self.err(
                    self.board_line,
                    ProblemErrorKind::Board(format!("{n} rows, expected 9")),
                ));
            }
            self.diagram(first_mover)?
        } else {
            let (name, line) = self
                .handicap
                .clone()
                .unwrap_or_else(|| ("平手".to_string(), 1));
            let sfen = handicap_sfen(&name)
                .ok_or_else(|| self.err(line, ProblemErrorKind::UnknownHandicap(name.clone())))?;
            Position::from_sfen(&sfen).map_err(|e| self.err(line, ProblemErrorKind::Sfen(e)))?
        };
        // A record's move numbers count from 1 whatever the diagram says.
        if pos.move_number() != 1 {
            if let Ok(p) = Position::from_sfen(&format!(
                "{} 1",
                pos.to_sfen().rsplit_once(' ').map_or("", |(a, _)| a)
            )) {
                pos = p;
            }
        }
        let mut p = Problem::new(
            pos.clone(),
            Origin {
                file: self.file.to_string(),
                line: 1,
            },
            Format::Kif,
        );
        p.name = self.name.clone();
        p.comment = self.comment.join("\n");
        self.comment.clear();
        self.pos = Some(pos);
        self.problem = Some(p);
        Ok(())
    }

    fn diagram(&self, first_mover: Option<Color>) -> Result<Position, ProblemError> {
        let (board, mut used) =
            super::text::board_sfen(self.rows.iter().map(|row| row.iter().copied()));
        let mut hands = [Hand::EMPTY; 2];
        for c in Color::ALL {
            if let Some((HandSpec::Pieces(h), _)) = &self.hands[c.index()] {
                hands[c.index()] = *h;
                for (k, n) in h.iter() {
                    used[k as usize] += n as u32;
                }
            }
        }
        for c in Color::ALL {
            if let Some((HandSpec::Rest, _)) = &self.hands[c.index()] {
                let mut h = Hand::EMPTY;
                for k in PieceKind::HAND {
                    let n = (k.full_set_count() as u32).saturating_sub(used[k as usize]);
                    h = h.with_count(k, n as u8).unwrap_or(h);
                    used[k as usize] += n;
                }
                hands[c.index()] = h;
            }
        }
        let side = self.side.or(first_mover).unwrap_or(Color::Black);
        let hand_text = format!("{}{}", hands[0], hands[1].to_string().to_lowercase());
        let sfen = super::text::sfen(&board, side, &hand_text);
        Position::from_sfen(&sfen).map_err(|e| self.err(self.board_line, ProblemErrorKind::Sfen(e)))
    }

    /// The ply the next move of the current line has.
    fn next_ply(&self) -> usize {
        let p = self.problem.as_ref().expect("started");
        match self.current {
            Current::Main => p.moves.len() + 1,
            Current::Var(i) => p.variations[i].ply + p.variations[i].moves.len(),
        }
    }

    fn add_move(&mut self, text: &str, line: usize, col: usize) -> Result<(), ProblemError> {
        let ply = self.next_ply();
        let parsed = parse_move(text).ok_or_else(|| {
            self.err(
                line,
                ProblemErrorKind::MoveSyntax {
                    text: text.to_string(),
                },
            )
            .at(col)
        })?;
        let pos = self.pos.as_mut().expect("started");
        let mv = resolve(pos, &parsed, self.prev, ply, text.trim_end())
            .map_err(|k| ProblemError::new(self.file, line, k).at(col))?;
        pos.play_unchecked(mv);
        self.prev = Some(mv);
        let p = self.problem.as_mut().expect("started");
        match self.current {
            Current::Main => p.moves.push(mv),
            Current::Var(i) => p.variations[i].moves.push(mv),
        }
        Ok(())
    }

    fn start_variation(&mut self, ply: usize, line: usize) -> Result<(), ProblemError> {
        self.start(None)?;
        let p = self.problem.as_ref().expect("started");
        // The latest line listed that branched before `ply` and has a move there.
        let mut parent = None;
        let mut found = false;
        for (j, v) in p.variations.iter().enumerate().rev() {
            if v.ply < ply && v.ply + v.moves.len() > ply {
                parent = Some(j);
                found = true;
                break;
            }
        }
        if !found && (ply == 0 || p.moves.len() < ply) {
            return Err(self.err(line, ProblemErrorKind::Variation { ply }));
        }
        let prefix = match parent {
            None => p.moves[..ply - 1].to_vec(),
            Some(j) => {
                let mut l = p.variation_line(j).expect("listed");
                l.truncate(ply - 1);
                l
            }
        };
        let mut pos = p.position.clone();
        for &m in &prefix {
            pos.play_unchecked(m);
        }
        self.pos = Some(pos);
        self.prev = prefix.last().copied();
        let p = self.problem.as_mut().expect("started");
        p.variations.push(Variation {
            ply,
            parent,
            moves: Vec::new(),
            comment: String::new(),
        });
        self.current = Current::Var(p.variations.len() - 1);
        self.ended = false;
        Ok(())
    }

    fn add_comment(&mut self, text: &str) {
        match (self.problem.as_mut(), self.current) {
            (None, _) => self.comment.push(text.to_string()),
            (Some(p), Current::Main) => {
                if !p.comment.is_empty() {
                    p.comment.push('\n');
                }
                p.comment.push_str(text);
            }
            (Some(p), Current::Var(i)) => {
                let c = &mut p.variations[i].comment;
                if !c.is_empty() {
                    c.push('\n');
                }
                c.push_str(text);
            }
        }
    }

    fn line(&mut self, raw: &str, n: usize) -> Result<(), ProblemError> {
        let t = raw.trim();
        if t.is_empty() || t.starts_with('&') || (t.starts_with('#') && self.problem.is_none()) {
            return Ok(());
        }
        if let Some(c) = t.strip_prefix('*') {
            self.add_comment(c);
            return Ok(());
        }
        if let Some(rest) = t.strip_prefix("変化") {
            let rest = rest.trim_start_matches(['：', ':', ' ', '　']);
            let num: String = rest.chars().take_while(|&c| digit(c).is_some()).collect();
            let ply = count(&num).map(|n| n as usize).or_else(|| num.parse().ok());
            let ply =
                ply.ok_or_else(|| self.err(n, ProblemErrorKind::UnknownLine(t.to_string())))?;
            return self.start_variation(ply, n);
        }
        if t.starts_with("まで") {
            self.start(None)?;
            if self.current == Current::Main {
                let p = self.problem.as_mut().expect("started");
                if p.termination.is_none() {
                    let end = t.rsplit('で').next().unwrap_or("").trim();
                    p.termination = Some(end.to_string());
                }
            }
            self.ended = true;
            return Ok(());
        }
        if t.starts_with("手数") && !t.contains('＝') && !t.contains('=') {
            return Ok(());
        }
        if t.starts_with("手数＝") || t.starts_with("手数=") {
            return Ok(());
        }
        if let Some(i) = t.find("の持駒") {
            let who = &t[..i];
            let color = if who.ends_with("後手") || who.ends_with("上手") {
                Color::White
            } else {
                Color::Black
            };
            let rest = &t[i + "の持駒".len()..];
            let rest = rest.trim_start_matches(['：', ':']);
            let spec = parse_hand(rest).map_err(|k| self.err(n, k))?;
            self.hands[color.index()] = Some((spec, n));
            return Ok(());
        }
        if t.starts_with('|') || t.starts_with('｜') {
            let row = parse_row(t).map_err(|(k, c)| self.err(n, k).at(c))?;
            if self.rows.is_empty() {
                self.board_line = n;
            }
            if self.rows.len() == 9 {
                return Err(self.err(n, ProblemErrorKind::Board("more than 9 rows".into())));
            }
            self.rows.push(row);
            return Ok(());
        }
        // The diagram's border and its file numbers (`  ９ ８ ７ ...`).
        if t.starts_with('+') || t.starts_with("９ ８") || t.starts_with("９　８") {
            return Ok(());
        }
        for (word, color) in [
            ("後手番", Color::White),
            ("上手番", Color::White),
            ("先手番", Color::Black),
            ("下手番", Color::Black),
        ] {
            if t.starts_with(word) {
                self.side = Some(color);
                return Ok(());
            }
        }
        if let Some((num, rest)) = split_number(raw) {
            if !is_kif_move_line(raw) {
                return Err(self.err(n, ProblemErrorKind::MoveSyntax { text: rest.into() }));
            }
            self.saw_kif = true;
            self.start(None)?;
            if self.ended {
                return Ok(());
            }
            let expected = self.next_ply();
            if num != expected {
                return Err(self.err(
                    n,
                    ProblemErrorKind::MoveNumber {
                        expected,
                        found: num,
                    },
                ));
            }
            if let Some(term) = TERMINATIONS.iter().find(|w| rest.starts_with(**w)) {
                if self.current == Current::Main {
                    self.problem.as_mut().expect("started").termination = Some(term.to_string());
                }
                self.ended = true;
                return Ok(());
            }
            let col = raw.chars().count() - rest.chars().count() + 1;
            return self.add_move(rest, n, col);
        }
        if t.starts_with(['▲', '△', '☗', '☖']) {
            self.saw_ki2 = true;
            let first = t.starts_with(['△', '☖']);
            self.start(Some(if first { Color::White } else { Color::Black }))?;
            if self.ended {
                return Ok(());
            }
            // Moves are split at the marks: `同　歩` holds a space.
            let mut col = raw.chars().count() - raw.trim_start().chars().count() + 1;
            for seg in t.split(['▲', '△', '☗', '☖']).skip(1) {
                let mv = seg.trim_matches(|c: char| c.is_whitespace());
                if !mv.is_empty() {
                    self.add_move(mv, n, col + 1)?;
                }
                col += seg.chars().count() + 1;
            }
            return Ok(());
        }
        if let Some((key, value)) = t.split_once('：').or_else(|| t.split_once(':')) {
            let value = value.trim();
            match key.trim() {
                "手合割" if value != "その他" && !value.is_empty() => {
                    self.handicap = Some((value.to_string(), n));
                }
                "表題" | "作品名" | "題名" => self.name = Some(value.to_string()),
                _ => {}
            }
            return Ok(());
        }
        // Anything else (free text some GUIs and magazines add) is not part of the problem.
        Ok(())
    }
}

pub(super) fn read(text: &str, file: &str) -> Result<Problem, ProblemError> {
    let mut r = Reader {
        file,
        name: None,
        handicap: None,
        hands: [None, None],
        rows: Vec::new(),
        board_line: 0,
        side: None,
        comment: Vec::new(),
        problem: None,
        current: Current::Main,
        pos: None,
        prev: None,
        ended: false,
        saw_ki2: false,
        saw_kif: false,
    };
    for (i, raw) in text.lines().enumerate() {
        r.line(raw, i + 1)?;
    }
    if r.problem.is_none() && r.rows.is_empty() && r.handicap.is_none() {
        return Err(r.err(0, ProblemErrorKind::NoProblem));
    }
    r.start(None)?;
    let mut p = r.problem.take().expect("started");
    if r.saw_ki2 && !r.saw_kif {
        p.format = Format::Ki2;
    }
    Ok(p)
}

// ----- writing ---------------------------------------------------------------------------

const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// A move as KIF writes it: `７六歩(77)`, `同　銀(41)`, `４二銀打`, `２三歩成(24)`, and
/// `２三歩(24)` for a pawn that could promote and does not. No 不成 in a move line: the
/// origin square already says which move it is, and KIF readers (Kifu for Windows'
/// format as ShogiHome's and cshogi's readers take it) stop at a move written with it. KI2,
/// which has no origin square, writes 不成 ([`crate::japanese_move`]).
fn kif_move(pos: &Position, mv: Move, prev: Option<Move>) -> String {
    let to = mv.to();
    let mut s = String::new();
    if prev.is_some_and(|p| p.to() == to) {
        s.push_str("同　");
    } else {
        s.push(FILES[to.file() as usize - 1]);
        s.push(RANKS[to.rank() as usize - 1]);
    }
    match mv.from() {
        None => {
            s.push_str(mv.drop_kind().map_or("歩", |k| k.japanese()));
            s.push('打');
        }
        Some(from) => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind());
            s.push_str(kind.japanese());
            if mv.is_promotion() {
                s.push('成');
            }
            s.push_str(&format!("({}{})", from.file(), from.rank()));
        }
    }
    s
}

/// Writes moves numbered from `first_ply`, `marks` the plies that have a variation.
fn write_moves(
    out: &mut String,
    pos: &Position,
    prev: Option<Move>,
    first_ply: usize,
    moves: &[Move],
    marks: &[usize],
    comment: &str,
) {
    let mut pos = pos.clone();
    let mut prev = prev;
    for (i, &mv) in moves.iter().enumerate() {
        let ply = first_ply + i;
        let text = kif_move(&pos, mv, prev);
        // The move column is 13 wide, counting full-width characters twice.
        let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
        let pad = " ".repeat(13usize.saturating_sub(width));
        out.push_str(&format!(
            "{ply:>4} {text}{pad} ( 0:00/00:00:00){}\n",
            if marks.contains(&ply) { "+" } else { "" }
        ));
        if i == 0 {
            for l in comment.lines() {
                out.push_str(&format!("*{l}\n"));
            }
        }
        pos.play_unchecked(mv);
        prev = Some(mv);
    }
}

/// The problem as a KIF file (UTF-8 text; [`super::to_shift_jis`] for a `.kif` file that
/// Kifu for Windows reads): the title, the board diagram, the comment, the main line
/// numbered with origin squares, `まで N 手で<termination>`, then every variation as
/// `変化：N手` in the order Kifu for Windows writes them (depth first, later branches first),
/// each variation's comment after its first move (`*余詰 ...`).
pub fn write_kif(problem: &Problem) -> String {
    let mut out = String::new();
    if let Some(name) = &problem.name {
        out.push_str(&format!("表題：{name}\n"));
    }
    out.push_str(&crate::notation::board_diagram(&problem.position));
    out.push('\n');
    out.push_str("手数----指手---------消費時間--\n");
    for l in problem.comment.lines() {
        out.push_str(&format!("*{l}\n"));
    }
    let children = |parent: Option<usize>| -> Vec<usize> {
        let mut c: Vec<usize> = (0..problem.variations.len())
            .filter(|&j| problem.variations[j].parent == parent)
            .collect();
        // Later branches first, as Kifu for Windows lists them; readers attach each
        // `変化` to the latest line listed that has a move at its ply.
        c.sort_by(|&a, &b| problem.variations[b].ply.cmp(&problem.variations[a].ply));
        c
    };
    let marks = |parent: Option<usize>| -> Vec<usize> {
        children(parent)
            .iter()
            .map(|&j| problem.variations[j].ply)
            .collect()
    };
    // Only the legal part of a line can be written (an SFEN line's intended line may not be).
    let main = &problem.moves[..super::legal_prefix(&problem.position, &problem.moves)];
    write_moves(&mut out, &problem.position, None, 1, main, &marks(None), "");
    if let Some(t) = &problem.termination {
        // The end as a move line too, as Kifu for Windows writes it: readers that know no
        // variations (cshogi's) stop there instead of reading the variations' moves on.
        if TERMINATIONS.contains(&t.as_str()) {
            let text = format!("{:>4} {t}", main.len() + 1);
            let width: usize = t.chars().count() * 2;
            let pad = " ".repeat(13usize.saturating_sub(width));
            out.push_str(&format!("{text}{pad} ( 0:00/00:00:00)\n"));
        }
        out.push_str(&format!("まで{}手で{t}\n", main.len()));
    }
    let mut stack: Vec<usize> = children(None).into_iter().rev().collect();
    while let Some(j) = stack.pop() {
        let v = &problem.variations[j];
        let Some(mut line) = problem.variation_line(j) else {
            continue;
        };
        line.truncate(super::legal_prefix(&problem.position, &line));
        if line.len() < v.ply {
            continue;
        }
        let before = &line[..v.ply.saturating_sub(1).min(line.len())];
        let mut pos = problem.position.clone();
        for &m in before {
            pos.play_unchecked(m);
        }
        out.push_str(&format!("\n変化：{}手\n", v.ply));
        write_moves(
            &mut out,
            &pos,
            before.last().copied(),
            v.ply,
            &line[v.ply - 1..],
            &marks(Some(j)),
            &v.comment,
        );
        stack.extend(children(Some(j)).into_iter().rev());
    }
    out
}
