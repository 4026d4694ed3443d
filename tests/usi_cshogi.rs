//! The USI engine driven by a real USI client: the Python package cshogi's
//! `cshogi.usi.Engine` (the same class tools built on cshogi use to run engines), through
//! `tests/data/usi_cshogi.py`. The script checks the answers (mate, no mate, timeout, `go`
//! for a game) and solves the problems of `problems/yaneuraou.sfen` and `problems/antma.sfen`,
//! each line (of the stated length) checked with
//! cshogi's own rules: legal moves, every attacker move a check, checkmate at the end.
//!
//! `.ci/run` installs cshogi (`python3 -m pip install cshogi`). Where Python or cshogi is
//! missing the test says so and passes without checking anything, except under CI (the `CI`
//! variable set, as `.ci/run` does): there a missing tool fails the test.

#[path = "common/examples.rs"]
mod examples;

use std::process::Command;

#[test]
fn cshogi_usi_client() {
    let root = env!("CARGO_MANIFEST_DIR");
    let engine = examples::build(&["usi"]);

    let out = match Command::new("python3")
        .arg(format!("{root}/tests/data/usi_cshogi.py"))
        .arg(&engine)
        .arg(format!("{root}/problems/yaneuraou.sfen"))
        .arg(format!("{root}/problems/antma.sfen"))
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            skip(&format!(
                "python3 cannot be run ({e}); install Python 3 and cshogi"
            ));
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(77) {
        skip(stdout.trim());
        return;
    }
    assert!(
        out.status.success(),
        "the cshogi client failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    eprintln!("{}", stdout.trim());
}

/// Says why the test checks nothing; under CI (the `CI` variable set) a missing tool is a
/// failure instead.
fn skip(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set and the cshogi client cannot run: {why}"
    );
    eprintln!("skipped: {why}");
}
