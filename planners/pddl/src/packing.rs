//! Finite-domain packing: groups of mutually exclusive facts, each stored
//! as one binary field instead of one bit per fact.

use std::cmp::Reverse;

use state_atomic::{Bits, PartialState, WorldState};

use crate::{GroundOperator, GroundTask, Mutexes};

/// No fact: an entry of the decoding table for "none" and unused codes.
const NO_FACT: u32 = u32::MAX;

/// One group's field in the packed state.
#[derive(Clone, Debug)]
struct Field {
    /// The packed word that holds it (fields never straddle two).
    word: usize,
    /// Its lowest bit within the word.
    shift: u32,
    /// Its width in bits.
    width: u32,
    /// Its facts, in code order.
    facts: Vec<u32>,
    /// Whether code 0 means "none holds" (else code 0 is the first fact).
    none: bool,
    /// Where its decoding table starts in [`Packing::decode`].
    table: usize,
}

impl Field {
    fn mask(&self) -> u64 {
        (1 << self.width) - 1
    }

    fn code(&self, index: usize) -> usize {
        index + usize::from(self.none)
    }

    /// The field's code in `word` (the word it lives in), as a decoding
    /// table offset.
    #[inline]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a code has at most 13 bits"
    )]
    fn code_in(&self, word: u64) -> usize {
        ((word >> self.shift) & self.mask()) as usize
    }

    /// The field set to `code`, at its place in the packed state.
    fn bits<B: Bits>(&self, code: usize) -> B {
        (0..self.width)
            .filter(|b| code >> b & 1 == 1)
            .fold(B::zero(), |bits, b| {
                bits | B::bit(self.word * 64 + (self.shift + b) as usize)
            })
    }

    /// Every bit of the field.
    fn care<B: Bits>(&self) -> B {
        self.bits((1 << self.width) - 1)
    }
}

/// A task's facts grouped into fields of a packed state, with the
/// translations between packed and fact states.
///
/// A group is a clique of pairwise `h^2`-mutex facts ([`h2_mutexes`]),
/// found by a greedy clique cover (the fact with the most mutex partners
/// first, grown with the partners that have the most partners). At most
/// one fact of a group holds in a reachable state, so a field of
/// `ceil(log2(k + 1))` bits holds a group of `k` facts: code 0 says none
/// holds, code `i + 1` that fact `i` does. A group that always holds
/// exactly one fact (one holds initially, and no operator leaves it with
/// none) needs no "none" code: `ceil(log2(k))` bits.
///
/// STRIPS conditions and effects stay masks over the packed bits: "f
/// holds" is "field == code(f)", adding f is "field := code(f)", and
/// deleting f (without adding another member) is "field := none". The last
/// is right only where f held before, so a fact that some operator deletes
/// without requiring it, and without adding another member, leaves its
/// group; so does a fact with a negative precondition or a negative goal
/// (not a mask over a field). Such facts are fields of their own (one bit,
/// exactly as unpacked). Operators that want or add two members of a group
/// never apply in a reachable state and are left out.
///
/// [`h2_mutexes`]: crate::h2_mutexes
///
/// ```
/// use searchlab_pddl::{ground, h2_mutexes, parse_domain, parse_problem, GroundingLimits, Packing};
/// use state_atomic::{Wide, WorldState};
/// let domain = parse_domain("d", "(define (domain d) (:predicates (at ?x) (road ?x ?y)) \
///     (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y)) \
///      :effect (and (at ?y) (not (at ?x)))))").unwrap();
/// let problem = parse_problem(&domain, "p", "(define (problem p) (:domain d) (:objects a b c) \
///     (:init (at a) (road a b) (road b c)) (:goal (at c)))").unwrap();
/// let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
/// let packing = Packing::new(&task, &h2_mutexes(&task));
/// assert_eq!(packing.groups().next().unwrap().len(), 3); // (at a), (at b), (at c)
/// assert_eq!(packing.bits(), 2); // one field: always exactly one place
/// let start: WorldState<u64> = packing.encode(&task.init).unwrap();
/// let facts: WorldState<u64> = packing.decode(&start);
/// assert_eq!(facts.bits(), 1 << task.init[0]);
/// ```
#[derive(Clone, Debug)]
pub struct Packing {
    fields: Vec<Field>,
    /// Per fact: its field and its index in the field.
    place: Vec<(usize, usize)>,
    /// Per field, from its `table` on: the fact of each code.
    decode: Vec<u32>,
    /// Packed words used.
    words: usize,
}

