//! A PostgreSQL 15 cluster of the tests' own (Debian's `postgresql`, `/usr/lib/postgresql/15/bin`,
//! or `FIGEVAL_PG_BIN`), made under the target folder with `initdb` and started with `pg_ctl`
//! on a free loopback port, its socket inside its own folder. PostgreSQL refuses to run as
//! root: as root, every server command runs as the `postgres` user (`runuser -u postgres --`),
//! which owns the cluster's folder; otherwise as the user running the tests. When a folder
//! above the target folder does not let the postgres user pass (a checkout in root's home
//! folder), the cluster goes to the system's temporary folder instead.
//!
//! A test binary shares one cluster ([`Cluster::shared`]) and makes a database per test
//! ([`Cluster::database`]). The cluster is stopped when the binary's process ends, whichever
//! way it ends: a watchdog started with it stops the postmaster and removes the folder once
//! that process is gone. A [`Cluster`] made with [`Cluster::start`] is stopped on drop as well.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Where Debian's PostgreSQL 15 server programs are.
pub const DEFAULT_BIN: &str = "/usr/lib/postgresql/15/bin";

/// A running cluster.
#[derive(Debug)]
pub struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
    as_postgres: bool,
}

/// Makes `dir` anew; as root, owned by the postgres user.
fn prepare(dir: &Path, as_postgres: bool) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    if as_postgres {
        let out = Command::new("chown")
            .args(["-R", "postgres:postgres"])
            .arg(dir)
            .output()
            .map_err(|e| format!("cannot run chown: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "chown postgres {}: {}",
                dir.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    Ok(())
}

/// Whether the postgres user can reach and write `dir` (every folder above it must let it
/// pass).
fn postgres_may_use(dir: &Path) -> bool {
    Command::new("runuser")
        .args(["-u", "postgres", "--", "test", "-w"])
        .arg(dir)
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether this process runs as root (then the server runs as `postgres`).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free loopback port: {e}"))
}

impl Cluster {
    /// The server programs' folder: `FIGEVAL_PG_BIN`, else Debian's.
    pub fn bin_dir() -> PathBuf {
        std::env::var_os("FIGEVAL_PG_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(DEFAULT_BIN))
    }

    /// Makes a new cluster in `dir` (removed first if it exists) and starts it.
    pub fn start(dir: &Path) -> Result<Cluster, String> {
        let bin = Cluster::bin_dir();
        if !bin.join("initdb").exists() {
            return Err(format!(
                "PostgreSQL's server programs are not in {} (install Debian's postgresql: cargo \
                 xtask setup, or set FIGEVAL_PG_BIN)",
                bin.display()
            ));
        }
        let as_postgres = is_root();
        let mut dir = dir.to_path_buf();
        prepare(&dir, as_postgres)?;
        if as_postgres && !postgres_may_use(&dir) {
            // A folder above it does not let the postgres user pass (a checkout in root's
            // home folder, mode 700): the cluster goes to the system's temporary folder
            // instead, named after the folder it was meant for.
            let _ = std::fs::remove_dir_all(&dir);
            let name = dir
                .file_name()
                .map_or_else(|| "cluster".into(), |n| n.to_string_lossy().into_owned());
            dir = std::env::temp_dir().join(format!("figeval-postgres-{name}"));
            prepare(&dir, as_postgres)?;
            if !postgres_may_use(&dir) {
                return Err(format!(
                    "the postgres user cannot use {} (nor the folder under target/): every \
                     folder above it must let it pass (mode o+x)",
                    dir.display()
                ));
            }
        }
        let cluster = Cluster {
            dir,
            bin,
            port: free_port()?,
            as_postgres,
        };
        let data = cluster.data();
        let mut initdb = cluster.server_command("initdb");
        cluster.run(
            initdb.arg("-D").arg(&data).args([
                "--auth=trust",
                "--username=postgres",
                "--encoding=UTF8",
                "--no-sync",
            ]),
            "initdb",
        )?;
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=200",
            cluster.port,
            cluster.dir.display()
        );
        let mut start = cluster.server_command("pg_ctl");
        start
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(cluster.dir.join("server.log"))
            .arg("-o")
            .arg(options)
            .args(["-w", "-t", "120", "start"]);
        cluster.run(&mut start, "pg_ctl start")?;
        Ok(cluster)
    }

    /// The binary's one cluster, started on first use under `target/postgres/NAME-PID` and
    /// stopped (and its folder removed) when this process ends.
    pub fn shared() -> &'static Cluster {
        static SHARED: OnceLock<Cluster> = OnceLock::new();
        SHARED.get_or_init(|| {
            let exe = std::env::current_exe().unwrap_or_default();
            let name = exe
                .file_stem()
                .map_or_else(|| "tests".into(), |n| n.to_string_lossy().into_owned());
            let target = exe
                .ancestors()
                .nth(3)
                .map_or_else(|| PathBuf::from("target"), Path::to_path_buf);
            let dir = target
                .join("postgres")
                .join(format!("{name}-{}", std::process::id()));
            let cluster = match Cluster::start(&dir) {
                Ok(c) => c,
                Err(e) => panic!("{e}"),
            };
            if let Err(e) = cluster.watch(std::process::id()) {
                cluster.stop();
                panic!("{e}");
            }
            cluster
        })
    }

    /// A new, empty database, and its connection URL.
    pub fn database(&self, prefix: &str) -> String {
        static N: AtomicUsize = AtomicUsize::new(0);
        let name = format!("{prefix}_{}", N.fetch_add(1, Ordering::Relaxed));
        if let Err(e) = self.sql("postgres", &format!("CREATE DATABASE {name}")) {
            panic!("{e}");
        }
        self.url(&name)
    }

    /// The connection URL of database `db` (user `postgres`, no password: trust on loopback).
    pub fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }

    /// Runs one SQL statement in database `db` with `psql`.
    pub fn sql(&self, db: &str, statement: &str) -> Result<String, String> {
        let out = Command::new("psql")
            .args(["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1"])
            .args(["-h", "127.0.0.1", "-U", "postgres", "-p"])
            .arg(self.port.to_string())
            .args(["-d", db, "-c", statement])
            .output()
            .map_err(|e| format!("cannot run psql (Debian's postgresql-client): {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "psql {statement:?} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// A server program, run as `postgres` when this process is root.
    fn server_command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    fn run(&self, cmd: &mut Command, what: &str) -> Result<(), String> {
        let out = cmd
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {what}: {e}"))?;
        if out.status.success() {
            return Ok(());
        }
        let log = std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default();
        Err(format!(
            "{what} failed ({}): {}{}\n{log}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }

    /// Starts the watchdog: a shell that waits for process `pid` to end, then stops the
    /// cluster (immediate shutdown) and removes its folder.
    fn watch(&self, pid: u32) -> Result<(), String> {
        let stop = self.stop_line();
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 1; done; {stop}; rm -rf '{}'",
            self.dir.display()
        );
        Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map(drop)
            .map_err(|e| format!("cannot start the cluster's watchdog: {e}"))
    }

    fn stop_line(&self) -> String {
        let runas = if self.as_postgres {
            "runuser -u postgres -- "
        } else {
            ""
        };
        format!(
            "{runas}'{}' -D '{}' -m immediate -w stop >/dev/null 2>&1",
            self.bin.join("pg_ctl").display(),
            self.data().display()
        )
    }

    /// Stops the cluster now.
    pub fn stop(&self) {
        let _ = Command::new("sh").args(["-c", &self.stop_line()]).status();
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
