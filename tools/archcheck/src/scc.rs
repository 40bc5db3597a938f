//! Strongly connected components (Tarjan's algorithm, with an explicit stack so deep
//! graphs cannot overflow the call stack).

/// The components of more than one node in a graph given as adjacency lists, each sorted,
/// in the order of their smallest node.
pub fn cycles(adjacency: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = adjacency.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut found = Vec::new();
    for start in 0..n {
        if index[start] != UNSEEN {
            continue;
        }
        // Each frame is a node and how many of its successors have been looked at.
        let mut frames = vec![(start, 0)];
        index[start] = next_index;
        low[start] = next_index;
        next_index += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(frame) = frames.last_mut() {
            let node = frame.0;
            if let Some(&next) = adjacency[node].get(frame.1) {
                frame.1 += 1;
                if index[next] == UNSEEN {
                    index[next] = next_index;
                    low[next] = next_index;
                    next_index += 1;
                    stack.push(next);
                    on_stack[next] = true;
                    frames.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort_unstable();
                    found.push(component);
                }
            }
        }
    }
    found.sort();
    found
}
