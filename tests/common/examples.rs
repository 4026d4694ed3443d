//! The crate's example programs for the tests that run them: built (or brought up to date)
//! with the test's own profile and target directory, since `cargo test --test NAME` alone
//! does not build examples, and a stale binary would test old code.

use std::path::PathBuf;
use std::process::Command;

/// Builds the examples `names` and returns the path of the first one's binary (the others
/// lie beside it: [`beside`]).
pub fn build(names: &[&str]) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    // target/<profile>/deps/<test>-<hash> -> target/<profile>/examples/<name>
    let profile_dir = exe.parent().and_then(|d| d.parent()).expect("profile dir");
    let target_dir = profile_dir.parent().expect("target dir");
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(["build", "--quiet"]);
    for name in names {
        cargo.args(["--example", name]);
    }
    cargo.arg("--target-dir").arg(target_dir);
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        cargo.arg("--release");
    }
    let status = cargo
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo build --example");
    assert!(
        status.success(),
        "cargo build of the examples {names:?} failed"
    );
    beside(&profile_dir.join("examples").join("x"), names[0])
}

/// The binary of the example `name`, in the folder of the example binary `other`.
pub fn beside(other: &std::path::Path, name: &str) -> PathBuf {
    other.with_file_name(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}
