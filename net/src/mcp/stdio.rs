//! MCP servers as child processes (stdio transport): one JSON-RPC message a line on the
//! child's stdin and stdout.
//!
//! A process table maps connection ids (unique per host process: a nonce and a counter) to
//! live children. Each child has a reader thread turning its stdout into lines (a line past
//! the exchange's bound is dropped and reported, never held whole), and another keeping the
//! last [`STDERR_TAIL`] bytes of its stderr to quote when it exits. A child gets only `PATH`,
//! `HOME`, `LANG`, `TERM`, `USER` of the host's environment plus the endpoint's `env`, and its
//! own process group, so that closing it ends whatever it started (`npx` runs node as a
//! grandchild). One exchange at a time talks to a child; others wait their turn.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use engine::host::{McpEnd, McpEndpoint, McpExchange, McpReply};

use super::consent::{AllowedCommands, refusal};
use super::{Inbox, Taken};

/// The variables of the host's environment a server gets (plus its own `env`).
const INHERITED: [&str; 5] = ["PATH", "HOME", "LANG", "TERM", "USER"];
/// How much of a child's stderr is kept.
const STDERR_TAIL: usize = 8 * 1024;
/// How long a closed child has to exit by itself, then after SIGTERM.
const GRACE: Duration = Duration::from_secs(2);
/// How long an exited child's stderr may take to be read to its end.
const STDERR_WAIT: Duration = Duration::from_secs(1);
/// Lines a server may have written ahead of the exchange that reads them.
const LINES_QUEUED: usize = 256;

/// A line of a child's stdout.
enum Line {
    Text(String),
    /// A line longer than the bound, dropped.
    TooLong,
    /// Stdout closed.
    End,
}

/// The last bytes of a child's stderr, and whether it closed.
#[derive(Default)]
struct Tail {
    bytes: Vec<u8>,
    closed: bool,
}

/// A live child.
struct Proc {
    child: Mutex<Child>,
    stdin: Mutex<Option<ChildStdin>>,
    /// Its stdout's lines; holding the lock is talking to the child.
    lines: Mutex<Receiver<Line>>,
    stderr: Arc<(Mutex<Tail>, Condvar)>,
    /// The longest line the reader keeps (the current exchange's bound).
    limit: Arc<AtomicUsize>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn table() -> &'static Mutex<HashMap<String, Arc<Proc>>> {
    static TABLE: OnceLock<Mutex<HashMap<String, Arc<Proc>>>> = OnceLock::new();
    TABLE.get_or_init(Mutex::default)
}

/// A connection id no other child of this host process has had.
fn new_connection_id() -> String {
    static NONCE: OnceLock<String> = OnceLock::new();
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nonce = NONCE.get_or_init(|| {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
        format!("{:x}-{:x}", nanos & 0xffff_ffff_ffff, std::process::id())
    });
    format!("mcp-{nonce}-{}", COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// How many children are alive in the table (for tests and diagnostics).
pub fn live_processes() -> usize {
    lock(table()).len()
}

/// One exchange over stdio.
pub(super) fn exchange(x: &McpExchange, allowed: &AllowedCommands, inbox: &mut Inbox) -> McpReply {
    let McpEndpoint::Stdio { program, args, env } = &x.endpoint else {
        return McpReply::ended(McpEnd::Failed("not a stdio endpoint".into()));
    };
    if !allowed.allows(program) {
        return McpReply::ended(McpEnd::Refused(refusal(&x.endpoint)));
    }
    let (id, proc) = match &x.connection {
        Some(id) => match lock(table()).get(id) {
            Some(p) => (id.clone(), p.clone()),
            None => return McpReply::ended(McpEnd::Lost),
        },
        None => match spawn(program, args, env, x.max_bytes) {
            Ok(p) => {
                let id = new_connection_id();
                lock(table()).insert(id.clone(), p.clone());
                (id, p)
            }
            Err(e) => return McpReply::ended(McpEnd::Failed(format!("could not start `{program}`: {e}"))),
        },
    };
    let end = talk(&proc, x, inbox);
    let alive = !matches!(end, McpEnd::Exited { .. });
    if !alive {
        lock(table()).remove(&id);
        // A child that closed its stdout but lives on is ended like any other.
        if let McpEnd::Exited { code: None, .. } = end {
            let _ = std::thread::Builder::new().name("mcp-close".into()).spawn(move || shut_down(&proc));
        }
    }
    McpReply { connection: alive.then_some(id), session_id: None, http_status: None, received: Vec::new(), end }
}

/// Writes the exchange's messages and reads until the awaited response.
fn talk(proc: &Proc, x: &McpExchange, inbox: &mut Inbox) -> McpEnd {
    let lines = lock(&proc.lines);
    proc.limit.store(x.max_bytes.saturating_add(1), Ordering::Relaxed);
    let deadline = Instant::now() + Duration::from_millis(x.timeout_ms);
    for message in &x.send {
        if write_line(proc, message).is_err() {
            return exited(proc);
        }
    }
    let Some(_) = x.awaits else { return McpEnd::Sent };
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(Line::Text(text)) => match inbox.take(&text, x) {
                Ok(Taken::Awaited) => return McpEnd::Answered,
                Ok(Taken::Request(answer)) => {
                    if write_line(proc, &answer).is_err() {
                        return exited(proc);
                    }
                }
                Ok(Taken::Other) => {}
                Err(end) => return end,
            },
            Ok(Line::TooLong) => return McpEnd::TooLarge,
            Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => return exited(proc),
            Err(RecvTimeoutError::Timeout) => return McpEnd::TimedOut,
        }
    }
}

