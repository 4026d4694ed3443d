//! KIF that other programs read: records written by [`write_kif`] (random legal lines from
//! the start position and from problems of `problems/yaneuraou.sfen`, with variations
//! branching from the main line and from each other, many moves declining promotion) are
//! read back by
//!
//! - the crate's own reader: the same position, main line and variations;
//! - tsshogi, the record library of ShogiHome (`tests/js/read_kif.mjs`, with Node): the same
//!   position, and the same set of lines from the start (the main line and every
//!   variation);
//! - cshogi's KIF parser (`tests/data/read_kif_cshogi.py`): the same main line, for the
//!   records from the start position (it reads neither variations nor board diagrams: a
//!   record from any other position comes out as from the start position).
//!
//! `.ci/run` installs both (`npm ci --prefix tests/js`, `python3 -m pip install cshogi`).
//! Where Node, tsshogi, Python or cshogi is missing the test says so and checks the rest,
//! except under CI (the `CI` variable set): there a missing tool fails the test.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use tsume::problem::{Format, Origin, Problem, Variation, read_file, to_shift_jis, write_kif};
use tsume::{Move, Position, STARTPOS_SFEN};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

/// A random legal move at `pos`, declining promotion two times out of three where both are
/// legal (the moves a KIF writer must get right); `None` when there is none.
fn random_move(pos: &Position, rng: &mut Rng, not: &[Move]) -> Option<Move> {
    let moves: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| !not.contains(m))
        .collect();
    if moves.is_empty() {
        return None;
    }
    let mv = moves[rng.below(moves.len())];
    if mv.is_promotion() && rng.below(3) > 0 {
        let declined = Move::new_normal(mv.from().unwrap(), mv.to(), false);
        if moves.contains(&declined) {
            return Some(declined);
        }
    }
    Some(mv)
}

/// Up to `len` random legal moves from `pos`.
fn random_line(pos: &Position, len: usize, rng: &mut Rng) -> Vec<Move> {
    let mut p = pos.clone();
    let mut line = Vec::new();
    while line.len() < len {
        let Some(mv) = random_move(&p, rng, &[]) else {
            break;
        };
        p.play(mv).unwrap();
        line.push(mv);
    }
    line
}

/// A record from `start` with a random main line and variations.
fn random_record(start: Position, rng: &mut Rng) -> Problem {
    let origin = Origin {
        file: "<random>".into(),
        line: 1,
    };
    let mut p = Problem::new(start, origin, Format::Kif);
    p.moves = random_line(&p.position, 10 + rng.below(50), rng);
    // A record that stops (a reader without variations stops reading there).
    p.termination = Some("中断".into());
    for _ in 0..1 + rng.below(6) {
        // Branch from the main line or an earlier variation, at one of its plies, with a
        // move no line from there plays yet.
        let parent = match rng.below(p.variations.len() + 1) {
            0 => None,
            i => Some(i - 1),
        };
        let line = match parent {
            None => p.moves.clone(),
            Some(i) => p.variation_line(i).unwrap(),
        };
        let first_ply = parent.map_or(1, |i| p.variations[i].ply + 1);
        if line.len() < first_ply {
            continue;
        }
        let ply = first_ply + rng.below(line.len() - first_ply + 1);
        let mut pos = p.position.clone();
        for &mv in &line[..ply - 1] {
            pos.play(mv).unwrap();
        }
        let mut taken = vec![line[ply - 1]];
        for (j, v) in p.variations.iter().enumerate() {
            if v.ply == ply && p.variation_line(j).unwrap()[..ply - 1] == line[..ply - 1] {
                taken.push(v.moves[0]);
            }
        }
        let Some(first) = random_move(&pos, rng, &taken) else {
            continue;
        };
        pos.play(first).unwrap();
        let mut moves = vec![first];
        moves.extend(random_line(&pos, rng.below(12), rng));
        p.variations.push(Variation {
            ply,
            parent,
            moves,
            comment: String::new(),
        });
    }
    p
}

/// The records of the test: 30 of them, from the start position and from tsume problems.
fn records() -> Vec<Problem> {
    let root = env!("CARGO_MANIFEST_DIR");
    let suite = std::fs::read_to_string(format!("{root}/problems/yaneuraou.sfen")).unwrap();
    let mut starts = vec![Position::from_sfen(STARTPOS_SFEN).unwrap()];
    for line in suite
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(14)
    {
        let sfen = line.split('#').next().unwrap().trim();
        starts.push(Position::from_sfen(sfen).unwrap());
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..30)
        .map(|i| random_record(starts[i % starts.len()].clone(), &mut rng))
        .collect()
}

/// Every line of a record from its start, as USI moves: the main line and each variation.
fn lines(p: &Problem) -> BTreeSet<Vec<String>> {
    let usi = |line: &[Move]| line.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    let mut out: BTreeSet<Vec<String>> = BTreeSet::new();
    out.insert(usi(&p.moves));
    for j in 0..p.variations.len() {
        out.insert(usi(&p.variation_line(j).unwrap()));
    }
    out
}

