//! What `/proc` says about a running process: its resident set now, sampled over time, and
//! its open file descriptors. Linux only, like the machine these benchmarks run on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The resident set of `pid` now (`VmRSS`), in bytes; `None` once it has exited.
pub fn rss_bytes(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Open file descriptors of `pid` (sockets included); `None` once it has exited.
pub fn open_fds(pid: u32) -> Option<usize> {
    Some(std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count())
}

/// One reading of a [`Sampler`].
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// Since the sampler started.
    pub at: Duration,
    /// Resident set, bytes.
    pub rss: u64,
}

/// Reads a process's resident set every `interval` on a thread of its own, until stopped or
/// the process exits.
pub struct Sampler {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Vec<Sample>>,
}

impl Sampler {
    /// Starts sampling `pid`.
    pub fn start(pid: u32, interval: Duration) -> Sampler {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let mut samples = Vec::new();
            while !flag.load(Ordering::Relaxed) {
                match rss_bytes(pid) {
                    Some(rss) => samples.push(Sample {
                        at: started.elapsed(),
                        rss,
                    }),
                    None => break,
                }
                std::thread::sleep(interval);
            }
            samples
        });
        Sampler { stop, thread }
    }

    /// Stops sampling and returns the readings, in time order.
    pub fn finish(self) -> Vec<Sample> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap_or_default()
    }
}

/// The highest reading among those taken in `[from, to)` of the run's duration, as fractions
/// of the time the samples cover (0.0 to 1.0); `None` when no reading falls there.
pub fn peak_between(samples: &[Sample], from: f64, to: f64) -> Option<u64> {
    let end = samples.last()?.at.as_secs_f64();
    samples
        .iter()
        .filter(|s| {
            let f = if end > 0.0 {
                s.at.as_secs_f64() / end
            } else {
                1.0
            };
            f >= from && (f < to || (to >= 1.0 && f <= 1.0))
        })
        .map(|s| s.rss)
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(ms: u64, rss: u64) -> Sample {
        Sample {
            at: Duration::from_millis(ms),
            rss,
        }
    }

    #[test]
    fn peaks_are_taken_per_slice_of_the_run() {
        let v = [s(0, 5), s(250, 9), s(500, 7), s(750, 8), s(1000, 6)];
        assert_eq!(peak_between(&v, 0.0, 0.5), Some(9));
        assert_eq!(peak_between(&v, 0.5, 1.0), Some(8));
        assert_eq!(peak_between(&v, 0.9, 1.0), Some(6));
        assert_eq!(peak_between(&[], 0.0, 1.0), None);
    }

    #[test]
    fn this_process_has_a_resident_set_and_open_files() {
        let me = std::process::id();
        assert!(rss_bytes(me).unwrap() > 0);
        assert!(open_fds(me).unwrap() >= 3);
        let sampler = Sampler::start(me, Duration::from_millis(1));
        std::thread::sleep(Duration::from_millis(20));
        assert!(!sampler.finish().is_empty());
    }
}
