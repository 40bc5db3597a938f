//! `switchyard serve [--listen ADDR] [--allow LIST] [--deny LIST] [--allow-command PROGRAM]...`: starts `switchyard-serve`, the Restate deployment, which
//! is a program of its own so that this one carries no async runtime or Restate SDK.

use std::path::PathBuf;

use crate::exit::Printed;
use crate::input::BadInput;

/// The serving program's name.
const PROGRAM: &str = "switchyard-serve";

pub fn serve(
    listen: &str,
    allow: Option<&str>,
    deny: Option<&str>,
    allow_command: &[String],
) -> Result<Printed, BadInput> {
    let mut args: Vec<String> = vec!["--listen".into(), listen.into()];
    // What served graphs may reach: switchyard-serve reads and checks the lists.
    for (flag, list) in [("--allow", allow), ("--deny", deny)] {
        if let Some(list) = list {
            args.extend([flag.to_string(), list.to_string()]);
        }
    }
    for program in allow_command {
        args.extend(["--allow-command".to_string(), program.clone()]);
    }
    become_program("serve", PROGRAM, "switchyard-serve", &args)
}

/// Starts `program` (found beside this one, else on PATH) with `args`, as command `name`;
/// `package` is the Cargo package that builds it, for the message when it is missing.
pub(crate) fn become_program(name: &str, program: &str, package: &str, args: &[String]) -> Result<Printed, BadInput> {
    let path = beside_this_program(program).unwrap_or_else(|| PathBuf::from(program));
    let mut command = std::process::Command::new(&path);
    command.args(args);
    match start(command) {
        Ok(code) => Ok(Printed::new(String::new(), code)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(BadInput::new(format!(
            "{name}: `{program}` is not installed beside switchyard nor on PATH; build it with `cargo build -p {package}`"
        ))),
        Err(e) => Err(BadInput::new(format!("{name}: cannot start {}: {e}", path.display()))),
    }
}

/// `program` in this program's folder, where Cargo builds and installs them all.
fn beside_this_program(program: &str) -> Option<PathBuf> {
    let path = std::env::current_exe().ok()?.with_file_name(program);
    path.is_file().then_some(path)
}

/// Becomes the serving program (on Unix its signals and exit are its own), or runs it to its
/// end elsewhere.
#[cfg(unix)]
fn start(mut command: std::process::Command) -> std::io::Result<u8> {
    use std::os::unix::process::CommandExt;
    Err(command.exec())
}

#[cfg(not(unix))]
fn start(mut command: std::process::Command) -> std::io::Result<u8> {
    let status = command.status()?;
    Ok(status.code().and_then(|c| u8::try_from(c).ok()).unwrap_or(1))
}
