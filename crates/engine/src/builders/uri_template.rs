//! RFC 6570 URI templates, levels 1 to 3 (and the level-4 prefix modifier), for the
//! `uriTemplate` of a resource template: which variables it has, and the URI it expands to
//! with the user's values. Values are strings (the form's fields); an absent variable is
//! undefined and expands to nothing, as the RFC says, while an empty string is defined.

use std::collections::BTreeMap;
use std::fmt;

/// A parsed URI template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Expression(Expression),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Expression {
    operator: Operator,
    variables: Vec<VarSpec>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct VarSpec {
    name: String,
    /// `{var:3}`: at most this many characters of the value.
    prefix: Option<usize>,
}

/// The expression operators of RFC 6570 §3.2.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operator {
    Simple,
    Reserved,
    Fragment,
    Label,
    Path,
    PathParameter,
    Query,
    QueryContinuation,
}

impl Operator {
    fn of(c: char) -> Option<Self> {
        Some(match c {
            '+' => Self::Reserved,
            '#' => Self::Fragment,
            '.' => Self::Label,
            '/' => Self::Path,
            ';' => Self::PathParameter,
            '?' => Self::Query,
            '&' => Self::QueryContinuation,
            _ => return None,
        })
    }

    /// (first, separator, named, if-empty, allow reserved) from RFC 6570 Appendix A.
    fn rules(self) -> (&'static str, &'static str, bool, &'static str, bool) {
        match self {
            Self::Simple => ("", ",", false, "", false),
            Self::Reserved => ("", ",", false, "", true),
            Self::Fragment => ("#", ",", false, "", true),
            Self::Label => (".", ".", false, "", false),
            Self::Path => ("/", "/", false, "", false),
            Self::PathParameter => (";", ";", true, "", false),
            Self::Query => ("?", "&", true, "=", false),
            Self::QueryContinuation => ("&", "&", true, "=", false),
        }
    }
}

/// Why a template could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UriTemplateError {
    /// A `{` without its `}`.
    Unclosed { at: usize },
    /// An expression with no variable, or a variable name RFC 6570 does not allow.
    BadVariable { expression: String },
}

impl fmt::Display for UriTemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unclosed { at } => {
                write!(f, "the expression at character {at} has no closing }}")
            }
            Self::BadVariable { expression } => {
                write!(f, "{{{expression}}} is not a valid template expression")
            }
        }
    }
}

impl std::error::Error for UriTemplateError {}

impl UriTemplate {
    /// Read a template.
    pub fn parse(template: &str) -> Result<Self, UriTemplateError> {
        let mut parts = Vec::new();
        let mut rest = template;
        let mut offset = 0;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let after = &rest[open + 1..];
            let close = after.find('}').ok_or(UriTemplateError::Unclosed {
                at: template[..offset + open].chars().count(),
            })?;
            parts.push(Part::Expression(expression(&after[..close])?));
            offset += open + 1 + close + 1;
            rest = &after[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        Ok(Self { parts })
    }

    /// The variable names, each once, in the order they first appear.
    pub fn variables(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for part in &self.parts {
            if let Part::Expression(expression) = part {
                for var in &expression.variables {
                    if !names.contains(&var.name) {
                        names.push(var.name.clone());
                    }
                }
            }
        }
        names
    }

    /// The URI for these values; a variable without a value is undefined (left out).
    pub fn expand(&self, values: &BTreeMap<String, String>) -> String {
        let mut uri = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(text) => uri.push_str(text),
                Part::Expression(expression) => expand_expression(expression, values, &mut uri),
            }
        }
        uri
    }
}

fn expression(text: &str) -> Result<Expression, UriTemplateError> {
    let bad = || UriTemplateError::BadVariable {
        expression: text.to_owned(),
    };
    let mut chars = text.chars();
    let (operator, list) = match chars.next().and_then(Operator::of) {
        Some(operator) => (operator, chars.as_str()),
        None => (Operator::Simple, text),
    };
    let variables = list
        .split(',')
        .map(|spec| varspec(spec).ok_or_else(bad))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Expression {
        operator,
        variables,
    })
}

fn varspec(spec: &str) -> Option<VarSpec> {
    // An explode modifier changes nothing for string values.
    let spec = spec.strip_suffix('*').unwrap_or(spec);
    let (name, prefix) = match spec.split_once(':') {
        Some((name, length)) => {
            let length: usize = length.parse().ok().filter(|n| (1..10_000).contains(n))?;
            (name, Some(length))
        }
        None => (spec, None),
    };
    let valid = !name.is_empty()
        && !name.starts_with('.')
        && !name.ends_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'%');
    valid.then(|| VarSpec {
        name: name.to_owned(),
        prefix,
    })
}

fn expand_expression(expression: &Expression, values: &BTreeMap<String, String>, uri: &mut String) {
    let (first, separator, named, if_empty, allow_reserved) = expression.operator.rules();
    let mut wrote_any = false;
    for var in &expression.variables {
        let Some(value) = values.get(&var.name) else {
            continue;
        };
        uri.push_str(if wrote_any { separator } else { first });
        wrote_any = true;
        let value: String = match var.prefix {
            Some(length) => value.chars().take(length).collect(),
            None => value.clone(),
        };
        if named {
            uri.push_str(&var.name);
            if value.is_empty() {
                uri.push_str(if_empty);
                continue;
            }
            uri.push('=');
        }
        encode(&value, allow_reserved, uri);
    }
}

const RESERVED: &[u8] = b":/?#[]@!$&'()*+,;=";

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

/// Percent-encode `value` (UTF-8, upper-case hex); `+` and `#` keep reserved characters and
/// percent-encoded triplets as they are.
fn encode(value: &str, allow_reserved: bool, out: &mut String) {
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let triplet = allow_reserved
            && b == b'%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        if is_unreserved(b) || (allow_reserved && RESERVED.contains(&b)) || triplet {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests;