impl Packing {
    /// The heap memory the packing holds, in bytes.
    pub fn heap_bytes(&self) -> usize {
        self.fields.capacity() * size_of::<Field>()
            + self
                .fields
                .iter()
                .map(|f| f.facts.capacity() * size_of::<u32>())
                .sum::<usize>()
            + self.place.capacity() * size_of::<(usize, usize)>()
            + self.decode.capacity() * size_of::<u32>()
    }

    /// Groups the facts of `task` with its `mutexes` (which must be sound:
    /// no reachable state holds a pair of them).
    pub fn new(task: &GroundTask, mutexes: &Mutexes) -> Self {
        let n = task.facts.len();
        // Facts with a negative condition stay alone.
        let mut alone = vec![false; n];
        for f in task
            .operators
            .iter()
            .flat_map(|op| &op.neg_pre)
            .chain(&task.goal_false)
        {
            alone[*f as usize] = true;
        }
        let mut group_of = cover(n, mutexes, &alone);
        refine(task, &mut group_of);
        let mut groups: Vec<Vec<u32>> = Vec::new();
        let mut index = vec![usize::MAX; 2 * n];
        for (f, &g) in (0u32..).zip(&group_of) {
            if index[g] == usize::MAX {
                index[g] = groups.len();
                groups.push(Vec::new());
            }
            groups[index[g]].push(f);
        }
        let mut place = vec![(0, 0); n];
        for (g, facts) in groups.iter().enumerate() {
            for (i, &f) in facts.iter().enumerate() {
                place[f as usize] = (g, i);
            }
        }
        let mut none = vec![true; groups.len()];
        for (g, facts) in groups.iter().enumerate() {
            let starts_with_one = task.init.iter().any(|&f| place[f as usize].0 == g);
            none[g] = facts.len() == 1 || !starts_with_one;
        }
        for op in usable(task) {
            for &d in &op.del {
                let g = place[d as usize].0;
                let adds = op.add.iter().any(|&a| place[a as usize].0 == g);
                if !adds && op.pre.contains(&d) {
                    none[g] = true;
                }
            }
        }
        Self::lay_out(groups, &none, place)
    }

    /// Places the fields in words, widest first, each in the first word
    /// with room for it.
    fn lay_out(groups: Vec<Vec<u32>>, none: &[bool], place: Vec<(usize, usize)>) -> Self {
        let mut fields: Vec<Field> = groups
            .into_iter()
            .zip(none)
            .map(|(facts, &none)| {
                let values = facts.len() + usize::from(none);
                Field {
                    word: 0,
                    shift: 0,
                    width: usize::BITS - (values - 1).leading_zeros(),
                    facts,
                    none,
                    table: 0,
                }
            })
            .collect();
        let mut order: Vec<usize> = (0..fields.len()).collect();
        order.sort_by_key(|&g| (Reverse(fields[g].width), g));
        let mut used: Vec<u32> = Vec::new();
        for g in order {
            let width = fields[g].width;
            let word = used
                .iter()
                .position(|&u| u + width <= 64)
                .unwrap_or_else(|| {
                    used.push(0);
                    used.len() - 1
                });
            fields[g].word = word;
            fields[g].shift = used[word];
            used[word] += width;
        }
        let mut decode = Vec::new();
        for field in &mut fields {
            field.table = decode.len();
            decode.resize(decode.len() + (1 << field.width), NO_FACT);
            for (i, &f) in field.facts.iter().enumerate() {
                decode[field.table + field.code(i)] = f;
            }
        }
        Self {
            fields,
            place,
            decode,
            words: used.len().max(1),
        }
    }

