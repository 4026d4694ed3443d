//! The HTTP API of the `serve` example against a real server on a loopback port: solve,
//! check, jobs with progress and stop, the operator's limits, and every kind of bad input
//! answered with a clear error (never a crash: the server is still up at the end of each
//! test).

#[path = "common/serve.rs"]
mod serve;

use serde_json::{Value, json};
use serve::{CLASSIC, MICROCOSMOS, Server, base64};
use std::time::{Duration, Instant};

fn start() -> Server {
    Server::start(&["--memory-mib", "64", "--jobs", "2", "--time-max", "30"])
}

#[test]
fn solve_answers_the_main_line_in_both_notations_with_positions_and_kif() {
    let s = start();
    let r = s.post("/api/solve", &json!({"problem": CLASSIC}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("application/json")
    );
    let v = r.json();
    assert_eq!(v["result"], "mate");
    assert_eq!(v["length"], 3);
    assert_eq!(v["status"], "mate in 3");
    assert_eq!(v["moves"], json!(["9f5b+", "4a5b", "S*4b"]));
    assert_eq!(
        v["japanese"],
        json!(["▲５二角成", "△同　銀左", "▲４二銀打"])
    );
    assert_eq!(v["positions"].as_array().unwrap().len(), 4);
    assert_eq!(v["positions"][0], CLASSIC);
    assert!(v["kif"].as_str().unwrap().contains("まで3手で詰み"));
    assert!(v["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn a_shift_jis_kif_file_is_read_from_its_bytes() {
    let s = start();
    let bytes =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/problems/classic.kif")).unwrap();
    let p = s.post("/api/parse", &json!({"problem_base64": base64(&bytes)}));
    assert_eq!(p.status, 200, "{}", p.body);
    let v = p.json();
    assert_eq!(v["format"], "kif");
    assert_eq!(v["sfen"], CLASSIC);
    assert_eq!(v["moves"], json!(["9f5b+", "4a5b", "S*4b"]));
    assert_eq!(v["japanese"][1], "△同　銀左");
    assert_eq!(v["name"], "古典3手詰");
    let solved = s.post("/api/solve", &json!({"problem_base64": base64(&bytes)}));
    assert_eq!(solved.json()["length"], 3);
}

#[test]
fn check_reports_each_flaw_with_its_ply_moves_and_positions() {
    let s = start();
    // problems/flawed.sfen: the classic with a lance added, 9f5b+ a second solution at ply 1.
    let problem = "3sks3/9/4S4/9/9/B8/9/9/9 b SL2rb4g4n3l18p 1";
    let r = s.post("/api/check", &json!({"problem": problem}));
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["verdict"], "unsound");
    assert_eq!(v["sound"], false);
    let flaws = v["flaws"].as_array().unwrap();
    let alt = flaws
        .iter()
        .find(|f| f["kind"] == "alternative_mate")
        .expect("the 余詰");
    assert_eq!(alt["ply"], 1);
    assert_eq!(alt["japanese"], "余詰");
    assert_eq!(alt["japanese_moves"][0], "▲５二角成");
    assert_eq!(alt["moves"][0], "9f5b+");
    assert_eq!(alt["fatal"], true);
    assert_eq!(alt["positions"][0], problem, "the position before its ply");
    // Continued to its mate by the longest defence.
    assert_eq!(alt["line"].as_array().unwrap().len(), 3, "{alt}");
    assert_eq!(alt["positions"].as_array().unwrap().len(), 4, "{alt}");
    assert!(
        flaws
            .iter()
            .any(|f| f["kind"] == "equal_length_variation" && f["ply"] == 2)
    );
    assert!(v["kif"].as_str().unwrap().contains("変化：1手"));
    // The quick verdict agrees.
    let quick = s.post(
        "/api/check",
        &json!({"problem": problem, "first_flaw": true}),
    );
    assert_eq!(quick.json()["verdict"], "unsound");
}

#[test]
fn check_takes_a_records_moves_as_the_intended_line() {
    let s = start();
    let bytes =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/problems/classic.kif")).unwrap();
    let v = s
        .post("/api/check", &json!({"problem_base64": base64(&bytes)}))
        .json();
    assert_eq!(v["verdict"], "sound");
    assert_eq!(v["intended"], true);
    // An intended line that does not mate is the composer's flaw, not bad input.
    let v = s
        .post(
            "/api/check",
            &json!({"problem": format!("{CLASSIC} moves 9f5b+ 4a5b")}),
        )
        .json();
    assert_eq!(v["verdict"], "unsound");
    assert_eq!(v["flaws"][0]["kind"], "invalid_intended_line");
}

#[test]
fn unnecessary_pieces_are_found_on_request() {
    let s = start();
    // The classic with a black pawn on 1i that plays no part.
    let with_pawn = "3sks3/9/4S4/9/9/B8/9/9/8P b S2rb4g4n4l17p 1";
    let v = s
        .post(
            "/api/check",
            &json!({"problem": with_pawn, "unnecessary_pieces": true}),
        )
        .json();
    assert_eq!(v["verdict"], "sound");
    let found = &v["unnecessary_pieces"]["found"];
    assert_eq!(
        found,
        &json!([{"square": "1i", "piece": "P", "japanese": "▲１九歩"}])
    );
    let v = s
        .post(
            "/api/check",
            &json!({"problem": CLASSIC, "unnecessary_pieces": true}),
        )
        .json();
    assert_eq!(v["unnecessary_pieces"]["found"], json!([]));
    // Not asked for: not there.
    let v = s.post("/api/check", &json!({"problem": with_pawn})).json();
    assert!(v.get("unnecessary_pieces").is_none());
}

/// Polls job `id` until `done`, or panics after `within`.
fn wait_done(s: &Server, id: u64, within: Duration) -> Value {
    let start = Instant::now();
    loop {
        let v = s.get(&format!("/api/jobs/{id}")).json();
        if v["state"] == "done" {
            return v;
        }
        assert!(start.elapsed() < within, "job {id} still running: {v}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_job_reports_progress_and_stops_when_asked() {
    let s = start();
    let r = s.post(
        "/api/solve",
        &json!({"problem": MICROCOSMOS, "wait": false, "time_s": 25}),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let id = r.json()["job"].as_u64().unwrap();
    let started = Instant::now();
    // Progress comes every 200 ms.
    loop {
        let v = s.get(&format!("/api/jobs/{id}")).json();
        assert_eq!(v["state"], "running", "{v}");
        if v["progress"]["nodes"].as_u64().unwrap() > 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no progress: {v}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let stop = s.post(&format!("/api/jobs/{id}/stop"), &json!({}));
    assert_eq!(stop.status, 200);
    let done = wait_done(&s, id, Duration::from_secs(10));
    assert_eq!(done["result"]["result"], "unknown");
    assert_eq!(done["result"]["reason"], "stopped");
    assert!(started.elapsed() < Duration::from_secs(20), "stopped late");
    // A check stops the same way.
    let r = s.post(
        "/api/check",
        &json!({"problem": MICROCOSMOS, "wait": false, "time_s": 25}),
    );
    let id = r.json()["job"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    s.post(&format!("/api/jobs/{id}/stop"), &json!({}));
    let done = wait_done(&s, id, Duration::from_secs(10));
    assert_eq!(done["result"]["verdict"], "undecided");
}

#[test]
fn limits_bound_a_job_and_requests_beyond_them_are_refused() {
    let s = start();
    let v = s
        .post(
            "/api/solve",
            &json!({"problem": MICROCOSMOS, "nodes": 20_000}),
        )
        .json();
    assert_eq!(v["result"], "unknown");
    assert_eq!(v["reason"], "node limit reached");
    let t = Instant::now();
    let v = s
        .post(
            "/api/solve",
            &json!({"problem": MICROCOSMOS, "time_s": 0.5}),
        )
        .json();
    assert_eq!(v["result"], "unknown");
    assert_eq!(v["reason"], "time limit reached");
    assert!(t.elapsed() < Duration::from_secs(5));
    for body in [
        json!({"problem": CLASSIC, "time_s": 31}),
        json!({"problem": CLASSIC, "time_s": 0}),
        json!({"problem": CLASSIC, "time_s": "5"}),
        json!({"problem": CLASSIC, "nodes": 0}),
        json!({"problem": CLASSIC, "nodes": 1_000_000_000_000u64}),
        json!({"problem": CLASSIC, "nodes": -3}),
        json!({"problem": CLASSIC, "nodes": 1.5}),
    ] {
        let r = s.post("/api/solve", &body);
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert_eq!(r.json()["kind"], "bad_request");
    }
    let status = s.get("/api/status").json();
    assert_eq!(status["limits"]["time_max_s"], 30.0);
    assert_eq!(status["max_jobs"], 2);
}

#[test]
fn beyond_the_concurrent_jobs_the_answer_is_busy() {
    let s = Server::start(&["--memory-mib", "32", "--jobs", "1"]);
    let first = s.post(
        "/api/solve",
        &json!({"problem": MICROCOSMOS, "wait": false, "time_s": 20}),
    );
    assert_eq!(first.status, 202);
    let id = first.json()["job"].as_u64().unwrap();
    let busy = s.post("/api/check", &json!({"problem": CLASSIC}));
    assert_eq!(busy.status, 503, "{}", busy.body);
    assert_eq!(busy.json()["kind"], "busy");
    assert!(busy.json()["error"].as_str().unwrap().starts_with("busy"));
    assert_eq!(busy.header("retry-after"), Some("1"));
    assert_eq!(s.get("/api/status").json()["running_jobs"], 1);
    s.post(&format!("/api/jobs/{id}/stop"), &json!({}));
    wait_done(&s, id, Duration::from_secs(10));
    // The solver is back in the pool.
    let again = s.post("/api/solve", &json!({"problem": CLASSIC}));
    assert_eq!(again.status, 200);
    assert_eq!(again.json()["length"], 3);
}

#[test]
fn bad_input_is_a_clear_error_and_never_a_crash() {
    let mut s = start();
    let cases: Vec<(&str, &str, Vec<u8>, u16, &str)> = vec![
        ("POST", "/api/solve", b"not json".to_vec(), 400, "not JSON"),
        ("POST", "/api/solve", b"[1,2]".to_vec(), 400, "JSON object"),
        ("POST", "/api/solve", b"{}".to_vec(), 400, "no problem"),
        (
            "POST",
            "/api/solve",
            br#"{"problem": 3}"#.to_vec(),
            400,
            "must be a string",
        ),
        (
            "POST",
            "/api/solve",
            br#"{"problem": "  \n"}"#.to_vec(),
            400,
            "empty",
        ),
        (
            "POST",
            "/api/parse",
            br#"{"problem_base64": "***"}"#.to_vec(),
            400,
            "base64",
        ),
        (
            "POST",
            "/api/parse",
            br#"{"problem": "x", "problem_base64": "eA=="}"#.to_vec(),
            400,
            "not both",
        ),
        (
            "POST",
            "/api/solve",
            format!(r#"{{"problem": "{CLASSIC}", "wait": 1}}"#).into_bytes(),
            400,
            "wait",
        ),
        (
            "POST",
            "/api/check",
            format!(r#"{{"problem": "{CLASSIC}", "strict": "yes"}}"#).into_bytes(),
            400,
            "strict",
        ),
        ("GET", "/api/solve", Vec::new(), 405, "not allowed"),
        ("DELETE", "/api/status", Vec::new(), 405, "not allowed"),
        ("GET", "/api/nothing", Vec::new(), 404, "nothing at"),
        ("GET", "/api/jobs/999999", Vec::new(), 404, "no job"),
        ("GET", "/api/jobs/abc", Vec::new(), 404, "no job"),
        ("POST", "/api/jobs/12345/stop", Vec::new(), 404, "no job"),
        ("GET", "/../../etc/passwd", Vec::new(), 404, "nothing at"),
        (
            "POST",
            "/api/solve",
            vec![b' '; (1 << 20) + 1],
            413,
            "larger than",
        ),
    ];
    for (method, path, body, status, words) in &cases {
        let r = s.request(method, path, body);
        assert_eq!(r.status, *status, "{method} {path}: {}", r.body);
        let v = r.json();
        let error = v["error"].as_str().unwrap_or_default();
        assert!(
            error.contains(words),
            "{method} {path}: {error:?} lacks {words:?}"
        );
        assert_eq!(v["status"], *status);
    }
    // The parser's own message, with where it is.
    let r = s.post(
        "/api/solve",
        &json!({"problem": "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18 1"}),
    );
    assert_eq!(r.status, 400);
    let v = r.json();
    assert_eq!(v["kind"], "bad_problem");
    assert_eq!(v["line"], 1);
    assert!(v["error"].as_str().unwrap().contains("hands"), "{v}");
    // A KIF with a bad move names its line.
    let kif = "後手の持駒：残り全部\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
| ・ ・ ・v銀v玉v銀 ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 銀 ・ ・ ・ ・|三\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| 角 ・ ・ ・ ・ ・ ・ ・ ・|六\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n\
+---------------------------+\n先手の持駒：銀\n手数----指手---------消費時間--\n   1 ５二角成(96)\n   2 １一飛(99)\n";
    let r = s.post("/api/check", &json!({"problem": kif}));
    assert_eq!(r.status, 400, "{}", r.body);
    let v = r.json();
    assert_eq!(v["kind"], "bad_problem");
    assert_eq!(v["line"], 17, "{v}");
    assert_eq!(v["column"], 6, "{v}");
    // A position without the defender's king can be solved but not checked.
    let no_king = "9/9/9/9/9/9/9/9/9 b G 1";
    let r = s.post("/api/check", &json!({"problem": no_king}));
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["kind"], "bad_problem");
    // Garbage bytes of every kind.
    for junk in [
        &b"\xff\xfe\x00garbage"[..],
        b"\x82\xa0\x82\xa2",
        b"P1 * * *\n+\n",
    ] {
        let r = s.post("/api/solve", &json!({"problem_base64": base64(junk)}));
        assert_eq!(r.status, 400, "{}", r.body);
    }
    // A file name is text, never a file read.
    let r = s.post("/api/parse", &json!({"problem": "/etc/passwd"}));
    assert_eq!(r.status, 400);
    assert!(s.alive());
    assert_eq!(s.get("/api/status").status, 200);
}

#[test]
fn the_page_is_served_from_the_binary() {
    let s = start();
    let page = s.get("/");
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    assert!(page.body.contains("<script src=\"app.js\""));
    for (path, mime) in [("/app.js", "text/javascript"), ("/style.css", "text/css")] {
        let r = s.get(path);
        assert_eq!(r.status, 200);
        assert!(r.header("content-type").unwrap().starts_with(mime));
        assert!(r.body.len() > 100);
    }
}
