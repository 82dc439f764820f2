/// Finds the elementary cycles of a directed graph whose vertices are `0..<count`.
///
/// Strongly connected components first (Tarjan's algorithm), in time linear in the graph: a
/// graph without cycles costs one pass. Cycles are then searched only inside components that
/// have one, with Johnson's algorithm, whose time is linear in the graph per cycle found; the
/// search stops at `limit` cycles. Every walk uses an explicit stack, so a chain of thousands
/// of keys does not overflow the thread's stack.
struct CycleSearch {
  /// The successors of each vertex.
  let successors: [[Int]]

  /// The elementary cycles, each starting at its smallest vertex, and whether more than
  /// `limit` exist (then only the first `limit` found are returned).
  func cycles(limit: Int) -> (cycles: [[Int]], truncated: Bool) {
    var found: [[Int]] = []
    var pending = components(of: Array(successors.indices)).filter(hasCycle)
    while !pending.isEmpty {
      // The component holding the smallest vertex goes first, so the order is stable.
      let next = pending.indices.min { pending[$0][0] < pending[$1][0] }!
      let component = pending.remove(at: next)
      let start = component[0]
      if circuits(through: start, in: component, into: &found, limit: limit) {
        return (found, true)
      }
      pending += components(of: Array(component.dropFirst())).filter(hasCycle)
    }
    return (found, false)
  }

  /// Whether `component` (sorted) holds a cycle: more than one vertex, or a self edge.
  private func hasCycle(_ component: [Int]) -> Bool {
    component.count > 1 || successors[component[0]].contains(component[0])
  }

  /// The strongly connected components of the subgraph induced by `vertices`, each sorted.
  func components(of vertices: [Int]) -> [[Int]] {
    var member = [Bool](repeating: false, count: successors.count)
    for vertex in vertices { member[vertex] = true }
    var index = [Int](repeating: -1, count: successors.count)
    var lowLink = [Int](repeating: 0, count: successors.count)
    var onStack = [Bool](repeating: false, count: successors.count)
    var stack: [Int] = []
    var counter = 0
    var result: [[Int]] = []
    // Each frame is a vertex and the position of the next successor to look at.
    var frames: [(vertex: Int, edge: Int)] = []
    for root in vertices where index[root] < 0 {
      frames.append((root, 0))
      index[root] = counter
      lowLink[root] = counter
      counter += 1
      stack.append(root)
      onStack[root] = true
      while let frame = frames.last {
        let vertex = frame.vertex
        let next = successors[vertex]
        if frame.edge < next.count {
          frames[frames.count - 1].edge += 1
          let target = next[frame.edge]
          guard member[target] else { continue }
          if index[target] < 0 {
            index[target] = counter
            lowLink[target] = counter
            counter += 1
            stack.append(target)
            onStack[target] = true
            frames.append((target, 0))
          } else if onStack[target] {
            lowLink[vertex] = min(lowLink[vertex], index[target])
          }
          continue
        }
        frames.removeLast()
        if let parent = frames.last {
          lowLink[parent.vertex] = min(lowLink[parent.vertex], lowLink[vertex])
        }
        if lowLink[vertex] == index[vertex] {
          var component: [Int] = []
          while let top = stack.popLast() {
            onStack[top] = false
            component.append(top)
            if top == vertex { break }
          }
          result.append(component.sorted())
        }
      }
    }
    return result
  }

  /// Appends every elementary cycle through `start` within `component` (whose smallest vertex
  /// it is) to `found`; returns true when `limit` was reached with cycles still unlisted.
  private func circuits(
    through start: Int,
    in component: [Int],
    into found: inout [[Int]],
    limit: Int
  ) -> Bool {
    var member = [Bool](repeating: false, count: successors.count)
    for vertex in component { member[vertex] = true }
    var blocked = [Bool](repeating: false, count: successors.count)
    var blockedBy = [[Int]](repeating: [], count: successors.count)
    var path = [start]
    blocked[start] = true
    // Each frame is a vertex, the position of its next successor, and whether a cycle was
    // found below it.
    var frames: [(vertex: Int, edge: Int, closed: Bool)] = [(start, 0, false)]

    func unblock(_ vertex: Int) {
      var work = [vertex]
      while let current = work.popLast() {
        guard blocked[current] else { continue }
        blocked[current] = false
        work += blockedBy[current]
        blockedBy[current] = []
      }
    }

    while let frame = frames.last {
      let vertex = frame.vertex
      let next = successors[vertex]
      if frame.edge < next.count {
        frames[frames.count - 1].edge += 1
        let target = next[frame.edge]
        guard member[target] else { continue }
        if target == start {
          if found.count == limit { return true }
          found.append(path)
          frames[frames.count - 1].closed = true
        } else if !blocked[target] {
          blocked[target] = true
          path.append(target)
          frames.append((target, 0, false))
        }
        continue
      }
      frames.removeLast()
      path.removeLast()
      if frame.closed {
        unblock(vertex)
        if !frames.isEmpty { frames[frames.count - 1].closed = true }
      } else {
        for target in next where member[target] && !blockedBy[target].contains(vertex) {
          blockedBy[target].append(vertex)
        }
      }
    }
    return false
  }
}