    /// The groups, each a field: its facts in code order.
    pub fn groups(&self) -> impl Iterator<Item = &[u32]> {
        self.fields.iter().map(|f| f.facts.as_slice())
    }

    /// The packed state's bits, counting those left unused at the end of
    /// a word (fields do not straddle words).
    pub fn bits(&self) -> usize {
        self.fields.iter().map(|f| f.width as usize).sum()
    }

    /// The packed state's width in 64-bit words.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The field (index) and code of `fact`.
    fn code_of(&self, fact: u32) -> (usize, usize) {
        let (g, i) = self.place[fact as usize];
        (g, self.fields[g].code(i))
    }

    /// The packed state where exactly `facts` hold (every group without
    /// one of them at "none"), or `None` if two of them share a group or
    /// a group with no "none" has none of them.
    pub fn encode<B: Bits>(&self, facts: &[u32]) -> Option<WorldState<B>> {
        let goal = self.partial(facts, &[])?;
        let mut without_none = self.fields.iter().filter(|f| !f.none);
        let each_set = without_none.all(|f| f.care::<B>() & goal.as_care() == f.care());
        each_set.then(|| WorldState::new(goal.values()))
    }

    /// The packed condition that `pre` hold and `not_pre` do not, or
    /// `None` if it wants two facts of one group. Every fact of `not_pre`
    /// must be alone in its group (as [`new`](Self::new) makes facts with
    /// negative conditions).
    pub fn partial<B: Bits>(&self, pre: &[u32], not_pre: &[u32]) -> Option<PartialState<B>> {
        let (mut values, mut care) = (B::zero(), B::zero());
        let wanted = pre.iter().map(|&f| (f, true));
        for (f, holds) in wanted.chain(not_pre.iter().map(|&f| (f, false))) {
            let (g, code) = self.code_of(f);
            let field = &self.fields[g];
            let code = if holds { code } else { 0 };
            let bits: B = field.bits(code);
            let field_care: B = field.care();
            if !(field_care.clone() & &care).is_zero() && (field_care.clone() & &values) != bits {
                return None;
            }
            values = values | bits;
            care = care | field_care;
        }
        Some(PartialState::new(values, care))
    }

    /// The packed effect of `op`, or `None` if it adds two facts of one
    /// group.
    pub fn effect<B: Bits>(&self, op: &GroundOperator) -> Option<PartialState<B>> {
        let add = self.partial::<B>(&op.add, &[])?;
        let (mut values, mut care) = (add.values(), add.care());
        for &d in &op.del {
            let (g, _) = self.code_of(d);
            let field = &self.fields[g];
            let wants_other = op.pre.iter().any(|&p| p != d && self.code_of(p).0 == g);
            // Set by an add, or already false (the precondition wants
            // another member): as it is. Otherwise it held, or is alone
            // in its group: none.
            if (field.care::<B>() & &care).is_zero() && !wants_other {
                care = care | field.care::<B>();
                values = values | field.bits::<B>(0);
            }
        }
        Some(PartialState::new(values, care))
    }

    /// The fact state of a packed state.
    #[inline]
    pub fn decode<Bp: Bits, Bf: Bits>(&self, state: &WorldState<Bp>) -> WorldState<Bf> {
        let bits = state.as_bits();
        WorldState::new(Bf::from_ones(self.fields.iter().filter_map(|field| {
            let f = self.decode[field.table + field.code_in(bits.word(field.word))];
            (f != NO_FACT).then_some(f as usize)
        })))
    }

