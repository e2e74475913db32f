//! How client-go prints JSONPath results: Go's `fmt.Print` of scalars and
//! `json.Marshal` of maps and lists.

use serde_json::Value;

/// How client-go prints one result (`PrintResults`): maps and lists as
/// compact JSON (Go's `json.Marshal`, which escapes `<`, `>`, `&`), `null`
/// for null, other scalars as Go's `fmt.Print` does (`true`, `42`, `3.14`,
/// `1e+06`).
pub fn print_value(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => go_format_float(f),
            _ => n.to_string(),
        },
        Value::Array(_) | Value::Object(_) => go_json(value),
    }
}

/// Go's `json.Marshal` of a decoded JSON value: compact, keys sorted, HTML
/// characters escaped. (Floats are written by serde_json; Go differs only
/// for magnitudes of 1e16 and above, written without an exponent until 1e21.)
pub fn go_json(value: &Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Go's `fmt.Print` of a `float64` (`%v`, i.e. `strconv.FormatFloat(f,
/// 'g', -1, 64)`): the shortest digits that round-trip, in exponent form
/// (`1e+06`, `1.5e-07`) when the decimal exponent is below -4 or at least 6.
pub fn go_format_float(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    if !f.is_finite() {
        return if f.is_nan() {
            "NaN".into()
        } else if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    // Shortest round-trip digits and decimal exponent, from Rust's `{:e}`.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if f < 0.0 { "-" } else { "" };
    if !(-4..6).contains(&exp) {
        let mut m = digits[..1].to_string();
        if digits.len() > 1 {
            m.push('.');
            m.push_str(&digits[1..]);
        }
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{m}e{esign}{:02}", exp.abs());
    }
    let point = exp + 1; // digits before the decimal point
    let s = if point <= 0 {
        format!("0.{}{}", "0".repeat((-point) as usize), digits)
    } else if point as usize >= digits.len() {
        format!("{}{}", digits, "0".repeat(point as usize - digits.len()))
    } else {
        format!(
            "{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    };
    format!("{sign}{s}")
}
