//! Comparing two reports: the first place where they differ.

use serde_json::Value;

/// The first difference between `a` and `b`, as `path: a-value vs b-value`; `None` when equal.
/// Numbers are compared by value (`1` equals `1.0`); object key order is ignored.
pub fn first_difference(a: &Value, b: &Value) -> Option<String> {
    diff(a, b, &mut String::from("$"))
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 120 {
        format!("{}…", s.chars().take(120).collect::<String>())
    } else {
        s
    }
}

fn diff(a: &Value, b: &Value, path: &mut String) -> Option<String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let same = match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(p), Some(q), _, _) => p == q,
                (_, _, Some(p), Some(q)) => p == q,
                _ => x.as_f64() == y.as_f64(),
            };
            (!same).then(|| format!("{path}: {x} vs {y}"))
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{path}: {} element(s) vs {}", x.len(), y.len()));
            }
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                if let Some(d) = diff(p, q, path) {
                    return Some(d);
                }
                path.truncate(len);
            }
            None
        }
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys() {
                if !y.contains_key(k) {
                    return Some(format!("{path}.{k}: present vs missing"));
                }
            }
            for k in y.keys() {
                if !x.contains_key(k) {
                    return Some(format!("{path}.{k}: missing vs present"));
                }
            }
            for (k, p) in x {
                let len = path.len();
                path.push('.');
                path.push_str(k);
                if let Some(d) = diff(p, &y[k], path) {
                    return Some(d);
                }
                path.truncate(len);
            }
            None
        }
        _ => (a != b).then(|| format!("{path}: {} vs {}", short(a), short(b))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_by_value_and_paths() {
        assert_eq!(first_difference(&json!({"a": 1}), &json!({"a": 1.0})), None);
        assert_eq!(
            first_difference(
                &json!({"a": [1, {"b": 0.5}]}),
                &json!({"a": [1, {"b": 0.25}]})
            ),
            Some("$.a[1].b: 0.5 vs 0.25".into())
        );
        assert!(first_difference(&json!({"a": 1}), &json!({"b": 1})).is_some());
    }
}