fn write_line(proc: &Proc, message: &str) -> std::io::Result<()> {
    let mut stdin = lock(&proc.stdin);
    let Some(pipe) = stdin.as_mut() else { return Err(std::io::ErrorKind::BrokenPipe.into()) };
    // One message a line: a serialized message holds no raw newline, but a stray one would
    // split it, so it is escaped as JSON would.
    let mut line = message.replace('\n', "\\n");
    line.push('\n');
    pipe.write_all(line.as_bytes())?;
    pipe.flush()
}

/// The child has gone (or is going): its exit code, once it has one, and its stderr's tail.
fn exited(proc: &Proc) -> McpEnd {
    let code = wait_for_exit(&mut lock(&proc.child), STDERR_WAIT).and_then(|s| s.code());
    let (tail, done) = &*proc.stderr;
    let guard = lock(tail);
    let (guard, _) = done.wait_timeout_while(guard, STDERR_WAIT, |t| !t.closed).unwrap_or_else(PoisonError::into_inner);
    let stderr = String::from_utf8_lossy(&guard.bytes).trim().to_string();
    McpEnd::Exited { code, stderr }
}

/// Starts `program` with the minimal environment, its pipes and reader threads.
fn spawn(program: &str, args: &[String], env: &[(String, String)], max_bytes: usize) -> std::io::Result<Arc<Proc>> {
    // Found on the host's PATH, never one the document's `env` would give.
    let mut cmd = Command::new(on_host_path(program)?);
    cmd.args(args).env_clear().stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for name in INHERITED {
        if let Some(value) = std::env::var_os(name) {
            cmd.env(name, value);
        }
    }
    for (name, value) in env {
        cmd.env(name, value);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = cmd.spawn()?;
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    // Bounded: a server writing between exchanges waits for the next one to read it, and
    // never fills the host's memory.
    let (tx, rx) = sync_channel(LINES_QUEUED);
    let limit = Arc::new(AtomicUsize::new(max_bytes.saturating_add(1)));
    let tail = Arc::new((Mutex::new(Tail::default()), Condvar::new()));
    if let Some(out) = stdout {
        let limit = limit.clone();
        std::thread::Builder::new().name("mcp-stdout".into()).spawn(move || read_lines(out, &tx, &limit))?;
    }
    if let Some(err) = stderr {
        let tail = tail.clone();
        std::thread::Builder::new().name("mcp-stderr".into()).spawn(move || keep_tail(err, &tail))?;
    } else {
        lock(&tail.0).closed = true;
    }
    Ok(Arc::new(Proc {
        child: Mutex::new(child),
        stdin: Mutex::new(stdin),
        lines: Mutex::new(rx),
        stderr: tail,
        limit,
    }))
}

/// `program` as the host finds it: a name without a slash is looked up on the host's own
/// `PATH`, so what runs is the program the person allowed, whatever the server's `env` says.
fn on_host_path(program: &str) -> std::io::Result<std::path::PathBuf> {
    if program.contains('/') {
        return Ok(program.into());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "not found on PATH"))
}

