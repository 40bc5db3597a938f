//! Operations that walk a whole list or map, bounded in depth. Rhai's own `==`, `!=` and
//! `to_debug` for lists and maps recurse through the value with several kilobytes of stack per
//! level, so a value nested tens of thousands of levels deep (a loop of `x = [x]`) would
//! overflow any thread's stack and abort the process. These replacements give the same answers
//! but stop past [`MAX_DEPTH`] with the error such a value gets when it is stored.

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, Map as RhaiMap, NativeCallContext};

use super::json::{MAX_DEPTH, too_deep, too_deep_error};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

pub(super) fn register(engine: &mut Engine) {
    engine.register_fn("==", |ctx: NativeCallContext, a: &mut Array, mut b: Array| arrays(&ctx, a, &mut b, 0));
    engine.register_fn("!=", |ctx: NativeCallContext, a: &mut Array, mut b: Array| {
        arrays(&ctx, a, &mut b, 0).map(|same| !same)
    });
    engine.register_fn("==", |ctx: NativeCallContext, a: &mut RhaiMap, mut b: RhaiMap| maps(&ctx, a, &mut b, 0));
    engine.register_fn("!=", |ctx: NativeCallContext, a: &mut RhaiMap, mut b: RhaiMap| {
        maps(&ctx, a, &mut b, 0).map(|same| !same)
    });
    engine.register_fn("to_debug", |a: &mut Array| debug_text(Dynamic::from_array(a.clone())));
    engine.register_fn("to_debug", |m: &mut RhaiMap| debug_text(Dynamic::from_map(m.clone())));
}

/// Rhai's debug text of `d`, refused when `d` is too deep to write out.
fn debug_text(d: Dynamic) -> Fallible<ImmutableString> {
    if too_deep(&d) {
        return Err(too_deep_error());
    }
    Ok(format!("{d:?}").into())
}

fn arrays(ctx: &NativeCallContext, a: &mut Array, b: &mut Array, depth: usize) -> Fallible<bool> {
    if a.len() != b.len() {
        return Ok(false);
    }
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        if !equal(ctx, x, y, depth + 1)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn maps(ctx: &NativeCallContext, a: &mut RhaiMap, b: &mut RhaiMap, depth: usize) -> Fallible<bool> {
    if a.len() != b.len() {
        return Ok(false);
    }
    for (k, x) in a.iter_mut() {
        let Some(y) = b.get_mut(k) else { return Ok(false) };
        if !equal(ctx, x, y, depth + 1)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `x == y` for two items: lists and maps compared here, anything else by Rhai's `==` (which
/// compares `1` and `1.0` as equal); items of types with no `==` between them differ, as in
/// Rhai's own list comparison.
fn equal(ctx: &NativeCallContext, x: &mut Dynamic, y: &mut Dynamic, depth: usize) -> Fallible<bool> {
    if depth > MAX_DEPTH {
        return Err(too_deep_error());
    }
    if x.is_array() && y.is_array() {
        let (Some(mut a), Some(mut b)) = (x.write_lock::<Array>(), y.write_lock::<Array>()) else {
            return Ok(false);
        };
        return arrays(ctx, &mut a, &mut b, depth);
    }
    if x.is_map() && y.is_map() {
        let (Some(mut a), Some(mut b)) = (x.write_lock::<RhaiMap>(), y.write_lock::<RhaiMap>()) else {
            return Ok(false);
        };
        return maps(ctx, &mut a, &mut b, depth);
    }
    let different_types = x.type_id() != y.type_id();
    match ctx.call_native_fn_raw("==", true, &mut [x, y]) {
        Ok(same) => Ok(same.as_bool().unwrap_or(false)),
        Err(e) if different_types && matches!(*e, EvalAltResult::ErrorFunctionNotFound(..)) => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::document::Graph;
    use crate::script::{Ctx, Scripting};
    use crate::stack::spawn_run_thread;

    /// `source`'s value, evaluated as a run would evaluate it: on a run thread.
    fn eval(source: &'static str) -> Result<Value, String> {
        let work = move || {
            let s = Scripting::new(&Graph::new("t").effective_limits());
            let empty = || rhai::Dynamic::from_map(rhai::Map::new());
            let ctx = Ctx::new(empty(), empty(), empty(), empty(), 0);
            let e = s.compile(source, &[]).map_err(|e| e.to_string())?;
            s.eval_json(&e, &ctx).map_err(|e| e.to_string())
        };
        spawn_run_thread("script", work).expect("a run thread").join().expect("no panic")
    }

    #[test]
    fn lists_and_maps_compare_as_rhai_compares_them() {
        let same = eval(
            r#"[ [1, [2, #{a: 1.0}]] == [1, [2, #{a: 1}]], [1, "1"] != [1, 1], #{a: [1]} == #{a: [2]},
            #{a: 1} == #{b: 1}, [1, [2]] == [1, 2], [] == [] ]"#,
        );
        assert_eq!(same, Ok(json!([true, true, false, false, false, true])));
    }

    #[test]
    fn a_value_nested_thousands_deep_is_an_error_of_the_script_not_a_crash() {
        // Each of these walked the whole value with Rhai's own functions, kilobytes of stack
        // per level: 3,000 levels overflowed even a run thread's stack in a debug build.
        let caught = eval(
            "let x = []; for i in 0..3000 { x = [x]; }
             let m = #{ v: x };
             let errors = [];
             try { x == x; } catch (e) { errors.push(e) }
             try { m != m; } catch (e) { errors.push(e) }
             try { m.to_string(); } catch (e) { errors.push(e) }
             try { x.to_debug(); } catch (e) { errors.push(e) }
             try { errors.push([x].contains(x)); } catch (e) { errors.push(e) }
             errors",
        )
        .expect("the errors were caught");
        let errors = caught.as_array().expect("a list");
        assert_eq!(errors.len(), 5, "{errors:?}");
        for e in errors {
            assert!(e.as_str().is_some_and(|e| e.contains("nested more than 128 levels deep")), "{e}");
        }
        // Interpolation falls back to Rhai's own text when `to_string` fails; that walk is
        // shallow enough for a run thread's stack, and the text is held to the string limit.
        assert_eq!(eval("let x = []; for i in 0..3000 { x = [x]; } `${x}`.len()"), Ok(json!(6002)));
        let stored = eval("let x = []; for i in 0..3000 { x = [x]; } #{ v: x }").unwrap_err();
        assert!(stored.contains("nested more than 128 levels deep"), "{stored}");
    }
}