    /// The fact condition of a packed condition: a field it sets to a
    /// fact wants that fact, one it sets to "none" wants each of its facts
    /// false.
    #[inline]
    pub fn decode_partial<Bp: Bits, Bf: Bits>(
        &self,
        partial: &PartialState<Bp>,
    ) -> PartialState<Bf> {
        let (values, care) = (partial.as_values(), partial.as_care());
        let (mut fact_values, mut fact_care) = (Bf::zero(), Bf::zero());
        for field in &self.fields {
            if (care.word(field.word) >> field.shift) & field.mask() != field.mask() {
                continue;
            }
            let code = field.code_in(values.word(field.word));
            match self.decode[field.table + code] {
                NO_FACT if field.none && code == 0 => {
                    for &f in &field.facts {
                        fact_care = fact_care | Bf::bit(f as usize);
                    }
                }
                NO_FACT => {}
                f => {
                    fact_values = fact_values | Bf::bit(f as usize);
                    fact_care = fact_care | Bf::bit(f as usize);
                }
            }
        }
        PartialState::new(fact_values, fact_care)
    }

    /// Calls `each` with every fact a packed condition wants true.
    #[inline]
    pub fn true_facts<Bp: Bits>(&self, partial: &PartialState<Bp>, mut each: impl FnMut(u32)) {
        let (values, care) = (partial.as_values(), partial.as_care());
        for field in &self.fields {
            if (care.word(field.word) >> field.shift) & field.mask() == field.mask() {
                let f = self.decode[field.table + field.code_in(values.word(field.word))];
                if f != NO_FACT {
                    each(f);
                }
            }
        }
    }
}

/// The operators a task keeps: those whose precondition is not
/// contradictory.
fn usable(task: &GroundTask) -> impl Iterator<Item = &GroundOperator> {
    task.operators
        .iter()
        .filter(|op| !op.pre.iter().any(|f| op.neg_pre.contains(f)))
}

/// A greedy clique cover of the mutex graph: per fact, its group's number
/// (a fact's own index when it is alone).
fn cover(n: usize, mutexes: &Mutexes, alone: &[bool]) -> Vec<usize> {
    let partners = |p: usize| (0..n).filter(move |&q| !alone[q] && mutexes.are_mutex(p, q));
    let degree: Vec<usize> = (0..n)
        .map(|p| if alone[p] { 0 } else { partners(p).count() })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&p| (Reverse(degree[p]), p));
    let mut group_of: Vec<usize> = (0..n).collect();
    let mut covered = vec![false; n];
    for seed in order {
        if covered[seed] || alone[seed] {
            continue;
        }
        covered[seed] = true;
        // Only this seed's partners are listed: all lists at once would
        // take memory quadratic in the facts.
        let mut candidates: Vec<usize> = partners(seed).filter(|&q| !covered[q]).collect();
        candidates.sort_by_key(|&q| (Reverse(degree[q]), q));
        let mut clique = vec![seed];
        for q in candidates {
            if clique.iter().all(|&c| mutexes.are_mutex(c, q)) {
                covered[q] = true;
                group_of[q] = seed;
                clique.push(q);
            }
        }
    }
    group_of
}

/// Takes out of its group every fact that some operator deletes without
/// requiring it and without adding another member (or requiring one, which
/// makes it false already): "field := none" would be wrong there.
fn refine(task: &GroundTask, group_of: &mut [usize]) {
    // A fact taken out gets group `n + fact`, no seed's.
    let n = group_of.len();
    let mut size = vec![0usize; 2 * n];
    for &g in group_of.iter() {
        size[g] += 1;
    }
    loop {
        let mut changed = false;
        for op in usable(task) {
            for &d in &op.del {
                let g = group_of[d as usize];
                if size[g] < 2 {
                    continue;
                }
                let touches = |facts: &[u32]| facts.iter().any(|&f| group_of[f as usize] == g);
                if !touches(&op.add) && !touches(&op.pre) {
                    size[g] -= 1;
                    group_of[d as usize] = n + d as usize;
                    size[n + d as usize] += 1;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}
