//===- ProfilingTree.h - The profiling tree model ---------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A profiling tree (docs/tree-format.md): internal nodes test one static
/// feature or one stage-1 sample against a threshold, leaves name the
/// metrics to collect. Parsing and structural checks here depend on neither
/// Clang nor LLVM, so the profiler agent can route with them.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TREE_PROFILINGTREE_H
#define AUTOPROF_TREE_PROFILINGTREE_H

#include <string>
#include <vector>

namespace autoprof {

/// Version of the tree format this code reads.
constexpr int TreeFormatVersion = 1;

/// What an internal node compares.
struct NodeTest {
  enum class Source { Feature, Sample };
  Source From = Source::Feature;
  /// A key of `features`, or a stage-1 metric name.
  std::string Key;
  /// One of <, <=, >, >=.
  std::string Op;
  double Threshold = 0;
};

struct TreeNode {
  std::string Id;
  /// JSON path of the node, for messages ("$.nodes[2]").
  std::string Path;
  bool Leaf = false;
  NodeTest Test;                    ///< Internal nodes.
  std::string Then, Else;           ///< Internal nodes: child ids.
  std::vector<std::string> Metrics; ///< Leaves.
  std::string Focus;                ///< Leaves: note for the rewriter.
};

struct ProfilingTree {
  std::string Name;
  std::vector<std::string> Chips;
  unsigned Budget = 0;
  std::vector<std::string> Stage1;
  std::string Root;
  std::vector<TreeNode> Nodes;

  /// The node with \p Id, or null.
  const TreeNode *find(const std::string &Id) const;
};

/// One problem of a tree, at a JSON path.
struct TreeProblem {
  std::string Path;
  std::string Message;
};

/// Parses \p Text. Returns false with the problems (malformed JSON as
/// "line:column", wrong version, wrong shapes) when the tree cannot be used.
bool parseTree(const std::string &Text, ProfilingTree &Out,
               std::vector<TreeProblem> &Problems);

/// The most tests on a path from the root to a leaf.
constexpr unsigned MaxTreeDepth = 64;

/// Appends the structural problems of \p T: duplicate ids, children that
/// name no node, unreachable nodes, cycles, nodes reached from two parents,
/// paths deeper than MaxTreeDepth, unknown features, samples not listed in
/// stage1, unknown operators. Walks without recursion, in time linear in
/// the nodes.
void checkTreeStructure(const ProfilingTree &T,
                        std::vector<TreeProblem> &Problems);

/// For every leaf reachable from the root (in depth-first order), the nodes
/// from the root to it (at most MaxTreeDepth). Empty when the structure is
/// broken.
std::vector<std::vector<const TreeNode *>> leafPaths(const ProfilingTree &T);

/// A readable rendering, one node per line, indented by depth.
std::string writeTreeText(const ProfilingTree &T);

/// The tree in the JSON format parseTree() reads (docs/tree-format.md),
/// nodes in the order of \p T, indented.
std::string writeTreeJSON(const ProfilingTree &T);
/// Graphviz (dot) rendering.
std::string writeTreeDot(const ProfilingTree &T);

} // namespace autoprof

#endif // AUTOPROF_TREE_PROFILINGTREE_H
