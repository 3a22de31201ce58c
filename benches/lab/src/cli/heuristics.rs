//! `searchlab heuristics`: the heuristics this program knows.

use planners::heuristics::Registry;

/// `searchlab heuristics`: every heuristic this program knows, as a table
/// (or the Markdown table of the docs).
pub(super) fn list_heuristics(heuristics: &Registry, markdown: bool) {
    if markdown {
        print!("{}", heuristics.markdown_table());
        return;
    }
    let yes = |b: bool| if b { "yes" } else { "-" };
    println!(
        "{:<22}{:<20}{:<12}{:<12}{:<12}description",
        "name", "representations", "directions", "admissible", "consistent"
    );
    for h in heuristics.iter() {
        let info = h.info();
        let representations: Vec<String> = info
            .representations
            .iter()
            .map(ToString::to_string)
            .collect();
        println!(
            "{:<22}{:<20}{:<12}{:<12}{:<12}{}",
            info.name,
            representations.join(", "),
            info.directions.to_string(),
            yes(info.admissible),
            yes(info.consistent),
            info.description
        );
        if !info.aliases.is_empty() {
            println!("{:<22}aliases: {}", "", info.aliases.join(", "));
        }
    }
}
