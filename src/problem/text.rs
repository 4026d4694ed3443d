//! Small text helpers shared by the KIF and CSA readers: digits, kanji numbers, piece names.

use crate::types::{Color, Piece, PieceKind};

/// A whole SFEN from its board part, the side to move and the hands part (SFEN letters,
/// Black's upper case, empty for none), move number 1.
pub(super) fn sfen(board: &str, side: Color, hands: &str) -> String {
    let side = if side == Color::Black { 'b' } else { 'w' };
    let hands = if hands.is_empty() { "-" } else { hands };
    format!("{board} {side} {hands} 1")
}

/// The board part of an SFEN from nine ranks (a to i), each given from file 9 to file 1, and
/// how many pieces of each base kind stand on it (by `PieceKind as usize` of the unpromoted
/// kind), for the readers that fill in the rest of the pieces (残り全部).
pub(super) fn board_sfen<R, S>(ranks: R) -> (String, [u32; 8])
where
    R: IntoIterator<Item = S>,
    S: IntoIterator<Item = Option<Piece>>,
{
    let mut board = String::new();
    let mut used = [0u32; 8];
    for (r, rank) in ranks.into_iter().enumerate() {
        if r > 0 {
            board.push('/');
        }
        let mut empty = 0;
        for square in rank {
            match square {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    board.push_str(&p.to_string());
                    used[p.kind().unpromote() as usize] += 1;
                }
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
    }
    (board, used)
}

/// A digit 0-9, half-width, full-width or kanji (〇 一 ... 九).
pub(super) fn digit(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        '０'..='９' => Some((c as u32 - '０' as u32) as u8),
        '〇' | '零' => Some(0),
        '一' => Some(1),
        '二' => Some(2),
        '三' => Some(3),
        '四' => Some(4),
        '五' => Some(5),
        '六' => Some(6),
        '七' => Some(7),
        '八' => Some(8),
        '九' => Some(9),
        _ => None,
    }
}

/// A count in kanji (`十八`, `二十`, `三`) or digits (`18`, `１８`); `None` if it is not one
/// or exceeds 99.
pub(super) fn count(s: &str) -> Option<u8> {
    if s.is_empty() {
        return None;
    }
    if s.chars().all(|c| digit(c).is_some() && !is_kanji_digit(c)) {
        let mut n: u32 = 0;
        for c in s.chars() {
            n = n * 10 + digit(c)? as u32;
            if n > 99 {
                return None;
            }
        }
        return Some(n as u8);
    }
    // Kanji: [tens]十[ones] or ones alone.
    let chars: Vec<char> = s.chars().collect();
    match chars.iter().position(|&c| c == '十') {
        None if chars.len() == 1 => digit(chars[0]).filter(|&d| d > 0),
        None => None,
        Some(i) => {
            let tens = match i {
                0 => 1,
                1 => digit(chars[0]).filter(|&d| d > 1)?,
                _ => return None,
            };
            let ones = match &chars[i + 1..] {
                [] => 0,
                [c] => digit(*c).filter(|&d| d > 0)?,
                _ => return None,
            };
            Some(tens * 10 + ones)
        }
    }
}

fn is_kanji_digit(c: char) -> bool {
    matches!(
        c,
        '〇' | '零' | '一' | '二' | '三' | '四' | '五' | '六' | '七' | '八' | '九'
    )
}

/// A one-character piece name as board diagrams and moves write it (`歩`, `と`, `杏`, `竜`,
/// `王`, ...).
pub(super) fn piece_char(c: char) -> Option<PieceKind> {
    Some(match c {
        '歩' => PieceKind::Pawn,
        '香' => PieceKind::Lance,
        '桂' => PieceKind::Knight,
        '銀' => PieceKind::Silver,
        '金' => PieceKind::Gold,
        '角' => PieceKind::Bishop,
        '飛' => PieceKind::Rook,
        '玉' | '王' => PieceKind::King,
        'と' => PieceKind::ProPawn,
        '杏' => PieceKind::ProLance,
        '圭' => PieceKind::ProKnight,
        '全' => PieceKind::ProSilver,
        '馬' => PieceKind::Horse,
        '龍' | '竜' => PieceKind::Dragon,
        _ => return None,
    })
}

/// A piece name at the start of `s` (`成銀`, `銀`, `と`, `龍`, ...) and its length in chars.
pub(super) fn piece_name(s: &str) -> Option<(PieceKind, usize)> {
    let mut it = s.chars();
    let first = it.next()?;
    if first == '成' {
        let kind = match it.next()? {
            '香' => PieceKind::ProLance,
            '桂' => PieceKind::ProKnight,
            '銀' => PieceKind::ProSilver,
            _ => return None,
        };
        return Some((kind, 2));
    }
    piece_char(first).map(|k| (k, 1))
}

/// The two-letter CSA name of a kind (`FU`, `TO`, `OU`, ...).
pub(super) fn csa_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "FU",
        PieceKind::Lance => "KY",
        PieceKind::Knight => "KE",
        PieceKind::Silver => "GI",
        PieceKind::Gold => "KI",
        PieceKind::Bishop => "KA",
        PieceKind::Rook => "HI",
        PieceKind::King => "OU",
        PieceKind::ProPawn => "TO",
        PieceKind::ProLance => "NY",
        PieceKind::ProKnight => "NK",
        PieceKind::ProSilver => "NG",
        PieceKind::Horse => "UM",
        PieceKind::Dragon => "RY",
    }
}

/// The kind of a two-letter CSA name.
pub(super) fn csa_kind(s: &str) -> Option<PieceKind> {
    PieceKind::ALL.into_iter().find(|&k| csa_name(k) == s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(count("十八"), Some(18));
        assert_eq!(count("十"), Some(10));
        assert_eq!(count("二"), Some(2));
        assert_eq!(count("二十"), Some(20));
        assert_eq!(count("18"), Some(18));
        assert_eq!(count("１８"), Some(18));
        assert_eq!(count("十十"), None);
        assert_eq!(count("一十"), None);
        assert_eq!(count(""), None);
        assert_eq!(count("〇"), None);
    }
}
