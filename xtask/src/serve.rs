//! A small static file server for the built browser app (loopback only), and files served
//! beside it at fixed paths (the demo's manual).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

/// Binds `127.0.0.1:port` (or the next free port above it) and returns the listener.
pub fn bind(port: u16) -> Result<TcpListener, String> {
    for p in port..port.saturating_add(20) {
        if let Ok(l) = TcpListener::bind(("127.0.0.1", p)) {
            return Ok(l);
        }
    }
    Err(format!("no free port in 127.0.0.1:{port}..{}", port + 20))
}

/// What a server serves: a folder, and files beside it at fixed paths.
#[derive(Debug, Clone)]
pub struct Site {
    /// Served at `/`; `index.html` for `/`, a folder or a path outside it.
    pub dir: PathBuf,
    /// `(path, file)`: `path` (such as `/octave.pdf`) answers with `file`.
    pub files: Vec<(String, PathBuf)>,
}

/// Serves `site` on the listener until the process ends.
pub fn serve(listener: TcpListener, site: Site) {
    for stream in listener.incoming().flatten() {
        let site = site.clone();
        std::thread::spawn(move || {
            let _ = answer(stream, &site);
        });
    }
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript",
        Some("pdf") => "application/pdf",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

fn answer(mut stream: TcpStream, site: &Site) -> std::io::Result<()> {
    let dir = site.dir.as_path();
    let mut request_line = String::new();
    let mut reader = BufReader::new(stream.try_clone()?);
    reader.read_line(&mut request_line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let relative = Path::new(path.trim_start_matches('/'));
    let safe = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)));
    let mut file = dir.join(relative);
    if let Some((_, beside)) = site.files.iter().find(|(p, _)| p == path) {
        file = beside.clone();
    } else if !safe || file.is_dir() || path == "/" {
        file = dir.join("index.html");
    }
    match std::fs::read(&file) {
        Ok(body) => {
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
                content_type(&file),
                body.len()
            )?;
            stream.write_all(&body)
        }
        Err(_) => stream.write_all(
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// `GET path` against the server; the status line, the content type and the body.
    fn get(port: u16, path: &str) -> (String, String, Vec<u8>) {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8(raw[..split].to_vec()).unwrap();
        let status = head.lines().next().unwrap().to_string();
        let kind = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Type: "))
            .unwrap_or("")
            .to_string();
        (status, kind, raw[split + 4..].to_vec())
    }

    #[test]
    fn the_app_and_the_files_beside_it_are_served() {
        let dir = std::env::temp_dir().join(format!("xtask-serve-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<p>app</p>").unwrap();
        std::fs::write(dir.join("boot.js"), "// boot").unwrap();
        let pdf = dir.join("elsewhere.pdf");
        std::fs::write(&pdf, b"%PDF-1.5 bytes").unwrap();
        let listener = bind(0).unwrap();
        let port = listener.local_addr().unwrap().port();
        let site = Site {
            dir: dir.clone(),
            files: vec![("/manual.pdf".into(), pdf)],
        };
        std::thread::spawn(move || serve(listener, site));

        let (status, kind, body) = get(port, "/manual.pdf");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert_eq!(kind, "application/pdf");
        assert_eq!(body, b"%PDF-1.5 bytes");
        let (_, kind, body) = get(port, "/boot.js");
        assert_eq!(
            (kind.as_str(), body.as_slice()),
            ("text/javascript", &b"// boot"[..])
        );
        for path in ["/", "/#report=x", "/../etc/passwd"] {
            assert_eq!(get(port, path).2, b"<p>app</p>", "{path}");
        }
        assert_eq!(
            get(port, "/elsewhere.pdf").2,
            b"%PDF-1.5 bytes",
            "in the folder too"
        );
        assert_eq!(get(port, "/missing.js").0, "HTTP/1.1 404 Not Found");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