#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &std::path::Path) -> bool {
    path.is_file()
}

/// Turns stdout into lines (UTF-8, a trailing `\r` dropped, empty lines skipped), never
/// holding more than `limit` bytes of one.
fn read_lines(out: ChildStdout, tx: &SyncSender<Line>, limit: &AtomicUsize) {
    let mut reader = BufReader::with_capacity(64 * 1024, out);
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    let send = |line: &mut Vec<u8>, too_long: &mut bool| {
        let msg = if *too_long {
            Line::TooLong
        } else {
            let text = String::from_utf8_lossy(line);
            let text = text.strip_suffix('\r').unwrap_or(&text);
            if text.trim().is_empty() {
                line.clear();
                return true;
            }
            Line::Text(text.to_string())
        };
        line.clear();
        *too_long = false;
        tx.send(msg).is_ok()
    };
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) => break,
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let newline = buf.iter().position(|&b| b == b'\n');
        let piece = &buf[..newline.unwrap_or(buf.len())];
        if !too_long {
            line.extend_from_slice(piece);
            if line.len() > limit.load(Ordering::Relaxed) {
                too_long = true;
                line = Vec::new();
            }
        }
        let used = piece.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() && !send(&mut line, &mut too_long) {
            return;
        }
    }
    if (!line.is_empty() || too_long) && !send(&mut line, &mut too_long) {
        return;
    }
    let _ = tx.send(Line::End);
}

/// Keeps the last [`STDERR_TAIL`] bytes of stderr, saying when it closed.
fn keep_tail(mut err: impl Read, tail: &(Mutex<Tail>, Condvar)) {
    let mut buf = [0u8; 4096];
    loop {
        match err.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let mut t = lock(&tail.0);
                t.bytes.extend_from_slice(&buf[..n]);
                let over = t.bytes.len().saturating_sub(STDERR_TAIL);
                t.bytes.drain(..over);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    lock(&tail.0).closed = true;
    tail.1.notify_all();
}

/// Waits up to `within` for `child` to exit.
fn wait_for_exit(child: &mut Child, within: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + within;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            _ => return None,
        }
    }
}

/// Closes connection `id`: stdin closed, a grace period, then SIGTERM and SIGKILL to its
/// process group.
pub(super) fn close(id: &str) {
    let Some(proc) = lock(table()).remove(id) else { return };
    shut_down(&proc);
}

/// Closes every child this process started (a host's last act, so none outlives it).
pub fn close_all() {
    let procs: Vec<Arc<Proc>> = lock(table()).drain().map(|(_, p)| p).collect();
    std::thread::scope(|s| {
        for p in &procs {
            s.spawn(|| shut_down(p));
        }
    });
}

fn shut_down(proc: &Proc) {
    // A write blocked on a child that stopped reading holds stdin: the signals below end it.
    if let Ok(mut stdin) = proc.stdin.try_lock() {
        stdin.take();
    }
    let mut child = lock(&proc.child);
    if wait_for_exit(&mut child, GRACE).is_some() {
        return;
    }
    signal_group(&child, Signal::Term);
    if wait_for_exit(&mut child, GRACE).is_some() {
        return;
    }
    signal_group(&child, Signal::Kill);
    let _ = child.kill();
    let _ = child.wait();
}

enum Signal {
    Term,
    Kill,
}

#[cfg(unix)]
fn signal_group(child: &Child, signal: Signal) {
    use rustix::process::{Pid, Signal as S, kill_process_group};
    let signal = match signal {
        Signal::Term => S::TERM,
        Signal::Kill => S::KILL,
    };
    let _ = kill_process_group(Pid::from_child(child), signal);
}

#[cfg(not(unix))]
fn signal_group(_child: &Child, _signal: Signal) {}
