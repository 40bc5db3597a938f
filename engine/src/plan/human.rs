//! `human` nodes (format.md §4; format.md §4, human): a prompt, and either one answer (`writes`, with
//! `options` it may take) or a form (`fields`, with `route_by` naming the field whose answer
//! routes). Each form field is written to the state field of its name, so its type must fit
//! that field's; an answer with options is a string, so its `writes` field must take one. An
//! answer that routes must find an edge: each option needs an out-edge labelled with it, or
//! a `default` edge.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::document::{FieldType, FormField, NodeField, Reducer};
use crate::plan::check::{Checker, NodeAt};
use crate::plan::types::{FormFieldOp, FormOp, HumanAnswer, HumanOp, Op};
use crate::state::{FieldSpec, check_update};

impl Checker {
    /// `human`: the prompt, and the answer's shape.
    pub(super) fn human_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let (n, id) = (at.n, at.id());
        let answer = match &n.fields {
            Some(fields) => {
                if n.writes.is_some() || n.options.is_some() {
                    let message =
                        "a human node takes either `fields` (a form) or `writes`/`options` (one answer), not both";
                    self.error(at.path(NodeField::Fields), message.into(), id, None);
                }
                self.form(at, fields).map(HumanAnswer::Form)
            }
            None => self.single_answer(at),
        };
        let prompt = match &n.prompt {
            Some(p) => Some(self.template(at.scripting, p, at.path(NodeField::Prompt), id)?),
            None => None,
        };
        Some(Op::Human(HumanOp { prompt, answer: answer? }))
    }

    /// One answer: the field it goes to and the options it may take.
    fn single_answer(&mut self, at: &NodeAt<'_>) -> Option<HumanAnswer> {
        let (n, id) = (at.n, at.id());
        if n.route_by.is_some() {
            let message = "`route_by` names a field of a form: it needs `fields` (one answer routes by `options`)";
            self.error(at.path(NodeField::RouteBy), message.into(), id, None);
        }
        let Some(writes) = &n.writes else {
            let message = "a `human` node needs `writes` (the field the answer goes to) or `fields` (a form)";
            self.error(at.path(NodeField::Writes), message.into(), id, None);
            return None;
        };
        let writes_path = at.path(NodeField::Writes);
        self.undeclared_writes(at.graph, at.schema, [writes.as_str()].into_iter(), &writes_path, id);
        if let Some(opts) = &n.options {
            self.options(opts, at.path(NodeField::Options), id);
            self.options_fit(at, writes, opts);
            self.options_lead_somewhere(at, opts, |k| format!("{}[{k}]", at.path(NodeField::Options)));
        }
        Some(HumanAnswer::Value { writes: writes.clone(), options: n.options.clone() })
    }

    /// An answer with options is one of them, a string: the field it `writes` must take one,
    /// as the answer is checked against it (else no answer could ever be given).
    fn options_fit(&mut self, at: &NodeAt<'_>, writes: &str, opts: &[String]) {
        if !at.schema.is_declared(writes) {
            return;
        }
        let spec = at.schema.spec(writes);
        let Some(why) = opts.iter().find_map(|o| check_update(spec, &Value::String(o.clone())).err()) else {
            return;
        };
        let message = format!(
            "the answer is one of `options`, a string, but the state field `{writes}` is of type {} with reducer `{}`, which cannot take it ({why})",
            spec.ty.name(),
            spec.reducer.name()
        );
        self.error(at.path(NodeField::Writes), message, at.id(), None);
    }

    /// Every option leads somewhere. An answer that routes follows the out-edges labelled with
    /// it, else the `default` edges, and with neither the run fails: so without a `default`
    /// edge, each option needs an edge labelled with it. `path` gives option `k`'s path.
    fn options_lead_somewhere(&mut self, at: &NodeAt<'_>, opts: &[String], path: impl Fn(usize) -> String) {
        let labels: BTreeSet<&str> = at.out.iter().filter_map(|&j| at.graph.edges[j].label.as_deref()).collect();
        if labels.contains("default") {
            return;
        }
        for (k, o) in opts.iter().enumerate() {
            if !labels.contains(o.as_str()) {
                let message = format!(
                    "no edge out of `{}` is labelled `{o}` and it has no `default` edge, so answering `{o}` would fail the run: add an edge labelled `{o}`, or a `default` edge",
                    at.n.id
                );
                self.error(path(k), message, at.id(), None);
            }
        }
    }

    /// A list of options: not empty, none twice.
    fn options(&mut self, opts: &[String], path: String, id: Option<&str>) {
        if opts.is_empty() {
            let message = "give at least one option, or leave `options` out for a free answer";
            self.error(path.clone(), message.into(), id, None);
        }
        let mut seen = BTreeSet::new();
        for o in opts {
            if !seen.insert(o) {
                self.error(path.clone(), format!("option `{o}` is listed twice"), id, None);
            }
        }
    }

    /// A form: every field checked and compiled, and `route_by`.
    fn form(&mut self, at: &NodeAt<'_>, fields: &indexmap::IndexMap<String, FormField>) -> Option<FormOp> {
        let id = at.id();
        if fields.is_empty() {
            self.error(at.path(NodeField::Fields), "a form needs at least one field".into(), id, None);
        }
        self.undeclared_writes(at.graph, at.schema, fields.keys().map(String::as_str), &at.path(NodeField::Fields), id);
        let mut ok = true;
        let mut out = Vec::with_capacity(fields.len());
        for (name, f) in fields {
            match self.form_field(at, name, f) {
                Some(op) => out.push(op),
                None => ok = false,
            }
        }
        if let Some(by) = &at.n.route_by {
            let routes = self.route_by(at, fields, by);
            if let (true, Some(opts)) = (routes, fields.get(by).and_then(|f| f.options.as_deref())) {
                let path = |k| format!("{}.options[{k}]", at.key_path(NodeField::Fields, by));
                self.options_lead_somewhere(at, opts, path);
            }
            ok &= routes;
        }
        ok.then(|| FormOp { fields: out, route_by: at.n.route_by.clone() })
    }

    /// One form field: its type (not `messages`), options (string fields only, not empty), a
    /// default that compiles, and a type its state field can take.
    fn form_field(&mut self, at: &NodeAt<'_>, name: &str, f: &FormField) -> Option<FormFieldOp> {
        let id = at.id();
        let path = |member: &str| format!("{}.{member}", at.key_path(NodeField::Fields, name));
        let mut ok = true;
        if f.ty == FieldType::Messages {
            let message =
                "a form field cannot be a `messages` transcript: use `string` (written as a user message) or `list`";
            self.error(path("type"), message.into(), id, None);
            ok = false;
        }
        if let Some(opts) = &f.options {
            if f.ty != FieldType::String {
                let message = format!("only a `string` field can have options; this one is of type {}", f.ty.name());
                self.error(path("options"), message, id, None);
                ok = false;
            }
            self.options(opts, path("options"), id);
        }
        if at.schema.is_declared(name) {
            let spec = at.schema.spec(name);
            if f.ty != FieldType::Messages && !fits(f.ty, spec) {
                let message = format!(
                    "is of type {}, but the state field `{name}` is of type {} with reducer `{}`, which cannot take it",
                    f.ty.name(),
                    spec.ty.name(),
                    spec.reducer.name()
                );
                self.error(path("type"), message, id, None);
                ok = false;
            }
        }
        let default = match &f.default {
            Some(src) => Some(self.expr(at.scripting, src, path("default"), id, None, &[])?),
            None => None,
        };
        ok.then(|| FormFieldOp {
            name: name.to_string(),
            ty: f.ty,
            options: f.options.clone(),
            required: f.is_required(),
            label: f.label.clone(),
            default,
        })
    }

    /// `route_by` names a field with options that always has a value (required, or with a
    /// default), so that every answer selects an edge. Returns whether it does.
    fn route_by(&mut self, at: &NodeAt<'_>, fields: &indexmap::IndexMap<String, FormField>, by: &str) -> bool {
        let (id, path) = (at.id(), at.path(NodeField::RouteBy));
        let names = || fields.keys().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
        let message = match fields.get(by) {
            None => format!("the form has no field `{by}` (fields: {})", names()),
            Some(f) if f.options.is_none() => {
                format!("`{by}` has no `options`, so its answer cannot select a labelled edge")
            }
            Some(f) if !f.is_required() && f.default.is_none() => {
                format!(
                    "`{by}` is optional without a default, so an answer could leave the route open: make it required or give it a default"
                )
            }
            Some(_) => return true,
        };
        self.error(path, message, id, None);
        false
    }
}

/// Whether a form field of type `ty` can be written to a state field `spec`, through its
/// reducer: `append` takes anything (a list is concatenated, a value appended), `add` numbers,
/// `merge` objects, `replace` the field's own type (an integer is a number, `any` takes all).
fn fits(ty: FieldType, spec: &FieldSpec) -> bool {
    match spec.reducer {
        Reducer::Append => true,
        Reducer::Add => matches!(ty, FieldType::Number | FieldType::Integer),
        Reducer::Merge => ty == FieldType::Object,
        Reducer::Messages => matches!(ty, FieldType::String | FieldType::List | FieldType::Object),
        Reducer::Replace => {
            spec.ty == FieldType::Any || ty == spec.ty || (ty == FieldType::Integer && spec.ty == FieldType::Number)
        }
    }
}
