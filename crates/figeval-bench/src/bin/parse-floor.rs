//! `parse-floor FILE`: the least any JSON-reading scorer must do with a JSON Lines capture.
//!
//! Reads the file line by line exactly as `figeval score` does (a 1 MiB buffered reader,
//! `read_until(b'\n')`, UTF-8 check) and parses each line with
//! `serde_json::from_str::<IgnoredAny>`, which validates the JSON and keeps nothing.
//! Prints the number of lines parsed.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;

use serde::de::IgnoredAny;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: parse-floor FILE");
        return ExitCode::from(2);
    };
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("parse-floor: cannot open {}: {e}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut buf = Vec::with_capacity(1 << 16);
    let mut lines = 0usize;
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("parse-floor: read error: {e}");
                return ExitCode::from(2);
            }
        }
        lines += 1;
        let Ok(line) = std::str::from_utf8(&buf) else {
            eprintln!("parse-floor: line {lines} is not UTF-8");
            return ExitCode::from(2);
        };
        if line.trim().is_empty() {
            continue;
        }
        if let Err(e) = serde_json::from_str::<IgnoredAny>(line) {
            eprintln!("parse-floor: line {lines}: {e}");
            return ExitCode::from(2);
        }
    }
    println!("{lines}");
    ExitCode::SUCCESS
}
