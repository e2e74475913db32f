//! The JSONPath parser (client-go `parser.go`), over chars.

use super::{JsonPathError, Node, Op, Param, Result};

pub(super) struct Parser {
    input: Vec<char>,
    pos: usize,
    start: usize,
}

fn is_terminator(c: Option<char>) -> bool {
    match c {
        None => true,
        Some(c) => matches!(
            c,
            ' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}'
        ),
    }
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphabetic() || c.is_numeric()
}

impl Parser {
    pub(super) fn new(text: &str) -> Self {
        Parser {
            input: text.chars().collect(),
            pos: 0,
            start: 0,
        }
    }

    fn rest_starts_with(&self, prefix: &str) -> bool {
        prefix
            .chars()
            .enumerate()
            .all(|(i, c)| self.input.get(self.pos + i) == Some(&c))
    }

    fn next(&mut self) -> Option<char> {
        let c = self.input.get(self.pos).copied();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    fn peek(&self) -> Option<char> {
        self.input.get(self.pos).copied()
    }

    fn consume(&mut self) -> String {
        let s: String = self.input[self.start..self.pos].iter().collect();
        self.start = self.pos;
        s
    }

    /// Top level: text and `{actions}`.
    pub(super) fn parse_text(&mut self) -> Result<Vec<Node>> {
        let mut segments = Vec::new();
        loop {
            if self.rest_starts_with("{") {
                if self.pos > self.start {
                    segments.push(Node::Text(self.consume()));
                }
                self.pos += 1;
                self.consume();
                segments.push(Node::List(self.parse_action()?));
                continue;
            }
            if self.next().is_none() {
                break;
            }
        }
        if self.pos > self.start {
            segments.push(Node::Text(self.consume()));
        }
        Ok(segments)
    }

    /// Inside `{...}` until the closing `}` (consumed).
    fn parse_action(&mut self) -> Result<Vec<Node>> {
        let mut nodes: Vec<Node> = Vec::new();
        loop {
            if self.rest_starts_with("}") {
                self.pos += 1;
                self.consume();
                return Ok(nodes);
            }
            if self.rest_starts_with("[?(") {
                nodes.push(self.parse_filter()?);
                continue;
            }
            if self.rest_starts_with("..") {
                if matches!(nodes.last(), Some(Node::Recursive)) {
                    return Err(JsonPathError::new("invalid multiple recursive descent"));
                }
                self.pos += 2;
                self.consume();
                nodes.push(Node::Recursive);
                if self.peek().is_some_and(is_alphanumeric) {
                    nodes.push(self.parse_field());
                }
                continue;
            }
            let Some(c) = self.next() else {
                return Err(JsonPathError::new("unclosed action"));
            };
            match c {
                '\r' | '\n' => return Err(JsonPathError::new("unclosed action")),
                ' ' | '@' | '$' => {
                    self.consume();
                }
                '[' => nodes.extend(self.parse_array()?),
                '"' | '\'' => nodes.push(self.parse_quote(c)?),
                '.' => nodes.push(self.parse_field()),
                '+' | '-' => {
                    self.pos -= 1;
                    nodes.push(self.parse_number()?);
                }
                c if c.is_ascii_digit() => {
                    self.pos -= 1;
                    nodes.push(self.parse_number()?);
                }
                c if is_alphanumeric(c) => {
                    self.pos -= 1;
                    nodes.push(self.parse_identifier()?);
                }
                c => {
                    return Err(JsonPathError::new(format!(
                        "unrecognized character in action: U+{:04X} '{c}'",
                        c as u32
                    )));
                }
            }
        }
    }

    fn parse_identifier(&mut self) -> Result<Node> {
        while !is_terminator(self.peek()) {
            self.pos += 1;
        }
        let value = self.consume();
        match value.as_str() {
            "true" => Ok(Node::Bool(true)),
            "false" => Ok(Node::Bool(false)),
            "range" | "end" => Err(JsonPathError::new(format!(
                "{value} is not supported in this JSONPath"
            ))),
            _ => Err(JsonPathError::new(format!(
                "unrecognized identifier {value}"
            ))),
        }
    }

    fn parse_number(&mut self) -> Result<Node> {
        if matches!(self.peek(), Some('+' | '-')) {
            self.pos += 1;
        }
        while matches!(self.peek(), Some(c) if c == '.' || c.is_ascii_digit()) {
            self.pos += 1;
        }
        let value = self.consume();
        if let Ok(i) = value.parse::<i64>() {
            return Ok(Node::Int(i));
        }
        match value.parse::<f64>() {
            Ok(f) => Ok(Node::Float(f)),
            _ => Err(JsonPathError::new(format!("cannot parse number {value}"))),
        }
    }

    /// After `.`: the field name up to an unescaped terminator.
    fn parse_field(&mut self) -> Node {
        self.consume();
        loop {
            match self.peek() {
                Some('\\') => {
                    self.pos += 1;
                    if self.peek().is_some() {
                        self.pos += 1;
                    }
                }
                c if is_terminator(c) => break,
                _ => self.pos += 1,
            }
        }
        let value = self.consume();
        if value == "*" {
            Node::Wildcard
        } else {
            Node::Field(value.replace('\\', ""))
        }
    }

    /// After `[`: an index, slice, `'key'` or union, up to `]`.
    fn parse_array(&mut self) -> Result<Vec<Node>> {
        loop {
            match self.next() {
                None | Some('\n') => return Err(JsonPathError::new("unterminated array")),
                Some(']') => break,
                Some(_) => {}
            }
        }
        let text = self.consume();
        let mut text = text[1..text.len() - 1].to_string();
        if text == "*" {
            text = ":".into();
        }
        let parts: Vec<&str> = text.split(',').collect();
        if parts.len() > 1 {
            let mut union = Vec::new();
            for part in parts {
                union.push(parse_sub_action(&format!("[{}]", part.trim_matches(' ')))?);
            }
            return Ok(vec![Node::Union(union)]);
        }
        // `'key'` is re-parsed as `.key`.
        if text.len() >= 2 && text.starts_with('\'') && text.ends_with('\'') {
            let key = &text[1..text.len() - 1];
            if !key.contains('\'') {
                return parse_sub_action(&format!(".{key}"));
            }
        }
        Ok(vec![Node::Array(parse_slice(&text)?)])
    }

    /// After `[?(`: the filter up to `)]`.
    fn parse_filter(&mut self) -> Result<Node> {
        self.pos += 3;
        self.consume();
        let mut begin = false;
        let mut end = false;
        let mut pair = '"';
        loop {
            let Some(c) = self.next() else {
                return Err(JsonPathError::new("unterminated filter"));
            };
            match c {
                '\n' => return Err(JsonPathError::new("unterminated filter")),
                '"' | '\'' => {
                    if !begin {
                        begin = true;
                        pair = c;
                        continue;
                    }
                    if self.input[self.pos - 2] != '\\' && c == pair {
                        end = true;
                    }
                }
                ')' if begin == end => break,
                _ => {}
            }
        }
        if self.next() != Some(']') {
            return Err(JsonPathError::new("unclosed array expect ]"));
        }
        let text = self.consume();
        let text: String = {
            let chars: Vec<char> = text.chars().collect();
            chars[..chars.len() - 2].iter().collect()
        };
        // `^([^!<>=]+)([!<>=]+)(.+?)$`
        let is_op = |c: char| matches!(c, '!' | '<' | '>' | '=');
        let split = text.find(is_op).filter(|&i| i > 0).and_then(|i| {
            let rest = &text[i..];
            let op_len = rest.find(|c: char| !is_op(c)).unwrap_or(rest.len());
            let right = &rest[op_len..];
            (!right.is_empty()).then(|| (&text[..i], &rest[..op_len], right))
        });
        match split {
            None => Ok(Node::Filter {
                left: parse_sub_action(&text)?,
                right: Vec::new(),
                op: None,
                op_text: "exists".into(),
            }),
            Some((left, op_text, right)) => {
                let op = match op_text {
                    "==" => Some(Op::Eq),
                    "!=" => Some(Op::Ne),
                    "<" => Some(Op::Lt),
                    ">" => Some(Op::Gt),
                    "<=" => Some(Op::Le),
                    ">=" => Some(Op::Ge),
                    _ => None,
                };
                Ok(Node::Filter {
                    left: parse_sub_action(left)?,
                    right: parse_sub_action(right)?,
                    op,
                    op_text: op_text.into(),
                })
            }
        }
    }

    /// A `"..."` or `'...'` literal (Go's `strconv.Unquote`, extended to
    /// single quotes).
    fn parse_quote(&mut self, quote: char) -> Result<Node> {
        loop {
            match self.next() {
                None | Some('\n') => return Err(JsonPathError::new("unterminated quoted string")),
                Some(c) if c == quote && self.input[self.pos - 2] != '\\' => break,
                Some(_) => {}
            }
        }
        let value = self.consume();
        unquote(&value).map(Node::Text).ok_or_else(|| {
            JsonPathError::new(format!("unquote string {value} error invalid syntax"))
        })
    }
}

/// Parses `text` as the inside of one action (client-go `parseAction`).
fn parse_sub_action(text: &str) -> Result<Vec<Node>> {
    let mut parser = Parser::new(&format!("{{{text}}}"));
    let segments = parser.parse_text()?;
    match segments.into_iter().next() {
        Some(Node::List(nodes)) => Ok(nodes),
        _ => Ok(Vec::new()),
    }
}

/// `^(-?\d*)(:-?\d*)?(:-?\d*)?$` into the three slice parameters.
fn parse_slice(text: &str) -> Result<[Param; 3]> {
    let invalid = || JsonPathError::new(format!("invalid array index {text}"));
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() > 3 {
        return Err(invalid());
    }
    let number_ok = |s: &str| {
        let digits = s.strip_prefix('-').unwrap_or(s);
        digits.bytes().all(|b| b.is_ascii_digit())
    };
    if !parts.iter().all(|p| number_ok(p)) {
        return Err(invalid());
    }
    let parse = |s: &str| -> Result<i64> {
        s.parse::<i64>()
            .map_err(|_| JsonPathError::new(format!("array index {s} is not a number")))
    };
    let unknown = Param {
        value: 0,
        known: false,
        derived: false,
    };
    let mut params = [unknown; 3];
    if !parts[0].is_empty() {
        params[0] = Param {
            value: parse(parts[0])?,
            known: true,
            derived: false,
        };
    }
    match parts.get(1) {
        None => {
            params[1] = Param {
                value: params[0].value.wrapping_add(1),
                known: true,
                derived: true,
            }
        }
        Some(&"") => {}
        Some(s) => {
            params[1] = Param {
                value: parse(s)?,
                known: true,
                derived: false,
            }
        }
    }
    if let Some(s) = parts.get(2).filter(|s| !s.is_empty()) {
        params[2] = Param {
            value: parse(s)?,
            known: true,
            derived: false,
        };
    }
    Ok(params)
}

/// Go's `strconv.Unquote` for `"..."` and the same escapes in `'...'`.
pub(super) fn unquote(s: &str) -> Option<String> {
    let mut chars = s.chars();
    let quote = chars.next()?;
    if !matches!(quote, '"' | '\'') || !s.ends_with(quote) || s.chars().count() < 2 {
        return None;
    }
    let inner: Vec<char> = s[quote.len_utf8()..s.len() - quote.len_utf8()]
        .chars()
        .collect();
    let mut out = String::new();
    let mut i = 0;
    while i < inner.len() {
        let c = inner[i];
        i += 1;
        if c == quote {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = *inner.get(i)?;
        i += 1;
        match e {
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '\\' => out.push('\\'),
            '\'' | '"' if e == quote => out.push(e),
            'x' | 'u' | 'U' => {
                let n = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = inner.get(i..i + n)?.iter().collect();
                i += n;
                let code = u32::from_str_radix(&hex, 16).ok()?;
                out.push(char::from_u32(code)?);
            }
            '0'..='7' => {
                let oct: String = inner.get(i - 1..i + 2)?.iter().collect();
                i += 2;
                out.push(char::from_u32(u32::from_str_radix(&oct, 8).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}
