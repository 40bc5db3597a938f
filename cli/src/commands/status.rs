//! `switchyard status RUN_ID` and `switchyard record RUN_ID`: a served run's record, without or
//! with its steps, exiting by its status.

use super::remote::{print_record, refused_or_failed, run_id_arg};
use crate::args::RunAt;
use crate::exit::Printed;
use crate::ingress::Ingress;
use crate::input::BadInput;

pub fn status(args: RunAt) -> Result<Printed, BadInput> {
    fetch(args, "status")
}

pub fn record(args: RunAt) -> Result<Printed, BadInput> {
    fetch(args, "record")
}

fn fetch(args: RunAt, handler: &str) -> Result<Printed, BadInput> {
    let run_id = run_id_arg(&args.run_id)?;
    let ingress = Ingress::new(args.server.server.as_deref());
    match ingress.call(&run_id, handler, None) {
        Ok(record) => print_record(record, &run_id),
        Err(e) => refused_or_failed(e, &run_id),
    }
}
