//! Stable-Rust smoke run of the `response_path` fuzz target, for CI (see `smoke.sh`).
//!
//! Replays every file in the given corpus directories, then runs pseudo-random inputs (fresh
//! bytes, and mutations and splices of the corpus) until `--inputs` or `--seconds` is reached.
//! Not coverage-guided: it is a cheap regression net, `cargo fuzz run` is the real fuzzer.
//! On a panic the input is written to `artifacts/response_path/smoke-crash-<hash>` and the
//! process exits 1 (replay it with `--replay <file>`, or `cargo fuzz run response_path <file>`).
//!
//! Usage: smoke [--seconds S] [--inputs N] [--seed X] [--replay FILE] [CORPUS_DIR…]

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use holdbay_engine_fuzz::response_path;

/// Fragments the engine reacts to, spliced into mutated inputs to reach deeper states.
const TOKENS: &[&[u8]] = &[
    br#""resultType":"input_required""#,
    br#""resultType":"task""#,
    br#""resultType":"complete""#,
    br#""requestState":"#,
    br#""inputRequests":{"k":{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{}}}}}"#,
    br#""taskId":"t1","status":"input_required","createdAt":"x","lastUpdatedAt":"x","ttlMs":null"#,
    br#""status":"completed","result":{}"#,
    br#""status":"failed","error":{"code":1,"message":"m"}"#,
    br#""error":{"code":-32020,"message":"header mismatch"}"#,
    br#""id":1"#,
    br#""id":"1""#,
    br#""jsonrpc":"2.0""#,
    br#""method":"notifications/message""#,
    b"\r\n\r\n",
    b"\n\n",
    b"data: ",
    b"event: message\n",
    b": keep-alive\n",
    b"retry: 10\n",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xe2\x82",
    b"\\u0000",
    b"\\ud800",
    b"1e999",
    b"-0",
    b"18446744073709551616",
    b"null",
    b"[]",
    b"{}",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn mutate(rng: &mut Rng, corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut input = if corpus.is_empty() || rng.below(8) == 0 {
        let len = rng.below(256);
        (0..len).map(|_| rng.next() as u8).collect()
    } else {
        corpus[rng.below(corpus.len())].clone()
    };
    for _ in 0..=rng.below(6) {
        let at = rng.below(input.len() + 1);
        match rng.below(9) {
            0 if !input.is_empty() => {
                let i = rng.below(input.len());
                input[i] ^= 1 << rng.below(8);
            }
            1 if !input.is_empty() => {
                let i = rng.below(input.len());
                input[i] = rng.next() as u8;
            }
            2 => input.insert(at, rng.next() as u8),
            3 if at < input.len() => {
                let end = (at + 1 + rng.below(16)).min(input.len());
                input.drain(at..end);
            }
            4 | 5 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
            6 if !corpus.is_empty() => {
                // Splice: our head, another input's tail.
                let other = &corpus[rng.below(corpus.len())];
                let from = rng.below(other.len() + 1);
                input.truncate(at);
                input.extend_from_slice(&other[from..]);
            }
            7 if input.len() > 4 => {
                // Re-roll the header bytes (status, content type, chunking, template).
                let i = rng.below(4);
                input[i] = rng.next() as u8;
            }
            _ => {
                let at = rng.below(input.len() + 1);
                let len = rng.below(8);
                let dup: Vec<u8> = input[at..(at + len).min(input.len())].to_vec();
                input.splice(at..at, dup);
            }
        }
    }
    input
}

fn load(dirs: &[PathBuf]) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if let Ok(bytes) = std::fs::read(&path) {
                files.push((path, bytes));
            }
        }
    }
    files
}

/// Run one input; on a panic, save it and say where.
fn run(input: &[u8], origin: &str) -> bool {
    if catch_unwind(AssertUnwindSafe(|| response_path(input))).is_ok() {
        return true;
    }
    let mut hasher = DefaultHasher::new();
    input.hash(&mut hasher);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("artifacts/response_path");
    let path = dir.join(format!("smoke-crash-{:016x}", hasher.finish()));
    let saved = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, input));
    eprintln!(
        "smoke: CRASH on {origin}; input ({} bytes) {}: {:?}",
        input.len(),
        match saved {
            Ok(()) => format!("saved to {}", path.display()),
            Err(e) => format!("not saved ({e})"),
        },
        String::from_utf8_lossy(input)
    );
    false
}

fn main() -> ExitCode {
    let mut seconds = 20.0f64;
    let mut max_inputs = u64::MAX;
    let mut seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    let mut dirs = Vec::new();
    let mut replay = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match arg.as_str() {
            "--seconds" => seconds = value().parse().unwrap_or(seconds),
            "--inputs" => max_inputs = value().parse().unwrap_or(max_inputs),
            "--seed" => seed = value().parse().unwrap_or(seed) | 1,
            "--replay" => replay = Some(PathBuf::from(value())),
            _ => dirs.push(PathBuf::from(arg)),
        }
    }
    // Panics are caught and reported once per input; keep the default hook's message.
    if let Some(file) = replay {
        let input = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        response_path(&input);
        println!("smoke: replayed {} without a crash", file.display());
        return ExitCode::SUCCESS;
    }

    let started = Instant::now();
    let budget = Duration::from_secs_f64(seconds);
    let files = load(&dirs);
    for (path, bytes) in &files {
        if !run(bytes, &path.display().to_string()) {
            return ExitCode::FAILURE;
        }
    }
    let corpus: Vec<Vec<u8>> = files.into_iter().map(|(_, bytes)| bytes).collect();
    let mut rng = Rng(seed);
    let mut random = 0u64;
    while random < max_inputs && started.elapsed() < budget {
        let input = mutate(&mut rng, &corpus);
        random += 1;
        if !run(&input, &format!("random input #{random} (seed {seed})")) {
            return ExitCode::FAILURE;
        }
    }
    println!(
        "smoke: ran {} inputs ({} corpus files + {random} random, seed {seed}) in {:.1} s: no crash",
        corpus.len() as u64 + random,
        corpus.len(),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
