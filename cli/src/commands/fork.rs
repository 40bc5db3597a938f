//! `switchyard fork RUN_ID --from-step N [--set JSON]`: a new served run from the checkpoint
//! after step N of another, with `--set` applied there; prints the new run's id.

use serde_json::{Value, json};

use super::remote::{refused_or_failed, run_id_arg};
use crate::args::ForkArgs;
use crate::exit::Printed;
use crate::ingress::Ingress;
use crate::input::{BadInput, parse_json_arg};

pub fn fork(args: ForkArgs) -> Result<Printed, BadInput> {
    let run_id = run_id_arg(&args.run_id)?;
    let mut body = json!({ "from_step": args.from_step });
    if let Some(arg) = &args.set {
        let set = parse_json_arg("--set", arg)?;
        if !set.is_object() {
            return Err(BadInput::new(format!("--set: must be a JSON object, got {set}")));
        }
        body["set"] = set;
    }
    if let Some(id) = &args.id {
        body["run_id"] = Value::String(run_id_arg(id)?);
    }
    let ingress = Ingress::new(args.server.server.as_deref());
    match ingress.call(&run_id, "fork", Some(&body)) {
        Ok(Value::String(new_id)) => Ok(Printed::new(format!("{new_id}\n"), 0)),
        Ok(other) => Err(BadInput::new(format!("{run_id}: the server answered {other}, not a run id"))),
        Err(e) => refused_or_failed(e, &run_id),
    }
}
