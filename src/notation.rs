//! Japanese (KIF-style) notation for moves and a text diagram of the board.

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceKind, Square};

const FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

fn square_name(sq: Square) -> String {
    format!(
        "{}{}",
        FILES[sq.file() as usize - 1],
        RANKS[sq.rank() as usize - 1]
    )
}

/// A move in Japanese notation, e.g. `▲２四飛打`, `△同　銀`, `▲２三金`, `▲３三角成`.
///
/// `previous` is the move before it (for 同, a move to the square just moved to). The move must
/// be legal in `pos`. Marks: 打 when a piece of that kind on the board could also reach the
/// square; 成 / 不成 when promotion was taken / declined; 右, 左, 直, 上, 引, 寄 when two pieces
/// of one kind can reach the square.
///
/// ```
/// use tsume::{Move, Position, japanese_move};
/// let pos = Position::startpos();
/// let mv = Move::from_usi("7g7f").unwrap();
/// assert_eq!(japanese_move(&pos, mv, None), "▲７六歩");
/// ```
pub fn japanese_move(pos: &Position, mv: Move, previous: Option<Move>) -> String {
    let us = pos.side_to_move();
    let mut s = String::from(match us {
        Color::Black => "▲",
        Color::White => "△",
    });
    let to = mv.to();
    let same = previous.is_some_and(|p| p.to() == to);
    let kind = match mv.from() {
        Some(from) => pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind()),
        None => mv.drop_kind().unwrap_or(PieceKind::Pawn),
    };
    let name = kind.japanese();
    if same {
        s.push('同');
        if name.chars().count() == 1 {
            s.push('　');
        }
    } else {
        s.push_str(&square_name(to));
    }
    s.push_str(name);
    let legal = pos.legal_moves();
    // Other pieces of the same kind that can move to the same square.
    let rivals: Vec<Square> = legal
        .iter()
        .filter_map(|m| m.from().filter(|&f| m.to() == to && Some(f) != mv.from()))
        .filter(|&f| pos.piece_at(f).is_some_and(|p| p.kind() == kind))
        .fold(Vec::new(), |mut v, f| {
            if !v.contains(&f) {
                v.push(f);
            }
            v
        });
    match mv.from() {
        None => {
            if !rivals.is_empty() {
                s.push('打');
            }
        }
        Some(from) => {
            if !rivals.is_empty() {
                s.push_str(&disambiguation(us, kind, from, to, &rivals));
            }
            if mv.is_promotion() {
                s.push('成');
            } else if legal.contains(&Move::normal_unchecked(from, to, true)) {
                s.push_str("不成");
            }
        }
    }
    s
}

/// Vertical direction of a move from the mover's side: 1 forward, -1 backward, 0 sideways.
fn direction(us: Color, from: Square, to: Square) -> i32 {
    let d = to.relative_rank(us) as i32 - from.relative_rank(us) as i32;
    -d.signum()
}

fn disambiguation(
    us: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
    rivals: &[Square],
) -> String {
    let dir = direction(us, from, to);
    let dir_mark = match dir {
        1 => "上",
        -1 => "引",
        _ => "寄",
    };
    if rivals.iter().all(|&r| direction(us, r, to) != dir) {
        return dir_mark.to_string();
    }
    let same_dir: Vec<Square> = rivals
        .iter()
        .copied()
        .filter(|&r| direction(us, r, to) == dir)
        .collect();
    // Straight forward, for the pieces that can step so (not the long-range ones).
    let straight = from.file() == to.file() && dir == 1;
    let stepper = !matches!(
        kind,
        PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse
    );
    if straight && stepper {
        return "直".to_string();
    }
    // Right / left as the mover sees the board: Black's right is the lower file.
    let right_of = |a: Square, b: Square| match us {
        Color::Black => a.file() < b.file(),
        Color::White => a.file() > b.file(),
    };
    let side = if same_dir.iter().all(|&r| right_of(from, r)) {
        "右"
    } else if same_dir.iter().all(|&r| right_of(r, from)) {
        "左"
    } else {
        ""
    };
    let long_range = !stepper;
    if long_range || side.is_empty() {
        // Long-range pieces use 右 / 左 alone when that settles it.
        let all_side = if rivals.iter().all(|&r| right_of(from, r)) {
            "右"
        } else if rivals.iter().all(|&r| right_of(r, from)) {
            "左"
        } else {
            side
        };
        if !all_side.is_empty() && long_range {
            return all_side.to_string();
        }
        return format!("{side}{dir_mark}");
    }
    side.to_string()
}

