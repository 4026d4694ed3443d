//! What the benchmark programs share: medians, the peer solvers' wrappers, and writing a
//! table into a Markdown file between marker lines.

use std::path::Path;
use std::process::Command;

/// The median of `values` (the upper one of an even count).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// A peer solver's answer (the median run's time; length and nodes of the last run).
pub struct PeerAnswer {
    /// `mate`, `nomate` or `unknown`.
    pub verdict: String,
    pub length: Option<u32>,
    pub seconds: f64,
    pub nodes: Option<u64>,
}

impl PeerAnswer {
    /// Whether the peer answered within the time limit of `limit` seconds: with a length,
    /// and not stopped by the limit (a peer stopped there may still print the line it had,
    /// which is no answer to compare times with).
    pub fn finished(&self, limit: f64) -> bool {
        self.length.is_some() && self.seconds < limit - 0.5
    }
}

/// How to run a peer wrapper of `../shared/peers`.
pub struct Peer<'a> {
    /// The folder of the wrappers.
    pub wrappers: &'a Path,
    /// `shtsume` or `komoring`.
    pub name: &'a str,
    pub hash_mb: usize,
    pub seconds: f64,
    pub threads: usize,
}

impl Peer<'_> {
    /// Runs the wrapper `runs` times on `sfen`; an error when it cannot be run or says no
    /// `elapsed_s`.
    pub fn solve(&self, sfen: &str, runs: usize) -> Result<PeerAnswer, String> {
        let path = self.wrappers.join(format!(
            "{}_solve.sh",
            if self.name == "komoring" {
                "komoring"
            } else {
                "shtsume"
            }
        ));
        let mut times = Vec::new();
        let mut last = String::new();
        for _ in 0..runs.max(1) {
            let out = Command::new("bash")
                .arg(&path)
                .arg(sfen)
                .arg(format!("{}", self.seconds))
                .env("SHTSUME_HASH_MB", self.hash_mb.min(2047).to_string())
                .env("KOMORING_HASH_MB", self.hash_mb.to_string())
                .env("KOMORING_THREADS", self.threads.to_string())
                .output()
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            let elapsed = field(&text, "elapsed_s")
                .and_then(|s| s.parse::<f64>().ok())
                .ok_or_else(|| {
                    format!(
                        "{}: no elapsed_s in its output (exit {:?}): {}",
                        path.display(),
                        out.status.code(),
                        String::from_utf8_lossy(&out.stderr).trim()
                    )
                })?;
            times.push(elapsed);
            last = text;
        }
        let verdict = field(&last, "result").unwrap_or("?").to_string();
        let length = last
            .lines()
            .find(|l| l.starts_with("result"))
            .and_then(|l| l.split_whitespace().skip_while(|w| *w != "plies").nth(1))
            .and_then(|n| n.parse().ok());
        let nodes = last
            .lines()
            .find(|l| l.starts_with("engine_time_ms"))
            .and_then(|l| l.split_whitespace().skip_while(|w| *w != "nodes").nth(1))
            .and_then(|n| n.parse().ok());
        let length = if verdict == "mate" { length } else { None };
        Ok(PeerAnswer {
            verdict,
            length,
            seconds: median(times),
            nodes,
        })
    }
}

/// The first word after `key` on the line that starts with it.
fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
}

/// Replaces the lines between `<!-- PROGRAM NAME -->` and `<!-- /PROGRAM NAME -->` of `file`
/// with `table`, the command that made it and the machine it ran on, so that the tables in
/// the docs are the program's output, never copied by hand.
pub fn write_section(file: &Path, program: &str, name: &str, table: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let begin = format!("<!-- {program} {name} -->");
    let end = format!("<!-- /{program} {name} -->");
    let (Some(i), Some(j)) = (text.find(&begin), text.find(&end)) else {
        return Err(format!("no lines {begin} ... {end} to write between"));
    };
    if j < i {
        return Err(format!("{end} comes before {begin}"));
    }
    let command: Vec<String> = std::env::args()
        .skip(1)
        .map(|a| {
            if a.is_empty() || a.contains(' ') {
                format!("'{a}'")
            } else {
                a
            }
        })
        .collect();
    let section = format!(
        "{begin}\n`cargo run --release --example {program} -- {}` on {}, \
         written by the program:\n\n{table}{end}",
        command.join(" "),
        cpu_name()
    );
    let new = format!("{}{section}{}", &text[..i], &text[j + end.len()..]);
    std::fs::write(file, new).map_err(|e| e.to_string())
}

/// The machine's CPU model, as Linux names it.
pub fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}
