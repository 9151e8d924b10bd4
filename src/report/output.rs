//! Where the commands write: one writer for standard output that stops
//! quietly when its reader goes away, and a non-panicking standard error.
//!
//! Key decision: `println!` panics when standard output is a closed pipe
//! (`gamecert eval 'cram 3x5' | head -1`). Every command writes through
//! [`Out`] instead, which takes a broken pipe as the reader having seen
//! enough: later writes are dropped and the command ends with the exit code
//! it would have had. Any other write error (a full disk) means output the
//! user asked for was lost, so it is reported and the exit code becomes 2.

use std::io::{ErrorKind, Write};

/// Standard output for one command.
#[derive(Default)]
pub struct Out {
    /// The reader closed the pipe: nothing more is written.
    closed: bool,
    /// The first write error other than a closed pipe.
    failed: Option<std::io::Error>,
}

impl Out {
    /// A writer to standard output.
    pub fn new() -> Out {
        Out::default()
    }

    /// Writes `text` (flushed, so that a long command shows its progress
    /// and a write error is seen at once).
    pub fn write(&mut self, text: &str) {
        if self.closed || self.failed.is_some() {
            return;
        }
        let mut stdout = std::io::stdout().lock();
        let written = stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush());
        match written {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::BrokenPipe => self.closed = true,
            Err(e) => self.failed = Some(e),
        }
    }

    /// Writes `text` and a newline.
    pub fn line(&mut self, text: &str) {
        self.write(&format!("{text}\n"));
    }

    /// The exit code of a command that would exit with `code`: unchanged,
    /// unless output was lost to an error other than a closed pipe (then
    /// 2, an I/O error, after saying so on standard error).
    pub fn finish(self, code: i32) -> i32 {
        match self.failed {
            Some(e) => {
                error(&format!("error: cannot write the output: {e}\n"));
                2
            }
            None => code,
        }
    }
}

/// Writes `text` to standard error. A failure is ignored: there is nobody
/// left to tell, and the exit code says what happened.
pub fn error(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
