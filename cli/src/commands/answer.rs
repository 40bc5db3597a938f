//! `switchyard answer RUN_ID --answer JSON`: answers what a served run waits for. The server
//! checks the answers as `resume --answer` does and refuses, changing nothing, an answer for a
//! node that does not wait or one of the wrong type.

use serde_json::Value;

use super::remote::{refused_or_failed, run_id_arg};
use crate::args::AnswerArgs;
use crate::exit::Printed;
use crate::ingress::Ingress;
use crate::input::{BadInput, parse_json_arg};
use crate::output::say;

pub fn answer(args: AnswerArgs) -> Result<Printed, BadInput> {
    let run_id = run_id_arg(&args.run_id)?;
    let answers = parse_json_arg("--answer", &args.answer)?;
    if !answers.is_object() {
        return Err(BadInput::new("--answer: must be a JSON object {\"node\": answer}".into()));
    }
    let ingress = Ingress::new(args.server.server.as_deref());
    match ingress.call(&run_id, "answer", Some(&answers)) {
        Ok(answered) => {
            let nodes: Vec<&str> =
                answered.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            say(&format!("{run_id}: answered {}; the run goes on", nodes.join(", ")));
            Ok(Printed::new(String::new(), 0))
        }
        Err(e) => refused_or_failed(e, &run_id),
    }
}
