//! `figeval serve` and `figeval serve token …`: a thin shell over `figeval-server`
//! (contract §15).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use figeval_server::store::tokens::Scope;
use figeval_server::{clock, Config, Deployments, StoreUrl};

use crate::fail::{Failure, Outcome};

/// Flags of `figeval serve`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ServeArgs {
    #[command(subcommand)]
    pub action: Option<ServeAction>,
    /// Where to listen. A non-loopback address needs a token in the store (or
    /// --insecure-no-auth).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    #[command(flatten)]
    pub store: StoreArg,
    /// The built app (`trunk build --release --offline` writes it to dist/).
    #[arg(long, default_value = "dist")]
    pub app: PathBuf,
    /// The largest request body: bytes, or with KiB, MiB or GiB.
    #[arg(long, default_value = "64MiB", value_parser = parse_size)]
    pub max_body: usize,
    /// The deployments the page may search through this server (contract §15.7).
    #[arg(long, value_name = "FILE")]
    pub deployments: Option<PathBuf>,
    /// Let anyone who reaches the server read, push and delete runs without a token.
    #[arg(long)]
    pub insecure_no_auth: bool,
    /// The origin short links are made with (e.g. https://figeval.example), when the server
    /// stands behind a proxy; else the request's own host.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
}

/// `--store`, shared by `serve` and `serve token …`.
#[derive(clap::Args)]
pub struct StoreArg {
    /// The store: `sqlite:` (the default file in the user's data folder), `sqlite:PATH`, or
    /// `postgres://USER@HOST/DB`.
    #[arg(long = "store", default_value = "sqlite:", value_name = "STORE")]
    pub url: String,
}

/// `figeval serve token …`.
#[derive(clap::Subcommand)]
pub enum ServeAction {
    /// Tokens: create, list, revoke.
    #[command(subcommand)]
    Token(TokenAction),
}

/// What to do with tokens.
#[derive(clap::Subcommand)]
pub enum TokenAction {
    /// Create a token; it is printed once, as the last word, and only its hash is stored.
    Create {
        #[command(flatten)]
        store: StoreArg,
        /// Its name (a CI job's, a person's); runs it pushes carry it.
        #[arg(long)]
        name: String,
        /// read: see runs; push: push runs only (CI); admin: everything.
        #[arg(long, value_parser = parse_scope)]
        scope: Scope,
    },
    /// List the tokens (never their values).
    List {
        #[command(flatten)]
        store: StoreArg,
    },
    /// Revoke a token by name; its sessions end.
    Revoke {
        #[command(flatten)]
        store: StoreArg,
        /// Its name.
        #[arg(long)]
        name: String,
    },
}

fn parse_scope(s: &str) -> Result<Scope, String> {
    s.parse()
}

/// `64MiB`, `512KiB`, `1GiB`, or bytes.
fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let (digits, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let shift = match unit.trim() {
        "" | "B" => 0,
        "KiB" | "K" => 10,
        "MiB" | "M" => 20,
        "GiB" | "G" => 30,
        _ => {
            return Err(format!(
                "{s:?} is not a size: bytes, or a number with KiB, MiB or GiB"
            ))
        }
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_shl(shift).filter(|v| v >> shift == n))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{s:?} is not a size: bytes, or a number with KiB, MiB or GiB"))
}

fn store_url(arg: &StoreArg) -> Result<StoreUrl, Failure> {
    StoreUrl::parse(&arg.url).map_err(Failure::Input)
}

/// Runs `figeval serve` (until SIGINT or SIGTERM), or a token action.
pub fn run(args: ServeArgs) -> Outcome {
    if let Some(ServeAction::Token(action)) = args.action {
        return token(action);
    }
    let deployments = match &args.deployments {
        None => Deployments::default(),
        Some(path) => Deployments::load(path, |n| std::env::var(n).ok()).map_err(Failure::Input)?,
    };
    figeval_server::run(Config {
        listen: args.listen,
        store: store_url(&args.store)?,
        app: args.app,
        max_body: args.max_body,
        deployments,
        insecure_no_auth: args.insecure_no_auth,
        public_url: args.public_url,
    })
    .map_err(Failure::Input)?;
    Ok(ExitCode::SUCCESS)
}

fn token(action: TokenAction) -> Outcome {
    match action {
        TokenAction::Create { store, name, scope } => {
            let url = store_url(&store)?;
            let token =
                figeval_server::with_store(&url, async |s| s.create_token(&name, scope).await)
                    .map_err(Failure::Input)?;
            println!(
                "Created the {} token {name:?} in {}. It is shown this once; the store keeps \
                 only its hash:\n{}",
                scope.name(),
                url.describe(),
                token.expose()
            );
        }
        TokenAction::List { store } => {
            let url = store_url(&store)?;
            let list = figeval_server::with_store(&url, async |s| s.list_tokens().await)
                .map_err(Failure::Input)?;
            if list.is_empty() {
                println!(
                    "no token in {} (on a loopback address the server is open)",
                    url.describe()
                );
            }
            for t in list {
                let state = t.revoked_us.map_or_else(
                    || "live".to_string(),
                    |us| format!("revoked {}", clock::rfc3339(us / 1_000_000)),
                );
                println!(
                    "{}\t{}\tcreated {}\t{state}",
                    t.name,
                    t.scope.name(),
                    clock::rfc3339(t.created_us / 1_000_000)
                );
            }
        }
        TokenAction::Revoke { store, name } => {
            let url = store_url(&store)?;
            let done = figeval_server::with_store(&url, async |s| s.revoke_token(&name).await)
                .map_err(Failure::Input)?;
            if !done {
                return Err(Failure::Input(format!(
                    "no live token is named {name:?} in {}",
                    url.describe()
                )));
            }
            println!("Revoked the token {name:?}; its sessions have ended.");
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_read_bytes_and_binary_units() {
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("1024"), Ok(1024));
        assert_eq!(parse_size("2 KiB"), Ok(2048));
        assert!(parse_size("0").is_err());
        assert!(parse_size("12 parsecs").is_err());
    }
}