/// A whole line in Japanese notation, one string per move, with 同 where it applies.
///
/// ```
/// use tsume::{Move, Position, japanese_line};
/// let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G").unwrap();
/// let line = [Move::from_usi("G*5b").unwrap()];
/// assert_eq!(japanese_line(&pos, &line), ["▲５二金"]);
/// ```
pub fn japanese_line(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut prev = None;
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        out.push(japanese_move(&p, m, prev));
        p.play_unchecked(m);
        prev = Some(m);
    }
    out
}

/// A text diagram of the position in the style of KIF board diagrams: White's hand, the board
/// with White's pieces marked `v`, Black's hand, and the side to move.
pub fn board_diagram(pos: &Position) -> String {
    let hand_text = |c: Color| {
        let h = pos.hand(c);
        if h.is_empty() {
            return "なし".to_string();
        }
        let mut s = String::new();
        for (k, n) in h.iter() {
            s.push_str(k.japanese());
            if n > 1 {
                s.push_str(&kanji_count(n));
            }
            s.push('　');
        }
        s
    };
    let mut out = String::new();
    out.push_str(&format!("後手の持駒：{}\n", hand_text(Color::White)));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("on the board");
            match pos.piece_at(sq) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color() == Color::White { 'v' } else { ' ' });
                    out.push_str(short_name(p.kind()));
                }
            }
        }
        out.push_str(&format!("|{}\n", RANKS[rank as usize - 1]));
    }
    out.push_str("+---------------------------+\n");
    out.push_str(&format!("先手の持駒：{}\n", hand_text(Color::Black)));
    out.push_str(match pos.side_to_move() {
        Color::Black => "先手番",
        Color::White => "後手番",
    });
    out
}

/// One-character piece names for diagrams.
fn short_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::ProLance => "杏",
        PieceKind::ProKnight => "圭",
        PieceKind::ProSilver => "全",
        PieceKind::King => "玉",
        k => k.japanese(),
    }
}

fn kanji_count(n: u8) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0..=9 => DIGITS[n as usize].to_string(),
        10 => "十".to_string(),
        _ => format!("十{}", DIGITS[(n - 10) as usize]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    #[test]
    fn basic_moves() {
        let pos = Position::startpos();
        assert_eq!(japanese_move(&pos, mv("7g7f"), None), "▲７六歩");
        assert_eq!(japanese_move(&pos, mv("2h7h"), None), "▲７八飛");
        // Both golds can reach 5h; Black's right is the lower file.
        assert_eq!(japanese_move(&pos, mv("6i5h"), None), "▲５八金左");
        assert_eq!(japanese_move(&pos, mv("4i5h"), None), "▲５八金右");
    }

    #[test]
    fn same_square_drop_and_promotion() {
        let pos = Position::from_sfen("4k4/9/4p4/9/4R4/9/9/9/9 b R").unwrap();
        assert_eq!(japanese_move(&pos, mv("5e5c+"), None), "▲５三飛成");
        assert_eq!(japanese_move(&pos, mv("5e5c"), None), "▲５三飛不成");
        assert_eq!(japanese_move(&pos, mv("R*5d"), None), "▲５四飛打");
        assert_eq!(japanese_move(&pos, mv("R*1a"), None), "▲１一飛");
        let line = japanese_line(&pos, &[mv("5e5c+"), mv("5a5b")]);
        assert_eq!(line, ["▲５三飛成", "△５二玉"]);
        let p2 = Position::from_sfen("4k4/9/4p4/9/9/9/9/9/9 b G").unwrap();
        let line = japanese_line(&p2, &[mv("G*5d"), mv("5c5d")]);
        assert_eq!(line, ["▲５四金", "△同　歩"]);
    }

    #[test]
    fn diagram_shows_hands_and_sides() {
        let d = board_diagram(&Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b 2Gp").unwrap());
        assert!(d.contains("先手の持駒：金二"));
        assert!(d.contains("後手の持駒：歩"));
        assert!(d.contains("v玉"));
    }
}
