//! The Merkle tree of RFC 9162 (and RFC 6962) over SHA-256: tree hashes, the compact frontier of an
//! append-only tree, and inclusion and consistency proofs with their verification.
//!
//! Leaves and inner nodes are hashed with different prefixes (`0x00` and `0x01`), so no inner node
//! can be passed off as a leaf. A tree of `n` leaves splits at the largest power of two below `n`:
//! the left part is always a perfect tree, which is what lets the [`Frontier`] keep only one hash
//! per perfect subtree.

use ring::digest::{Context, SHA256};

/// A SHA-256 digest: a leaf hash, a node hash or a root.
pub type Hash = [u8; 32];

const LEAF_PREFIX: u8 = 0x00;
const NODE_PREFIX: u8 = 0x01;
const HASH_LEN: usize = 32;

fn sha256(parts: &[&[u8]]) -> Hash {
    let mut context = Context::new(&SHA256);
    for part in parts {
        context.update(part);
    }
    let mut hash = [0; HASH_LEN];
    // A SHA-256 digest is always 32 bytes long.
    hash.copy_from_slice(context.finish().as_ref());
    hash
}

/// `SHA-256(0x00 || leaf)`: the hash of one log entry.
pub fn leaf_hash(leaf: &[u8]) -> Hash {
    sha256(&[&[LEAF_PREFIX], leaf])
}

/// `SHA-256(0x01 || left || right)`: the hash of an inner node.
pub fn node_hash(left: &Hash, right: &Hash) -> Hash {
    sha256(&[&[NODE_PREFIX], left, right])
}

/// The root of the empty tree: SHA-256 of nothing.
pub fn empty_root() -> Hash {
    sha256(&[])
}

/// The largest power of two strictly below `n` (`n >= 2`): where RFC 9162 splits a tree.
fn split_point(n: usize) -> usize {
    n.saturating_sub(1).checked_ilog2().map_or(0, |exponent| 1 << exponent)
}

/// The tree's two parts at the RFC 9162 split, for a tree of at least two leaves.
fn split(leaf_hashes: &[Hash]) -> Option<(&[Hash], &[Hash])> {
    leaf_hashes.split_at_checked(split_point(leaf_hashes.len()))
}

/// The Merkle Tree Hash (RFC 9162 §2.1.1) of the tree whose leaves have these hashes.
pub fn root(leaf_hashes: &[Hash]) -> Hash {
    match leaf_hashes {
        [] => empty_root(),
        [only] => *only,
        _ => match split(leaf_hashes) {
            Some((left, right)) => node_hash(&root(left), &root(right)),
            None => empty_root(),
        },
    }
}

/// The right frontier of an append-only tree: the roots of its perfect subtrees, largest (leftmost)
/// first, one per set bit of the size.
///
/// It is all the state needed to append a leaf and to compute the root, in O(log n), so a log can
/// append without reading its leaves back. The size is kept beside the hashes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Frontier {
    size: u64,
    subtree_roots: Vec<Hash>,
}

/// Stored frontier bytes that do not fit the stored size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrontierError {
    #[error("a frontier of {size} leaves holds {expected} bytes, not {actual}")]
    WrongLength { size: u64, expected: u64, actual: u64 },
}

impl Frontier {
    /// The frontier of the empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many leaves have been pushed.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Appends a leaf: like binary addition, each perfect subtree of the same size as the new one
    /// merges with it, from the right.
    pub fn push(&mut self, leaf_hash: Hash) {
        let mut carried = leaf_hash;
        let mut merges = self.size.trailing_ones();
        while merges > 0 {
            let Some(left) = self.subtree_roots.pop() else { break };
            carried = node_hash(&left, &carried);
            merges -= 1;
        }
        self.subtree_roots.push(carried);
        self.size = self.size.saturating_add(1);
    }

    /// The root of the tree of every leaf pushed: equal to [`root`] over them.
    pub fn root(&self) -> Hash {
        let mut from_right = self.subtree_roots.iter().rev();
        let Some(last) = from_right.next() else { return empty_root() };
        from_right.fold(*last, |right, left| node_hash(left, &right))
    }