/// Writes the records as KIF files in a fresh directory: each as `.kifu` (UTF-8) and as
/// `.kif` (Shift-JIS, as Kifu for Windows writes it and cshogi reads it). The directory and
/// the two lists of paths.
fn write_files(records: &[Problem]) -> (PathBuf, Vec<PathBuf>, Vec<PathBuf>) {
    let dir = std::env::temp_dir().join(format!("tsume-kif-readers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut utf8 = Vec::new();
    let mut sjis = Vec::new();
    for (i, p) in records.iter().enumerate() {
        let text = write_kif(p);
        let f = dir.join(format!("record{i:02}.kifu"));
        std::fs::write(&f, &text).unwrap();
        utf8.push(f);
        let f = dir.join(format!("record{i:02}.kif"));
        std::fs::write(&f, to_shift_jis(&text)).unwrap();
        sjis.push(f);
    }
    (dir, utf8, sjis)
}

/// Says why a reader was not tried; under CI a missing tool is a failure instead.
fn skip(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "under CI every reader must run: {why}"
    );
    eprintln!("NOT CHECKED: {why}");
}

/// Runs a reader; its JSON output, or `None` (said why) when it cannot run.
fn run_reader(cmd: &mut Command, what: &str) -> Option<serde_json::Value> {
    let out = match cmd.output() {
        Ok(out) => out,
        Err(e) => {
            skip(&format!("{what} cannot be run ({e})"));
            return None;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.code() == Some(77) {
        skip(stdout.trim());
        return None;
    }
    assert!(
        out.status.success(),
        "{what} failed: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_str(&stdout).expect("the reader prints JSON"))
}

/// The position of an SFEN another program wrote, as this crate reads it.
fn position(sfen: &serde_json::Value) -> Position {
    let sfen = sfen.as_str().expect("an SFEN string");
    let sfen = sfen.strip_prefix("sfen ").unwrap_or(sfen);
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|m| m.as_str().expect("a string").to_string())
        .collect()
}

#[test]
fn the_kif_written_is_read_back_by_this_crate_tsshogi_and_cshogi() {
    let records = records();
    assert!(
        records.iter().any(|p| write_kif(p).contains("(")),
        "records with moves"
    );
    let (dir, files, sjis) = write_files(&records);

    // This crate, in both encodings.
    for (p, f) in records.iter().zip(files.iter().chain(&sjis)) {
        let back = read_file(f).remove(0).unwrap();
        assert_eq!(back.position.key(), p.position.key(), "{}", f.display());
        assert_eq!(lines(&back), lines(p), "{}", f.display());
    }
    let sjis_records = records.iter().zip(&sjis);
    for (p, f) in sjis_records.clone() {
        let back = read_file(f).remove(0).unwrap();
        assert_eq!(lines(&back), lines(p), "{}", f.display());
    }

    // tsshogi.
    let root = env!("CARGO_MANIFEST_DIR");
    let js = Path::new(root).join("tests/js");
    if !js.join("node_modules/tsshogi").exists() {
        skip("tsshogi is not installed: npm ci --prefix tests/js");
    } else if let Some(read) = run_reader(
        Command::new("node")
            .arg(js.join("read_kif.mjs"))
            .args(&files),
        "node (tsshogi)",
    ) {
        for ((p, f), r) in records.iter().zip(&files).zip(read.as_array().unwrap()) {
            assert!(r.get("error").is_none(), "tsshogi, {}: {r}", f.display());
            assert_eq!(
                position(&r["sfen"]).key(),
                p.position.key(),
                "{}",
                f.display()
            );
            let read: BTreeSet<Vec<String>> =
                r["lines"].as_array().unwrap().iter().map(strings).collect();
            assert_eq!(read, lines(p), "tsshogi, {}", f.display());
        }
    }

    // cshogi.
    if let Some(read) = run_reader(
        Command::new("python3")
            .arg(Path::new(root).join("tests/data/read_kif_cshogi.py"))
            .args(&sjis),
        "python3 (cshogi)",
    ) {
        let start = Position::from_sfen(STARTPOS_SFEN).unwrap().key();
        let mut checked = 0;
        for ((p, f), r) in sjis_records.zip(read.as_array().unwrap()) {
            assert!(r.get("error").is_none(), "cshogi, {}: {r}", f.display());
            if p.position.key() != start {
                continue;
            }
            checked += 1;
            assert_eq!(
                position(&r["sfen"]).key(),
                p.position.key(),
                "{}",
                f.display()
            );
            let main: Vec<String> = p.moves.iter().map(|m| m.to_string()).collect();
            assert_eq!(strings(&r["moves"]), main, "cshogi, {}", f.display());
        }
        assert!(checked >= 2, "records from the start position: {checked}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
