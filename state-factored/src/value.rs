//! Values and their encoding in 8-byte state slots.
//!
//! A slot holds an order-preserving key: ints with the sign bit flipped,
//! floats by the usual total-order bit trick (with `-0.0` stored as `0.0`),
//! bools as 0 or 1, strings as their symbol id. Comparing keys as `u64`
//! compares the numbers, so a numeric constraint is a set of key intervals.

use std::fmt;

/// The type of a variable.
///
/// ```
/// use state_factored::VarType;
/// assert_eq!(VarType::Str.to_string(), "string");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarType {
    /// `true` or `false`.
    Bool,
    /// A signed 64-bit integer.
    Int,
    /// A finite 64-bit float.
    Float,
    /// A string, interned to a [`Symbol`](crate::Symbol).
    Str,
}

impl fmt::Display for VarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VarType::Bool => "bool",
            VarType::Int => "int",
            VarType::Float => "float",
            VarType::Str => "string",
        })
    }
}

/// A constant in a predicate, an effect or a state, before it is checked
/// against a schema.
///
/// ```
/// use state_factored::{Value, VarType};
/// assert_eq!(Value::from(3).var_type(), VarType::Int);
/// assert_eq!(Value::from("shop"), Value::Str("shop".into()));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A bool.
    Bool(bool),
    /// An int.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
}

impl Value {
    /// The type of the value.
    ///
    /// ```
    /// use state_factored::{Value, VarType};
    /// assert_eq!(Value::Float(0.5).var_type(), VarType::Float);
    /// ```
    pub fn var_type(&self) -> VarType {
        match self {
            Value::Bool(_) => VarType::Bool,
            Value::Int(_) => VarType::Int,
            Value::Float(_) => VarType::Float,
            Value::Str(_) => VarType::Str,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s:?}"),
        }
    }
}

impl From<bool> for Value {
    fn from(value: bool) -> Self {
        Value::Bool(value)
    }
}

impl From<i64> for Value {
    fn from(value: i64) -> Self {
        Value::Int(value)
    }
}

impl From<i32> for Value {
    fn from(value: i32) -> Self {
        Value::Int(value.into())
    }
}

impl From<u32> for Value {
    fn from(value: u32) -> Self {
        Value::Int(value.into())
    }
}

impl From<f64> for Value {
    fn from(value: f64) -> Self {
        Value::Float(value)
    }
}

impl From<&str> for Value {
    fn from(value: &str) -> Self {
        Value::Str(value.to_owned())
    }
}

impl From<String> for Value {
    fn from(value: String) -> Self {
        Value::Str(value)
    }
}

const SIGN: u64 = 1 << 63;

/// The key of an int.
#[inline]
pub(crate) fn int_key(value: i64) -> u64 {
    u64::from_ne_bytes(value.to_ne_bytes()) ^ SIGN
}

/// The int of a key.
#[inline]
pub(crate) fn key_int(key: u64) -> i64 {
    i64::from_ne_bytes((key ^ SIGN).to_ne_bytes())
}

/// The key of a float (any float; `-0.0` keeps its own key here).
#[inline]
pub(crate) fn float_key_raw(value: f64) -> u64 {
    let bits = value.to_bits();
    if bits & SIGN == 0 {
        bits | SIGN
    } else {
        !bits
    }
}

/// The key of a float as stored in a state: `-0.0` is stored as `0.0`.
#[inline]
pub(crate) fn float_key(value: f64) -> u64 {
    float_key_raw(value + 0.0)
}

/// The float of a key.
#[inline]
pub(crate) fn key_float(key: u64) -> f64 {
    if key & SIGN == 0 {
        f64::from_bits(!key)
    } else {
        f64::from_bits(key ^ SIGN)
    }
}

/// The key of `-0.0`, which no state holds.
pub(crate) const NEG_ZERO_KEY: u64 = SIGN - 1;

/// The smallest and largest keys of finite floats.
pub(crate) fn finite_float_keys() -> (u64, u64) {
    (float_key_raw(-f64::MAX), float_key_raw(f64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_preserve_order() {
        let ints = [i64::MIN, -5, -1, 0, 1, 7, i64::MAX];
        for pair in ints.windows(2) {
            assert!(int_key(pair[0]) < int_key(pair[1]));
            assert_eq!(key_int(int_key(pair[0])), pair[0]);
        }
        let floats = [
            f64::NEG_INFINITY,
            -f64::MAX,
            -1.5,
            -1e-300,
            0.0,
            1e-300,
            2.0,
            f64::MAX,
        ];
        for pair in floats.windows(2) {
            assert!(float_key(pair[0]) < float_key(pair[1]));
            assert_eq!(key_float(float_key(pair[0])).to_bits(), pair[0].to_bits());
        }
        assert_eq!(float_key(-0.0), float_key(0.0));
        assert_eq!(float_key_raw(-0.0), NEG_ZERO_KEY);
        assert_eq!(float_key_raw(0.0), NEG_ZERO_KEY + 1);
    }
}