    /// The subtree roots, concatenated (32 bytes each); the size is stored separately.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.subtree_roots.concat()
    }

    /// Reads back what [`Frontier::to_bytes`] wrote for a tree of `size` leaves.
    pub fn from_parts(size: u64, bytes: &[u8]) -> Result<Self, FrontierError> {
        let expected = u64::from(size.count_ones()) * HASH_LEN as u64;
        let (hashes, rest) = bytes.as_chunks::<HASH_LEN>();
        if bytes.len() as u64 != expected || !rest.is_empty() {
            return Err(FrontierError::WrongLength { size, expected, actual: bytes.len() as u64 });
        }
        Ok(Self { size, subtree_roots: hashes.to_vec() })
    }
}

/// The audit path (RFC 9162 §2.1.3.1) of leaf `index` in the tree of all of `leaf_hashes`, from the
/// leaf's sibling up to the root's child; `None` when there is no such leaf.
pub fn inclusion_proof(leaf_hashes: &[Hash], index: u64) -> Option<Vec<Hash>> {
    let index = usize::try_from(index).ok()?;
    if index >= leaf_hashes.len() {
        return None;
    }
    let mut path = Vec::new();
    collect_path(leaf_hashes, index, &mut path)?;
    Some(path)
}

/// PATH(m, D[n]), bottom-up: the sibling subtree's root is added after the deeper path.
fn collect_path(leaf_hashes: &[Hash], index: usize, path: &mut Vec<Hash>) -> Option<()> {
    if leaf_hashes.len() <= 1 {
        return Some(());
    }
    let (left, right) = split(leaf_hashes)?;
    if index < left.len() {
        collect_path(left, index, path)?;
        path.push(root(right));
    } else {
        collect_path(right, index - left.len(), path)?;
        path.push(root(left));
    }
    Some(())
}

/// Every level of the tree of a list of leaves, for many inclusion proofs against one tree (an
/// export proves every leaf): O(n) hashes to build, then O(log n) per proof, where
/// [`inclusion_proof`] hashes O(n) for each. Holds about two hashes per leaf (64 bytes).
///
/// Level by level, pairs are hashed and a last node without a partner moves up unchanged: that
/// gives RFC 9162's tree, whose left subtrees are perfect and whose right edge is what remains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeLevels {
    /// The leaf hashes first, the root's level (one hash, or none for an empty tree) last.
    levels: Vec<Vec<Hash>>,
}

impl TreeLevels {
    pub fn new(leaf_hashes: Vec<Hash>) -> Self {
        let mut levels = vec![leaf_hashes];
        while let Some(below) = levels.last().filter(|level| level.len() > 1) {
            let above = below
                .chunks(2)
                .map(|pair| match pair {
                    [left, right] => node_hash(left, right),
                    [alone, ..] => *alone,
                    [] => empty_root(),
                })
                .collect();
            levels.push(above);
        }
        Self { levels }
    }

    pub fn size(&self) -> u64 {
        self.levels.first().map_or(0, |leaves| leaves.len() as u64)
    }

    pub fn root(&self) -> Hash {
        self.levels.last().and_then(|top| top.first()).copied().unwrap_or_else(empty_root)
    }

    /// The same path as [`inclusion_proof`] gives: a node without a sibling contributes nothing.
    pub fn inclusion_proof(&self, index: u64) -> Option<Vec<Hash>> {
        let mut node = usize::try_from(index).ok()?;
        if node >= self.levels.first()?.len() {
            return None;
        }
        let mut path = Vec::new();
        for level in &self.levels {
            if let Some(sibling) = level.get(node ^ 1) {
                path.push(*sibling);
            }
            node >>= 1;
        }
        Some(path)
    }
}

/// Whether `audit_path` proves that `leaf_hash` is leaf `index` of the tree of `tree_size` leaves
/// with this `root` (RFC 9162 §2.1.3.2). A wrong index, a path entry changed, too many or too few,
/// or a size that gives the path another shape, fails. (Sizes whose trees give this leaf a path of
/// the same shape verify alike: the signed tree head is what binds a size to its root.)
pub fn verify_inclusion(leaf_hash: &Hash, index: u64, tree_size: u64, audit_path: &[Hash], root: &Hash) -> bool {
    if index >= tree_size {
        return false;
    }
    let mut node = index;
    let mut last_node = tree_size - 1;
    let mut computed = *leaf_hash;
    for sibling in audit_path {
        if last_node == 0 {
            return false;
        }
        if node & 1 == 1 || node == last_node {
            computed = node_hash(sibling, &computed);
            // A right edge node without a right sibling: climb until it is a right child.
            while node & 1 == 0 && node != 0 {
                node >>= 1;
                last_node >>= 1;
            }
        } else {
            computed = node_hash(&computed, sibling);
        }
        node >>= 1;
        last_node >>= 1;
    }
    last_node == 0 && computed == *root
}

