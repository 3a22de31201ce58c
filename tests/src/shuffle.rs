//! Task files in another order, for the tests that check that the order
//! of a file's `:init` facts, objects and actions changes no search.

/// `text` with the items of its `(:init ...)` section and the objects of
/// its `(:objects ...)` section (each with its type) in another order,
/// chosen by `seed`.
///
/// # Panics
/// If `text` has no such sections or its parentheses do not balance.
pub fn shuffled(text: &str, seed: u64) -> String {
    let text = &without_comments(text);
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut shuffle = |items: &mut Vec<String>| {
        for i in (1..items.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            items.swap(i, usize::try_from(state % (i as u64 + 1)).unwrap());
        }
    };
    let mut out = text.to_owned();
    for keyword in ["(:init", "(:objects"] {
        let start = out.to_lowercase().find(keyword).expect("the section") + keyword.len();
        let (items, end) = section_items(&out[start..]);
        let mut items = if keyword == "(:init" {
            items
        } else {
            typed_objects(&items)
        };
        shuffle(&mut items);
        out = format!(
            "{} {}{}",
            &out[..start],
            items.join(" "),
            &out[start + end..]
        );
    }
    out
}

/// `text` without its `;` comments, which may hold parentheses.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.split(';').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level items of a section's body up to its closing parenthesis,
/// and where that parenthesis is.
fn section_items(body: &str) -> (Vec<String>, usize) {
    let (mut items, mut depth, mut current) = (Vec::new(), 0_i32, String::new());
    for (at, c) in body.char_indices() {
        match c {
            ')' if depth == 0 => {
                items.extend((!current.trim().is_empty()).then(|| current.trim().to_owned()));
                return (items, at);
            }
            c if c.is_whitespace() && depth == 0 => {
                items.extend((!current.trim().is_empty()).then(|| current.trim().to_owned()));
                current.clear();
            }
            _ => {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                current.push(c);
            }
        }
    }
    panic!("unbalanced section");
}

/// `a b - t c` as `["a - t", "b - t", "c"]`.
fn typed_objects(tokens: &[String]) -> Vec<String> {
    let (mut out, mut pending) = (Vec::new(), Vec::new());
    let mut tokens = tokens.iter();
    while let Some(token) = tokens.next() {
        if token == "-" {
            let ty = tokens.next().expect("a type after `-`");
            out.extend(
                pending
                    .drain(..)
                    .map(|name: &String| format!("{name} - {ty}")),
            );
        } else {
            pending.push(token);
        }
    }
    out.extend(pending.into_iter().cloned());
    out
}

/// `domain` with its `(:action ...)` blocks in another order.
///
/// # Panics
/// If `domain` has no action or its parentheses do not balance.
pub fn actions_shuffled(domain: &str, seed: u64) -> String {
    let domain = &without_comments(domain);
    let start = domain.find("(:action").expect("an action");
    let (items, end) = section_items(&domain[start..]);
    // The rest of the domain after the first action is a list of blocks.
    let mut actions: Vec<String> = items;
    let by = usize::try_from(seed).unwrap() % actions.len().max(1);
    actions.rotate_left(by);
    actions.reverse();
    format!(
        "{}{}{}",
        &domain[..start],
        actions.join("\n"),
        &domain[start + end..]
    )
}
