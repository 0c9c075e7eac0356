//! `refsearch` binary: parses the command line and runs the server (see the library docs).

use clap::Parser;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = refsearch::Args::parse();
    match refsearch::run(args).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("refsearch: error: {err}");
            std::process::ExitCode::from(err.exit_code())
        }
    }
}