/// The consistency proof (RFC 9162 §2.1.4.1) that the tree of the first `old_size` leaves is a
/// prefix of the tree of all of `leaf_hashes`.
///
/// For `old_size == leaf_hashes.len()` the proof is empty (RFC 9162: equal trees need no proof).
/// `None` when `old_size` is 0 (every tree extends the empty one; there is nothing to prove, see
/// [`verify_consistency`]) or larger than the tree.
pub fn consistency_proof(leaf_hashes: &[Hash], old_size: u64) -> Option<Vec<Hash>> {
    let old_size = usize::try_from(old_size).ok()?;
    if old_size == 0 || old_size > leaf_hashes.len() {
        return None;
    }
    let mut proof = Vec::new();
    collect_subproof(leaf_hashes, old_size, true, &mut proof)?;
    Some(proof)
}

/// SUBPROOF(m, D[n], b): `whole_old_tree` says whether the old tree is this subtree itself, whose
/// root the verifier already has.
fn collect_subproof(leaf_hashes: &[Hash], old_size: usize, whole_old_tree: bool, proof: &mut Vec<Hash>) -> Option<()> {
    if old_size == leaf_hashes.len() {
        if !whole_old_tree {
            proof.push(root(leaf_hashes));
        }
        return Some(());
    }
    let (left, right) = split(leaf_hashes)?;
    if old_size <= left.len() {
        collect_subproof(left, old_size, whole_old_tree, proof)?;
        proof.push(root(right));
    } else {
        collect_subproof(right, old_size - left.len(), false, proof)?;
        proof.push(root(left));
    }
    Some(())
}

/// Whether `proof` shows the tree of `new_size` leaves with `new_root` extends the tree of
/// `old_size` leaves with `old_root` (RFC 9162 §2.1.4.2).
///
/// Edge cases, as [`consistency_proof`] gives them: equal sizes hold with an empty proof and equal
/// roots; an old size of 0 holds with an empty proof when `old_root` is the empty tree's root (and,
/// for a new size of 0 as well, `new_root` too). A shrinking tree never holds.
pub fn verify_consistency(old_size: u64, new_size: u64, old_root: &Hash, new_root: &Hash, proof: &[Hash]) -> bool {
    if old_size > new_size {
        return false;
    }
    if old_size == 0 {
        let empty = empty_root();
        return proof.is_empty() && *old_root == empty && (new_size > 0 || *new_root == empty);
    }
    if old_size == new_size {
        return proof.is_empty() && old_root == new_root;
    }
    let Some((first, rest)) = proof.split_first() else { return false };
    // When the old tree is a perfect subtree of the new one, its root is the proof's implicit start.
    let (start, path) = if old_size.is_power_of_two() { (old_root, proof) } else { (first, rest) };

    let mut node = old_size - 1;
    let mut last_node = new_size - 1;
    while node & 1 == 1 {
        node >>= 1;
        last_node >>= 1;
    }
    let mut old_computed = *start;
    let mut new_computed = *start;
    for sibling in path {
        if last_node == 0 {
            return false;
        }
        if node & 1 == 1 || node == last_node {
            old_computed = node_hash(sibling, &old_computed);
            new_computed = node_hash(sibling, &new_computed);
            while node & 1 == 0 && node != 0 {
                node >>= 1;
                last_node >>= 1;
            }
        } else {
            new_computed = node_hash(&new_computed, sibling);
        }
        node >>= 1;
        last_node >>= 1;
    }
    last_node == 0 && old_computed == *old_root && new_computed == *new_root
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn tree_levels_give_the_same_root_and_paths_as_the_recursive_definition() {
        for size in 0..=70_u8 {
            let leaves: Vec<Hash> = (0..size).map(|i| leaf_hash(&[i])).collect();
            let levels = TreeLevels::new(leaves.clone());
            assert_eq!(levels.size(), u64::from(size));
            assert_eq!(levels.root(), root(&leaves), "size {size}");
            for index in 0..=u64::from(size) {
                assert_eq!(levels.inclusion_proof(index), inclusion_proof(&leaves, index), "size {size}, leaf {index}");
            }
        }
    }

    // The RFC 6962 test data of the certificate-transparency reference implementations, as kept in
    // https://github.com/transparency-dev/merkle: the leaves and roots in `testonly/constants.go`,
    // the inclusion and consistency proofs in `proof/verify_test.go` (which number leaves from 1;
    // the indices below are 0-based).
    const LEAVES: [&str; 8] =
        ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"];

    const EMPTY_ROOT: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    /// The roots of the trees of the first 1 to 8 leaves.
    const ROOTS: [&str; 8] = [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    ];

    /// The leaf hashes of the 8 leaves (level 0 of `NodeHashes` in `testonly/constants.go`).
    const LEAF_HASHES: [&str; 8] = [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
        "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658",
        "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
        "46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1",
    ];

    /// (leaf index, tree size, audit path).
    const INCLUSION_PROOFS: [(u64, u64, &[&str]); 5] = [
        (0, 1, &[]),
        (
            0,
            8,
            &[
                "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
            ],
        ),
        (
            5,
            8,
            &[
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ],
        ),
        (2, 3, &["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
        (
            1,
            5,
            &[
                "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            ],
        ),
    ];

    /// (old size, new size, proof).
    const CONSISTENCY_PROOFS: [(u64, u64, &[&str]); 5] = [
        (1, 1, &[]),
        (
            1,
            8,
            &[
                "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
            ],
        ),
        (
            6,
            8,
            &[
                "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ],
        ),
        (
            2,
            5,
            &[
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            ],
        ),
        (
            6,
            7,
            &[
                "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            ],
        ),
    ];

    fn h(text: &str) -> Hash {
        hex::decode(text).unwrap().try_into().unwrap()
    }

    fn hashes(texts: &[&str]) -> Vec<Hash> {
        texts.iter().map(|t| h(t)).collect()
    }

    fn vector_leaf_hashes() -> Vec<Hash> {
        LEAVES.iter().map(|leaf| leaf_hash(&hex::decode(leaf).unwrap())).collect()
    }

    /// Leaf hashes of a generated tree: the leaves are the decimal numbers 0..n.
    fn generated(n: usize) -> Vec<Hash> {
        (0..n).map(|i| leaf_hash(i.to_string().as_bytes())).collect()
    }

    #[test]
    fn leaf_hashes_match_the_reference() {
        assert_eq!(vector_leaf_hashes(), hashes(&LEAF_HASHES));
    }

    #[test]
    fn the_empty_tree_has_the_hash_of_nothing() {
        assert_eq!(empty_root(), h(EMPTY_ROOT));
        assert_eq!(root(&[]), h(EMPTY_ROOT));
        assert_eq!(Frontier::new().root(), h(EMPTY_ROOT));
    }

    #[test]
    fn roots_match_the_reference_at_every_size() {
        let leaves = vector_leaf_hashes();
        let mut frontier = Frontier::new();
        for (size, expected) in (1..=8).zip(ROOTS) {
            frontier.push(leaves[size - 1]);
            assert_eq!(root(&leaves[..size]), h(expected), "size {size}");
            assert_eq!(frontier.root(), h(expected), "frontier size {size}");
        }
    }

    #[test]
    fn the_frontier_holds_one_subtree_root_per_set_bit() {
        let leaves = vector_leaf_hashes();
        let mut frontier = Frontier::new();
        leaves[..7].iter().for_each(|leaf| frontier.push(*leaf));
        // 7 = 4 + 2 + 1: the roots of leaves 0..4, 4..6 and leaf 6 (`CompactTrees` in constants.go).
        let expected = [
            h("d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"),
            h("0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a"),
            h("b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f"),
        ];
        assert_eq!(frontier.size(), 7);
        assert_eq!(frontier.to_bytes(), expected.concat());
    }

    #[test]
    fn frontier_bytes_must_fit_the_size() {
        let mut frontier = Frontier::new();
        generated(5).into_iter().for_each(|leaf| frontier.push(leaf));
        let bytes = frontier.to_bytes();
        assert_eq!(bytes.len(), 64);
        assert_eq!(Frontier::from_parts(5, &bytes), Ok(frontier));
        assert_eq!(
            Frontier::from_parts(4, &bytes),
            Err(FrontierError::WrongLength { size: 4, expected: 32, actual: 64 })
        );
        assert!(Frontier::from_parts(5, &bytes[..63]).is_err());
        assert!(Frontier::from_parts(0, &[]).is_ok_and(|f| f.root() == empty_root()));
    }

    #[test]
    fn inclusion_proofs_match_the_reference() {
        let leaves = vector_leaf_hashes();
        for (index, size, path) in INCLUSION_PROOFS {
            let tree = &leaves[..size as usize];
            let root_hash = h(ROOTS[size as usize - 1]);
            let expected = hashes(path);
            assert_eq!(inclusion_proof(tree, index), Some(expected.clone()), "{index} of {size}");
            assert!(verify_inclusion(&tree[index as usize], index, size, &expected, &root_hash), "{index} of {size}");
        }
    }

    #[test]
    fn there_is_no_inclusion_proof_beyond_the_tree() {
        let leaves = vector_leaf_hashes();
        assert_eq!(inclusion_proof(&leaves, 8), None);
        assert_eq!(inclusion_proof(&[], 0), None);
        assert_eq!(inclusion_proof(&leaves, u64::MAX), None);
    }

    #[test]
    fn corrupted_reference_inclusion_proofs_fail() {
        let leaves = vector_leaf_hashes();
        let some_hash = h("abacaba000000000000000000000000000000000000000000060061e00123456");
        for (index, size, path) in INCLUSION_PROOFS.into_iter().skip(1) {
            let leaf = leaves[index as usize];
            let root_hash = h(ROOTS[size as usize - 1]);
            let path = hashes(path);
            let fails = |leaf: &Hash, index: u64, size: u64, path: &[Hash], root_hash: &Hash| {
                assert!(!verify_inclusion(leaf, index, size, path, root_hash), "{index} of {size}, {path:?}");
            };
            fails(&leaf, index.wrapping_sub(1), size, &path, &root_hash);
            fails(&leaf, index + 1, size, &path, &root_hash);
            fails(&leaf, index ^ 2, size, &path, &root_hash);
            fails(&leaf, index, size * 2, &path, &root_hash);
            fails(&leaf, index, size / 2, &path, &root_hash);
            fails(&some_hash, index, size, &path, &root_hash);
            fails(&leaf, index, size, &path, &empty_root());
            fails(&leaf, index, size, &path, &some_hash);
            fails(&leaf, index, size, &[path.as_slice(), &[root_hash]].concat(), &root_hash);
            fails(&leaf, index, size, &[&[root_hash], path.as_slice()].concat(), &root_hash);
            fails(&leaf, index, size, &path[..path.len() - 1], &root_hash);
            fails(&leaf, index, size, &[&path[..1], &[some_hash], &path[1..]].concat(), &root_hash);
            for i in 0..path.len() {
                let mut wrong = path.clone();
                wrong[i][0] ^= 8;
                fails(&leaf, index, size, &wrong, &root_hash);
            }
        }
    }

    #[test]
    fn inclusion_in_an_empty_or_too_small_tree_fails() {
        let some = h(ROOTS[0]);
        for (index, size) in [(0, 0), (1, 0), (2, 1), (1, 1)] {
            assert!(!verify_inclusion(&some, index, size, &[], &some), "{index} of {size}");
            assert!(!verify_inclusion(&some, index, size, &[], &empty_root()), "{index} of {size}");
        }
        assert!(verify_inclusion(&some, 0, 1, &[], &some));
    }

    #[test]
    fn consistency_proofs_match_the_reference() {
        let leaves = vector_leaf_hashes();
        for (old_size, new_size, proof) in CONSISTENCY_PROOFS {
            let expected = hashes(proof);
            let old_root = h(ROOTS[old_size as usize - 1]);
            let new_root = h(ROOTS[new_size as usize - 1]);
            assert_eq!(
                consistency_proof(&leaves[..new_size as usize], old_size),
                Some(expected.clone()),
                "{old_size} to {new_size}"
            );
            assert!(
                verify_consistency(old_size, new_size, &old_root, &new_root, &expected),
                "{old_size} to {new_size}"
            );
        }
    }

    #[test]
    fn corrupted_reference_consistency_proofs_fail() {
        for (old_size, new_size, proof) in CONSISTENCY_PROOFS.into_iter().skip(1) {
            let proof = hashes(proof);
            let old_root = h(ROOTS[old_size as usize - 1]);
            let new_root = h(ROOTS[new_size as usize - 1]);
            let wrong_root = h("abacaba000000000000000000000000000000000000000000060061e00123456");
            let fails = |old_size: u64, new_size: u64, old_root: &Hash, new_root: &Hash, proof: &[Hash]| {
                assert!(!verify_consistency(old_size, new_size, old_root, new_root, proof), "{old_size} to {new_size}");
            };
            fails(old_size - 1, new_size, &old_root, &new_root, &proof);
            fails(old_size + 1, new_size, &old_root, &new_root, &proof);
            fails(old_size ^ 2, new_size, &old_root, &new_root, &proof);
            fails(old_size, new_size * 2, &old_root, &new_root, &proof);
            fails(old_size, new_size / 2, &old_root, &new_root, &proof);
            fails(old_size, new_size, &wrong_root, &new_root, &proof);
            fails(old_size, new_size, &old_root, &wrong_root, &proof);
            fails(old_size, new_size, &new_root, &old_root, &proof);
            fails(old_size, new_size, &old_root, &new_root, &[]);
            for extra in [old_root, new_root, proof[0]] {
                fails(old_size, new_size, &old_root, &new_root, &[proof.as_slice(), &[extra]].concat());
                fails(old_size, new_size, &old_root, &new_root, &[&[extra], proof.as_slice()].concat());
            }
            fails(old_size, new_size, &old_root, &new_root, &proof[..proof.len() - 1]);
            for i in 0..proof.len() {
                let mut wrong = proof.clone();
                wrong[i][0] ^= 16;
                fails(old_size, new_size, &old_root, &new_root, &wrong);
            }
        }
    }

    #[test]
    fn consistency_edge_cases_are_defined() {
        let leaves = vector_leaf_hashes();
        let (root1, root8) = (h(ROOTS[0]), h(ROOTS[7]));
        // No proof from the empty tree or from beyond the tree; equal sizes give an empty proof.
        assert_eq!(consistency_proof(&leaves, 0), None);
        assert_eq!(consistency_proof(&leaves, 9), None);
        assert_eq!(consistency_proof(&leaves, 8), Some(vec![]));
        // Equal sizes: equal roots and an empty proof.
        assert!(verify_consistency(8, 8, &root8, &root8, &[]));
        assert!(!verify_consistency(8, 8, &root1, &root8, &[]));
        assert!(!verify_consistency(8, 8, &root8, &root8, &[root8]));
        // From the empty tree: its root and an empty proof.
        assert!(verify_consistency(0, 8, &empty_root(), &root8, &[]));
        assert!(verify_consistency(0, 0, &empty_root(), &empty_root(), &[]));
        assert!(!verify_consistency(0, 8, &root1, &root8, &[]));
        assert!(!verify_consistency(0, 8, &empty_root(), &root8, &[empty_root()]));
        assert!(!verify_consistency(0, 0, &empty_root(), &root1, &[]));
        assert!(!verify_consistency(0, 0, &root1, &root1, &[]));
        // A tree never shrinks.
        assert!(!verify_consistency(8, 1, &root8, &root1, &[]));
        assert!(!verify_consistency(1, 0, &root1, &empty_root(), &[]));
    }

    #[test]
    fn generated_trees_agree_with_a_frontier_at_every_size() {
        let leaves = generated(260);
        let mut frontier = Frontier::new();
        for size in 1..=leaves.len() {
            frontier.push(leaves[size - 1]);
            assert_eq!(frontier.root(), root(&leaves[..size]), "size {size}");
        }
    }

    fn tree_and_index() -> impl Strategy<Value = (Vec<Hash>, u64)> {
        (1usize..300).prop_flat_map(|n| (Just(generated(n)), 0..n as u64))
    }

    fn tree_and_sizes() -> impl Strategy<Value = (Vec<Hash>, u64)> {
        (1usize..300).prop_flat_map(|n| (Just(generated(n)), 1..=n as u64))
    }

    proptest! {
        #[test]
        fn every_inclusion_proof_verifies((leaves, index) in tree_and_index()) {
            let size = leaves.len() as u64;
            let path = inclusion_proof(&leaves, index).unwrap();
            let leaf = leaves[index as usize];
            prop_assert!(verify_inclusion(&leaf, index, size, &path, &root(&leaves)));
            let mut frontier = Frontier::new();
            leaves.iter().for_each(|leaf| frontier.push(*leaf));
            prop_assert!(verify_inclusion(&leaf, index, size, &path, &frontier.root()));
        }

        #[test]
        fn a_changed_leaf_index_size_or_path_fails(
            (leaves, index) in tree_and_index(),
            bit in 0usize..256,
            other_index in any::<u64>(),
            which in any::<prop::sample::Index>(),
        ) {
            let size = leaves.len() as u64;
            let root_hash = root(&leaves);
            let path = inclusion_proof(&leaves, index).unwrap();
            let leaf = leaves[index as usize];

            let mut changed_leaf = leaf;
            changed_leaf[bit / 8] ^= 1 << (bit % 8);
            prop_assert!(!verify_inclusion(&changed_leaf, index, size, &path, &root_hash));

            if other_index != index {
                prop_assert!(!verify_inclusion(&leaf, other_index, size, &path, &root_hash));
            }
            // A path has a shape per (index, size), and sizes that give it the same shape would
            // verify it too; it is the signed tree head that binds the size to the root. Doubling or
            // halving the size always changes the shape.
            prop_assert!(!verify_inclusion(&leaf, index, size * 2, &path, &root_hash));
            prop_assert!(!verify_inclusion(&leaf, index, size / 2, &path, &root_hash));
            if !path.is_empty() {
                let mut changed_path = path.clone();
                let at = which.index(path.len());
                changed_path[at][bit / 8] ^= 1 << (bit % 8);
                prop_assert!(!verify_inclusion(&leaf, index, size, &changed_path, &root_hash));
                prop_assert!(!verify_inclusion(&leaf, index, size, &path[..path.len() - 1], &root_hash));
            }
            let longer = [path.as_slice(), &[root_hash]].concat();
            prop_assert!(!verify_inclusion(&leaf, index, size, &longer, &root_hash));
        }

        #[test]
        fn every_consistency_proof_verifies((leaves, new_size) in tree_and_sizes(), old in any::<prop::sample::Index>()) {
            let old_size = old.index(new_size as usize) as u64 + 1;
            let new_tree = &leaves[..new_size as usize];
            let old_root = root(&leaves[..old_size as usize]);
            let new_root = root(new_tree);
            let proof = consistency_proof(new_tree, old_size).unwrap();
            prop_assert!(verify_consistency(old_size, new_size, &old_root, &new_root, &proof));
            if !proof.is_empty() {
                let mut changed = proof.clone();
                let at = old.index(proof.len());
                changed[at][0] ^= 1;
                prop_assert!(!verify_consistency(old_size, new_size, &old_root, &new_root, &changed));
                let mut other_old_root = old_root;
                other_old_root[31] ^= 1;
                prop_assert!(!verify_consistency(old_size, new_size, &other_old_root, &new_root, &proof));
                prop_assert!(!verify_consistency(old_size, new_size * 2, &old_root, &new_root, &proof));
                prop_assert!(!verify_consistency(old_size, new_size / 2, &old_root, &new_root, &proof));
            }
        }

        #[test]
        fn the_frontier_root_is_the_tree_root_and_survives_storage(n in 0usize..300) {
            let leaves = generated(n);
            let mut frontier = Frontier::new();
            for (pushed, leaf) in leaves.iter().enumerate() {
                frontier.push(*leaf);
                prop_assert_eq!(frontier.root(), root(&leaves[..=pushed]));
            }
            prop_assert_eq!(frontier.size(), n as u64);
            let stored = Frontier::from_parts(frontier.size(), &frontier.to_bytes()).unwrap();
            prop_assert_eq!(stored.root(), root(&leaves));
            prop_assert_eq!(&stored, &frontier);
            // And it keeps growing the same way after being read back.
            let mut grown = stored;
            grown.push(leaf_hash(b"next"));
            let mut all = leaves.clone();
            all.push(leaf_hash(b"next"));
            prop_assert_eq!(grown.root(), root(&all));
        }
    }
}
